/* red-black successive over-relaxation for the 2-D Poisson equation: each sweep updates the points with i + j
   even, then those with i + j odd, in place (stride-2 inner loops) */
#include <stdio.h>
#ifndef N
#define N 1500
#endif
#ifndef T
#define T 60
#endif
static double U[N][N], F[N][N];
int main(void) {
    int t, i, j, c;
    double w = 1.5, h2 = 1.0 / ((double)N * N), s = 0;
    for (i = 0; i < N; i++)
        for (j = 0; j < N; j++) {
            U[i][j] = 0.0;
            F[i][j] = (double)((i * j) % 5) - 2.0;
        }
    for (t = 0; t < T; t++)
        for (c = 0; c < 2; c++)
            for (i = 1; i < N - 1; i++)
                for (j = 1 + (i + c) % 2; j < N - 1; j += 2)
                    U[i][j] = (1 - w) * U[i][j]
                            + w * 0.25 * (U[i - 1][j] + U[i + 1][j] + U[i][j - 1] + U[i][j + 1] - h2 * F[i][j]);
    for (i = 0; i < N; i++) s += U[i][N / 2];
    printf("%g\n", s);
    return 0;
}
