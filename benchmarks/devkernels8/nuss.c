/* RNA-folding-like dynamic program: a reverse outer loop, tests of the indices, maxima */
#include <stdio.h>
#include <stdlib.h>
#define N 1500
#define max_score(s1, s2) ((s1 >= s2) ? s1 : s2)
#define match(b1, b2) (((b1) + (b2)) == 3 ? 1 : 0)
static void kernel_nuss(int n, char seq[N], int table[N][N]) {
    int i, j, k;
    for (i = n - 1; i >= 0; i--) {
        for (j = i + 1; j < n; j++) {
            if (j - 1 >= 0)
                table[i][j] = max_score(table[i][j], table[i][j - 1]);
            if (i + 1 < n)
                table[i][j] = max_score(table[i][j], table[i + 1][j]);
            if (j - 1 >= 0 && i + 1 < n) {
                if (i < j - 1)
                    table[i][j] = max_score(table[i][j], table[i + 1][j - 1] + match(seq[i], seq[j]));
                else
                    table[i][j] = max_score(table[i][j], table[i + 1][j - 1]);
            }
            for (k = i + 1; k < j; k++)
                table[i][j] = max_score(table[i][j], table[i][k] + table[k + 1][j]);
        }
    }
}
int main(void) {
    char *seq = malloc(N);
    int (*table)[N] = calloc((size_t)N * N, sizeof(int));
    int i;
    for (i = 0; i < N; i++) seq[i] = (char)((i + 1) % 4);
    kernel_nuss(N, seq, table);
    printf("%d\n", table[0][N - 1]);
    return 0;
}
