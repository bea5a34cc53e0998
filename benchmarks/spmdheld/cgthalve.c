/* CG after Brehm 1999, Fig. 6.17, "Tree", in C with the tree as recursive halving of the rank range: the
 * range [lo, hi) is led by rank lo; it splits at mid = (lo + hi) / 2, the upper half's leader mid sends the
 * blocks of its half to lo (going up, the innermost split first) and lo sends the whole vector back to mid
 * (going down, the outermost split first). The global sums are recursive doubling with MPI_Sendrecv across
 * the bits of the rank (np a power of two). The process count is a run-time value in every bound. */
#include <mpi.h>
#include <stdio.h>

#define N 1024
#define NITER 1
#define MAXLEV 32

static double a[N][N], x[N], r[N], p[N], q[N];

static void halving(int me, int np, int nb)
{
    int lo = 0, hi = np, mid, depth = 0, k;
    int los[MAXLEV], mids[MAXLEV], his[MAXLEV];
    while (hi - lo > 1) {               /* find my chain of splits, outermost first */
        mid = (lo + hi) / 2;
        los[depth] = lo;
        mids[depth] = mid;
        his[depth] = hi;
        depth++;
        if (me < mid)
            hi = mid;
        else
            lo = mid;
    }
    for (k = depth - 1; k >= 0; k--) {  /* up: innermost split first */
        if (me == los[k])
            MPI_Recv(&p[mids[k] * nb], (his[k] - mids[k]) * nb, MPI_DOUBLE, mids[k], 1, MPI_COMM_WORLD,
                     MPI_STATUS_IGNORE);
        else if (me == mids[k])
            MPI_Send(&p[mids[k] * nb], (his[k] - mids[k]) * nb, MPI_DOUBLE, los[k], 1, MPI_COMM_WORLD);
    }
    for (k = 0; k < depth; k++) {       /* down: outermost split first */
        if (me == los[k])
            MPI_Send(p, N, MPI_DOUBLE, mids[k], 2, MPI_COMM_WORLD);
        else if (me == mids[k])
            MPI_Recv(p, N, MPI_DOUBLE, los[k], 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    }
}

static double doubling_sum(double s, int me, int np)
{
    int bit;
    double other;
    for (bit = 1; bit < np; bit *= 2) {
        MPI_Sendrecv(&s, 1, MPI_DOUBLE, me ^ bit, 3, &other, 1, MPI_DOUBLE, me ^ bit, 3, MPI_COMM_WORLD,
                     MPI_STATUS_IGNORE);
        s += other;
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
            a[i][k] = 1.0;
        a[i][i0 + i] = 1.0 + N + (i0 + i) % 7;
        x[i] = 0.0;
        r[i] = 1.0;
        p[i0 + i] = 1.0;
    }
    rho = N;
    for (it = 0; it < NITER; it++) {
        halving(me, np, nb);
        pq = 0.0;
        for (i = 0; i < nb; i++) {
            q[i] = 0.0;
            for (k = 0; k < N; k++)
                q[i] += a[i][k] * p[k];
            pq += p[i0 + i] * q[i];
        }
        pq = doubling_sum(pq, me, np);
        alpha = rho / pq;
        rhonew = 0.0;
        for (i = 0; i < nb; i++) {
            x[i] += alpha * p[i0 + i];
            r[i] -= alpha * q[i];
            rhonew += r[i] * r[i];
        }
        rhonew = doubling_sum(rhonew, me, np);
        beta = rhonew / rho;
        rho = rhonew;
        for (i = 0; i < nb; i++)
            p[i0 + i] = r[i] + beta * p[i0 + i];
    }
    if (me == 0)
        printf("rho %.6e\n", rho);
    MPI_Finalize();
    return 0;
}
