/* gemver-like: A = A + u1 v1' + u2 v2'; x = x + beta A' y (a column walk over A); w = w + alpha A x */
#include <stdio.h>
#ifndef N
#define N 2000
#endif
#define R 6
static double A[N][N], u1[N], v1[N], u2[N], v2[N], x[N], y[N], w[N];
int main(void) {
    int r, i, j;
    double alpha = 1.5, beta = 1.2, s = 0;
    for (i = 0; i < N; i++) {
        u1[i] = i; u2[i] = (i + 1) / 2.0; v1[i] = (i + 1) / 4.0; v2[i] = (i + 1) / 6.0;
        y[i] = (i + 1) / 8.0; x[i] = 0.0; w[i] = 0.0;
        for (j = 0; j < N; j++)
            A[i][j] = (double)(i * j % N) / N;
    }
    for (r = 0; r < R; r++) {
        for (i = 0; i < N; i++)
            for (j = 0; j < N; j++)
                A[i][j] = A[i][j] + u1[i] * v1[j] + u2[i] * v2[j];
        for (i = 0; i < N; i++)
            for (j = 0; j < N; j++)
                x[i] = x[i] + beta * A[j][i] * y[j];
        for (i = 0; i < N; i++)
            for (j = 0; j < N; j++)
                w[i] = w[i] + alpha * A[i][j] * x[j];
    }
    for (i = 0; i < N; i++) s += w[i];
    printf("%g\n", s);
    return 0;
}
