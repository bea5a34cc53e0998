/* CG after Brehm 1999, Fig. 6.17, "Simple", in C: rank 0 takes the blocks of the search vector from any
 * rank in arrival order, finding each one's sender and length with MPI_Probe and MPI_Get_count before the
 * receive (the block lands at sender * rows); it sends the whole vector to the ranks one after another. The
 * two global sums are MPI_Reduce to rank 0 and MPI_Bcast from it (the library's algorithms). The row count is
 * a static const, the iteration count an enum. */
#include <mpi.h>
#include <stdio.h>

static const int psize = 1024;
enum { ITER = 1 };

static double mat[1024][1024], xs[1024], rs[1024], ps[1024], qs[1024];

static void collect_and_send(int id, int nproc, int rows)
{
    MPI_Status status;
    int got, k;
    if (id == 0) {
        for (k = 1; k < nproc; k++) {
            MPI_Probe(MPI_ANY_SOURCE, 0, MPI_COMM_WORLD, &status);
            MPI_Get_count(&status, MPI_DOUBLE, &got);
            MPI_Recv(&ps[status.MPI_SOURCE * rows], got, MPI_DOUBLE, status.MPI_SOURCE, 0, MPI_COMM_WORLD,
                     &status);
        }
        for (k = 1; k < nproc; k++)
            MPI_Send(ps, psize, MPI_DOUBLE, k, 1, MPI_COMM_WORLD);
    } else {
        MPI_Send(&ps[id * rows], rows, MPI_DOUBLE, 0, 0, MPI_COMM_WORLD);
        MPI_Recv(ps, psize, MPI_DOUBLE, 0, 1, MPI_COMM_WORLD, &status);
    }
}

static double allsum(double v)
{
    double total = 0.0;
    MPI_Reduce(&v, &total, 1, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);
    MPI_Bcast(&total, 1, MPI_DOUBLE, 0, MPI_COMM_WORLD);
    return total;
}

int main(int argc, char **argv)
{
    int id, nproc, rows, off, i, k, t;
    double rho, rhonew, pq, alpha, beta;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &id);
    MPI_Comm_size(MPI_COMM_WORLD, &nproc);
    rows = psize / nproc;
    off = id * rows;
    for (i = 0; i < rows; i++) {
        for (k = 0; k < psize; k++)
            mat[i][k] = 1.0;
        mat[i][off + i] += psize + (off + i) % 7;
        xs[i] = 0.0;
        rs[i] = 1.0;
        ps[off + i] = 1.0;
    }
    rho = psize;
    for (t = 0; t < ITER; t++) {
        collect_and_send(id, nproc, rows);
        pq = 0.0;
        for (i = 0; i < rows; i++) {
            qs[i] = 0.0;
            for (k = 0; k < psize; k++)
                qs[i] += mat[i][k] * ps[k];
            pq += ps[off + i] * qs[i];
        }
        pq = allsum(pq);
        alpha = rho / pq;
        rhonew = 0.0;
        for (i = 0; i < rows; i++) {
            xs[i] += alpha * ps[off + i];
            rs[i] -= alpha * qs[i];
            rhonew += rs[i] * rs[i];
        }
        rhonew = allsum(rhonew);
        beta = rhonew / rho;
        rho = rhonew;
        for (i = 0; i < rows; i++)
            ps[off + i] = rs[i] + beta * ps[off + i];
    }
    if (id == 0)
        printf("rho %.6e\n", rho);
    MPI_Finalize();
    return 0;
}
