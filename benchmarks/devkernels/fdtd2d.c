/* fdtd-2d-like: Yee scheme for the transverse electric field, ey, ex then hz updated each time step */
#include <stdio.h>
#ifndef NX
#define NX 1000
#endif
#ifndef NY
#define NY 1200
#endif
#ifndef T
#define T 50
#endif
static double ex[NX][NY], ey[NX][NY], hz[NX][NY];
int main(void) {
    int t, i, j;
    double s = 0;
    for (i = 0; i < NX; i++)
        for (j = 0; j < NY; j++) {
            ex[i][j] = (double)(i * (j + 1)) / NX;
            ey[i][j] = (double)(i * (j + 2)) / NY;
            hz[i][j] = (double)(i * (j + 3)) / NX;
        }
    for (t = 0; t < T; t++) {
        for (j = 0; j < NY; j++)
            ey[0][j] = t;
        for (i = 1; i < NX; i++)
            for (j = 0; j < NY; j++)
                ey[i][j] = ey[i][j] - 0.5 * (hz[i][j] - hz[i - 1][j]);
        for (i = 0; i < NX; i++)
            for (j = 1; j < NY; j++)
                ex[i][j] = ex[i][j] - 0.5 * (hz[i][j] - hz[i][j - 1]);
        for (i = 0; i < NX - 1; i++)
            for (j = 0; j < NY - 1; j++)
                hz[i][j] = hz[i][j] - 0.7 * (ex[i][j + 1] - ex[i][j] + ey[i + 1][j] - ey[i][j]);
    }
    for (i = 0; i < NX; i++) s += hz[i][i % NY];
    printf("%g\n", s);
    return 0;
}
