/* Livermore loop 11, first sum: a running sum, an add chain through memory */
#include <stdio.h>
#ifndef N
#define N 1001
#endif
#ifndef R
#define R 400000
#endif
static double x[N], y[N];
int main(void) {
    int k, r;
    for (k = 0; k < N; k++) y[k] = (k % 10) * 1e-6;
    for (r = 0; r < R; r++) {
        x[0] = y[0];
        for (k = 1; k < N; k++)
            x[k] = x[k - 1] + y[k];
    }
    printf("%g\n", x[N - 1]);
    return 0;
}
