/* lu-like: Doolittle factorization in place without pivoting, A = L U, the L part divided by the pivot */
#include <stdio.h>
#ifndef N
#define N 900
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
                A[i][j] = (double)((i * j) % 7 + 1) / N + (i == j) * (N + 1.0);
        for (i = 0; i < N; i++) {
            for (j = 0; j < i; j++) {
                for (k = 0; k < j; k++)
                    A[i][j] -= A[i][k] * A[k][j];
                A[i][j] /= A[j][j];
            }
            for (j = i; j < N; j++)
                for (k = 0; k < i; k++)
                    A[i][j] -= A[i][k] * A[k][j];
        }
        s += A[N - 1][N - 1];
    }
    printf("%g\n", s);
    return 0;
}
