/* covariance-like: column means, centring, then the upper triangle of data' data / (n - 1) */
#include <stdio.h>
#ifndef N
#define N 800
#endif
#define M (N - 100)
static double data[N][M], cov[M][M], mean[M];
int main(void) {
    int i, j, k;
    double s = 0;
    for (i = 0; i < N; i++)
        for (j = 0; j < M; j++)
            data[i][j] = ((double)i * j) / M;
    for (j = 0; j < M; j++) {
        mean[j] = 0.0;
        for (i = 0; i < N; i++)
            mean[j] += data[i][j];
        mean[j] /= N;
    }
    for (i = 0; i < N; i++)
        for (j = 0; j < M; j++)
            data[i][j] -= mean[j];
    for (i = 0; i < M; i++)
        for (j = i; j < M; j++) {
            cov[i][j] = 0.0;
            for (k = 0; k < N; k++)
                cov[i][j] += data[k][i] * data[k][j];
            cov[i][j] /= (N - 1.0);
            cov[j][i] = cov[i][j];
        }
    for (i = 0; i < M; i++) s += cov[i][i];
    printf("%g\n", s);
    return 0;
}
