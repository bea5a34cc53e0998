/* Livermore loop 6, general linear recurrence: a triangular nest reading b by columns */
#include <stdio.h>
#ifndef N
#define N 64
#endif
#ifndef R
#define R 40000
#endif
static double w[N], b[N][N];
int main(void) {
    int i, k, r;
    double s = 0.0;
    for (i = 0; i < N; i++) for (k = 0; k < N; k++) b[i][k] = ((i + k) % 7) * 0.001;
    for (r = 0; r < R; r++)
        for (i = 1; i < N; i++) {
            w[i] = 0.01;
            for (k = 0; k < i; k++)
                w[i] += b[k][i] * w[(i - k) - 1];
        }
    for (i = 0; i < N; i++) s += w[i];
    printf("%g\n", s);
    return 0;
}
