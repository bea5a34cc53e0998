/* a dot product: the accumulator's chain with a multiply off it */
#include <stdio.h>
#define N 600
#define R 66000
static double a[N], b[N];
int main(void) {
    int i, r;
    double s = 0.0;
    for (i = 0; i < N; i++) { a[i] = i * 1e-3; b[i] = 1e-3; }
    for (r = 0; r < R; r++)
        for (i = 0; i < N; i++)
            s = s + a[i] * b[i];
    printf("%g\n", s);
    return 0;
}
