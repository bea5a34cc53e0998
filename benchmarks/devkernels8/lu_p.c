/* LU decomposition without pivoting in place, row by row (the lower part, then the upper), of a heap matrix
   passed to a kernel function */
#include <stdio.h>
#include <stdlib.h>
#ifndef N
#define N 1000
#endif
static void kernel_lu(int n, double A[N][N]) {
    int i, j, k;
    for (i = 0; i < n; i++) {
        for (j = 0; j < i; j++) {
            for (k = 0; k < j; k++) A[i][j] -= A[i][k] * A[k][j];
            A[i][j] /= A[j][j];
        }
        for (j = i; j < n; j++)
            for (k = 0; k < i; k++) A[i][j] -= A[i][k] * A[k][j];
    }
}
int main(void) {
    double (*A)[N] = malloc(sizeof(double) * N * N);
    int i, j;
    double s = 0;
    for (i = 0; i < N; i++)
        for (j = 0; j < N; j++) A[i][j] = (i == j) ? N + 1.0 : (double)((i * j) % 7 + 1) / N;
    kernel_lu(N, A);
    for (i = 0; i < N; i++) s += A[i][i];
    printf("%g\n", s);
    free(A);
    return 0;
}
