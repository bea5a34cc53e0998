/* jacobi-2d-like: five-point averages between two grids, T sweeps */
#include <stdio.h>
#ifndef N
#define N 1000
#endif
#ifndef T
#define T 40
#endif
static double A[N][N], B[N][N];
int main(void) {
    int t, i, j;
    double s = 0;
    for (i = 0; i < N; i++)
        for (j = 0; j < N; j++) {
            A[i][j] = ((double)i * (j + 2) + 2) / N;
            B[i][j] = ((double)i * (j + 3) + 3) / N;
        }
    for (t = 0; t < T; t++) {
        for (i = 1; i < N - 1; i++)
            for (j = 1; j < N - 1; j++)
                B[i][j] = 0.2 * (A[i][j] + A[i][j - 1] + A[i][j + 1] + A[i + 1][j] + A[i - 1][j]);
        for (i = 1; i < N - 1; i++)
            for (j = 1; j < N - 1; j++)
                A[i][j] = 0.2 * (B[i][j] + B[i][j - 1] + B[i][j + 1] + B[i + 1][j] + B[i - 1][j]);
    }
    for (i = 0; i < N; i++) s += A[i][i];
    printf("%g\n", s);
    return 0;
}
