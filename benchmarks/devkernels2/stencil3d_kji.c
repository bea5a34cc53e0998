/* a 3-D seven-point stencil swept with the slowest-varying index innermost: every access of the inner loop
   is a plane (N*N doubles) away from the last, so each lands on a new page */
#include <stdio.h>
#ifndef N
#define N 160
#endif
#ifndef T
#define T 4
#endif
static double A[N][N][N], B[N][N][N];
int main(void) {
    int t, i, j, k;
    double s = 0;
    for (i = 0; i < N; i++)
        for (j = 0; j < N; j++)
            for (k = 0; k < N; k++)
                A[i][j][k] = (double)(i + j + (N - k)) * 10 / N;
    for (t = 0; t < T; t++) {
        for (k = 1; k < N - 1; k++)
            for (j = 1; j < N - 1; j++)
                for (i = 1; i < N - 1; i++)
                    B[i][j][k] = 0.125 * (A[i + 1][j][k] + A[i - 1][j][k] + A[i][j + 1][k] + A[i][j - 1][k]
                                          + A[i][j][k + 1] + A[i][j][k - 1]) + 0.25 * A[i][j][k];
        for (k = 1; k < N - 1; k++)
            for (j = 1; j < N - 1; j++)
                for (i = 1; i < N - 1; i++)
                    A[i][j][k] = B[i][j][k];
    }
    for (i = 0; i < N; i++) s += A[i][i][i];
    printf("%g\n", s);
    return 0;
}
