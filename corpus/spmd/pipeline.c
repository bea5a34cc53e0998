/* A pipeline in the style of a dynamic-programming wavefront, with MPI. The m x n table
   a(i, j) = (a(i-1, j) + a(i, j-1)) / 2 + 1 (row 0 and column 0 are 1) is cut into column blocks of
   ncol = n / nprocs, one per process; the rows are swept in stages of blk rows: in each stage a
   process receives the blk boundary values of its left neighbour's last column, computes its blk x ncol
   cells and sends its own last column's blk values to its right neighbour. The block size blk trades
   the number of messages (m / blk per process) against their size (8 blk bytes).
   Input (rank 0, broadcast): m, n, blk. Rank 0 gathers each rank's sum of its cells and prints them. */
#include <stdio.h>
#include <mpi.h>

#define MAXM 4096
#define MAXC 1024

static double a[MAXC + 1][MAXM + 1];   /* a[j][i]: column j of the local block, row i; column 0 is the
                                          left neighbour's last column */
static double sums[1024];

int main(int argc, char **argv)
{
    int me, nprocs, m = 0, n = 0, blk = 1, ncol, nstages, stage, i0, i, j;
    double local, total;
    MPI_Status st;
    MPI_Init(&argc, &argv);
    MPI_Comm_size(MPI_COMM_WORLD, &nprocs);
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    if (me == 0)
        if (scanf("%d %d %d", &m, &n, &blk) != 3)
            return 1;
    MPI_Bcast(&m, 1, MPI_INT, 0, MPI_COMM_WORLD);
    MPI_Bcast(&n, 1, MPI_INT, 0, MPI_COMM_WORLD);
    MPI_Bcast(&blk, 1, MPI_INT, 0, MPI_COMM_WORLD);
    ncol = n / nprocs;
    nstages = m / blk;
    for (j = 0; j <= ncol; j++)
        a[j][0] = 1.0;
    for (i = 0; i <= m; i++)
        a[0][i] = 1.0;
    for (stage = 0; stage < nstages; stage++) {
        i0 = stage * blk + 1;
        if (me > 0)
            MPI_Recv(&a[0][i0], blk, MPI_DOUBLE, me - 1, stage, MPI_COMM_WORLD, &st);
        for (j = 1; j <= ncol; j++)
            for (i = 0; i < blk; i++)
                a[j][i0 + i] = 0.5 * (a[j][i0 + i - 1] + a[j - 1][i0 + i]) + 1.0;
        if (me < nprocs - 1)
            MPI_Send(&a[ncol][i0], blk, MPI_DOUBLE, me + 1, stage, MPI_COMM_WORLD);
    }
    local = 0.0;
    for (j = 1; j <= ncol; j++)
        for (i = 1; i <= nstages * blk; i++)
            local = local + a[j][i];
    MPI_Gather(&local, 1, MPI_DOUBLE, sums, 1, MPI_DOUBLE, 0, MPI_COMM_WORLD);
    if (me == 0) {
        total = 0.0;
        for (i = 0; i < nprocs; i++)
            total = total + sums[i];
        printf("total %.6f\n", total);
    }
    MPI_Finalize();
    return 0;
}
