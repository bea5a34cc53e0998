/* gemm-like: C = alpha A B + beta C, the k loop outside j (rows of B and C streamed) */
#include <stdio.h>
#ifndef NI
#define NI 1000
#endif
#ifndef NJ
#define NJ 1100
#endif
#ifndef NK
#define NK 1200
#endif
static double A[NI][NK], B[NK][NJ], C[NI][NJ];
int main(void) {
    int i, j, k;
    double alpha = 1.5, beta = 1.2, s = 0;
    for (i = 0; i < NI; i++)
        for (j = 0; j < NJ; j++)
            C[i][j] = (double)((i * j + 1) % NI) / NI;
    for (i = 0; i < NI; i++)
        for (k = 0; k < NK; k++)
            A[i][k] = (double)(i * (k + 1) % NK) / NK;
    for (k = 0; k < NK; k++)
        for (j = 0; j < NJ; j++)
            B[k][j] = (double)(k * (j + 2) % NJ) / NJ;
    for (i = 0; i < NI; i++) {
        for (j = 0; j < NJ; j++)
            C[i][j] *= beta;
        for (k = 0; k < NK; k++)
            for (j = 0; j < NJ; j++)
                C[i][j] += alpha * A[i][k] * B[k][j];
    }
    for (i = 0; i < NI; i++)
        for (j = 0; j < NJ; j++)
            s += C[i][j];
    printf("%g\n", s);
    return 0;
}
