/* pipeline_gb.c -- sad corpus: a pipeline in the style of a dynamic-programming wavefront with MPI and the
 * two tuning parameters of the La Laguna pipeline tool: the grain g (columns per band; the n columns are cut
 * into bands of g, band k on process k mod nprocs, so each process is a chain of virtual processes) and the
 * buffer b (rows per message; the m rows are swept in stages of b). The table is
 * a(i, j) = (a(i-1, j) + a(i, j-1)) / 2 + 1 with row 0 and column 0 equal to 1. In each stage a band receives
 * the b boundary values of the band on its left, computes its g x b cells and sends its last column's b
 * values to the band on its right: g and b trade the number of messages against their size and the
 * pipeline's start-up. Input (rank 0, broadcast): m n g b with m % b == 0 and n % (g * nprocs) == 0.
 * Prints the sum of all cells. One statement per line.
 */
#include <stdio.h>
#include <mpi.h>

#define MAXM 2048
#define MAXN 2048

static double a[MAXN + 1][MAXM + 1];   /* a[j][i]: column j, row i (global indices; column 0 is the border) */

int main(int argc, char **argv)
{
    int me, nprocs, m = 0, n = 0, g = 1, b = 1;
    int nbands, nrounds, nstages, t, stage, i0, j0, i, j, left, right;
    double local, total;
    MPI_Status st;

    MPI_Init(&argc, &argv);
    MPI_Comm_size(MPI_COMM_WORLD, &nprocs);
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    if (me == 0)
        if (scanf("%d %d %d %d", &m, &n, &g, &b) != 4)
            return 1;
    MPI_Bcast(&m, 1, MPI_INT, 0, MPI_COMM_WORLD);
    MPI_Bcast(&n, 1, MPI_INT, 0, MPI_COMM_WORLD);
    MPI_Bcast(&g, 1, MPI_INT, 0, MPI_COMM_WORLD);
    MPI_Bcast(&b, 1, MPI_INT, 0, MPI_COMM_WORLD);
    nbands = n / g;
    nrounds = nbands / nprocs;
    nstages = m / b;
    left = (me - 1 + nprocs) % nprocs;
    right = (me + 1) % nprocs;
    for (j = 0; j <= n; j++)
        a[j][0] = 1.0;
    for (i = 0; i <= m; i++)
        a[0][i] = 1.0;
    local = 0.0;
    for (t = 0; t < nrounds; t++) {
        j0 = (t * nprocs + me) * g;
        for (stage = 0; stage < nstages; stage++) {
            i0 = stage * b + 1;
            if (t * nprocs + me > 0)
                MPI_Recv(&a[j0][i0], b, MPI_DOUBLE, left, stage, MPI_COMM_WORLD, &st);
            for (j = 1; j <= g; j++)
                for (i = 0; i < b; i++)
                    a[j0 + j][i0 + i] = 0.5 * (a[j0 + j][i0 + i - 1] + a[j0 + j - 1][i0 + i]) + 1.0;
            if (t * nprocs + me < nrounds * nprocs - 1)
                MPI_Send(&a[j0 + g][i0], b, MPI_DOUBLE, right, stage, MPI_COMM_WORLD);
        }
        for (j = 1; j <= g; j++)
            for (i = 1; i <= m; i++)
                local = local + a[j0 + j][i];
    }
    MPI_Reduce(&local, &total, 1, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);
    if (me == 0)
        printf("pipeline_gb: m = %d  n = %d  g = %d  b = %d  total = %.6f\n", m, n, g, b, total);
    MPI_Finalize();
    return 0;
}
