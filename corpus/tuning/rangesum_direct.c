/* rangesum_direct.c -- sad corpus: q range-sum queries over an array of n doubles, each window of len
 * elements summed directly (no set-up, q*len additions). Variant of rangesum_prefix.c, which answers the same
 * queries from prefix sums (n additions once, then two loads per query): `sad compare` finds the query
 * count from which the prefix sums win. Reads n, len and q from standard input (len < n <= NMAX).
 * Prints the total of all answers. One statement per line.
 */
#include <stdio.h>

#define NMAX 8000000

static double x[NMAX];

int main(void)
{
    int n, len, q;
    int i, t, start;
    double s, total;

    if (scanf("%d %d %d", &n, &len, &q) != 3 || n < 2 || n > NMAX || len < 1 || len >= n || q < 0)
        return 1;
    for (i = 0; i < n; i++)
        x[i] = (double)((i * 7) % 13) - 6.0;
    total = 0.0;
    for (t = 0; t < q; t++) {
        start = (int)(((long)t * 7919L) % (long)(n - len));
        s = 0.0;
        for (i = 0; i < len; i++)
            s = s + x[start + i];
        total = total + s;
    }
    printf("rangesum_direct: n = %d  len = %d  q = %d  total = %.12e\n", n, len, q, total);
    return 0;
}
