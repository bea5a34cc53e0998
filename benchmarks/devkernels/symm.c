/* symm-like: C = alpha A B + beta C with A symmetric, only its lower triangle referenced */
#include <stdio.h>
#ifndef M
#define M 700
#endif
#ifndef N
#define N 800
#endif
static double A[M][M], B[M][N], C[M][N];
int main(void) {
    int i, j, k;
    double alpha = 1.5, beta = 1.2, t, s = 0;
    for (i = 0; i < M; i++) {
        for (j = 0; j <= i; j++)
            A[i][j] = (double)((i + j) % 100) / M;
        for (j = 0; j < N; j++) {
            B[i][j] = (double)((N + i - j) % 100) / M;
            C[i][j] = (double)((i + j) % 100) / M;
        }
    }
    for (i = 0; i < M; i++)
        for (j = 0; j < N; j++) {
            t = 0;
            for (k = 0; k < i; k++) {
                C[k][j] += alpha * B[i][j] * A[i][k];
                t += B[k][j] * A[i][k];
            }
            C[i][j] = beta * C[i][j] + alpha * B[i][j] * A[i][i] + alpha * t;
        }
    for (i = 0; i < M; i++) s += C[i][(5 * i) % N];
    printf("%g\n", s);
    return 0;
}
