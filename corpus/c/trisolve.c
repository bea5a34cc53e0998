/* trisolve.c -- sad corpus: forward substitution, solve L x = b for lower-triangular L.
 * Reads n from standard input. The inner loop runs j = 0 .. i-1 (a triangular nest).
 * Prints a checksum of x. One statement per line (see expected.yaml).
 */
#include <stdio.h>

#define NMAX 512

static double l[NMAX][NMAX];
static double b[NMAX];
static double x[NMAX];

int main(void)
{
    int n;
    int i, j;
    double s, check;

    if (scanf("%d", &n) != 1 || n < 0 || n > NMAX)
        return 1;
    for (i = 0; i < n; i++) {
        for (j = 0; j < i; j++)
            l[i][j] = 1.0 / (double)(i + j + 2);
        l[i][i] = 2.0 + (double)i;
        b[i] = (double)(i % 10) + 1.0;
    }
    for (i = 0; i < n; i++) {
        s = b[i];
        for (j = 0; j < i; j++)
            s = s - l[i][j] * x[j];
        x[i] = s / l[i][i];
    }
    check = 0.0;
    for (i = 0; i < n; i++)
        check = check + x[i] * (double)(i + 1);
    printf("trisolve: n = %d  checksum = %.12e\n", n, check);
    return 0;
}
