/* B = alpha * A^T B with A unit lower triangular, in a kernel function over heap arrays */
#include <stdio.h>
#include <stdlib.h>
#define M 1000
#define N 1200
static void kernel_trm(int m, int n, double alpha, double A[M][M], double B[M][N]) {
    int i, j, k;
    for (i = 0; i < m; i++)
        for (j = 0; j < n; j++) {
            for (k = i + 1; k < m; k++)
                B[i][j] += A[k][i] * B[k][j];
            B[i][j] = alpha * B[i][j];
        }
}
int main(void) {
    double (*A)[M] = malloc(sizeof(double) * M * M);
    double (*B)[N] = malloc(sizeof(double) * M * N);
    int i, j;
    for (i = 0; i < M; i++) {
        for (j = 0; j < i; j++) A[i][j] = (double)((i + j) % M) / M;
        A[i][i] = 1.0;
        for (j = 0; j < N; j++) B[i][j] = (double)((N + (i - j)) % N) / N;
    }
    kernel_trm(M, N, 1.5, A, B);
    printf("%g\n", B[3][7] + B[M - 1][N - 1]);
    return 0;
}
