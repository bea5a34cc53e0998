/* 3mm-like: G = (A B)(C D), three matrix products */
#include <stdio.h>
#ifndef N
#define N 500
#endif
static double A[N][N], B[N][N], C[N][N], D[N][N], E[N][N], F[N][N], G[N][N];
int main(void) {
    int i, j, k;
    double s = 0;
    for (i = 0; i < N; i++)
        for (j = 0; j < N; j++) {
            A[i][j] = (double)((i * j + 1) % N) / (5 * N);
            B[i][j] = (double)((i * (j + 1) + 2) % N) / (5 * N);
            C[i][j] = (double)((i * (j + 3)) % N) / (5 * N);
            D[i][j] = (double)((i * (j + 2) + 2) % N) / (5 * N);
        }
    for (i = 0; i < N; i++)
        for (j = 0; j < N; j++) {
            E[i][j] = 0;
            for (k = 0; k < N; k++)
                E[i][j] += A[i][k] * B[k][j];
        }
    for (i = 0; i < N; i++)
        for (j = 0; j < N; j++) {
            F[i][j] = 0;
            for (k = 0; k < N; k++)
                F[i][j] += C[i][k] * D[k][j];
        }
    for (i = 0; i < N; i++)
        for (j = 0; j < N; j++) {
            G[i][j] = 0;
            for (k = 0; k < N; k++)
                G[i][j] += E[i][k] * F[k][j];
        }
    for (i = 0; i < N; i++) s += G[i][(7 * i) % N];
    printf("%g\n", s);
    return 0;
}
