/* row dot products: y = A x with one scalar sum per row, kept in order (a serial chain at -O2), the matrix
   streamed from memory row after row */
#include <stdio.h>
#ifndef N
#define N 2600
#endif
#ifndef R
#define R 40
#endif
static double A[N][N], x[N], y[N];
int main(void) {
    int r, i, j;
    double s, total = 0;
    for (i = 0; i < N; i++) {
        x[i] = 1.0 / (i + 1);
        for (j = 0; j < N; j++)
            A[i][j] = (double)((i * 3 + j * 7) % 11) - 5.0;
    }
    for (r = 0; r < R; r++) {
        for (i = 0; i < N; i++) {
            s = 0.0;
            for (j = 0; j < N; j++)
                s += A[i][j] * x[j];
            y[i] = s;
        }
        x[r % N] += y[(r + 1) % N] * 1e-9;
    }
    for (i = 0; i < N; i++) total += y[i];
    printf("%g\n", total);
    return 0;
}
