#include <stdio.h>

static long fib(int n)
{
    if (n < 2)
        return n;
    return fib(n - 1) + fib(n - 2);
}

static double tree(const double *x, int lo, int hi)
{
    int mid;
    if (hi - lo == 1)
        return x[lo];
    mid = lo + (hi - lo) / 2;
    return tree(x, lo, mid) + tree(x, mid, hi);
}

int main(void)
{
    double x[100];
    int i;
    for (i = 0; i < 100; i++)
        x[i] = 1.0 / (i + 1);
    printf("%ld %f\n", fib(12), tree(x, 0, 100));
    return 0;
}
