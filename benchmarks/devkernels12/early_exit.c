/* a search per row that stops at the first element over a threshold */
#include <stdio.h>
#ifndef N
#define N 2000
#endif
#ifndef R
#define R 200
#endif
static double a[N][N];
static int first[N];
int main(void) {
    int i, j, r;
    long total = 0;
    unsigned s = 7u;
    for (i = 0; i < N; i++)
        for (j = 0; j < N; j++) {
            s = s * 1664525u + 1013904223u;
            a[i][j] = (s >> 8) / 16777216.0;
        }
    for (r = 0; r < R; r++) {
        double t = 0.9990 + 0.000002 * r;
        for (i = 0; i < N; i++) {
            first[i] = N;
            for (j = 0; j < N; j++)
                if (a[i][j] > t) { first[i] = j; break; }
            total += first[i];
        }
    }
    printf("%ld\n", total);
    return 0;
}
