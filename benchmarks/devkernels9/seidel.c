/* In-place nine-point Gauss-Seidel sweeps over a square grid, in the harness's structure */
#include "harness.h"
#ifndef TSTEPS
#define TSTEPS 100
#endif
#ifndef N
#define N 1000
#endif
static void init(int n, double A[N][N]) {
    int i, j;
    for (i = 0; i < n; i++)
        for (j = 0; j < n; j++) A[i][j] = ((double)i * (j + 2) + 2) / n;
}
static void dump(int n, double A[N][N]) {
    int i, j;
    for (i = 0; i < n; i++)
        for (j = 0; j < n; j++) fprintf(stderr, "%0.2lf ", A[i][j]);
}
static void kernel(int tsteps, int n, double A[N][N]) {
    int t, i, j;
#pragma scop
    for (t = 0; t <= tsteps - 1; t++)
        for (i = 1; i <= n - 2; i++)
            for (j = 1; j <= n - 2; j++)
                A[i][j] = (A[i - 1][j - 1] + A[i - 1][j] + A[i - 1][j + 1] + A[i][j - 1] + A[i][j] + A[i][j + 1]
                           + A[i + 1][j - 1] + A[i + 1][j] + A[i + 1][j + 1]) / 9.0;
#pragma endscop
}
int main(int argc, char **argv) {
    int n = N, tsteps = TSTEPS;
    HDECL2(A, double, N, N);
    init(n, HARR(A));
    HSTART;
    kernel(tsteps, n, HARR(A));
    HSTOP;
    HPRINT;
    HKEEP(dump(n, HARR(A)));
    HFREE(A);
    return 0;
}
