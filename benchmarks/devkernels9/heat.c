/* Three-dimensional heat equation, two arrays updated in turn, in the harness's structure */
#include "harness.h"
#ifndef TSTEPS
#define TSTEPS 100
#endif
#ifndef N
#define N 120
#endif
static void init(int n, double A[N][N][N], double B[N][N][N]) {
    int i, j, k;
    for (i = 0; i < n; i++)
        for (j = 0; j < n; j++)
            for (k = 0; k < n; k++) A[i][j][k] = B[i][j][k] = (double)(i + j + (n - k)) * 10 / n;
}
static void dump(int n, double A[N][N][N]) {
    int i, j, k;
    for (i = 0; i < n; i++)
        for (j = 0; j < n; j++)
            for (k = 0; k < n; k++) fprintf(stderr, "%0.2lf ", A[i][j][k]);
}
static void kernel(int tsteps, int n, double A[N][N][N], double B[N][N][N]) {
    int t, i, j, k;
#pragma scop
    for (t = 1; t <= tsteps; t++) {
        for (i = 1; i < n - 1; i++)
            for (j = 1; j < n - 1; j++)
                for (k = 1; k < n - 1; k++)
                    B[i][j][k] = 0.125 * (A[i + 1][j][k] - 2.0 * A[i][j][k] + A[i - 1][j][k])
                               + 0.125 * (A[i][j + 1][k] - 2.0 * A[i][j][k] + A[i][j - 1][k])
                               + 0.125 * (A[i][j][k + 1] - 2.0 * A[i][j][k] + A[i][j][k - 1]) + A[i][j][k];
        for (i = 1; i < n - 1; i++)
            for (j = 1; j < n - 1; j++)
                for (k = 1; k < n - 1; k++)
                    A[i][j][k] = 0.125 * (B[i + 1][j][k] - 2.0 * B[i][j][k] + B[i - 1][j][k])
                               + 0.125 * (B[i][j + 1][k] - 2.0 * B[i][j][k] + B[i][j - 1][k])
                               + 0.125 * (B[i][j][k + 1] - 2.0 * B[i][j][k] + B[i][j][k - 1]) + B[i][j][k];
    }
#pragma endscop
}
int main(int argc, char **argv) {
    int n = N, tsteps = TSTEPS;
    HDECL3(A, double, N, N, N);
    HDECL3(B, double, N, N, N);
    init(n, HARR(A), HARR(B));
    HSTART;
    kernel(tsteps, n, HARR(A), HARR(B));
    HSTOP;
    HPRINT;
    HKEEP(dump(n, HARR(A)));
    HFREE(A); HFREE(B);
    return 0;
}
