/* gesummv-like: y = alpha A x + beta B x, two matrices read once per repetition */
#include <stdio.h>
#ifndef N
#define N 1300
#endif
#ifndef R
#define R 100
#endif
static double A[N][N], B[N][N], x[N], y[N], tmp[N];
int main(void) {
    int r, i, j;
    double alpha = 1.5, beta = 1.2, s = 0;
    for (i = 0; i < N; i++) {
        x[i] = (double)(i % N) / N;
        for (j = 0; j < N; j++) {
            A[i][j] = (double)((i * j + 1) % N) / N;
            B[i][j] = (double)((i * j + 2) % N) / N;
        }
    }
    for (r = 0; r < R; r++) {
        for (i = 0; i < N; i++) {
            tmp[i] = 0;
            y[i] = 0;
            for (j = 0; j < N; j++) {
                tmp[i] = A[i][j] * x[j] + tmp[i];
                y[i] = B[i][j] * x[j] + y[i];
            }
            y[i] = alpha * tmp[i] + beta * y[i];
        }
        x[r % N] += y[(r + 1) % N] * 1e-9;
    }
    for (i = 0; i < N; i++) s += y[i];
    printf("%g\n", s);
    return 0;
}
