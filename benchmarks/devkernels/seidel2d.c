/* seidel-2d-like: nine-point Gauss-Seidel sweeps in place (each point reads the one just written) */
#include <stdio.h>
#ifndef N
#define N 1000
#endif
#define T 20
static double A[N][N];
int main(void) {
    int t, i, j;
    double s = 0;
    for (i = 0; i < N; i++)
        for (j = 0; j < N; j++)
            A[i][j] = ((double)i * (j + 2) + 2) / N;
    for (t = 0; t < T; t++)
        for (i = 1; i <= N - 2; i++)
            for (j = 1; j <= N - 2; j++)
                A[i][j] = (A[i - 1][j - 1] + A[i - 1][j] + A[i - 1][j + 1] + A[i][j - 1] + A[i][j]
                           + A[i][j + 1] + A[i + 1][j - 1] + A[i + 1][j] + A[i + 1][j + 1]) / 9.0;
    for (i = 0; i < N; i++) s += A[i][i];
    printf("%g\n", s);
    return 0;
}
