/* blocked matrix multiply with MIN() bounds on the tiles */
#include <stdio.h>
#ifndef N
#define N 800
#endif
#ifndef B
#define B 32
#endif
#define MIN(a, b) ((a) < (b) ? (a) : (b))
static double A[N][N], Bm[N][N], C[N][N];
int main(void) {
    int i, j, k, ii, jj, kk;
    for (i = 0; i < N; i++)
        for (j = 0; j < N; j++) {
            A[i][j] = (double)(i + j) / N;
            Bm[i][j] = (double)(i - j) / N;
            C[i][j] = 0.0;
        }
    for (ii = 0; ii < N; ii += B)
        for (kk = 0; kk < N; kk += B)
            for (jj = 0; jj < N; jj += B)
                for (i = ii; i < MIN(ii + B, N); i++)
                    for (k = kk; k < MIN(kk + B, N); k++)
                        for (j = jj; j < MIN(jj + B, N); j++)
                            C[i][j] += A[i][k] * Bm[k][j];
    printf("%f\n", C[N / 2][N / 3]);
    return 0;
}
