/* Livermore loop 18, 2-D explicit hydrodynamics: three sweeps of 5-point stencils over 2-D arrays */
#include <stdio.h>
#ifndef N
#define N 100
#endif
#ifndef R
#define R 6000
#endif
#define M 7
static double za[M][N + 1], zb[M][N + 1], zp[M][N + 1], zq[M][N + 1], zr[M][N + 1], zm[M][N + 1],
              zu[M][N + 1], zv[M][N + 1], zz[M][N + 1];
int main(void) {
    int j, k, r;
    double t = 0.0037, ss = 0.0041, s = 0.0;
    for (k = 0; k < M; k++) for (j = 0; j <= N; j++) {
        zp[k][j] = (j % 5) * 0.1 + 1.0; zq[k][j] = (j % 3) * 0.1 + 1.0; zr[k][j] = (k + j) % 4 * 0.1 + 1.0;
        zm[k][j] = 1.0 + (j % 7) * 0.01; zz[k][j] = (j % 2) * 0.1 + 1.0; zu[k][j] = 0.0; zv[k][j] = 0.0;
    }
    for (r = 0; r < R; r++) {
        for (k = 1; k < M - 1; k++)
            for (j = 1; j < N; j++) {
                za[k][j] = (zp[k + 1][j - 1] + zq[k + 1][j - 1] - zp[k][j - 1] - zq[k][j - 1]) *
                           (zr[k][j] + zr[k][j - 1]) / (zm[k][j - 1] + zm[k + 1][j - 1]);
                zb[k][j] = (zp[k][j - 1] + zq[k][j - 1] - zp[k][j] - zq[k][j]) *
                           (zr[k][j] + zr[k - 1][j]) / (zm[k][j] + zm[k][j - 1]);
            }
        for (k = 1; k < M - 1; k++)
            for (j = 1; j < N; j++) {
                zu[k][j] += ss * (za[k][j] * (zz[k][j] - zz[k][j + 1]) - za[k][j - 1] * (zz[k][j] - zz[k][j - 1]) -
                                  zb[k][j] * (zz[k][j] - zz[k - 1][j]) + zb[k + 1][j] * (zz[k][j] - zz[k + 1][j]));
                zv[k][j] += ss * (za[k][j] * (zr[k][j] - zr[k][j + 1]) - za[k][j - 1] * (zr[k][j] - zr[k][j - 1]) -
                                  zb[k][j] * (zr[k][j] - zr[k - 1][j]) + zb[k + 1][j] * (zr[k][j] - zr[k + 1][j]));
            }
        for (k = 1; k < M - 1; k++)
            for (j = 1; j < N; j++) {
                zr[k][j] = zr[k][j] + t * zu[k][j] * 1e-6;
                zz[k][j] = zz[k][j] + t * zv[k][j] * 1e-6;
            }
    }
    for (k = 0; k < M; k++) for (j = 0; j <= N; j++) s += zr[k][j] + zz[k][j];
    printf("%g\n", s);
    return 0;
}
