/* k-means assignment and update: each point to its nearest centre (squared distance over D features), then
   the centres recomputed as the means of their points */
#include <stdio.h>
#ifndef P
#define P 100000
#endif
#ifndef K
#define K 16
#endif
#ifndef D
#define D 8
#endif
#ifndef R
#define R 60
#endif
static double X[P][D], C[K][D], S[K][D];
static int label[P], cnt[K];
int main(void) {
    int r, p, k, d;
    double s = 0;
    for (p = 0; p < P; p++)
        for (d = 0; d < D; d++)
            X[p][d] = (double)((p * (d + 3) + 7 * d) % 101) / 101.0;
    for (k = 0; k < K; k++)
        for (d = 0; d < D; d++)
            C[k][d] = X[k * (P / K)][d];
    for (r = 0; r < R; r++) {
        for (p = 0; p < P; p++) {
            double best = 1e300;
            int arg = 0;
            for (k = 0; k < K; k++) {
                double dist = 0;
                for (d = 0; d < D; d++) {
                    double e = X[p][d] - C[k][d];
                    dist += e * e;
                }
                if (dist < best) {
                    best = dist;
                    arg = k;
                }
            }
            label[p] = arg;
        }
        for (k = 0; k < K; k++) {
            cnt[k] = 0;
            for (d = 0; d < D; d++)
                S[k][d] = 0;
        }
        for (p = 0; p < P; p++) {
            cnt[label[p]] += 1;
            for (d = 0; d < D; d++)
                S[label[p]][d] += X[p][d];
        }
        for (k = 0; k < K; k++)
            for (d = 0; d < D; d++)
                C[k][d] = S[k][d] / (cnt[k] + 1);
    }
    for (k = 0; k < K; k++) s += C[k][0] + cnt[k];
    printf("%g\n", s);
    return 0;
}
