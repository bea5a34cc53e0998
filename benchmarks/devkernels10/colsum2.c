/* the column sums of colsum.c with the row loop unrolled by hand: two rows an iteration, two sums */
#include <stdio.h>
#ifndef R
#define R 2000
#endif
#ifndef REPS
#define REPS 200
#endif
#define C 1100
static double A[R][C];
int main(void) {
    long i, j, r;
    double s0 = 0.0, s1 = 0.0;
    for (i = 0; i < R; i++)
        for (j = 0; j < C; j++) A[i][j] = 1.0 + (i ^ j) * 1e-9;
    for (r = 0; r < REPS; r++)
        for (j = 0; j < C; j++)
            for (i = 0; i < R; i += 2) { s0 += A[i][j]; s1 += A[i + 1][j]; }
    printf("%g\n", s0 + s1);
    return 0;
}
