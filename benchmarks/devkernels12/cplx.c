/* complex arithmetic with C99 complex.h: z = z*w + c over an array, repeated */
#include <stdio.h>
#include <complex.h>
#ifndef N
#define N 50000
#endif
#ifndef R
#define R 4000
#endif
static double complex z[N], w[N];
int main(void) {
    int i, r;
    double complex c = 0.001 + 0.002 * I;
    for (i = 0; i < N; i++) {
        z[i] = (double)i / N + 0.5 * I;
        w[i] = 0.99 - 0.01 * I * ((double)i / N);
    }
    for (r = 0; r < R; r++)
        for (i = 0; i < N; i++)
            z[i] = z[i] * w[i] + c;
    printf("%f %f\n", creal(z[N / 2]), cimag(z[N / 2]));
    return 0;
}
