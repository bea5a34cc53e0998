/* alternating-direction sweeps: forward elimination then a reverse back substitution, per row and per column */
#include <stdio.h>
#include <stdlib.h>
#define N 1000
#define T 20
static void kernel_adi(int tsteps, int n, double u[N][N], double v[N][N], double p[N][N], double q[N][N]) {
    int t, i, j;
    double a = -0.5, b = 2.0, c = -0.5, d = -0.25, e = 1.5, f = -0.25;
    for (t = 1; t <= tsteps; t++) {
        for (i = 1; i < n - 1; i++) {
            v[0][i] = 1.0;
            p[i][0] = 0.0;
            q[i][0] = v[0][i];
            for (j = 1; j < n - 1; j++) {
                p[i][j] = -c / (a * p[i][j - 1] + b);
                q[i][j] = (-d * u[j][i - 1] + (1.0 + 2.0 * d) * u[j][i] - f * u[j][i + 1] - a * q[i][j - 1])
                          / (a * p[i][j - 1] + b);
            }
            v[n - 1][i] = 1.0;
            for (j = n - 2; j >= 1; j--)
                v[j][i] = p[i][j] * v[j + 1][i] + q[i][j];
        }
        for (i = 1; i < n - 1; i++) {
            u[i][0] = 1.0;
            p[i][0] = 0.0;
            q[i][0] = u[i][0];
            for (j = 1; j < n - 1; j++) {
                p[i][j] = -f / (d * p[i][j - 1] + e);
                q[i][j] = (-a * v[i - 1][j] + (1.0 + 2.0 * a) * v[i][j] - c * v[i + 1][j] - d * q[i][j - 1])
                          / (d * p[i][j - 1] + e);
            }
            u[i][n - 1] = 1.0;
            for (j = n - 2; j >= 1; j--)
                u[i][j] = p[i][j] * u[i][j + 1] + q[i][j];
        }
    }
}
int main(void) {
    double (*u)[N] = malloc(sizeof(double) * N * N), (*v)[N] = malloc(sizeof(double) * N * N);
    double (*p)[N] = malloc(sizeof(double) * N * N), (*q)[N] = malloc(sizeof(double) * N * N);
    int i, j;
    for (i = 0; i < N; i++)
        for (j = 0; j < N; j++) u[i][j] = (double)(i + N - j) / N;
    kernel_adi(T, N, u, v, p, q);
    printf("%g\n", u[5][7] + u[N / 2][N / 3]);
    return 0;
}
