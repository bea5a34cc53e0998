/* LU factorization without pivoting through a variable-length array parameter; n from the command line */
#include <stdio.h>
#include <stdlib.h>
static void lu(int n, double a[n][n]) {
    for (int k = 0; k < n; k++)
        for (int i = k + 1; i < n; i++) {
            a[i][k] /= a[k][k];
            for (int j = k + 1; j < n; j++)
                a[i][j] -= a[i][k] * a[k][j];
        }
}
int main(int argc, char **argv) {
    int n = argc > 1 ? atoi(argv[1]) : 600;
    double (*a)[n] = malloc(sizeof(double) * n * n);
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++)
            a[i][j] = (i == j) ? n + 1.0 : 1.0 / (1.0 + i + j);
    lu(n, a);
    printf("%f\n", a[n - 1][n - 1]);
    free(a);
    return 0;
}
