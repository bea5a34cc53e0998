/* D = alpha A B C + beta D as two matrix products through a temporary, i-k-j order, heap arrays passed to a
   kernel function with its sizes */
#include <stdio.h>
#include <stdlib.h>
#ifndef NI
#define NI 800
#endif
#ifndef NJ
#define NJ 900
#endif
#ifndef NK
#define NK 1000
#endif
#ifndef NL
#define NL 1100
#endif
static void kernel_mm2(int ni, int nj, int nk, int nl, double alpha, double beta, double tmp[NI][NJ],
                       double A[NI][NK], double B[NK][NJ], double C[NJ][NL], double D[NI][NL]) {
    int i, j, k;
    for (i = 0; i < ni; i++) {
        for (j = 0; j < nj; j++) tmp[i][j] = 0.0;
        for (k = 0; k < nk; k++)
            for (j = 0; j < nj; j++)
                tmp[i][j] += alpha * A[i][k] * B[k][j];
    }
    for (i = 0; i < ni; i++) {
        for (j = 0; j < nl; j++) D[i][j] *= beta;
        for (k = 0; k < nj; k++)
            for (j = 0; j < nl; j++)
                D[i][j] += tmp[i][k] * C[k][j];
    }
}
int main(void) {
    double (*tmp)[NJ] = malloc(sizeof(double) * NI * NJ);
    double (*A)[NK] = malloc(sizeof(double) * NI * NK);
    double (*B)[NJ] = malloc(sizeof(double) * NK * NJ);
    double (*C)[NL] = malloc(sizeof(double) * NJ * NL);
    double (*D)[NL] = malloc(sizeof(double) * NI * NL);
    int i, j;
    double s = 0;
    for (i = 0; i < NI; i++) for (j = 0; j < NK; j++) A[i][j] = ((i * j + 1) % NI) / (double)NI;
    for (i = 0; i < NK; i++) for (j = 0; j < NJ; j++) B[i][j] = (i * (j + 1) % NJ) / (double)NJ;
    for (i = 0; i < NJ; i++) for (j = 0; j < NL; j++) C[i][j] = ((i * (j + 3) + 1) % NL) / (double)NL;
    for (i = 0; i < NI; i++) for (j = 0; j < NL; j++) D[i][j] = (i * (j + 2) % NK) / (double)NK;
    kernel_mm2(NI, NJ, NK, NL, 1.5, 1.2, tmp, A, B, C, D);
    for (i = 0; i < NI; i++) s += D[i][i % NL];
    printf("%g\n", s);
    free(tmp); free(A); free(B); free(C); free(D);
    return 0;
}
