/* adi-like: alternating-direction implicit sweeps, a tridiagonal solve along columns then along rows */
#include <stdio.h>
#ifndef N
#define N 1000
#endif
#ifndef T
#define T 12
#endif
static double u[N][N], v[N][N], p[N][N], q[N][N];
int main(void) {
    int t, i, j;
    double DX = 1.0 / N, DY = 1.0 / N, DT = 1.0 / T, B1 = 2.0, B2 = 1.0, s = 0;
    double mul1 = B1 * DT / (DX * DX), mul2 = B2 * DT / (DY * DY);
    double a = -mul1 / 2, b = 1 + mul1, c = a, d = -mul2 / 2, e = 1 + mul2, f = d;
    for (i = 0; i < N; i++)
        for (j = 0; j < N; j++)
            u[i][j] = (double)(i + N - j) / N;
    for (t = 1; t <= T; t++) {
        for (i = 1; i < N - 1; i++) {
            v[0][i] = 1.0;
            p[i][0] = 0.0;
            q[i][0] = v[0][i];
            for (j = 1; j < N - 1; j++) {
                p[i][j] = -c / (a * p[i][j - 1] + b);
                q[i][j] = (-d * u[j][i - 1] + (1 + 2 * d) * u[j][i] - f * u[j][i + 1]
                           - a * q[i][j - 1]) / (a * p[i][j - 1] + b);
            }
            v[N - 1][i] = 1.0;
            for (j = N - 2; j >= 1; j--)
                v[j][i] = p[i][j] * v[j + 1][i] + q[i][j];
        }
        for (i = 1; i < N - 1; i++) {
            u[i][0] = 1.0;
            p[i][0] = 0.0;
            q[i][0] = u[i][0];
            for (j = 1; j < N - 1; j++) {
                p[i][j] = -f / (d * p[i][j - 1] + e);
                q[i][j] = (-a * v[i - 1][j] + (1 + 2 * a) * v[i][j] - c * v[i + 1][j]
                           - d * q[i][j - 1]) / (d * p[i][j - 1] + e);
            }
            u[i][N - 1] = 1.0;
            for (j = N - 2; j >= 1; j--)
                u[i][j] = p[i][j] * u[i][j + 1] + q[i][j];
        }
    }
    for (i = 0; i < N; i++) s += u[i][i % N];
    printf("%g\n", s);
    return 0;
}
