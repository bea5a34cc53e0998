/* triangular solve with many right-hand sides: L X = B, L lower triangular, X overwrites B row by row */
#include <stdio.h>
#ifndef N
#define N 1200
#endif
#ifndef R
#define R 1
#endif
static double Lm[N][N], B[N][N];
int main(void) {
    int r, i, j, k;
    double s = 0;
    for (r = 0; r < R; r++) {
        for (i = 0; i < N; i++) {
            for (j = 0; j < N; j++) {
                Lm[i][j] = j <= i ? (double)((i + 2 * j) % 7 + 1) / (7.0 * N) : 0.0;
                B[i][j] = (double)((i * j) % 11) / 11.0;
            }
            Lm[i][i] = 1.0 + (double)(i % 3);
        }
        for (i = 0; i < N; i++) {
            for (k = 0; k < i; k++)
                for (j = 0; j < N; j++)
                    B[i][j] -= Lm[i][k] * B[k][j];
            for (j = 0; j < N; j++)
                B[i][j] /= Lm[i][i];
        }
        s += B[N - 1][N - 1];
    }
    printf("%g\n", s);
    return 0;
}
