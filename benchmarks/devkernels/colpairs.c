/* correlation of column pairs far apart in a wide matrix: two column walks, each access on its own page,
   2 x 2000 pages between two uses of a line (beyond the TLBs' reach) */
#include <stdio.h>
#ifndef N
#define N 2000
#endif
#define M 1200
#define C 64
static double d[N][M], c[C][C];
int main(void) {
    int i, j, k;
    double s = 0;
    for (k = 0; k < N; k++)
        for (j = 0; j < M; j++)
            d[k][j] = (double)((k + j) % 7);
    for (i = 0; i < C; i++)
        for (j = 0; j < C; j++) {
            c[i][j] = 0.0;
            for (k = 0; k < N; k++)
                c[i][j] += d[k][i] * d[k][j + 600];
        }
    for (i = 0; i < C; i++) s += c[i][i];
    printf("%g\n", s);
    return 0;
}
