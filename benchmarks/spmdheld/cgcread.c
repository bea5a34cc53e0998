/* CG after Brehm 1999, Fig. 6.17, with MPI collectives, in C: the problem size is read at run time by
 * rank 0 (stdin; cgcread.in holds 1024) and broadcast, the arrays are allocated for it; each rank's block of
 * the search vector is collected at rank 0 with MPI_Gather and the whole vector broadcast with MPI_Bcast;
 * the two global sums are MPI_Allreduce. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

#define MAX_ITER 1

int main(int argc, char **argv)
{
    int rank, nprocs, n = 0, nloc, start, i, j, iter;
    double *a, *x, *r, *p, *q, *mine;
    double rho, rho_new, local, global, alpha, beta;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &nprocs);
    if (rank == 0 && scanf("%d", &n) != 1)
        n = 1024;
    MPI_Bcast(&n, 1, MPI_INT, 0, MPI_COMM_WORLD);
    nloc = n / nprocs;
    start = rank * nloc;
    a = malloc(sizeof(double) * nloc * n);
    x = malloc(sizeof(double) * nloc);
    r = malloc(sizeof(double) * nloc);
    q = malloc(sizeof(double) * nloc);
    mine = malloc(sizeof(double) * nloc);
    p = malloc(sizeof(double) * n);
    for (i = 0; i < nloc; i++) {
        double *row = a + (size_t)i * n;
        for (j = 0; j < n; j++)
            row[j] = 1.0;
        row[start + i] += n + (start + i) % 7;
        x[i] = 0.0;
        r[i] = 1.0;
        mine[i] = 1.0;
    }
    rho = n;
    for (iter = 0; iter < MAX_ITER; iter++) {
        MPI_Gather(mine, nloc, MPI_DOUBLE, p, nloc, MPI_DOUBLE, 0, MPI_COMM_WORLD);
        MPI_Bcast(p, n, MPI_DOUBLE, 0, MPI_COMM_WORLD);
        local = 0.0;
        for (i = 0; i < nloc; i++) {
            const double *row = a + (size_t)i * n;
            double s = 0.0;
            for (j = 0; j < n; j++)
                s += row[j] * p[j];
            q[i] = s;
            local += mine[i] * s;
        }
        MPI_Allreduce(&local, &global, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
        alpha = rho / global;
        local = 0.0;
        for (i = 0; i < nloc; i++) {
            x[i] += alpha * mine[i];
            r[i] -= alpha * q[i];
            local += r[i] * r[i];
        }
        MPI_Allreduce(&local, &rho_new, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
        beta = rho_new / rho;
        rho = rho_new;
        for (i = 0; i < nloc; i++)
            mine[i] = r[i] + beta * mine[i];
    }
    if (rank == 0)
        printf("n %d rho %g\n", n, rho);
    free(a); free(x); free(r); free(q); free(mine); free(p);
    MPI_Finalize();
    return 0;
}
