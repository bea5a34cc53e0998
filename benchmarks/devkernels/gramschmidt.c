/* gramschmidt-like: QR by modified Gram-Schmidt on the columns of A (column norms with a square root) */
#include <stdio.h>
#include <math.h>
#ifndef M
#define M 600
#endif
#ifndef N
#define N 500
#endif
static double A[M][N], Q[M][N], Rm[N][N];
int main(void) {
    int i, j, k;
    double nrm, s = 0;
    for (i = 0; i < M; i++)
        for (j = 0; j < N; j++)
            A[i][j] = (double)((i * j) % M) / M + (i == j);
    for (k = 0; k < N; k++) {
        nrm = 0;
        for (i = 0; i < M; i++)
            nrm += A[i][k] * A[i][k];
        Rm[k][k] = sqrt(nrm);
        for (i = 0; i < M; i++)
            Q[i][k] = A[i][k] / Rm[k][k];
        for (j = k + 1; j < N; j++) {
            Rm[k][j] = 0;
            for (i = 0; i < M; i++)
                Rm[k][j] += Q[i][k] * A[i][j];
            for (i = 0; i < M; i++)
                A[i][j] = A[i][j] - Q[i][k] * Rm[k][j];
        }
    }
    for (k = 0; k < N; k++) s += Rm[k][k];
    printf("%g\n", s);
    return 0;
}
