/* Correlation matrix of M variables over N samples: means, deviations with a guard for a zero deviation,
   centring and the upper triangle of products, in the harness's structure */
#include <math.h>
#include "harness.h"
#ifndef N
#define N 1400
#endif
#ifndef M
#define M 1200
#endif
static void init(int m, int n, double *float_n, double data[N][M]) {
    int i, j;
    *float_n = (double)n;
    for (i = 0; i < n; i++)
        for (j = 0; j < m; j++) data[i][j] = (double)(i * j) / m + i;
}
static void dump(int m, double corr[M][M]) {
    int i, j;
    for (i = 0; i < m; i++)
        for (j = 0; j < m; j++) fprintf(stderr, "%0.2lf ", corr[i][j]);
}
static void kernel(int m, int n, double float_n, double data[N][M], double corr[M][M], double mean[M],
                   double stddev[M]) {
    int i, j, k;
    double eps = 0.1;
#pragma scop
    for (j = 0; j < m; j++) {
        mean[j] = 0.0;
        for (i = 0; i < n; i++) mean[j] += data[i][j];
        mean[j] /= float_n;
    }
    for (j = 0; j < m; j++) {
        stddev[j] = 0.0;
        for (i = 0; i < n; i++) stddev[j] += (data[i][j] - mean[j]) * (data[i][j] - mean[j]);
        stddev[j] /= float_n;
        stddev[j] = sqrt(stddev[j]);
        stddev[j] = stddev[j] <= eps ? 1.0 : stddev[j];
    }
    for (i = 0; i < n; i++)
        for (j = 0; j < m; j++) {
            data[i][j] -= mean[j];
            data[i][j] /= sqrt(float_n) * stddev[j];
        }
    for (i = 0; i < m - 1; i++) {
        corr[i][i] = 1.0;
        for (j = i + 1; j < m; j++) {
            corr[i][j] = 0.0;
            for (k = 0; k < n; k++) corr[i][j] += data[k][i] * data[k][j];
            corr[j][i] = corr[i][j];
        }
    }
    corr[m - 1][m - 1] = 1.0;
#pragma endscop
}
int main(int argc, char **argv) {
    int n = N, m = M;
    double float_n;
    HDECL2(data, double, N, M);
    HDECL2(corr, double, M, M);
    HDECL1(mean, double, M);
    HDECL1(stddev, double, M);
    init(m, n, &float_n, HARR(data));
    HSTART;
    kernel(m, n, float_n, HARR(data), HARR(corr), HARR(mean), HARR(stddev));
    HSTOP;
    HPRINT;
    HKEEP(dump(m, HARR(corr)));
    HFREE(data); HFREE(corr); HFREE(mean); HFREE(stddev);
    return 0;
}
