/* a malloc'd matrix indexed through a macro: b = a + a^T, then a row-sum; size from the command line */
#include <stdio.h>
#include <stdlib.h>
#define A(i, j) a[(long)(i) * n + (j)]
#define Bx(i, j) b[(long)(i) * n + (j)]
int main(int argc, char **argv) {
    int n = argc > 1 ? atoi(argv[1]) : 1000;
    int reps = argc > 2 ? atoi(argv[2]) : 10;
    double *a = malloc(sizeof(double) * n * n), *b = malloc(sizeof(double) * n * n);
    double s = 0.0;
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++)
            A(i, j) = (double)(i * 3 + j) / n;
    for (int r = 0; r < reps; r++) {
        for (int i = 0; i < n; i++)
            for (int j = 0; j < n; j++)
                Bx(i, j) = A(i, j) + A(j, i);
        for (int i = 0; i < n; i++)
            for (int j = 0; j < n; j++)
                s += Bx(i, j);
    }
    printf("%f\n", s);
    free(a); free(b);
    return 0;
}
