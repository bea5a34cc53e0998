/* Livermore loop 21, matrix * matrix product in the loop order k, i, j of the original (unit stride inner) */
#include <stdio.h>
#ifndef N
#define N 101
#endif
#ifndef R
#define R 300
#endif
static double px[N][25], vy[25][N], cx[N][25];
int main(void) {
    int i, j, k, r;
    double s = 0.0;
    for (i = 0; i < N; i++) for (j = 0; j < 25; j++) { cx[i][j] = ((i + j) % 5) * 0.01; px[i][j] = 0.0; }
    for (i = 0; i < 25; i++) for (j = 0; j < N; j++) vy[i][j] = ((i * j) % 7) * 0.01;
    for (r = 0; r < R; r++)
        for (k = 0; k < 25; k++)
            for (i = 0; i < 25; i++)
                for (j = 0; j < N; j++)
                    px[j][i] += vy[k][i] * cx[j][k];
    for (i = 0; i < N; i++) for (j = 0; j < 25; j++) s += px[i][j];
    printf("%g\n", s);
    return 0;
}
