/* Livermore loop 24, location of the first minimum: a data-dependent select per element */
#include <stdio.h>
#ifndef N
#define N 1001
#endif
#ifndef R
#define R 400000
#endif
static double x[N];
int main(void) {
    int k, m, r, tot = 0;
    for (k = 0; k < N; k++) x[k] = ((k * 7919) % 1009) * 0.5 - 100.0;
    for (r = 0; r < R; r++) {
        m = 0;
        for (k = 1; k < N; k++)
            if (x[k] < x[m]) m = k;
        tot += m;
        x[r % N] += 1e-12;
    }
    printf("%d\n", tot);
    return 0;
}
