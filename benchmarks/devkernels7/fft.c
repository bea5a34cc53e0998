/* iterative radix-2 FFT of 2^P complex points, repeated: butterflies whose stride doubles each stage, the
   twiddle factors from a table */
#include <math.h>
#include <stdio.h>
#ifndef P
#define P 18
#endif
#ifndef R
#define R 30
#endif
#define NP (1 << P)
static double RE[NP], IM[NP], WR[NP / 2], WI[NP / 2];
int main(void) {
    int r, len, i, k;
    double s = 0.0;
    for (i = 0; i < NP; i++) { RE[i] = (double)(i % 17) - 8.0; IM[i] = (double)(i % 13) - 6.0; }
    for (i = 0; i < NP / 2; i++) { WR[i] = cos(2.0 * M_PI * i / NP); WI[i] = -sin(2.0 * M_PI * i / NP); }
    for (r = 0; r < R; r++)
        for (len = 2; len <= NP; len *= 2) {
            int half = len / 2, step = NP / len;
            for (i = 0; i < NP; i += len)
                for (k = 0; k < half; k++) {
                    double wr = WR[k * step], wi = WI[k * step];
                    double xr = RE[i + k + half] * wr - IM[i + k + half] * wi;
                    double xi = RE[i + k + half] * wi + IM[i + k + half] * wr;
                    RE[i + k + half] = RE[i + k] - xr; IM[i + k + half] = IM[i + k] - xi;
                    RE[i + k] += xr; IM[i + k] += xi;
                }
        }
    for (i = 0; i < NP; i += 1024) s += RE[i] * 1e-9 + IM[i] * 1e-9;
    printf("%g\n", s);
    return 0;
}
