/* Livermore loop 23, 2-D implicit hydrodynamics: a 5-point update that reads the value just written */
#include <stdio.h>
#ifndef N
#define N 100
#endif
#ifndef R
#define R 40000
#endif
#define M 7
static double za[M][N + 1], zb[M][N + 1], zr[M][N + 1], zu[M][N + 1], zv[M][N + 1], zz[M][N + 1];
int main(void) {
    int j, k, r;
    double s = 0.0;
    for (k = 0; k < M; k++) for (j = 0; j <= N; j++) {
        za[k][j] = 1.0 + (j % 3) * 0.01; zb[k][j] = 0.1 * ((k + j) % 5); zr[k][j] = 0.01 * (j % 7);
        zu[k][j] = 0.02 * (k % 3); zv[k][j] = 0.03 * (j % 2); zz[k][j] = 0.001 * (j % 11);
    }
    for (r = 0; r < R; r++)
        for (j = 1; j < M - 1; j++)
            for (k = 1; k < N; k++) {
                double qa = za[j + 1][k] * zr[j][k] + za[j - 1][k] * zb[j][k] + za[j][k + 1] * zu[j][k] +
                            za[j][k - 1] * zv[j][k] + zz[j][k];
                za[j][k] += 0.175 * (qa - za[j][k]);
            }
    for (k = 0; k < M; k++) for (j = 0; j <= N; j++) s += za[k][j];
    printf("%g\n", s);
    return 0;
}
