/* covariance of M variables over N observations: column means, centring, then the upper triangle of
   data^T data, heap arrays passed to a kernel function */
#include <stdio.h>
#include <stdlib.h>
#ifndef M
#define M 1000
#endif
#ifndef N
#define N 1200
#endif
static void kernel_covp(int m, int n, double fn, double data[N][M], double cov[M][M], double mean[M]) {
    int i, j, k;
    for (j = 0; j < m; j++) {
        mean[j] = 0.0;
        for (i = 0; i < n; i++) mean[j] += data[i][j];
        mean[j] /= fn;
    }
    for (i = 0; i < n; i++)
        for (j = 0; j < m; j++) data[i][j] -= mean[j];
    for (i = 0; i < m; i++)
        for (j = i; j < m; j++) {
            cov[i][j] = 0.0;
            for (k = 0; k < n; k++) cov[i][j] += data[k][i] * data[k][j];
            cov[i][j] /= (fn - 1.0);
            cov[j][i] = cov[i][j];
        }
}
int main(void) {
    double (*data)[M] = malloc(sizeof(double) * N * M);
    double (*cov)[M] = malloc(sizeof(double) * M * M);
    double *mean = malloc(sizeof(double) * M);
    int i, j;
    double s = 0;
    for (i = 0; i < N; i++) for (j = 0; j < M; j++) data[i][j] = ((double)i * j) / M;
    kernel_covp(M, N, (double)N, data, cov, mean);
    for (i = 0; i < M; i++) s += cov[i][(i * 3) % M];
    printf("%g\n", s);
    free(data); free(cov); free(mean);
    return 0;
}
