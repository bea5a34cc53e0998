/* QR factorization by modified Gram-Schmidt: column norms, a normalized column and the projections
   removed from the columns to its right, in the harness's structure */
#include <math.h>
#include "harness.h"
#ifndef M
#define M 1000
#endif
#ifndef N
#define N 1100
#endif
static void init(int m, int n, double A[M][N], double R[N][N], double Q[M][N]) {
    int i, j;
    for (i = 0; i < m; i++)
        for (j = 0; j < n; j++) {
            A[i][j] = (((double)((i * j) % m) / m) * 100) + 10;
            Q[i][j] = 0.0;
        }
    for (i = 0; i < n; i++)
        for (j = 0; j < n; j++) R[i][j] = 0.0;
}
static void dump(int n, double R[N][N]) {
    int i, j;
    for (i = 0; i < n; i++)
        for (j = 0; j < n; j++) fprintf(stderr, "%0.2lf ", R[i][j]);
}
static void kernel(int m, int n, double A[M][N], double R[N][N], double Q[M][N]) {
    int i, j, k;
    double nrm;
#pragma scop
    for (k = 0; k < n; k++) {
        nrm = 0.0;
        for (i = 0; i < m; i++) nrm += A[i][k] * A[i][k];
        R[k][k] = sqrt(nrm);
        for (i = 0; i < m; i++) Q[i][k] = A[i][k] / R[k][k];
        for (j = k + 1; j < n; j++) {
            R[k][j] = 0.0;
            for (i = 0; i < m; i++) R[k][j] += Q[i][k] * A[i][j];
            for (i = 0; i < m; i++) A[i][j] = A[i][j] - Q[i][k] * R[k][j];
        }
    }
#pragma endscop
}
int main(int argc, char **argv) {
    int m = M, n = N;
    HDECL2(A, double, M, N);
    HDECL2(R, double, N, N);
    HDECL2(Q, double, M, N);
    init(m, n, HARR(A), HARR(R), HARR(Q));
    HSTART;
    kernel(m, n, HARR(A), HARR(R), HARR(Q));
    HSTOP;
    HPRINT;
    HKEEP(dump(n, HARR(R)));
    HFREE(A); HFREE(R); HFREE(Q);
    return 0;
}
