/* mvt-like: x1 = x1 + A y1 (rows) and x2 = x2 + A' y2 (a column walk), R times */
#include <stdio.h>
#ifndef N
#define N 2000
#endif
#define R 10
static double A[N][N], x1[N], x2[N], y1[N], y2[N];
int main(void) {
    int r, i, j;
    double s = 0;
    for (i = 0; i < N; i++) {
        x1[i] = 0; x2[i] = 0; y1[i] = (double)(i % 17) / N; y2[i] = (double)(i % 19) / N;
        for (j = 0; j < N; j++)
            A[i][j] = (double)(i * j % N) / N;
    }
    for (r = 0; r < R; r++) {
        for (i = 0; i < N; i++)
            for (j = 0; j < N; j++)
                x1[i] = x1[i] + A[i][j] * y1[j];
        for (i = 0; i < N; i++)
            for (j = 0; j < N; j++)
                x2[i] = x2[i] + A[j][i] * y2[j];
    }
    for (i = 0; i < N; i++) s += x1[i] + x2[i];
    printf("%g\n", s);
    return 0;
}
