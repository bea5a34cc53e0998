/* C = alpha A A^T + beta C on the lower triangle, in the harness's structure */
#include "harness.h"
#ifndef N
#define N 1200
#endif
#ifndef M
#define M 1000
#endif
static void init(int n, int m, double *alpha, double *beta, double C[N][N], double A[N][M]) {
    int i, j;
    *alpha = 1.5;
    *beta = 1.2;
    for (i = 0; i < n; i++)
        for (j = 0; j < m; j++) A[i][j] = (double)((i * j + 1) % n) / n;
    for (i = 0; i < n; i++)
        for (j = 0; j < n; j++) C[i][j] = (double)((i * j + 2) % m) / m;
}
static void dump(int n, double C[N][N]) {
    int i, j;
    for (i = 0; i < n; i++)
        for (j = 0; j < n; j++) fprintf(stderr, "%0.2lf ", C[i][j]);
}
static void kernel(int n, int m, double alpha, double beta, double C[N][N], double A[N][M]) {
    int i, j, k;
#pragma scop
    for (i = 0; i < n; i++) {
        for (j = 0; j <= i; j++) C[i][j] *= beta;
        for (k = 0; k < m; k++)
            for (j = 0; j <= i; j++) C[i][j] += alpha * A[i][k] * A[j][k];
    }
#pragma endscop
}
int main(int argc, char **argv) {
    int n = N, m = M;
    double alpha, beta;
    HDECL2(C, double, N, N);
    HDECL2(A, double, N, M);
    init(n, m, &alpha, &beta, HARR(C), HARR(A));
    HSTART;
    kernel(n, m, alpha, beta, HARR(C), HARR(A));
    HSTOP;
    HPRINT;
    HKEEP(dump(n, HARR(C)));
    HFREE(C); HFREE(A);
    return 0;
}
