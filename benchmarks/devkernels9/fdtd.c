/* Two-dimensional finite-difference time domain: a source row, two field updates and a curl, in the
   harness's structure */
#include "harness.h"
#ifndef TMAX
#define TMAX 100
#endif
#ifndef NX
#define NX 1000
#endif
#ifndef NY
#define NY 1200
#endif
static void init(int tmax, int nx, int ny, double ex[NX][NY], double ey[NX][NY], double hz[NX][NY],
                 double fict[TMAX]) {
    int i, j;
    for (i = 0; i < tmax; i++) fict[i] = (double)i;
    for (i = 0; i < nx; i++)
        for (j = 0; j < ny; j++) {
            ex[i][j] = ((double)i * (j + 1)) / nx;
            ey[i][j] = ((double)i * (j + 2)) / ny;
            hz[i][j] = ((double)i * (j + 3)) / nx;
        }
}
static void dump(int nx, int ny, double hz[NX][NY]) {
    int i, j;
    for (i = 0; i < nx; i++)
        for (j = 0; j < ny; j++) fprintf(stderr, "%0.2lf ", hz[i][j]);
}
static void kernel(int tmax, int nx, int ny, double ex[NX][NY], double ey[NX][NY], double hz[NX][NY],
                   double fict[TMAX]) {
    int t, i, j;
#pragma scop
    for (t = 0; t < tmax; t++) {
        for (j = 0; j < ny; j++) ey[0][j] = fict[t];
        for (i = 1; i < nx; i++)
            for (j = 0; j < ny; j++) ey[i][j] = ey[i][j] - 0.5 * (hz[i][j] - hz[i - 1][j]);
        for (i = 0; i < nx; i++)
            for (j = 1; j < ny; j++) ex[i][j] = ex[i][j] - 0.5 * (hz[i][j] - hz[i][j - 1]);
        for (i = 0; i < nx - 1; i++)
            for (j = 0; j < ny - 1; j++)
                hz[i][j] = hz[i][j] - 0.7 * (ex[i][j + 1] - ex[i][j] + ey[i + 1][j] - ey[i][j]);
    }
#pragma endscop
}
int main(int argc, char **argv) {
    int tmax = TMAX, nx = NX, ny = NY;
    HDECL2(ex, double, NX, NY);
    HDECL2(ey, double, NX, NY);
    HDECL2(hz, double, NX, NY);
    HDECL1(fict, double, TMAX);
    init(tmax, nx, ny, HARR(ex), HARR(ey), HARR(hz), HARR(fict));
    HSTART;
    kernel(tmax, nx, ny, HARR(ex), HARR(ey), HARR(hz), HARR(fict));
    HSTOP;
    HPRINT;
    HKEEP(dump(nx, ny, HARR(hz)));
    HFREE(ex); HFREE(ey); HFREE(hz); HFREE(fict);
    return 0;
}
