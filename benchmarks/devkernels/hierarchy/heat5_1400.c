/* 5-point 2-D update between two grids, n = 1400 (two 15.7 MB grids: beyond the L3's share) */
#include <stdio.h>
#define N 1400
#define T 50
static double A[N][N], B[N][N];
int main(void) {
    int t, i, j;
    double s = 0;
    for (i = 0; i < N; i++)
        for (j = 0; j < N; j++) { A[i][j] = (i + 3 * j) % 11 / 11.0; B[i][j] = 0; }
    for (t = 0; t < T; t++) {
        for (i = 1; i < N - 1; i++)
            for (j = 1; j < N - 1; j++)
                B[i][j] = A[i][j] + 0.1 * (A[i-1][j] + A[i+1][j] - 2 * A[i][j]) + 0.1 * (A[i][j-1] + A[i][j+1] - 2 * A[i][j]);
        for (i = 1; i < N - 1; i++)
            for (j = 1; j < N - 1; j++)
                A[i][j] = B[i][j];
    }
    for (i = 0; i < N; i++) s += A[i][i];
    printf("%g\n", s);
    return 0;
}
