/* a static inline helper and a function of another file called in the inner loop */
#include <stdio.h>
#ifndef N
#define N 100000
#endif
#ifndef R
#define R 1500
#endif
double weight(double x, double y);
static inline double sq(double x) { return x * x; }
static double a[N], b[N];
int main(void) {
    int i, r;
    double s = 0.0;
    for (i = 0; i < N; i++) { a[i] = (double)i / N; b[i] = 1.0 - a[i]; }
    for (r = 0; r < R; r++)
        for (i = 0; i < N; i++)
            s += sq(a[i]) + weight(a[i], b[i]);
    printf("%f\n", s);
    return 0;
}
