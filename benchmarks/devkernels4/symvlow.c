/* symmetric matrix-vector product from the lower triangle only: a test of the loop indices picks the row
   (j <= i) or the column (j > i) */
#include <stdio.h>
#ifndef N
#define N 1600
#endif
#ifndef R
#define R 30
#endif
static double S[N][N], x[N], y[N];
int main(void) {
    int r, i, j;
    double s, total = 0;
    for (i = 0; i < N; i++) {
        x[i] = 1.0 + (i % 3);
        for (j = 0; j <= i; j++)
            S[i][j] = 1.0 / (1 + i + j);
    }
    for (r = 0; r < R; r++) {
        for (i = 0; i < N; i++) {
            s = 0.0;
            for (j = 0; j < N; j++) {
                if (j <= i)
                    s += S[i][j] * x[j];
                else
                    s += S[j][i] * x[j];
            }
            y[i] = s;
        }
        x[r] += y[r] * 1e-9;
    }
    for (i = 0; i < N; i++) total += y[i];
    printf("%g\n", total);
    return 0;
}
