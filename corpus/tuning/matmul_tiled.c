/* matmul_tiled.c -- sad corpus: C = A * B with square tiles of ts x ts (loop tiling, i-k-j inside a tile).
 * Reads n and the tile size ts from standard input; n <= NMAX and ts must divide n (the tuning grid uses
 * the constraint n % ts == 0). ts is the tuning parameter of `sad tune`: it changes the time, not the result.
 * Double precision, row-major static arrays. Prints a checksum of C. One statement per line.
 */
#include <stdio.h>

#define NMAX 1024

static double a[NMAX][NMAX];
static double b[NMAX][NMAX];
static double c[NMAX][NMAX];

int main(void)
{
    int n, ts;
    int i, j, k, ii, jj, kk;
    double aik, check;

    if (scanf("%d %d", &n, &ts) != 2 || n < 1 || n > NMAX || ts < 1 || n % ts != 0)
        return 1;
    for (i = 0; i < n; i++)
        for (j = 0; j < n; j++) {
            a[i][j] = 1.0 / (double)(i + j + 1);
            b[i][j] = (double)((i + 2 * j) % 7) - 3.0;
            c[i][j] = 0.0;
        }
    for (ii = 0; ii < n; ii += ts)
        for (kk = 0; kk < n; kk += ts)
            for (jj = 0; jj < n; jj += ts)
                for (i = ii; i < ii + ts; i++)
                    for (k = kk; k < kk + ts; k++) {
                        aik = a[i][k];
                        for (j = jj; j < jj + ts; j++)
                            c[i][j] += aik * b[k][j];
                    }
    check = 0.0;
    for (i = 0; i < n; i++)
        for (j = 0; j < n; j++)
            check += c[i][j] * (double)(1 + (i + j) % 5);
    printf("matmul_tiled: n = %d  ts = %d  checksum = %.12e\n", n, ts, check);
    return 0;
}
