/* edit distance of two strings: D[i][j] = min(D[i-1][j] + 1, D[i][j-1] + 1, D[i-1][j-1] + (p[i] != q[j])),
   each cell read back by the next one along the row */
#include <stdio.h>
#ifndef N
#define N 3500
#endif
#ifndef R
#define R 12
#endif
static int D[N + 1][N + 1];
static char p[N], q[N];
int main(void) {
    int r, i, j, best, del, ins, sub;
    long total = 0;
    for (i = 0; i < N; i++) {
        p[i] = (char)('a' + (i * 5 + 2) % 7);
        q[i] = (char)('a' + (i * 3 + 1) % 7);
    }
    for (r = 0; r < R; r++) {
        for (j = 0; j <= N; j++)
            D[0][j] = j;
        for (i = 1; i <= N; i++) {
            D[i][0] = i;
            for (j = 1; j <= N; j++) {
                del = D[i - 1][j] + 1;
                ins = D[i][j - 1] + 1;
                sub = D[i - 1][j - 1] + (p[i - 1] != q[j - 1]);
                best = del < ins ? del : ins;
                D[i][j] = best < sub ? best : sub;
            }
        }
        total += D[N][N];
        p[r % N] = q[(r + 3) % N];
    }
    printf("%ld\n", total);
    return 0;
}
