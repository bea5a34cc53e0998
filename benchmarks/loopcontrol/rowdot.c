/* a matrix row times a vector into an element of the result: the chain through x[i] (an array element) */
#include <stdio.h>
#define N 1000
#define M 40
#define R 500
static double A[M][N], y[N], x[M];
int main(void) {
    int i, j, r;
    for (i = 0; i < M; i++) for (j = 0; j < N; j++) A[i][j] = (i + j) * 1e-6;
    for (j = 0; j < N; j++) y[j] = j * 1e-3;
    for (r = 0; r < R; r++)
        for (i = 0; i < M; i++)
            for (j = 0; j < N; j++)
                x[i] = x[i] + A[i][j] * y[j];
    printf("%g\n", x[M / 2]);
    return 0;
}
