/* rank-1 updates: A += alpha x y^T, a new pair of vectors each time */
#include <stdio.h>
#ifndef M
#define M 2000
#endif
#ifndef N
#define N 2000
#endif
#ifndef R
#define R 200
#endif
static double A[M][N], x[M], y[N];
int main(void) {
    int r, i, j;
    double s = 0, alpha = 1e-3;
    for (i = 0; i < M; i++) {
        x[i] = (double)(i % 13) / 13.0;
        for (j = 0; j < N; j++)
            A[i][j] = (double)((i ^ j) % 9) / 9.0;
    }
    for (j = 0; j < N; j++)
        y[j] = (double)(j % 7) / 7.0;
    for (r = 0; r < R; r++) {
        for (i = 0; i < M; i++)
            for (j = 0; j < N; j++)
                A[i][j] += alpha * x[i] * y[j];
        x[r % M] = A[r % M][(r + 1) % N];
        y[r % N] = -x[(r + 3) % M];
    }
    for (i = 0; i < M; i++) s += A[i][M - 1 - i];
    printf("%g\n", s);
    return 0;
}
