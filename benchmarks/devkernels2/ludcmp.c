/* ludcmp-like: LU factorization (row-oriented dot products), then forward and backward substitution */
#include <stdio.h>
#ifndef N
#define N 1000
#endif
static double A[N][N], b[N], x[N], y[N];
int main(void) {
    int i, j, k;
    double w, s = 0;
    for (i = 0; i < N; i++) {
        x[i] = 0;
        y[i] = 0;
        b[i] = (i + 1) / (double)N / 2.0 + 4;
        for (j = 0; j <= i; j++)
            A[i][j] = (double)(-j % N) / N + 1;
        for (j = i + 1; j < N; j++)
            A[i][j] = 0;
        A[i][i] = A[i][i] + N;
    }
    for (i = 0; i < N; i++) {
        for (j = 0; j < i; j++) {
            w = A[i][j];
            for (k = 0; k < j; k++)
                w -= A[i][k] * A[k][j];
            A[i][j] = w / A[j][j];
        }
        for (j = i; j < N; j++) {
            w = A[i][j];
            for (k = 0; k < i; k++)
                w -= A[i][k] * A[k][j];
            A[i][j] = w;
        }
    }
    for (i = 0; i < N; i++) {
        w = b[i];
        for (j = 0; j < i; j++)
            w -= A[i][j] * y[j];
        y[i] = w;
    }
    for (i = N - 1; i >= 0; i--) {
        w = y[i];
        for (j = i + 1; j < N; j++)
            w -= A[i][j] * x[j];
        x[i] = w / A[i][i];
    }
    for (i = 0; i < N; i++) s += x[i];
    printf("%g\n", s);
    return 0;
}
