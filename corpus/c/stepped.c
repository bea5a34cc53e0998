/* stepped.c -- sad corpus: for loops with non-unit steps, decrementing loops, <=, >=, != conditions,
 * a loop whose range is empty at the sample input, and a triangular nest with a step of 2.
 * Reads n, lo, hi from standard input (n >= 0). Prints the sum of all visited indices.
 * One statement per line (see expected.yaml).
 */
#include <stdio.h>

int main(void)
{
    int n, lo, hi;
    int i, j;
    long s;

    if (scanf("%d %d %d", &n, &lo, &hi) != 3 || n < 0)
        return 1;
    s = 0;
    for (i = 0; i < n; i += 3)
        s += i;
    for (i = n; i > 0; i -= 2)
        s += i;
    for (i = 1; i <= n; i++)
        s += i;
    for (i = n; i >= 1; i--)
        s -= i;
    for (i = 0; i != n; i++)
        s += 1;
    for (i = n - 1; i >= 0; i--)
        s += 2;
    for (i = hi; i < lo; i++)
        s += 1000;
    for (i = hi; i <= lo; i += 2)
        s += 1000;
    for (i = lo; i <= hi; i += 3)
        s += i;
    for (i = hi; i >= lo; i -= 4)
        s -= i;
    for (i = 0; i < n; i += 2)
        for (j = i; j < n; j++)
            s += j - i;
    printf("stepped: n = %d  lo = %d  hi = %d  sum = %ld\n", n, lo, hi, s);
    return 0;
}
