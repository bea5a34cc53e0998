/* 0/1 knapsack over capacities, largest first: best[c] = max(best[c], best[c - w] + v) for each item */
#include <stdio.h>
#ifndef C
#define C 200000
#endif
#ifndef M
#define M 1500
#endif
static long best[C + 1];
static int wt[M], val[M];
int main(void) {
    int m, c;
    for (m = 0; m < M; m++) {
        wt[m] = 50 + (m * 37) % 900;
        val[m] = 10 + (m * 53) % 500;
    }
    for (m = 0; m < M; m++)
        for (c = C; c >= wt[m]; c--) {
            long take = best[c - wt[m]] + val[m];
            best[c] = best[c] > take ? best[c] : take;
        }
    printf("%ld\n", best[C]);
    return 0;
}
