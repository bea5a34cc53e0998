/* 5-point Jacobi sweeps on a grid whose size comes from a header (-I include) and whose weight from a macro
   (-DCOEF=...): five references on three rows, two arrays swapped by a second sweep */
#include <stdio.h>
#include "grid.h"
#ifndef COEF
#error "compile with -DCOEF=value"
#endif
static double u[NX][NY], v[NX][NY];
int main(void) {
    int t, i, j;
    double total = 0;
    for (i = 0; i < NX; i++)
        for (j = 0; j < NY; j++)
            u[i][j] = v[i][j] = (double)((i * j) % 10);
    for (t = 0; t < STEPS; t++) {
        for (i = 1; i < NX - 1; i++)
            for (j = 1; j < NY - 1; j++)
                v[i][j] = COEF * (u[i][j] + u[i][j - 1] + u[i][j + 1] + u[i - 1][j] + u[i + 1][j]);
        for (i = 1; i < NX - 1; i++)
            for (j = 1; j < NY - 1; j++)
                u[i][j] = COEF * (v[i][j] + v[i][j - 1] + v[i][j + 1] + v[i - 1][j] + v[i + 1][j]);
    }
    for (i = 0; i < NX; i++) total += u[i][NY / 2];
    printf("%g\n", total);
    return 0;
}
