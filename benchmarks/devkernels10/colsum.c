/* column sums of a static R x 1100 array of doubles, repeated REPS times: each column walked down its R rows
   (8 800 B apart, a page each), the line moved along by the next column, a new one every eighth column */
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
    double s = 0.0;
    for (i = 0; i < R; i++)
        for (j = 0; j < C; j++) A[i][j] = 1.0 + (i ^ j) * 1e-9;
    for (r = 0; r < REPS; r++)
        for (j = 0; j < C; j++)
            for (i = 0; i < R; i++) s += A[i][j];
    printf("%g\n", s);
    return 0;
}
