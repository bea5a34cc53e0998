/* gemm-like i-k-j: C[i][j] += A[i][k] * B[k][j], n = 1100 (B 9.7 MB reused over i) */
#include <stdio.h>
#define N 1100
static double A[N][N], B[N][N], C[N][N];
int main(void) {
    int i, j, k;
    double s = 0;
    for (i = 0; i < N; i++)
        for (j = 0; j < N; j++) { A[i][j] = (i + j) % 7 / 7.0; B[i][j] = (i * j) % 5 / 5.0; C[i][j] = 0; }
    for (i = 0; i < N; i++)
        for (k = 0; k < N; k++)
            for (j = 0; j < N; j++)
                C[i][j] += A[i][k] * B[k][j];
    for (i = 0; i < N; i++) s += C[i][i];
    printf("%g\n", s);
    return 0;
}
