/* Livermore loop 22, Planckian distribution: a division and an exp per element */
#include <stdio.h>
#include <math.h>
#ifndef N
#define N 101
#endif
#ifndef R
#define R 200000
#endif
static double u[N], v[N], w[N], x[N], y[N];
int main(void) {
    int k, r;
    double s = 0.0;
    for (k = 0; k < N; k++) { u[k] = 0.1 + (k % 9) * 0.2; v[k] = 1.0 + (k % 4) * 0.5; x[k] = 1.0 + k * 1e-3; }
    for (r = 0; r < R; r++)
        for (k = 0; k < N; k++) {
            y[k] = u[k] / v[k];
            w[k] = x[k] / (exp(y[k]) - 1.0);
        }
    for (k = 0; k < N; k++) s += w[k];
    printf("%g\n", s);
    return 0;
}
