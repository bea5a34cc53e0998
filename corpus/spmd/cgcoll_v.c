/* Conjugate gradients for A x = b, after Brehm 1999, Fig. 6.17, with MPI collectives in C: the N x N
 * matrix (psize N = 1024) in row blocks; the ranks' block sizes and offsets are kept in arrays (the
 * first N % np ranks hold one row more, so any np divides the rows), the search vector p is gathered on
 * every rank with MPI_Allgatherv, and the two global sums per iteration are MPI_Allreduce.
 * A = ones + diag(N + i % 7), b = ones, x0 = 0: r0 = p0 = b, r0.r0 = N. */
#include <math.h>
#include <mpi.h>
#include <stdio.h>

#define N 1024
#define NITER 1
#define MAXP 1024

static double at[N][N], x[N], r[N], p[N], q[N];
static int counts[MAXP], offsets[MAXP];

int main(int argc, char **argv)
{
    int me, np, nb, i0, i, k, it;
    double rho, rhonew, pq, alpha, beta, sum;
    MPI_Init(&argc, &argv);
    MPI_Comm_size(MPI_COMM_WORLD, &np);
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    offsets[0] = 0;
    for (k = 0; k < np; k++) {
        counts[k] = N / np + (k < N % np ? 1 : 0);
        if (k > 0)
            offsets[k] = offsets[k - 1] + counts[k - 1];
    }
    nb = counts[me];
    i0 = offsets[me];
    for (i = 0; i < nb; i++) {
        for (k = 0; k < N; k++)
            at[i][k] = 1.0;
        at[i][i0 + i] = 1.0 + N + (i0 + i) % 7;
        x[i] = 0.0;
        r[i] = 1.0;
        p[i0 + i] = 1.0;
    }
    rho = N;
    for (it = 0; it < NITER; it++) {
        MPI_Allgatherv(MPI_IN_PLACE, 0, MPI_DOUBLE, p, counts, offsets, MPI_DOUBLE, MPI_COMM_WORLD);
        pq = 0.0;
        for (i = 0; i < nb; i++) {
            q[i] = 0.0;
            for (k = 0; k < N; k++)
                q[i] += at[i][k] * p[k];
            pq += p[i0 + i] * q[i];
        }
        MPI_Allreduce(&pq, &sum, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
        alpha = rho / sum;
        rhonew = 0.0;
        for (i = 0; i < nb; i++) {
            x[i] += alpha * p[i0 + i];
            r[i] -= alpha * q[i];
            rhonew += r[i] * r[i];
        }
        MPI_Allreduce(&rhonew, &sum, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
        beta = sum / rho;
        rho = sum;
        for (i = 0; i < nb; i++)
            p[i0 + i] = r[i] + beta * p[i0 + i];
    }
    if (me == 0)
        printf("residual %12.4e\n", sqrt(rho));
    MPI_Finalize();
    return 0;
}
