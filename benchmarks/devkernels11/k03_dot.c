/* Livermore loop 3, inner product: a reduction chain */
#include <stdio.h>
#ifndef N
#define N 1001
#endif
#ifndef R
#define R 500000
#endif
static double x[N], z[N];
int main(void) {
    int k, r;
    double q = 0.0;
    for (k = 0; k < N; k++) { x[k] = (k % 11) * 0.001; z[k] = (k % 3) * 0.5; }
    for (r = 0; r < R; r++) {
        for (k = 0; k < N; k++)
            q += z[k] * x[k];
        x[r % N] += 1e-9;
    }
    printf("%g\n", q);
    return 0;
}
