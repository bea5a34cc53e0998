/* running sums along the rows of a matrix, in place: a[i][j] += a[i][j - 1] (each element read back by the
   next iteration) */
#include <stdio.h>
#ifndef N
#define N 1800
#endif
#ifndef R
#define R 30
#endif
static double a[N][N];
int main(void) {
    int r, i, j;
    double total = 0;
    for (r = 0; r < R; r++) {
        for (i = 0; i < N; i++)
            for (j = 0; j < N; j++)
                a[i][j] = (double)((i + j + r) % 9) * 1e-3;
        for (i = 0; i < N; i++)
            for (j = 1; j < N; j++)
                a[i][j] += a[i][j - 1];
        total += a[N - 1][N - 1];
    }
    printf("%g\n", total);
    return 0;
}
