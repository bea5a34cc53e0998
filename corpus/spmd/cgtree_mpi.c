/* Conjugate gradients for A x = b, after Brehm 1999, Fig. 6.17 ("Tree"), written in C with MPI: the
 * N x N matrix (psize N = 1024) in row blocks of nb = N / np rows; the search vector p is collected at
 * rank 0 along a binary tree (father (me - 1) / 2, sons 2 me + 1 and 2 me + 2) and broadcast back down
 * it; two global sums per iteration (p.q and r.r) along the same tree. The subtree sizes come from a
 * recursive function; receives take any tag; the sons' blocks are kept in the order they arrive.
 * A = ones + diag(N + i % 7), b = ones, x0 = 0: r0 = p0 = b, r0.r0 = N. */
#include <math.h>
#include <mpi.h>
#include <stdio.h>

#define N 1024
#define NITER 1

static double at[N][N], x[N], r[N], p[N], q[N], w[N], buf[N];

static int subtree(int node, int np)
{
    if (node >= np)
        return 0;
    return 1 + subtree(2 * node + 1, np) + subtree(2 * node + 2, np);
}

/* p on every rank: the sons' subtrees' blocks up to the father, then p down from rank 0. */
static void collect(int me, int np, int nb)
{
    MPI_Status st;
    int son, k, j, got = nb;
    for (j = 0; j < nb; j++)
        w[j] = p[me * nb + j];
    for (son = 2 * me + 1; son <= 2 * me + 2; son++) {
        k = subtree(son, np);
        if (k > 0) {
            MPI_Recv(buf, k * nb, MPI_DOUBLE, son, MPI_ANY_TAG, MPI_COMM_WORLD, &st);
            for (j = 0; j < k * nb; j++)
                w[got + j] = buf[j];
            got += k * nb;
        }
    }
    if (me > 0) {
        MPI_Send(w, got, MPI_DOUBLE, (me - 1) / 2, 1, MPI_COMM_WORLD);
        MPI_Recv(p, N, MPI_DOUBLE, (me - 1) / 2, MPI_ANY_TAG, MPI_COMM_WORLD, &st);
    } else {
        for (j = 0; j < got; j++)
            p[j] = w[j];
    }
    for (son = 2 * me + 1; son <= 2 * me + 2; son++)
        if (son < np)
            MPI_Send(p, N, MPI_DOUBLE, son, 2, MPI_COMM_WORLD);
}

/* s summed over every rank, on every rank: up the tree, the total down. */
static double gsum(double s, int me, int np)
{
    MPI_Status st;
    double t;
    int son;
    for (son = 2 * me + 1; son <= 2 * me + 2; son++)
        if (son < np) {
            MPI_Recv(&t, 1, MPI_DOUBLE, son, MPI_ANY_TAG, MPI_COMM_WORLD, &st);
            s += t;
        }
    if (me > 0) {
        MPI_Send(&s, 1, MPI_DOUBLE, (me - 1) / 2, 3, MPI_COMM_WORLD);
        MPI_Recv(&s, 1, MPI_DOUBLE, (me - 1) / 2, MPI_ANY_TAG, MPI_COMM_WORLD, &st);
    }
    for (son = 2 * me + 1; son <= 2 * me + 2; son++)
        if (son < np)
            MPI_Send(&s, 1, MPI_DOUBLE, son, 4, MPI_COMM_WORLD);
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
