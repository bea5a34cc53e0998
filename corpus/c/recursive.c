/* recursive.c -- sad corpus: recursive functions called from main.
 * Reads n (Fibonacci argument, n >= 0) and m (array length for a recursive sum, 0 <= m <= MMAX).
 * fib(n) makes 2*F(n+1) - 1 calls (F = Fibonacci numbers); rsum(x, m) recurses m + 1 times.
 * Prints fib(n) and the sum. One statement per line (see expected.yaml).
 */
#include <stdio.h>

#define MMAX 4096

static double x[MMAX];

static long fib(int k)
{
    if (k < 2)
        return k;
    return fib(k - 1) + fib(k - 2);
}

static double rsum(const double *v, int len)
{
    if (len == 0)
        return 0.0;
    return v[len - 1] + rsum(v, len - 1);
}

int main(void)
{
    int n, m;
    int i;
    long f;
    double s;

    if (scanf("%d %d", &n, &m) != 2 || n < 0 || m < 0 || m > MMAX)
        return 1;
    for (i = 0; i < m; i++)
        x[i] = 1.0 / (double)(i + 1);
    f = fib(n);
    s = rsum(x, m);
    printf("recursive: fib(%d) = %ld  rsum(%d) = %.12e\n", n, f, m, s);
    return 0;
}
