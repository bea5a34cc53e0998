/* a switch on the index's low bits inside the loop: four updates taken in turn */
#include <stdio.h>
#ifndef N
#define N 1000000
#endif
#ifndef R
#define R 300
#endif
static double a[N];
int main(void) {
    int i, r;
    double s = 0.0;
    for (i = 0; i < N; i++) a[i] = (double)i / N;
    for (r = 0; r < R; r++)
        for (i = 0; i < N; i++) {
            switch (i & 3) {
            case 0: s += a[i]; break;
            case 1: s -= 0.5 * a[i]; break;
            case 2: a[i] = a[i] * 0.999 + 1e-6; break;
            default: s += a[i] * a[i]; break;
            }
        }
    printf("%f\n", s);
    return 0;
}
