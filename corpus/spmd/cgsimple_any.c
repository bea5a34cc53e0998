/* Conjugate gradients for A x = b, after Brehm 1999, Fig. 6.17 ("Simple"), in C with MPI: the N x N
 * matrix (psize N = 1024) in row blocks of nb = N / np rows; rank 0 receives the blocks of the search
 * vector p from the other ranks in the order they arrive (MPI_ANY_SOURCE; the block's place from the
 * status) and sends the whole vector to each rank in turn; the two global sums per iteration (p.q, r.r)
 * the same way. A = ones + diag(N + i % 7), b = ones, x0 = 0: r0 = p0 = b, r0.r0 = N. */
#include <math.h>
#include <mpi.h>
#include <stdio.h>

#define N 1024
#define NITER 1

static double at[N][N], x[N], r[N], p[N], q[N];

static void collect(int me, int np, int nb)
{
    MPI_Status st;
    int k;
    double block[N];
    if (me == 0) {
        for (k = 1; k < np; k++) {
            MPI_Recv(block, nb, MPI_DOUBLE, MPI_ANY_SOURCE, 1, MPI_COMM_WORLD, &st);
            for (int j = 0; j < nb; j++)
                p[st.MPI_SOURCE * nb + j] = block[j];
        }
        for (k = 1; k < np; k++)
            MPI_Send(p, N, MPI_DOUBLE, k, 2, MPI_COMM_WORLD);
    } else {
        MPI_Send(&p[me * nb], nb, MPI_DOUBLE, 0, 1, MPI_COMM_WORLD);
        MPI_Recv(p, N, MPI_DOUBLE, 0, 2, MPI_COMM_WORLD, &st);
    }
}

static double gsum(double s, int me, int np)
{
    MPI_Status st;
    double t;
    int k;
    if (me == 0) {
        for (k = 1; k < np; k++) {
            MPI_Recv(&t, 1, MPI_DOUBLE, MPI_ANY_SOURCE, 3, MPI_COMM_WORLD, &st);
            s += t;
        }
        for (k = 1; k < np; k++)
            MPI_Send(&s, 1, MPI_DOUBLE, k, 4, MPI_COMM_WORLD);
    } else {
        MPI_Send(&s, 1, MPI_DOUBLE, 0, 3, MPI_COMM_WORLD);
        MPI_Recv(&s, 1, MPI_DOUBLE, 0, 4, MPI_COMM_WORLD, &st);
    }
    return s;
}

int main(int argc, char **argv)
{
    int me, np, nb, i0, i, k, it;
    double rho, rhonew, pq, alpha, beta;
    MPI_Init(&argc, &argv);
    MPI_Comm_size(MPI_COMM_WORLD, &np);
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    nb = N / np;
    i0 = me * nb;
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
        collect(me, np, nb);
        pq = 0.0;
        for (i = 0; i < nb; i++) {
            q[i] = 0.0;
            for (k = 0; k < N; k++)
                q[i] += at[i][k] * p[k];
            pq += p[i0 + i] * q[i];
        }
        pq = gsum(pq, me, np);
        alpha = rho / pq;
        rhonew = 0.0;
        for (i = 0; i < nb; i++) {
            x[i] += alpha * p[i0 + i];
            r[i] -= alpha * q[i];
            rhonew += r[i] * r[i];
        }
        rhonew = gsum(rhonew, me, np);
        beta = rhonew / rho;
        rho = rhonew;
        for (i = 0; i < nb; i++)
            p[i0 + i] = r[i] + beta * p[i0 + i];
    }
    if (me == 0)
        printf("residual %12.4e\n", sqrt(rho));
    MPI_Finalize();
    return 0;
}
