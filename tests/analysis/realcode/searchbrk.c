/* A for loop left by break on data: i runs over 0, 1, ... for X trips,
   and the callee's size i is summed over them */
#include <stdio.h>

static double tri(int m, double *a)
{
    double s = 0;
    int l;
    for (l = 0; l < m; l++)
        s += a[l];
    return s;
}

int main(void)
{
    double a[12], s = 0;
    int i;
    for (i = 0; i < 12; i++)
        a[i] = 12 - i;
    for (i = 0; i < 12; i++) {
        s += tri(i, a);
        if (a[i] < 4.5)
            break;
    }
    printf("%f\n", s);
    return 0;
}
