/* Jacobi sweeps on a heap grid passed to a kernel function: five-point average into B, then back into A */
#include <stdio.h>
#include <stdlib.h>
#ifndef N
#define N 1500
#endif
#ifndef T
#define T 40
#endif
static void kernel_jac2p(int tsteps, int n, double A[N][N], double B[N][N]) {
    int t, i, j;
    for (t = 0; t < tsteps; t++) {
        for (i = 1; i < n - 1; i++)
            for (j = 1; j < n - 1; j++)
                B[i][j] = 0.2 * (A[i][j] + A[i][j - 1] + A[i][1 + j] + A[1 + i][j] + A[i - 1][j]);
        for (i = 1; i < n - 1; i++)
            for (j = 1; j < n - 1; j++)
                A[i][j] = 0.2 * (B[i][j] + B[i][j - 1] + B[i][1 + j] + B[1 + i][j] + B[i - 1][j]);
    }
}
int main(void) {
    double (*A)[N] = malloc(sizeof(double) * N * N);
    double (*B)[N] = malloc(sizeof(double) * N * N);
    int i, j;
    double s = 0;
    for (i = 0; i < N; i++)
        for (j = 0; j < N; j++) {
            A[i][j] = ((double)i * (j + 2) + 2) / N;
            B[i][j] = ((double)i * (j + 3) + 3) / N;
        }
    kernel_jac2p(T, N, A, B);
    for (i = 0; i < N; i++) s += A[i][(i * 7) % N];
    printf("%g\n", s);
    free(A); free(B);
    return 0;
}
