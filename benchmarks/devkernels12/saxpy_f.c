/* single precision: y = a*x + y and a float dot product, repeated; 2 x 64 KiB arrays (L2) */
#include <stdio.h>
#ifndef N
#define N 16384
#endif
#ifndef R
#define R 20000
#endif
float x[N], y[N];
int main(void) {
    int i, r;
    float a = 0.5f, s = 0.0f;
    for (i = 0; i < N; i++) { x[i] = (float)i / N; y[i] = 1.0f - x[i]; }
    for (r = 0; r < R; r++) {
        for (i = 0; i < N; i++)
            y[i] = a * x[i] + y[i];
        for (i = 0; i < N; i++)
            s += x[i] * y[i];
        a = -a;
    }
    printf("%f\n", s);
    return 0;
}
