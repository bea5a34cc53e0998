/* floyd-warshall-like: shortest paths, path[i][j] = min(path[i][j], path[i][k] + path[k][j]) */
#include <stdio.h>
#ifndef N
#define N 500
#endif
static double path[N][N];
int main(void) {
    int i, j, k;
    double s = 0;
    for (i = 0; i < N; i++)
        for (j = 0; j < N; j++)
            path[i][j] = (double)(i * j % 7 + 1) + ((i + j) % 13 == 0) * 999.0;
    for (k = 0; k < N; k++)
        for (i = 0; i < N; i++)
            for (j = 0; j < N; j++)
                path[i][j] = path[i][j] < path[i][k] + path[k][j] ? path[i][j] : path[i][k] + path[k][j];
    for (i = 0; i < N; i++) s += path[i][N - 1 - i];
    printf("%g\n", s);
    return 0;
}
