/* rangesum_prefix.c -- sad corpus: the queries of rangesum_direct.c answered from prefix sums: one pass of
 * n additions builds p[i] = x[0] + ... + x[i-1], then each query costs two loads and a subtraction. Reads n,
 * len and q from standard input (len < n <= NMAX). Prints the total of all answers (equal to
 * rangesum_direct.c's up to rounding). One statement per line.
 */
#include <stdio.h>

#define NMAX 8000000

static double x[NMAX];
static double p[NMAX + 1];

int main(void)
{
    int n, len, q;
    int i, t, start;
    double run, total;

    if (scanf("%d %d %d", &n, &len, &q) != 3 || n < 2 || n > NMAX || len < 1 || len >= n || q < 0)
        return 1;
    for (i = 0; i < n; i++)
        x[i] = (double)((i * 7) % 13) - 6.0;
    run = 0.0;
    p[0] = 0.0;
    for (i = 0; i < n; i++) {
        run = run + x[i];
        p[i + 1] = run;
    }
    total = 0.0;
    for (t = 0; t < q; t++) {
        start = (int)(((long)t * 7919L) % (long)(n - len));
        total = total + (p[start + len] - p[start]);
    }
    printf("rangesum_prefix: n = %d  len = %d  q = %d  total = %.12e\n", n, len, q, total);
    return 0;
}
