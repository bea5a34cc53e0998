/* syrk-like: C = beta C + alpha A A' on the lower triangle, A is N x M */
#include <stdio.h>
#ifndef N
#define N 700
#endif
#define M (N - 100)
static double C[N][N], A[N][M];
int main(void) {
    int i, j, k;
    double alpha = 1.5, beta = 1.2, s = 0;
    for (i = 0; i < N; i++) {
        for (j = 0; j < M; j++)
            A[i][j] = (double)((i * j + 1) % N) / N;
        for (j = 0; j < N; j++)
            C[i][j] = (double)((i * j + 2) % M) / M;
    }
    for (i = 0; i < N; i++) {
        for (j = 0; j <= i; j++)
            C[i][j] *= beta;
        for (k = 0; k < M; k++)
            for (j = 0; j <= i; j++)
                C[i][j] += alpha * A[i][k] * A[j][k];
    }
    for (i = 0; i < N; i++) s += C[i][i];
    printf("%g\n", s);
    return 0;
}
