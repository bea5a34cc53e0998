/* jacobi.c -- sad corpus: 2-D Jacobi relaxation of the Laplace equation on an (n+2) x (n+2) grid.
 * Reads n and the number of sweeps from standard input. The top boundary row is held at 1, the rest at 0.
 * Each sweep computes v from u (five-point average), then copies v back into u.
 * Prints a checksum of the interior. One statement per line (see expected.yaml).
 */
#include <stdio.h>

#define NMAX 256

static double u[NMAX + 2][NMAX + 2];
static double v[NMAX + 2][NMAX + 2];

int main(void)
{
    int n, nsweeps;
    int i, j, it;
    double check;

    if (scanf("%d %d", &n, &nsweeps) != 2 || n < 0 || n > NMAX)
        return 1;
    for (i = 0; i < n + 2; i++)
        for (j = 0; j < n + 2; j++) {
            u[i][j] = 0.0;
            v[i][j] = 0.0;
        }
    for (j = 0; j < n + 2; j++) {
        u[0][j] = 1.0;
        v[0][j] = 1.0;
    }
    for (it = 0; it < nsweeps; it++) {
        for (i = 1; i <= n; i++)
            for (j = 1; j <= n; j++)
                v[i][j] = 0.25 * (u[i - 1][j] + u[i + 1][j] + u[i][j - 1] + u[i][j + 1]);
        for (i = 1; i <= n; i++)
            for (j = 1; j <= n; j++)
                u[i][j] = v[i][j];
    }
    check = 0.0;
    for (i = 1; i <= n; i++)
        for (j = 1; j <= n; j++)
            check += u[i][j] * (double)(i + j);
    printf("jacobi: n = %d  sweeps = %d  checksum = %.12e\n", n, nsweeps, check);
    return 0;
}
