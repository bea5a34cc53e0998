/* clipping a signal to a band and tracking its peak: selects only (x > hi ? hi : ...), no branch to profile */
#include <stdio.h>
#ifndef N
#define N 2000000
#endif
#ifndef R
#define R 40
#endif
static double x[N], y[N];
int main(void) {
    int r, i;
    double lo = -0.5, hi = 0.5, peak, total = 0;
    for (i = 0; i < N; i++)
        x[i] = (double)((i * 37) % 101) / 50.0 - 1.0;
    for (r = 0; r < R; r++) {
        peak = -1e30;
        for (i = 0; i < N; i++) {
            double v = x[i] > hi ? hi : x[i];
            v = v < lo ? lo : v;
            y[i] = v;
            peak = v > peak ? v : peak;
        }
        total += peak;
        x[r] = y[N - 1 - r];
    }
    printf("%g\n", total);
    return 0;
}
