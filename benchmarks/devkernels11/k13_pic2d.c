/* Livermore loop 13, 2-D particle in cell: conversions to int, indirect reads and an indirect increment */
#include <stdio.h>
#ifndef N
#define N 64
#endif
#ifndef R
#define R 400000
#endif
static double p[N][4], b[64][64], c[64][64], y[128], z[128];
static int e[128], f[128];
static double h[64][64];
int main(void) {
    int ip, i1, j1, i2, j2, r;
    double s = 0.0;
    for (ip = 0; ip < N; ip++) { p[ip][0] = (ip % 32) + 0.5; p[ip][1] = (ip * 3 % 32) + 0.25;
                                 p[ip][2] = 0.01; p[ip][3] = 0.02; }
    for (i1 = 0; i1 < 64; i1++) for (j1 = 0; j1 < 64; j1++) { b[i1][j1] = 1e-9 * j1; c[i1][j1] = 1e-9 * i1; }
    for (i1 = 0; i1 < 128; i1++) { y[i1] = 1e-9; z[i1] = 1e-9; e[i1] = i1 % 3; f[i1] = i1 % 5; }
    for (r = 0; r < R; r++)
        for (ip = 0; ip < N; ip++) {
            i1 = (int)p[ip][0];
            j1 = (int)p[ip][1];
            i1 &= 63;
            j1 &= 63;
            p[ip][2] += b[j1][i1];
            p[ip][3] += c[j1][i1];
            p[ip][0] += p[ip][2];
            p[ip][1] += p[ip][3];
            i2 = (int)p[ip][0];
            j2 = (int)p[ip][1];
            i2 &= 63;
            j2 &= 63;
            p[ip][0] += y[i2 + 32];
            p[ip][1] += z[j2 + 32];
            i2 += e[i2 + 32];
            j2 += f[j2 + 32];
            h[j2 & 63][i2 & 63] += 1.0;
        }
    for (i1 = 0; i1 < 64; i1++) for (j1 = 0; j1 < 64; j1++) s += h[i1][j1];
    printf("%g\n", s);
    return 0;
}
