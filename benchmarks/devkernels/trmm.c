/* trmm-like: B = alpha * A^T B with A unit lower triangular, updated in place row by row */
#include <stdio.h>
#ifndef M
#define M 600
#endif
#ifndef N
#define N 700
#endif
static double A[M][M], B[M][N];
int main(void) {
    int i, j, k;
    double alpha = 1.25, s = 0;
    for (i = 0; i < M; i++) {
        for (j = 0; j < i; j++)
            A[i][j] = (double)((i + j) % M) / M;
        A[i][i] = 1;
        for (j = 0; j < N; j++)
            B[i][j] = (double)((N + i - j) % N) / N;
    }
    for (i = 0; i < M; i++)
        for (j = 0; j < N; j++) {
            for (k = i + 1; k < M; k++)
                B[i][j] += A[k][i] * B[k][j];
            B[i][j] = alpha * B[i][j];
        }
    for (i = 0; i < M; i++) s += B[i][(3 * i) % N];
    printf("%g\n", s);
    return 0;
}
