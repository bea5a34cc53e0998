/* sparse matrix-vector products in CSR form: 7 nonzeros per row at pseudo-random columns */
#include <stdio.h>
#ifndef N
#define N 400000
#endif
#ifndef R
#define R 60
#endif
#define NZ 7
static int col[N * NZ], start[N + 1];
static double val[N * NZ], x[N], y[N];
int main(void) {
    int r, i, k;
    unsigned s = 7u;
    for (i = 0; i <= N; i++)
        start[i] = i * NZ;
    for (k = 0; k < N * NZ; k++) {
        s = s * 1103515245u + 12345u;
        col[k] = (int)((s >> 4) % N);
        val[k] = 1.0 / (k % 11 + 1);
    }
    for (i = 0; i < N; i++)
        x[i] = 1.0;
    for (r = 0; r < R; r++)
        for (i = 0; i < N; i++) {
            double t = 0;
            for (k = start[i]; k < start[i + 1]; k++)
                t += val[k] * x[col[k]];
            y[i] = t;
        }
    printf("%g\n", y[5]);
    return 0;
}
