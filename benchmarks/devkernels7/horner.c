/* a polynomial of degree D evaluated by Horner's rule at each of N points: a chain of multiply-adds per
   point, a short inner loop of fixed trip count */
#include <stdio.h>
#ifndef N
#define N 2000000
#endif
#ifndef D
#define D 16
#endif
#ifndef R
#define R 50
#endif
static double X[N], Y[N], C[D + 1];
int main(void) {
    int r, i, d;
    double s = 0.0;
    for (d = 0; d <= D; d++) C[d] = 1.0 / (d + 1);
    for (i = 0; i < N; i++) X[i] = (double)(i % 1000) / 1000.0;
    for (r = 0; r < R; r++)
        for (i = 0; i < N; i++) {
            double p = C[D];
            for (d = D - 1; d >= 0; d--) p = p * X[i] + C[d];
            Y[i] = p;
        }
    for (i = 0; i < N; i += 100) s += Y[i];
    printf("%g\n", s);
    return 0;
}
