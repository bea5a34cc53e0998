/* Livermore loop 1, hydro fragment: a stream with two shifted reads of z */
#include <stdio.h>
#ifndef N
#define N 1001
#endif
#ifndef R
#define R 300000
#endif
static double x[N], y[N], z[N + 12];
int main(void) {
    int k, r;
    double q = 0.5, rr = 0.25, t = 0.125, s = 0.0;
    for (k = 0; k < N + 12; k++) z[k] = (k % 17) * 0.01;
    for (k = 0; k < N; k++) y[k] = (k % 13) * 0.02;
    for (r = 0; r < R; r++)
        for (k = 0; k < N; k++)
            x[k] = q + y[k] * (rr * z[k + 10] + t * z[k + 11]);
    for (k = 0; k < N; k++) s += x[k];
    printf("%g\n", s);
    return 0;
}
