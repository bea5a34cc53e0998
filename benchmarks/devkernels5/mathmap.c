/* y[i] = sqrt(x[i]) * exp(-x[i]): two library calls per element, in cache */
#include <stdio.h>
#include <math.h>
#ifndef N
#define N 2000
#endif
#ifndef R
#define R 25000
#endif
static double x[N], y[N];
int main(void) {
    int r, i;
    double t = 0;
    for (i = 0; i < N; i++)
        x[i] = 0.001 * (i + 1);
    for (r = 0; r < R; r++) {
        for (i = 0; i < N; i++)
            y[i] = sqrt(x[i]) * exp(-x[i]);
        t += y[r % N];
    }
    printf("%g\n", t);
    return 0;
}
