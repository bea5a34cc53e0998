/* CG after Brehm 1999, Fig. 6.17, "Tree", with the tree written as bit operations on the rank, the way
 * MPI libraries write a binomial tree: going up, a rank whose lowest set bit is `mask` sends what it has
 * gathered (the blocks of ranks rank ... rank + mask - 1) to rank ^ mask and stops; below that bit it
 * receives from rank | mask the blocks of its subtree. Going down, the same tree in reverse. The global sums
 * go up and down the same tree. The matrix is one flat array indexed a[(i - lo) * n + j]. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

enum { n = 1024, niter = 1 };

static double a[n * n], x[n], r[n], p[n], q[n];

static int min(int u, int v) { return u < v ? u : v; }

/* Gather the blocks of p at rank 0 along the binomial tree, then send p back down. */
static void tree_vector(int me, int np, int rows)
{
    int mask, top;
    for (mask = 1; mask < np; mask <<= 1) {
        if (me & mask) {
            MPI_Send(&p[me * rows], mask * rows, MPI_DOUBLE, me ^ mask, 7, MPI_COMM_WORLD);
            break;
        }
        if ((me | mask) < np)
            MPI_Recv(&p[(me | mask) * rows], min(mask, np - (me | mask)) * rows, MPI_DOUBLE, me | mask, 7,
                     MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    }
    top = mask;
    if (me != 0)
        MPI_Recv(p, n, MPI_DOUBLE, me ^ top, 8, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    for (mask = top >> 1; mask > 0; mask >>= 1)
        if ((me | mask) < np)
            MPI_Send(p, n, MPI_DOUBLE, me | mask, 8, MPI_COMM_WORLD);
}

static double tree_sum(double s, int me, int np)
{
    int mask, top;
    double t;
    for (mask = 1; mask < np; mask <<= 1) {
        if (me & mask) {
            MPI_Send(&s, 1, MPI_DOUBLE, me ^ mask, 9, MPI_COMM_WORLD);
            break;
        }
        if ((me | mask) < np) {
            MPI_Recv(&t, 1, MPI_DOUBLE, me | mask, 9, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            s += t;
        }
    }
    top = mask;
    if (me != 0)
        MPI_Recv(&s, 1, MPI_DOUBLE, me ^ top, 10, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    for (mask = top >> 1; mask > 0; mask >>= 1)
        if ((me | mask) < np)
            MPI_Send(&s, 1, MPI_DOUBLE, me | mask, 10, MPI_COMM_WORLD);
    return s;
}

int main(int argc, char **argv)
{
    int me, np, rows, lo, hi, i, j, it;
    double rho, rho2, pq, alpha, beta, acc;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    MPI_Comm_size(MPI_COMM_WORLD, &np);
    rows = n / np;
    lo = me * rows;
    hi = lo + rows;
    for (i = lo; i < hi; i++) {
        for (j = 0; j < n; j++)
            a[(i - lo) * n + j] = 1.0;
        a[(i - lo) * n + i] += n + i % 7;
        x[i] = 0.0;
        r[i] = 1.0;
        p[i] = 1.0;
    }
    rho = n;
    for (it = 0; it < niter; it++) {
        tree_vector(me, np, rows);
        pq = 0.0;
        for (i = lo; i < hi; i++) {
            acc = 0.0;
            for (j = 0; j < n; j++)
                acc += a[(i - lo) * n + j] * p[j];
            q[i] = acc;
            pq += p[i] * acc;
        }
        pq = tree_sum(pq, me, np);
        alpha = rho / pq;
        rho2 = 0.0;
        for (i = lo; i < hi; i++) {
            x[i] += alpha * p[i];
            r[i] -= alpha * q[i];
            rho2 += r[i] * r[i];
        }
        rho2 = tree_sum(rho2, me, np);
        beta = rho2 / rho;
        rho = rho2;
        for (i = lo; i < hi; i++)
            p[i] = r[i] + beta * p[i];
    }
    if (me == 0)
        printf("rho = %g\n", rho);
    MPI_Finalize();
    return 0;
}
