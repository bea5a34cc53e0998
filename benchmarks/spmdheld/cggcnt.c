/* CG after Brehm 1999, Fig. 6.17, with MPI collectives, in C: the rows are dealt out unevenly in general
 * (the first n % nprocs ranks take one more), each rank's count reaches rank 0 in an MPI_Gather of ints,
 * rank 0 builds the displacements from them and collects the search vector with MPI_Gatherv, then
 * broadcasts it; the two global sums are MPI_Reduce to rank 0 and MPI_Bcast. Rank 0 prints the residual
 * every iteration (a rank-dependent printf in the iteration loop). */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

#define N 1024
#define ITERS 1

static double a[N][N], p[N], q[N], x[N], r[N], mine[N];
static int counts[4096], displs[4096];

static double global_sum(double v)
{
    double s = 0.0;
    MPI_Reduce(&v, &s, 1, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);
    MPI_Bcast(&s, 1, MPI_DOUBLE, 0, MPI_COMM_WORLD);
    return s;
}

int main(int argc, char **argv)
{
    int me, np, mycount, first, i, j, k, it;
    double rho, rho_new, pq, alpha, beta;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    MPI_Comm_size(MPI_COMM_WORLD, &np);
    mycount = N / np + (me < N % np ? 1 : 0);
    first = me * (N / np) + (me < N % np ? me : N % np);
    MPI_Gather(&mycount, 1, MPI_INT, counts, 1, MPI_INT, 0, MPI_COMM_WORLD);
    if (me == 0) {
        displs[0] = 0;
        for (k = 1; k < np; k++)
            displs[k] = displs[k - 1] + counts[k - 1];
    }
    for (i = 0; i < mycount; i++) {
        for (j = 0; j < N; j++)
            a[i][j] = 1.0;
        a[i][first + i] = 1.0 + N + (first + i) % 7;
        x[i] = 0.0;
        r[i] = 1.0;
        mine[i] = 1.0;
    }
    rho = N;
    for (it = 0; it < ITERS; it++) {
        MPI_Gatherv(mine, mycount, MPI_DOUBLE, p, counts, displs, MPI_DOUBLE, 0, MPI_COMM_WORLD);
        MPI_Bcast(p, N, MPI_DOUBLE, 0, MPI_COMM_WORLD);
        pq = 0.0;
        for (i = 0; i < mycount; i++) {
            double s = 0.0;
            for (j = 0; j < N; j++)
                s += a[i][j] * p[j];
            q[i] = s;
            pq += mine[i] * s;
        }
        alpha = rho / global_sum(pq);
        rho_new = 0.0;
        for (i = 0; i < mycount; i++) {
            x[i] += alpha * mine[i];
            r[i] -= alpha * q[i];
            rho_new += r[i] * r[i];
        }
        rho_new = global_sum(rho_new);
        beta = rho_new / rho;
        rho = rho_new;
        for (i = 0; i < mycount; i++)
            mine[i] = r[i] + beta * mine[i];
        if (me == 0)
            printf("iteration %d residual %g\n", it + 1, rho);
    }
    MPI_Finalize();
    return 0;
}
