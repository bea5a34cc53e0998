/* forward substitution L x = b, repeated over several right-hand sides: a row's dot product with the solved
   part, then a division; heap arrays passed to a kernel function */
#include <stdio.h>
#include <stdlib.h>
#ifndef N
#define N 2500
#endif
#ifndef R
#define R 60
#endif
static void kernel_tri(int n, double L[N][N], double x[N], double b[N]) {
    int i, j;
    for (i = 0; i < n; i++) {
        x[i] = b[i];
        for (j = 0; j < i; j++) x[i] -= L[i][j] * x[j];
        x[i] = x[i] / L[i][i];
    }
}
int main(void) {
    double (*L)[N] = malloc(sizeof(double) * N * N);
    double *x = malloc(sizeof(double) * N), *b = malloc(sizeof(double) * N);
    int i, j, r;
    double s = 0;
    for (i = 0; i < N; i++) {
        b[i] = i;
        for (j = 0; j <= i; j++) L[i][j] = (double)(i + N - j + 1) * 2 / N;
    }
    for (r = 0; r < R; r++) {
        kernel_tri(N, L, x, b);
        s += x[r];
    }
    printf("%g\n", s);
    free(L); free(x); free(b);
    return 0;
}
