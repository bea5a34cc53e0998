/* b = a transposed, row by row of a: one stream read along rows, one written down columns */
#include <stdio.h>
#ifndef N
#define N 2000
#endif
#ifndef R
#define R 40
#endif
static double a[N][N], b[N][N];
int main(void) {
    int r, i, j;
    for (i = 0; i < N; i++)
        for (j = 0; j < N; j++)
            a[i][j] = (double)((i * 7 + j) % 13);
    for (r = 0; r < R; r++)
        for (i = 0; i < N; i++)
            for (j = 0; j < N; j++)
                b[j][i] = a[i][j] + r;
    printf("%g\n", b[N - 1][0]);
    return 0;
}
