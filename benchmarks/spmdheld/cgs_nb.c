/* CG after Brehm 1999, Fig. 6.17, "Simple", written as a C programmer using non-blocking MPI would:
 * psize PSIZE = 1024 rows of A in row blocks; rank 0 posts one MPI_Irecv per worker for its block of the
 * search vector and waits for all of them (MPI_Waitall), then sends the whole vector to each worker with
 * MPI_Isend (MPI_Waitall again); the global sums go up with MPI_Isend + MPI_Wait and rank 0 adds them in
 * rank order. Loops run over global row numbers. A = ones + diag(PSIZE + i % 7), b = ones, x0 = 0. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

#define PSIZE 1024
#define ITERS 1
#define TAG_BLOCK 10
#define TAG_VEC 11
#define TAG_SUM 12
#define TAG_TOT 13

double A[PSIZE][PSIZE];
double xv[PSIZE], rv[PSIZE], pv[PSIZE], qv[PSIZE];

double global_sum(double mine, int rank, int size)
{
    double part, total = mine;
    MPI_Request req;
    int src, dst;
    if (rank != 0) {
        MPI_Isend(&mine, 1, MPI_DOUBLE, 0, TAG_SUM, MPI_COMM_WORLD, &req);
        MPI_Wait(&req, MPI_STATUS_IGNORE);
        MPI_Recv(&total, 1, MPI_DOUBLE, 0, TAG_TOT, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        return total;
    }
    for (src = 1; src < size; ++src) {
        MPI_Recv(&part, 1, MPI_DOUBLE, src, TAG_SUM, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        total += part;
    }
    for (dst = 1; dst < size; ++dst)
        MPI_Send(&total, 1, MPI_DOUBLE, dst, TAG_TOT, MPI_COMM_WORLD);
    return total;
}

void share_vector(int rank, int size, int rows)
{
    MPI_Request reqs[1024];
    int w;
    if (rank == 0) {
        for (w = 1; w < size; ++w)
            MPI_Irecv(&pv[w * rows], rows, MPI_DOUBLE, w, TAG_BLOCK, MPI_COMM_WORLD, &reqs[w - 1]);
        MPI_Waitall(size - 1, reqs, MPI_STATUSES_IGNORE);
        for (w = 1; w < size; ++w)
            MPI_Isend(pv, PSIZE, MPI_DOUBLE, w, TAG_VEC, MPI_COMM_WORLD, &reqs[w - 1]);
        MPI_Waitall(size - 1, reqs, MPI_STATUSES_IGNORE);
    } else {
        MPI_Send(&pv[rank * rows], rows, MPI_DOUBLE, 0, TAG_BLOCK, MPI_COMM_WORLD);
        MPI_Recv(pv, PSIZE, MPI_DOUBLE, 0, TAG_VEC, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    }
}

int main(int argc, char *argv[])
{
    int rank, size, rows, first, last, i, j, iter;
    double rho, rho_new, pq, alpha, beta, s;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    rows = PSIZE / size;
    first = rank * rows;
    last = first + rows;
    for (i = first; i < last; ++i) {
        for (j = 0; j < PSIZE; ++j)
            A[i - first][j] = 1.0;
        A[i - first][i] += PSIZE + i % 7;
        xv[i] = 0.0;
        rv[i] = 1.0;
        pv[i] = 1.0;
    }
    rho = PSIZE;
    for (iter = 0; iter < ITERS; ++iter) {
        share_vector(rank, size, rows);
        pq = 0.0;
        for (i = first; i < last; ++i) {
            s = 0.0;
            for (j = 0; j < PSIZE; ++j)
                s += A[i - first][j] * pv[j];
            qv[i] = s;
            pq += pv[i] * s;
        }
        pq = global_sum(pq, rank, size);
        alpha = rho / pq;
        rho_new = 0.0;
        for (i = first; i < last; ++i) {
            xv[i] += alpha * pv[i];
            rv[i] -= alpha * qv[i];
            rho_new += rv[i] * rv[i];
        }
        rho_new = global_sum(rho_new, rank, size);
        beta = rho_new / rho;
        rho = rho_new;
        for (i = first; i < last; ++i)
            pv[i] = rv[i] + beta * pv[i];
    }
    if (rank == 0)
        printf("rho %.6e\n", rho);
    MPI_Finalize();
    return EXIT_SUCCESS;
}
