/* correlation-like: Pearson correlation matrix of M variables over N observations (means, deviations with a
   square root, normalization, then the products) */
#include <stdio.h>
#include <math.h>
#ifndef M
#define M 800
#endif
#ifndef N
#define N 800
#endif
static double data[N][M], corr[M][M], mean[M], stddev[M];
int main(void) {
    int i, j, k;
    double s = 0;
    for (i = 0; i < N; i++)
        for (j = 0; j < M; j++)
            data[i][j] = (double)(i * j % M) / M + i;
    for (j = 0; j < M; j++) {
        mean[j] = 0;
        for (i = 0; i < N; i++)
            mean[j] += data[i][j];
        mean[j] /= N;
    }
    for (j = 0; j < M; j++) {
        stddev[j] = 0;
        for (i = 0; i < N; i++)
            stddev[j] += (data[i][j] - mean[j]) * (data[i][j] - mean[j]);
        stddev[j] = sqrt(stddev[j] / N);
        stddev[j] = stddev[j] <= 0.1 ? 1.0 : stddev[j];
    }
    for (i = 0; i < N; i++)
        for (j = 0; j < M; j++)
            data[i][j] = (data[i][j] - mean[j]) / (sqrt((double)N) * stddev[j]);
    for (i = 0; i < M - 1; i++) {
        corr[i][i] = 1;
        for (j = i + 1; j < M; j++) {
            corr[i][j] = 0;
            for (k = 0; k < N; k++)
                corr[i][j] += data[k][i] * data[k][j];
            corr[j][i] = corr[i][j];
        }
    }
    corr[M - 1][M - 1] = 1;
    for (i = 0; i < M; i++) s += corr[i][(3 * i) % M];
    printf("%g\n", s);
    return 0;
}
