/* cholesky-like: A = L L^T in place for a symmetric positive definite A, a square root per column */
#include <stdio.h>
#include <math.h>
#ifndef N
#define N 1100
#endif
#ifndef R
#define R 1
#endif
static double A[N][N];
int main(void) {
    int t, i, j, k;
    double s = 0;
    for (t = 0; t < R; t++) {
        for (i = 0; i < N; i++)
            for (j = 0; j < N; j++)
                A[i][j] = (double)((i + j) % 5 + 1) / N + (i == j) * 2.0 * N;
        for (i = 0; i < N; i++) {
            for (j = 0; j < i; j++) {
                for (k = 0; k < j; k++)
                    A[i][j] -= A[i][k] * A[j][k];
                A[i][j] /= A[j][j];
            }
            for (k = 0; k < i; k++)
                A[i][i] -= A[i][k] * A[i][k];
            A[i][i] = sqrt(A[i][i]);
        }
        s += A[N - 1][N - 1];
    }
    printf("%g\n", s);
    return 0;
}
