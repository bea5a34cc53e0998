/* adi-like: tridiagonal solves (Thomas algorithm) along every row, then along every column, T times */
#include <stdio.h>
#ifndef N
#define N 1000
#endif
#ifndef T
#define T 20
#endif
static double u[N][N], c[N][N], d[N][N];
int main(void) {
    int t, i, j;
    double a = -1.0, b = 4.0, s = 0;
    for (i = 0; i < N; i++)
        for (j = 0; j < N; j++)
            u[i][j] = (double)((i * 3 + j) % 11) / 11;
    for (t = 0; t < T; t++) {
        for (i = 0; i < N; i++) {
            c[i][0] = a / b;
            d[i][0] = u[i][0] / b;
            for (j = 1; j < N; j++) {
                c[i][j] = a / (b - a * c[i][j - 1]);
                d[i][j] = (u[i][j] - a * d[i][j - 1]) / (b - a * c[i][j - 1]);
            }
            u[i][N - 1] = d[i][N - 1];
            for (j = N - 2; j >= 0; j--)
                u[i][j] = d[i][j] - c[i][j] * u[i][j + 1];
        }
        for (j = 0; j < N; j++) {
            c[0][j] = a / b;
            d[0][j] = u[0][j] / b;
        }
        for (i = 1; i < N; i++)
            for (j = 0; j < N; j++) {
                c[i][j] = a / (b - a * c[i - 1][j]);
                d[i][j] = (u[i][j] - a * d[i - 1][j]) / (b - a * c[i - 1][j]);
            }
        for (j = 0; j < N; j++)
            u[N - 1][j] = d[N - 1][j];
        for (i = N - 2; i >= 0; i--)
            for (j = 0; j < N; j++)
                u[i][j] = d[i][j] - c[i][j] * u[i + 1][j];
    }
    for (i = 0; i < N; i++) s += u[i][(7 * i) % N];
    printf("%g\n", s);
    return 0;
}
