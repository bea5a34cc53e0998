/* Livermore loop 12, first difference: two reads of y one apart, a store */
#include <stdio.h>
#ifndef N
#define N 1000
#endif
#ifndef R
#define R 600000
#endif
static double x[N], y[N + 1];
int main(void) {
    int k, r;
    double s = 0.0;
    for (k = 0; k <= N; k++) y[k] = (k * k % 23) * 0.1;
    for (r = 0; r < R; r++)
        for (k = 0; k < N; k++)
            x[k] = y[k + 1] - y[k];
    for (k = 0; k < N; k++) s += x[k];
    printf("%g\n", s);
    return 0;
}
