#include <stdio.h>
enum { M = 7 };
static const int steps = 5;

static void work(int n, double *a)
{
    int i;
    for (i = 0; i < n; i++)
        a[i] = a[i] * 2.0;
}

int main(void)
{
    double a[64];
    int i, k, s = 0;
    for (i = 0; i < 64; i++)
        a[i] = 1.0;
    for (i = M; i < 3; i++)
        s++;
    for (k = 1; k <= M; k++)
        s += k;
    for (k = 0; k < steps * 4; k++)
        work(steps, a);
    work(M, a);
    printf("%d %f\n", s, a[0]);
    return 0;
}
