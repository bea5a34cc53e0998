/* loops that count down and walk pointers: a reverse running sum and a pointer-bumped scaling */
#include <stdio.h>
#ifndef N
#define N 100000
#endif
#ifndef R
#define R 4000
#endif
static double v[N], w[N];
int main(void) {
    int i, r;
    for (i = 0; i < N; i++) v[i] = 1.0 / (i + 1);
    for (r = 0; r < R; r++) {
        double acc = 0.0;
        for (i = N - 1; i >= 0; i--) {
            acc += v[i];
            w[i] = acc;
        }
        double *p = v, *q = w, *end = v + N;
        while (p < end)
            *p++ = 0.5 * *q++ + 1e-9;
    }
    printf("%g %g\n", w[0], v[N / 2]);
    return 0;
}
