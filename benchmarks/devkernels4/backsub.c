/* back substitution U x = c for an upper triangular U, bottom row first: a scalar sum over the row's tail,
   rows getting longer as the solve goes up */
#include <stdio.h>
#ifndef N
#define N 3000
#endif
#ifndef R
#define R 30
#endif
static double U[N][N], c[N], x[N];
int main(void) {
    int r, i, j;
    double s, total = 0;
    for (i = 0; i < N; i++) {
        c[i] = 1.0 + i % 5;
        for (j = i; j < N; j++)
            U[i][j] = (i == j) ? N : 1.0 / (1 + j - i);
    }
    for (r = 0; r < R; r++) {
        for (i = N - 1; i >= 0; i--) {
            s = c[i];
            for (j = i + 1; j < N; j++)
                s -= U[i][j] * x[j];
            x[i] = s / U[i][i];
        }
        c[r] += x[r] * 1e-6;
    }
    for (i = 0; i < N; i++) total += x[i];
    printf("%g\n", total);
    return 0;
}
