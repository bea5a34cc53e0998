/* Jacobi sweeps on an n x n grid: the largest change by a select, a boundary test on the index */
#include <stdio.h>
#include <stdlib.h>

#define NMAX 256

static double u[NMAX][NMAX], v[NMAX][NMAX];

int main(void)
{
    int n, maxit, i, j, it, edge = 0;
    double d, diff = 0.0, floor_ = 1.0e30;
    if (scanf("%d %d", &n, &maxit) != 2 || n > NMAX)
        return 1;
    for (j = 0; j < n; j++)
        for (i = 0; i < n; i++) {
            u[j][i] = 0.0;
            v[j][i] = 0.0;
        }
    for (j = 0; j < n; j++)
        u[j][0] = v[j][0] = 1.0;
    for (it = 0; it < maxit; it++) {
        diff = 0.0;
        for (j = 1; j < n - 1; j++)
            for (i = 1; i < n - 1; i++) {
                v[j][i] = 0.25 * (u[j][i - 1] + u[j][i + 1] + u[j - 1][i] + u[j + 1][i]);
                d = v[j][i] - u[j][i];
                d = d < 0.0 ? -d : d;
                diff = d > diff ? d : diff;
                floor_ = d < -1.0 ? d : floor_;
            }
        for (j = 1; j < n - 1; j++)
            for (i = 1; i < n - 1; i++) {
                if (i == 1)
                    edge++;
                u[j][i] = v[j][i];
            }
    }
    printf("%d %g %g %d\n", it, diff, floor_, edge);
    return 0;
}
