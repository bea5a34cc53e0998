/* a histogram of pseudo-random keys: h[key[i]] += 1 (indirect increments, keys spread over 4096 bins) */
#include <stdio.h>
#ifndef N
#define N 4000000
#endif
#ifndef R
#define R 100
#endif
#define BINS 4096
static int key[N];
static long h[BINS];
int main(void) {
    int r, i;
    unsigned s = 12345u;
    for (i = 0; i < N; i++) {
        s = s * 1103515245u + 12345u;
        key[i] = (int)((s >> 8) % BINS);
    }
    for (r = 0; r < R; r++)
        for (i = 0; i < N; i++)
            h[key[i]] += 1;
    printf("%ld\n", h[7]);
    return 0;
}
