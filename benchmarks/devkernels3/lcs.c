/* longest common subsequence: L[i][j] = a[i] == b[j] ? L[i-1][j-1] + 1 : max(L[i-1][j], L[i][j-1]) */
#include <stdio.h>
#ifndef N
#define N 3000
#endif
#ifndef R
#define R 60
#endif
static int L[N + 1][N + 1];
static char a[N], b[N];
int main(void) {
    int r, i, j;
    long s = 0;
    for (i = 0; i < N; i++) {
        a[i] = (char)('a' + (i * 7 + 3) % 4);
        b[i] = (char)('a' + (i * 5 + 1) % 4);
    }
    for (r = 0; r < R; r++) {
        for (j = 0; j <= N; j++)
            L[0][j] = 0;
        for (i = 1; i <= N; i++) {
            L[i][0] = 0;
            for (j = 1; j <= N; j++) {
                int up = L[i - 1][j], left = L[i][j - 1];
                if (a[i - 1] == b[j - 1])
                    L[i][j] = L[i - 1][j - 1] + 1;
                else
                    L[i][j] = up > left ? up : left;
            }
        }
        s += L[N][N];
        a[r % N] = b[(r + 1) % N];
    }
    printf("%ld\n", s);
    return 0;
}
