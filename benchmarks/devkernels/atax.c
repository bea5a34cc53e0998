/* atax-like: y = A^T (A x), two passes over one matrix per repetition */
#include <stdio.h>
#ifndef M
#define M 2000
#endif
#ifndef N
#define N 2200
#endif
#ifndef R
#define R 40
#endif
static double A[M][N], x[N], y[N], tmp[M];
int main(void) {
    int r, i, j;
    double s = 0;
    for (i = 0; i < M; i++)
        for (j = 0; j < N; j++)
            A[i][j] = (double)((i + 3 * j) % N) / (5 * M);
    for (j = 0; j < N; j++)
        x[j] = 1 + (double)j / N;
    for (r = 0; r < R; r++) {
        for (j = 0; j < N; j++)
            y[j] = 0;
        for (i = 0; i < M; i++) {
            tmp[i] = 0;
            for (j = 0; j < N; j++)
                tmp[i] = tmp[i] + A[i][j] * x[j];
            for (j = 0; j < N; j++)
                y[j] = y[j] + A[i][j] * tmp[i];
        }
    }
    for (j = 0; j < N; j++) s += y[j];
    printf("%g\n", s);
    return 0;
}
