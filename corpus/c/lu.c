/* lu.c -- sad corpus: LU decomposition without pivoting (Doolittle, in place, kij form).
 * Reads n from standard input. The matrix is made strictly diagonally dominant so no pivoting is needed.
 * After the factorization the strict lower triangle holds L (unit diagonal implied) and the upper
 * triangle holds U. Prints the log of the determinant and a checksum. One statement per line.
 */
#include <stdio.h>
#include <math.h>

#define NMAX 256

static double a[NMAX][NMAX];

int main(void)
{
    int n;
    int i, j, k;
    double logdet, check;

    if (scanf("%d", &n) != 1 || n < 0 || n > NMAX)
        return 1;
    for (i = 0; i < n; i++)
        for (j = 0; j < n; j++)
            a[i][j] = 1.0 / (double)(i + 2 * j + 1);
    for (i = 0; i < n; i++)
        a[i][i] = a[i][i] + (double)n;
    for (k = 0; k < n; k++) {
        for (i = k + 1; i < n; i++) {
            a[i][k] = a[i][k] / a[k][k];
            for (j = k + 1; j < n; j++)
                a[i][j] = a[i][j] - a[i][k] * a[k][j];
        }
    }
    logdet = 0.0;
    check = 0.0;
    for (i = 0; i < n; i++) {
        logdet = logdet + log(a[i][i]);
        for (j = 0; j < n; j++)
            check = check + a[i][j];
    }
    printf("lu: n = %d  log(det) = %.12e  checksum = %.12e\n", n, logdet, check);
    return 0;
}
