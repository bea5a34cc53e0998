/* syr2k-like: C = alpha A B^T + alpha B A^T + beta C on the lower triangle, k outside j (column walks of A, B) */
#include <stdio.h>
#ifndef N
#define N 600
#endif
#ifndef M
#define M 500
#endif
static double A[N][M], B[N][M], C[N][N];
int main(void) {
    int i, j, k;
    double alpha = 1.5, beta = 1.2, s = 0;
    for (i = 0; i < N; i++)
        for (j = 0; j < M; j++) {
            A[i][j] = (double)((i * j + 1) % N) / N;
            B[i][j] = (double)((i * j + 2) % M) / M;
        }
    for (i = 0; i < N; i++)
        for (j = 0; j < N; j++)
            C[i][j] = (double)((i * j + 3) % N) / M;
    for (i = 0; i < N; i++) {
        for (j = 0; j <= i; j++)
            C[i][j] *= beta;
        for (k = 0; k < M; k++)
            for (j = 0; j <= i; j++)
                C[i][j] += A[j][k] * alpha * B[i][k] + B[j][k] * alpha * A[i][k];
    }
    for (i = 0; i < N; i++)
        for (j = 0; j <= i; j++)
            s += C[i][j];
    printf("%g\n", s);
    return 0;
}
