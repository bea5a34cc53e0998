/* doitgen-like: a 3-D tensor contracted with a matrix along its last index, slice by slice */
#include <stdio.h>
#ifndef NR
#define NR 128
#endif
#ifndef NQ
#define NQ 128
#endif
#ifndef NP
#define NP 128
#endif
#ifndef R
#define R 1
#endif
static double A[NR][NQ][NP], C4[NP][NP], sum[NP];
int main(void) {
    int t, r, q, p, s;
    double z = 0;
    for (r = 0; r < NR; r++)
        for (q = 0; q < NQ; q++)
            for (p = 0; p < NP; p++)
                A[r][q][p] = (double)((r * q + p) % NP) / NP;
    for (p = 0; p < NP; p++)
        for (s = 0; s < NP; s++)
            C4[p][s] = (double)((p * s) % NP) / (NP * NP);
    for (t = 0; t < R; t++)
        for (r = 0; r < NR; r++)
            for (q = 0; q < NQ; q++) {
                for (p = 0; p < NP; p++) {
                    sum[p] = 0;
                    for (s = 0; s < NP; s++)
                        sum[p] += A[r][q][s] * C4[s][p];
                }
                for (p = 0; p < NP; p++)
                    A[r][q][p] = sum[p];
            }
    for (r = 0; r < NR; r++) z += A[r][r % NQ][(2 * r) % NP];
    printf("%g\n", z);
    return 0;
}
