/* all-pairs shortest paths, the relaxation written as a select, in a kernel function */
#include <stdio.h>
#include <stdlib.h>
#define N 800
static void kernel_fw(int n, int path[N][N]) {
    int i, j, k;
    for (k = 0; k < n; k++)
        for (i = 0; i < n; i++)
            for (j = 0; j < n; j++)
                path[i][j] = path[i][j] < path[i][k] + path[k][j] ? path[i][j] : path[i][k] + path[k][j];
}
int main(void) {
    int (*path)[N] = malloc(sizeof(int) * N * N);
    int i, j;
    for (i = 0; i < N; i++)
        for (j = 0; j < N; j++) {
            path[i][j] = i * j % 7 + 1;
            if ((i + j) % 13 == 0 || (i + j) % 7 == 0 || (i + j) % 11 == 0) path[i][j] = 999;
        }
    kernel_fw(N, path);
    printf("%d\n", path[3][5] + path[N - 1][1]);
    return 0;
}
