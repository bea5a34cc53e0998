/* Livermore loop 9, integrate predictors: a row of 13 reads and one write per i, rows of 25 */
#include <stdio.h>
#ifndef N
#define N 101
#endif
#ifndef R
#define R 1000000
#endif
static double px[N][25];
int main(void) {
    int i, j, r;
    double dm22 = 0.1, dm23 = 0.2, dm24 = 0.3, dm25 = 0.4, dm26 = 0.5, dm27 = 0.6, dm28 = 0.7, c0 = 0.01;
    double s = 0.0;
    for (i = 0; i < N; i++) for (j = 0; j < 25; j++) px[i][j] = ((i * j) % 11) * 1e-3;
    for (r = 0; r < R; r++)
        for (i = 0; i < N; i++)
            px[i][0] = dm28 * px[i][12] + dm27 * px[i][11] + dm26 * px[i][10] + dm25 * px[i][9] +
                       dm24 * px[i][8] + dm23 * px[i][7] + dm22 * px[i][6] +
                       c0 * (px[i][4] + px[i][5]) + px[i][2];
    for (i = 0; i < N; i++) s += px[i][0];
    printf("%g\n", s);
    return 0;
}
