/* Ring matrix multiply C = A B ("version 2" of Brehm 1999, Sec. 6.1.3) in C with non-blocking MPI: A in
 * row blocks, B in column blocks of nb = N / np; np compute steps, and between them every rank passes the
 * B block it holds to its right neighbour and takes its left neighbour's, posted as MPI_Irecv / MPI_Isend
 * into a second buffer and completed with MPI_Waitall; the two buffers then swap (pointer swap). The
 * blocks are flat arrays, B's block stored column by column: bcur[j * N + k]. */
#include <mpi.h>
#include <stdio.h>

#define N 256

static double a_loc[N * N], c_loc[N * N], buf0[N * N], buf1[N * N];

int main(int argc, char **argv)
{
    int me, np, nb, left, right, step, owner, i, j, k;
    double *bcur = buf0, *bnext = buf1, *tmp, sum, check = 0.0;
    MPI_Request req[2];
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    MPI_Comm_size(MPI_COMM_WORLD, &np);
    nb = N / np;
    right = (me + 1) % np;
    left = (me + np - 1) % np;
    for (i = 0; i < nb; i++)
        for (k = 0; k < N; k++)
            a_loc[i * N + k] = (double)(me * nb + i - k);
    for (j = 0; j < nb; j++)
        for (k = 0; k < N; k++)
            bcur[j * N + k] = (double)(k + me * nb + j);
    for (step = 0; step < np; step++) {
        owner = (me - step + np) % np;
        if (step < np - 1) {
            MPI_Irecv(bnext, nb * N, MPI_DOUBLE, left, 5, MPI_COMM_WORLD, &req[0]);
            MPI_Isend(bcur, nb * N, MPI_DOUBLE, right, 5, MPI_COMM_WORLD, &req[1]);
        }
        for (i = 0; i < nb; i++)
            for (j = 0; j < nb; j++) {
                sum = 0.0;
                for (k = 0; k < N; k++)
                    sum += a_loc[i * N + k] * bcur[j * N + k];
                c_loc[i * N + owner * nb + j] = sum;
            }
        if (step < np - 1) {
            MPI_Waitall(2, req, MPI_STATUSES_IGNORE);
            tmp = bcur;
            bcur = bnext;
            bnext = tmp;
        }
    }
    for (i = 0; i < nb * N; i++)
        check += c_loc[i];
    printf("rank %d sum %.1f\n", me, check);
    MPI_Finalize();
    return 0;
}
