/* atax-like: tmp = A x (rows), y = A' tmp (a column walk), n = 1536, R repetitions */
#include <stdio.h>
#define N 1536
#define R 30
static double A[N][N], x[N], y[N], tmp[N];
int main(void) {
    int r, i, j;
    double s = 0;
    for (i = 0; i < N; i++) {
        x[i] = 1.0 + i / (double)N;
        for (j = 0; j < N; j++) A[i][j] = ((i + j) % N) / (5.0 * N);
    }
    for (r = 0; r < R; r++) {
        for (i = 0; i < N; i++) y[i] = 0;
        for (i = 0; i < N; i++) {
            tmp[i] = 0;
            for (j = 0; j < N; j++) tmp[i] = tmp[i] + A[i][j] * x[j];
        }
        for (j = 0; j < N; j++)
            for (i = 0; i < N; i++) y[j] = y[j] + A[i][j] * tmp[i];
    }
    for (i = 0; i < N; i++) s += y[i];
    printf("%g\n", s);
    return 0;
}
