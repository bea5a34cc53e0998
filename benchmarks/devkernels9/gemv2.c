/* x = beta A^T (A y) style pair of products with a rank-2 update first, in the harness's structure */
#include <math.h>
#include "harness.h"
#ifndef N
#define N 2000
#endif
static void init(int n, double *alpha, double *beta, double A[N][N], double u1[N], double v1[N], double u2[N],
                 double v2[N], double w[N], double x[N], double y[N], double z[N]) {
    int i, j;
    *alpha = 1.5;
    *beta = 1.2;
    for (i = 0; i < n; i++) {
        u1[i] = i; u2[i] = ((i + 1) / (double)n) / 2.0; v1[i] = ((i + 1) / (double)n) / 4.0;
        v2[i] = ((i + 1) / (double)n) / 6.0; y[i] = ((i + 1) / (double)n) / 8.0; z[i] = ((i + 1) / (double)n) / 9.0;
        x[i] = 0.0; w[i] = 0.0;
        for (j = 0; j < n; j++) A[i][j] = (double)(i * j % n) / n;
    }
}
static void dump(int n, double w[N]) {
    int i;
    for (i = 0; i < n; i++) fprintf(stderr, "%0.2lf ", w[i]);
}
static void kernel(int n, double alpha, double beta, double A[N][N], double u1[N], double v1[N], double u2[N],
                   double v2[N], double w[N], double x[N], double y[N], double z[N]) {
    int i, j;
#pragma scop
    for (i = 0; i < n; i++)
        for (j = 0; j < n; j++)
            A[i][j] = A[i][j] + u1[i] * v1[j] + u2[i] * v2[j];
    for (i = 0; i < n; i++)
        for (j = 0; j < n; j++)
            x[i] = x[i] + beta * A[j][i] * y[j];
    for (i = 0; i < n; i++) x[i] = x[i] + z[i];
    for (i = 0; i < n; i++)
        for (j = 0; j < n; j++)
            w[i] = w[i] + alpha * A[i][j] * x[j];
#pragma endscop
}
int main(int argc, char **argv) {
    int n = N;
    double alpha, beta;
    HDECL2(A, double, N, N);
    HDECL1(u1, double, N); HDECL1(v1, double, N); HDECL1(u2, double, N); HDECL1(v2, double, N);
    HDECL1(w, double, N); HDECL1(x, double, N); HDECL1(y, double, N); HDECL1(z, double, N);
    init(n, &alpha, &beta, HARR(A), HARR(u1), HARR(v1), HARR(u2), HARR(v2), HARR(w), HARR(x), HARR(y), HARR(z));
    HSTART;
    kernel(n, alpha, beta, HARR(A), HARR(u1), HARR(v1), HARR(u2), HARR(v2), HARR(w), HARR(x), HARR(y), HARR(z));
    HSTOP;
    HPRINT;
    HKEEP(dump(n, HARR(w)));
    HFREE(A); HFREE(u1); HFREE(v1); HFREE(u2); HFREE(v2); HFREE(w); HFREE(x); HFREE(y); HFREE(z);
    return 0;
}
