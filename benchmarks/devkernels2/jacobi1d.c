/* jacobi-1d-like: two three-point averages per time step, A into B and back */
#include <stdio.h>
#ifndef N
#define N 4000000
#endif
#ifndef T
#define T 40
#endif
static double A[N], B[N];
int main(void) {
    int t, i;
    double s = 0;
    for (i = 0; i < N; i++) {
        A[i] = ((double)i + 2) / N;
        B[i] = ((double)i + 3) / N;
    }
    for (t = 0; t < T; t++) {
        for (i = 1; i < N - 1; i++)
            B[i] = 0.33333 * (A[i - 1] + A[i] + A[i + 1]);
        for (i = 1; i < N - 1; i++)
            A[i] = 0.33333 * (B[i - 1] + B[i] + B[i + 1]);
    }
    for (i = 0; i < N; i++) s += A[i];
    printf("%g\n", s);
    return 0;
}
