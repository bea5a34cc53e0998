/* matmul_jki.c -- sad corpus: C = A * B, loop order JKI (outermost j, innermost i).
 * Reads n from standard input; n <= NMAX. Double precision, row-major static arrays.
 * Prints a checksum of C. One statement per line (see expected.yaml).
 */
#include <stdio.h>

#define NMAX 256

static double a[NMAX][NMAX];
static double b[NMAX][NMAX];
static double c[NMAX][NMAX];

int main(void)
{
    int n;
    int i, j, k;
    double check;

    if (scanf("%d", &n) != 1 || n < 0 || n > NMAX)
        return 1;
    for (i = 0; i < n; i++)
        for (j = 0; j < n; j++) {
            a[i][j] = 1.0 / (double)(i + j + 1);
            b[i][j] = (double)((i + 2 * j) % 7) - 3.0;
            c[i][j] = 0.0;
        }
    for (j = 0; j < n; j++)
        for (k = 0; k < n; k++)
            for (i = 0; i < n; i++)
                c[i][j] += a[i][k] * b[k][j];
    check = 0.0;
    for (i = 0; i < n; i++)
        for (j = 0; j < n; j++)
            check += c[i][j] * (double)(1 + (i + j) % 5);
    printf("matmul_jki: n = %d  checksum = %.12e\n", n, check);
    return 0;
}
