/* durbin-like: Levinson-Durbin recursion for a Toeplitz system, each step a dot product and an update */
#include <stdio.h>
#ifndef N
#define N 4000
#endif
#ifndef R
#define R 16
#endif
static double r[N], y[N], z[N];
int main(void) {
    int t, i, k;
    double alpha, beta, sum, s = 0;
    for (i = 0; i < N; i++)
        r[i] = 1.0 / ((i + 2.0) * (i + 2.0));
    for (t = 0; t < R; t++) {
        y[0] = -r[0];
        beta = 1;
        alpha = -r[0];
        for (k = 1; k < N; k++) {
            beta = (1 - alpha * alpha) * beta;
            sum = 0;
            for (i = 0; i < k; i++)
                sum += r[k - i - 1] * y[i];
            alpha = -(r[k] + sum) / beta;
            for (i = 0; i < k; i++)
                z[i] = y[i] + alpha * y[k - i - 1];
            for (i = 0; i < k; i++)
                y[i] = z[i];
            y[k] = alpha;
        }
        s += y[N - 1];
    }
    printf("%g\n", s);
    return 0;
}
