/* Livermore loop 5, tri-diagonal elimination below the diagonal: a multiply-subtract recurrence */
#include <stdio.h>
#ifndef N
#define N 1001
#endif
#ifndef R
#define R 300000
#endif
static double x[N], y[N], z[N];
int main(void) {
    int i, r;
    double s = 0.0;
    for (i = 0; i < N; i++) { y[i] = (i % 9) * 0.1; z[i] = 0.5 + (i % 4) * 0.1; }
    x[0] = 1.0;
    for (r = 0; r < R; r++)
        for (i = 1; i < N; i++)
            x[i] = z[i] * (y[i] - x[i - 1]);
    for (i = 0; i < N; i++) s += x[i];
    printf("%g\n", s);
    return 0;
}
