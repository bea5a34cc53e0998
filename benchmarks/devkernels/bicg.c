/* bicg-like: q = A p and s = A^T r in one sweep over the matrix */
#include <stdio.h>
#ifndef N
#define N 2400
#endif
#ifndef R
#define R 30
#endif
static double A[N][N], p[N], r[N], q[N], s[N];
int main(void) {
    int t, i, j;
    double sum = 0;
    for (i = 0; i < N; i++) {
        p[i] = (double)(i % 17) / 17;
        r[i] = (double)(i % 23) / 23;
        for (j = 0; j < N; j++)
            A[i][j] = (double)((i * (j + 1)) % N) / N;
    }
    for (t = 0; t < R; t++) {
        for (j = 0; j < N; j++)
            s[j] = 0;
        for (i = 0; i < N; i++) {
            q[i] = 0;
            for (j = 0; j < N; j++) {
                s[j] = s[j] + r[i] * A[i][j];
                q[i] = q[i] + A[i][j] * p[j];
            }
        }
    }
    for (i = 0; i < N; i++) sum += q[i] + s[i];
    printf("%g\n", sum);
    return 0;
}
