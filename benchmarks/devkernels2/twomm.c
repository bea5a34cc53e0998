/* 2mm-like: D = alpha A B C + beta D as two products, the inner loop walking a column of B and of C */
#include <stdio.h>
#ifndef NI
#define NI 600
#endif
#ifndef NJ
#define NJ 700
#endif
#ifndef NK
#define NK 800
#endif
#ifndef NL
#define NL 900
#endif
static double A[NI][NK], B[NK][NJ], C[NJ][NL], D[NI][NL], tmp[NI][NJ];
int main(void) {
    int i, j, k;
    double alpha = 1.5, beta = 1.2, s = 0;
    for (i = 0; i < NI; i++)
        for (k = 0; k < NK; k++)
            A[i][k] = (double)((i * k + 1) % NI) / NI;
    for (k = 0; k < NK; k++)
        for (j = 0; j < NJ; j++)
            B[k][j] = (double)(k * (j + 1) % NJ) / NJ;
    for (j = 0; j < NJ; j++)
        for (i = 0; i < NL; i++)
            C[j][i] = (double)((j * (i + 3) + 1) % NL) / NL;
    for (i = 0; i < NI; i++)
        for (j = 0; j < NL; j++)
            D[i][j] = (double)(i * (j + 2) % NK) / NK;
    for (i = 0; i < NI; i++)
        for (j = 0; j < NJ; j++) {
            tmp[i][j] = 0.0;
            for (k = 0; k < NK; ++k)
                tmp[i][j] += alpha * A[i][k] * B[k][j];
        }
    for (i = 0; i < NI; i++)
        for (j = 0; j < NL; j++) {
            D[i][j] *= beta;
            for (k = 0; k < NJ; ++k)
                D[i][j] += tmp[i][k] * C[k][j];
        }
    for (i = 0; i < NI; i++)
        for (j = 0; j < NL; j++)
            s += D[i][j];
    printf("%g\n", s);
    return 0;
}
