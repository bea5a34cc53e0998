/* Gauss-Seidel smoothing of a line in place: u[i] = (u[i-1] + u[i] + u[i+1]) / 3, the new u[i-1] used at once */
#include <stdio.h>
#ifndef N
#define N 400000
#endif
#ifndef T
#define T 200
#endif
static double u[N];
int main(void) {
    int t, i;
    double total = 0;
    for (i = 0; i < N; i++)
        u[i] = (double)(i % 100);
    for (t = 0; t < T; t++)
        for (i = 1; i < N - 1; i++)
            u[i] = (u[i - 1] + u[i] + u[i + 1]) * (1.0 / 3.0);
    for (i = 0; i < N; i++) total += u[i];
    printf("%g\n", total);
    return 0;
}
