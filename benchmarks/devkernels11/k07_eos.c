/* Livermore loop 7, equation of state fragment: many reads of u at small offsets, one store */
#include <stdio.h>
#ifndef N
#define N 995
#endif
#ifndef R
#define R 200000
#endif
static double x[N], y[N], z[N], u[N + 7];
int main(void) {
    int k, r;
    double q = 0.5, rr = 0.2, t = 0.1, s = 0.0;
    for (k = 0; k < N + 7; k++) u[k] = (k % 19) * 0.01;
    for (k = 0; k < N; k++) { y[k] = (k % 3) * 0.1; z[k] = (k % 5) * 0.1; }
    for (r = 0; r < R; r++)
        for (k = 0; k < N; k++)
            x[k] = u[k] + rr * (z[k] + rr * y[k]) +
                   t * (u[k + 3] + rr * (u[k + 2] + rr * u[k + 1]) +
                        t * (u[k + 6] + q * (u[k + 5] + q * u[k + 4])));
    for (k = 0; k < N; k++) s += x[k];
    printf("%g\n", s);
    return 0;
}
