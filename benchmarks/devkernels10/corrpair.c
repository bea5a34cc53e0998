/* the products of a correlation matrix's first I rows: for each pair of columns i < j of an N x 1200 array,
   the sum over its N rows of data[k][i] * data[k][j], kept in corr[i][j]: two column walks 9 600 B a row */
#include <stdio.h>
#ifndef N
#define N 800
#endif
#ifndef I
#define I 105
#endif
#define M 1200
static double data[N][M], corr[M][M];
int main(void) {
    int i, j, k;
    for (i = 0; i < N; i++)
        for (j = 0; j < M; j++) data[i][j] = (double)(i * j) / M + i;
    for (i = 0; i < I; i++)
        for (j = i + 1; j < M; j++) {
            corr[i][j] = 0.0;
            for (k = 0; k < N; k++) corr[i][j] += data[k][i] * data[k][j];
        }
    printf("%g\n", corr[1][2]);
    return 0;
}
