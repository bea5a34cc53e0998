/* an element updated in place, no chain between iterations but the index's */
#include <stdio.h>
#define N 600
#define R 66000
static double a[N], b[N], c[N];
int main(void) {
    int i, r;
    for (i = 0; i < N; i++) { a[i] = i * 1e-3; b[i] = 1e-3; c[i] = 0.0; }
    for (r = 0; r < R; r++)
        for (i = 0; i < N; i++)
            c[i] = a[i] * b[i] + c[i];
    printf("%g\n", c[N / 2]);
    return 0;
}
