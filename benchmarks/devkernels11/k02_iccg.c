/* Livermore loop 2, incomplete Cholesky conjugate gradient: passes that halve, strided by two */
#include <stdio.h>
#ifndef N
#define N 1024
#endif
#ifndef R
#define R 200000
#endif
static double x[2 * N + 2], v[2 * N + 2];
int main(void) {
    int k, r, i, ii, ipnt, ipntp;
    double s = 0.0;
    for (k = 0; k < 2 * N + 2; k++) { x[k] = (k % 7) * 0.1; v[k] = (k % 5) * 0.001; }
    for (r = 0; r < R; r++) {
        ii = N;
        ipntp = 0;
        do {
            ipnt = ipntp;
            ipntp += ii;
            ii /= 2;
            i = ipntp - 1;
            for (k = ipnt + 1; k < ipntp; k += 2) {
                i++;
                x[i] = x[k] - v[k] * x[k - 1] - v[k + 1] * x[k + 1];
            }
        } while (ii > 0);
    }
    for (k = 0; k < 2 * N; k++) s += x[k];
    printf("%g\n", s);
    return 0;
}
