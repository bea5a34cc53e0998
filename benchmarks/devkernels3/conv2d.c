/* 2-D convolution with a 3x3 kernel: B = K * A on the interior, repeated */
#include <stdio.h>
#ifndef N
#define N 2000
#endif
#ifndef T
#define T 60
#endif
static double A[N][N], B[N][N];
int main(void) {
    int t, i, j;
    double c11 = 0.2, c12 = -0.3, c13 = 0.4, c21 = 0.5, c22 = 0.6, c23 = 0.7, c31 = -0.8, c32 = -0.9, c33 = 0.1;
    double s = 0;
    for (i = 0; i < N; i++)
        for (j = 0; j < N; j++)
            A[i][j] = (double)((i + j) % 17) / 17.0;
    for (t = 0; t < T; t++) {
        for (i = 1; i < N - 1; i++)
            for (j = 1; j < N - 1; j++)
                B[i][j] = c11 * A[i - 1][j - 1] + c12 * A[i - 1][j] + c13 * A[i - 1][j + 1]
                        + c21 * A[i][j - 1] + c22 * A[i][j] + c23 * A[i][j + 1]
                        + c31 * A[i + 1][j - 1] + c32 * A[i + 1][j] + c33 * A[i + 1][j + 1];
        A[t % N][t % N] += B[N / 2][N / 2] * 1e-9;
    }
    for (i = 0; i < N; i++) s += B[i][i];
    printf("%g\n", s);
    return 0;
}
