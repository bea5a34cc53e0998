/* Smith-Waterman local alignment scores of two random sequences: a maximum of four candidates per cell,
   linear gap cost, the scores kept in a full table */
#include <stdio.h>
#ifndef N
#define N 7000
#endif
static char A[N], B[N];
static int H[N + 1][N + 1];
int main(void) {
    int i, j, best = 0;
    unsigned s = 12345u;
    for (i = 0; i < N; i++) {
        s = s * 1103515245u + 12345u; A[i] = (char)((s >> 16) % 4);
        s = s * 1103515245u + 12345u; B[i] = (char)((s >> 16) % 4);
    }
    for (i = 1; i <= N; i++)
        for (j = 1; j <= N; j++) {
            int h = H[i - 1][j - 1] + (A[i - 1] == B[j - 1] ? 2 : -1);
            int up = H[i - 1][j] - 1, left = H[i][j - 1] - 1;
            if (up > h) h = up;
            if (left > h) h = left;
            if (h < 0) h = 0;
            H[i][j] = h;
        }
    for (i = 0; i <= N; i++)
        for (j = 0; j <= N; j++)
            if (H[i][j] > best) best = H[i][j];
    printf("%d\n", best);
    return 0;
}
