/* Ring matrix multiply C = A * B with MPI, "version 2" of the PerPreT case study (Brehm 1999,
   Sec. 6.1.3); the C twin of ringmm.f. A in row blocks and B in column blocks of nb = N / nprocs over
   nprocs processes; nprocs compute steps of 2*nb*nb*N flops each and nprocs - 1 ring shifts in which
   every process passes its B block (8*N*nb bytes) to its right neighbour and receives the left one's.
   The B block is kept transposed (bt[j][k] = B[k][j0 + j]) so that it is contiguous and the inner
   products run along rows. Each rank prints its rank and the sum of its rows of C. */
#include <stdio.h>
#include <mpi.h>

#define N 256

static double a[N][N], bt[N][N], c[N][N];

int main(int argc, char **argv)
{
    int me, nprocs, nb, i0, i, j, k, step, jb, jc, right, left;
    double s;
    MPI_Status st;
    MPI_Init(&argc, &argv);
    MPI_Comm_size(MPI_COMM_WORLD, &nprocs);
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    nb = N / nprocs;
    right = (me + 1) % nprocs;
    left = (me - 1 + nprocs) % nprocs;
    i0 = me * nb;
    for (i = 0; i < nb; i++)
        for (k = 0; k < N; k++)
            a[i][k] = (double)(i0 + i - k);
    for (j = 0; j < nb; j++)
        for (k = 0; k < N; k++)
            bt[j][k] = (double)(k + i0 + j + 2);
    /* At step `step` this process holds the B block that started on rank jb. */
    for (step = 1; step <= nprocs; step++) {
        jb = (me - step + 1 + nprocs) % nprocs;
        for (j = 0; j < nb; j++) {
            jc = jb * nb + j;
            for (i = 0; i < nb; i++) {
                s = 0.0;
                for (k = 0; k < N; k++)
                    s = s + a[i][k] * bt[j][k];
                c[i][jc] = s;
            }
        }
        if (step < nprocs)
            MPI_Sendrecv_replace(&bt[0][0], N * nb, MPI_DOUBLE, right, 1, left, 1, MPI_COMM_WORLD, &st);
    }
    s = 0.0;
    for (i = 0; i < nb; i++)
        for (j = 0; j < N; j++)
            s = s + c[i][j];
    printf("rank %4d sum %24.1f\n", me, s);
    MPI_Finalize();
    return 0;
}
