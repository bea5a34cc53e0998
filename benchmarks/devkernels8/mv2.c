/* two matrix-vector products, x1 += A y1 (rows) and x2 += A^T y2 (columns), in a kernel function whose
   arrays come from the heap */
#include <stdio.h>
#include <stdlib.h>
#ifndef N
#define N 3000
#endif
#ifndef REPS
#define REPS 10
#endif
static void kernel_mv2(int n, double A[N][N], double x1[N], double x2[N], double y1[N], double y2[N]) {
    int i, j;
    for (i = 0; i < n; i++)
        for (j = 0; j < n; j++)
            x1[i] = x1[i] + A[i][j] * y1[j];
    for (i = 0; i < n; i++)
        for (j = 0; j < n; j++)
            x2[i] = x2[i] + A[j][i] * y2[j];
}
int main(void) {
    double (*A)[N] = malloc(sizeof(double) * N * N);
    double *x1 = malloc(sizeof(double) * N), *x2 = malloc(sizeof(double) * N);
    double *y1 = malloc(sizeof(double) * N), *y2 = malloc(sizeof(double) * N);
    int i, j, r;
    double s = 0;
    for (i = 0; i < N; i++) {
        x1[i] = 0; x2[i] = 0; y1[i] = (i % 7) / 7.0; y2[i] = (i % 5) / 5.0;
        for (j = 0; j < N; j++) A[i][j] = ((i * j) % N) / (double)N;
    }
    for (r = 0; r < REPS; r++) kernel_mv2(N, A, x1, x2, y1, y2);
    for (i = 0; i < N; i++) s += x1[i] + x2[i];
    printf("%g\n", s);
    free(A); free(x1); free(x2); free(y1); free(y2);
    return 0;
}
