/* nussinov-like: RNA folding DP over a triangle, each cell the max of its neighbours and of split points */
#include <stdio.h>
#ifndef N
#define N 1000
#endif
#ifndef R
#define R 1
#endif
static int seq[N];
static int table[N][N];
int main(void) {
    int t, i, j, k, v;
    long s = 0;
    for (i = 0; i < N; i++)
        seq[i] = (i * 7 + 3) % 4;
    for (t = 0; t < R; t++) {
        for (i = 0; i < N; i++)
            for (j = 0; j < N; j++)
                table[i][j] = 0;
        for (i = N - 1; i >= 0; i--)
            for (j = i + 1; j < N; j++) {
                if (j - 1 >= 0)
                    table[i][j] = table[i][j] > table[i][j - 1] ? table[i][j] : table[i][j - 1];
                if (i + 1 < N)
                    table[i][j] = table[i][j] > table[i + 1][j] ? table[i][j] : table[i + 1][j];
                if (j - 1 >= 0 && i + 1 < N) {
                    v = table[i + 1][j - 1] + (i < j - 1 && seq[i] + seq[j] == 3);
                    table[i][j] = table[i][j] > v ? table[i][j] : v;
                }
                for (k = i + 1; k < j; k++)
                    table[i][j] = table[i][j] > table[i][k] + table[k + 1][j] ?
                                  table[i][j] : table[i][k] + table[k + 1][j];
            }
        s += table[0][N - 1];
    }
    printf("%ld\n", s);
    return 0;
}
