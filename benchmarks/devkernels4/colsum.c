/* transposed products as column sums: z[j] = sum_i A[i][j] * w[i], the inner loop walking a column (one line
   per element, a serial sum) */
#include <stdio.h>
#ifndef N
#define N 2000
#endif
#ifndef R
#define R 12
#endif
static double A[N][N], w[N], z[N];
int main(void) {
    int r, i, j;
    double s, total = 0;
    for (i = 0; i < N; i++) {
        w[i] = (double)(i % 17) * 0.25;
        for (j = 0; j < N; j++)
            A[i][j] = (double)((i + 2 * j) % 13) * 0.5;
    }
    for (r = 0; r < R; r++) {
        for (j = 0; j < N; j++) {
            s = 0.0;
            for (i = 0; i < N; i++)
                s += A[i][j] * w[i];
            z[j] = s;
        }
        w[r] += z[N - 1 - r] * 1e-12;
    }
    for (j = 0; j < N; j++) total += z[j];
    printf("%g\n", total);
    return 0;
}
