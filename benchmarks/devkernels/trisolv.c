/* trisolv-like: forward substitution L x = b, R times */
#include <stdio.h>
#ifndef N
#define N 2500
#endif
#define R 16
static double L[N][N], x[N], b[N];
int main(void) {
    int r, i, j;
    double s = 0;
    for (i = 0; i < N; i++) {
        b[i] = i;
        for (j = 0; j <= i; j++)
            L[i][j] = (double)(i + N - j + 1) * 2 / N;
    }
    for (r = 0; r < R; r++)
        for (i = 0; i < N; i++) {
            x[i] = b[i];
            for (j = 0; j < i; j++)
                x[i] -= L[i][j] * x[j];
            x[i] = x[i] / L[i][i];
        }
    for (i = 0; i < N; i++) s += x[i];
    printf("%g\n", s);
    return 0;
}
