/* whetstone.c -- the Whetstone benchmark in C99, written for the sad corpus from the published description
 * of the algorithm (H.J. Curnow and B.A. Wichmann, "A synthetic benchmark", The Computer Journal 19(1),
 * 1976). Twin of whetstone.f: same modules, same weights, same statement order, double precision, 1-based
 * use of the four-element array e1 (e1[0] is unused) so that the index arithmetic of module 6 is the same.
 *
 * Modules (trip counts per unit of loop; loop = 10 is one run of 1 million Whetstone instructions):
 *    1 simple identifiers   0     2 array elements   12     3 array as parameter  14
 *    4 conditional jumps  345     5 (omitted)         0     6 integer arithmetic 210
 *    7 trigonometric fns   32     8 procedure calls 899     9 array references   616
 *   10 integer arithmetic   0    11 standard functions 93
 *
 * Input: loop (the multiplier) on standard input. Output: one line per module (n, j, k, x1..x4 as in the
 * original), the CPU time measured with clock() and the rate.
 */
#include <stdio.h>
#include <math.h>
#include <time.h>

static double t, t1, t2;
static double e1[5];
static int j, k, l;

static void pa(double e[])
{
    int jj;

    jj = 0;
lab1:
    e[1] = (e[1] + e[2] + e[3] - e[4]) * t;
    e[2] = (e[1] + e[2] - e[3] + e[4]) * t;
    e[3] = (e[1] - e[2] + e[3] + e[4]) * t;
    e[4] = (-e[1] + e[2] + e[3] + e[4]) / t2;
    jj = jj + 1;
    if (jj < 6)
        goto lab1;
}

static void p3(double x, double y, double *z)
{
    double x1, y1;

    x1 = x;
    y1 = y;
    x1 = t * (x1 + y1);
    y1 = t * (x1 + y1);
    *z = (x1 + y1) / t2;
}

static void p0(void)
{
    e1[j] = e1[k];
    e1[k] = e1[l];
    e1[l] = e1[j];
}

static void pout(int n, int jj, int kk, double x1, double x2, double x3, double x4)
{
    printf(" %7d%7d%7d%12.4E%12.4E%12.4E%12.4E\n", n, jj, kk, x1, x2, x3, x4);
}

int main(void)
{
    double x1, x2, x3, x4, x, y, z;
    int i, loop;
    int n1, n2, n3, n4, n6, n7, n8, n9, n10, n11;
    clock_t tstart, tend;
    double tused;

    if (scanf("%d", &loop) != 1 || loop < 0)
        return 1;
    tstart = clock();

    t = 0.499975;
    t1 = 0.50025;
    t2 = 2.0;

    n1 = 0;
    n2 = 12 * loop;
    n3 = 14 * loop;
    n4 = 345 * loop;
    n6 = 210 * loop;
    n7 = 32 * loop;
    n8 = 899 * loop;
    n9 = 616 * loop;
    n10 = 0;
    n11 = 93 * loop;

    /* module 1: simple identifiers */
    x1 = 1.0;
    x2 = -1.0;
    x3 = -1.0;
    x4 = -1.0;
    for (i = 1; i <= n1; i++) {
        x1 = (x1 + x2 + x3 - x4) * t;
        x2 = (x1 + x2 - x3 + x4) * t;
        x3 = (x1 - x2 + x3 + x4) * t;
        x4 = (-x1 + x2 + x3 + x4) * t;
    }
    pout(n1, n1, n1, x1, x2, x3, x4);

    /* module 2: array elements */
    e1[1] = 1.0;
    e1[2] = -1.0;
    e1[3] = -1.0;
    e1[4] = -1.0;
    for (i = 1; i <= n2; i++) {
        e1[1] = (e1[1] + e1[2] + e1[3] - e1[4]) * t;
        e1[2] = (e1[1] + e1[2] - e1[3] + e1[4]) * t;
        e1[3] = (e1[1] - e1[2] + e1[3] + e1[4]) * t;
        e1[4] = (-e1[1] + e1[2] + e1[3] + e1[4]) * t;
    }
    pout(n2, n3, n2, e1[1], e1[2], e1[3], e1[4]);

    /* module 3: array as parameter */
    for (i = 1; i <= n3; i++)
        pa(e1);
    pout(n3, n2, n2, e1[1], e1[2], e1[3], e1[4]);

    /* module 4: conditional jumps */
    j = 1;
    for (i = 1; i <= n4; i++) {
        if (j == 1)
            j = 2;
        else
            j = 3;
        if (j > 2)
            j = 0;
        else
            j = 1;
        if (j < 1)
            j = 1;
        else
            j = 0;
    }
    pout(n4, j, j, x1, x2, x3, x4);

    /* module 5: omitted */

    /* module 6: integer arithmetic */
    j = 1;
    k = 2;
    l = 3;
    for (i = 1; i <= n6; i++) {
        j = j * (k - j) * (l - k);
        k = l * k - (l - j) * k;
        l = (l - k) * (k + j);
        e1[l - 1] = (double)(j + k + l);
        e1[k - 1] = (double)(j * k * l);
    }
    pout(n6, j, k, e1[1], e1[2], e1[3], e1[4]);

    /* module 7: trigonometric functions */
    x = 0.5;
    y = 0.5;
    for (i = 1; i <= n7; i++) {
        x = t * atan(t2 * sin(x) * cos(x) / (cos(x + y) + cos(x - y) - 1.0));
        y = t * atan(t2 * sin(y) * cos(y) / (cos(x + y) + cos(x - y) - 1.0));
    }
    pout(n7, j, k, x, x, y, y);

    /* module 8: procedure calls */
    x = 1.0;
    y = 1.0;
    z = 1.0;
    for (i = 1; i <= n8; i++)
        p3(x, y, &z);
    pout(n8, j, k, x, y, z, z);

    /* module 9: array references */
    j = 1;
    k = 2;
    l = 3;
    e1[1] = 1.0;
    e1[2] = 2.0;
    e1[3] = 3.0;
    for (i = 1; i <= n9; i++)
        p0();
    pout(n9, j, k, e1[1], e1[2], e1[3], e1[4]);

    /* module 10: integer arithmetic */
    j = 2;
    k = 3;
    for (i = 1; i <= n10; i++) {
        j = j + k;
        k = j + k;
        j = k - j;
        k = k - j - j;
    }
    pout(n10, j, k, x1, x2, x3, x4);

    /* module 11: standard functions */
    x = 0.75;
    for (i = 1; i <= n11; i++)
        x = sqrt(exp(log(x) / t1));
    pout(n11, j, k, x, x, x, x);

    tend = clock();
    tused = (double)(tend - tstart) / CLOCKS_PER_SEC;
    printf(" LOOP =%6d   CPU TIME =%10.4f S\n", loop, tused);
    if (tused > 0.0 && loop > 0)
        printf(" TIME PER 1 MWI =%14.1f US   RATE =%12.1f KWIPS\n", 1.0e6 * tused / (0.1 * loop), 100.0 * loop / tused);
    return 0;
}
