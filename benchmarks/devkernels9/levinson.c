/* Levinson-Durbin recursion for a Toeplitz system: a dot product, an update through a scratch vector and a
   copy back, each as long as the step, in the harness's structure */
#include "harness.h"
#ifndef N
#define N 4000
#endif
#ifndef REPS
#define REPS 20
#endif
static void init(int n, double r[N]) {
    int i;
    for (i = 0; i < n; i++) r[i] = (n + 1 - i);
}
static void dump(int n, double y[N]) {
    int i;
    for (i = 0; i < n; i++) fprintf(stderr, "%0.2lf ", y[i]);
}
static void kernel(int n, double r[N], double y[N]) {
    double z[N];
    double alpha, beta, sum;
    int i, k;
#pragma scop
    y[0] = -r[0];
    beta = 1.0;
    alpha = -r[0];
    for (k = 1; k < n; k++) {
        beta = (1 - alpha * alpha) * beta;
        sum = 0.0;
        for (i = 0; i < k; i++) sum += r[k - i - 1] * y[i];
        alpha = -(r[k] + sum) / beta;
        for (i = 0; i < k; i++) z[i] = y[i] + alpha * y[k - i - 1];
        for (i = 0; i < k; i++) y[i] = z[i];
        y[k] = alpha;
    }
#pragma endscop
}
int main(int argc, char **argv) {
    int n = N, rep;
    HDECL1(r, double, N);
    HDECL1(y, double, N);
    init(n, HARR(r));
    HSTART;
    for (rep = 0; rep < REPS; rep++) kernel(n, HARR(r), HARR(y));
    HSTOP;
    HPRINT;
    HKEEP(dump(n, HARR(y)));
    HFREE(r); HFREE(y);
    return 0;
}
