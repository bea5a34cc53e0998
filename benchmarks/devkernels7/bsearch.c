/* binary searches of pseudo-random keys in a sorted array larger than the caches: a data-dependent branch
   and a dependent load per halving */
#include <stdio.h>
#ifndef N
#define N 4000000
#endif
#ifndef Q
#define Q 2000000
#endif
static int V[N];
int main(void) {
    int i, q;
    long found = 0;
    unsigned s = 7u;
    for (i = 0; i < N; i++) V[i] = 3 * i + 1;
    for (q = 0; q < Q; q++) {
        int lo = 0, hi = N - 1, key;
        s = s * 1664525u + 1013904223u;
        key = (int)(s % (3u * N));
        while (lo < hi) {
            int mid = lo + (hi - lo) / 2;
            if (V[mid] < key) lo = mid + 1;
            else hi = mid;
        }
        found += (V[lo] == key);
    }
    printf("%ld\n", found);
    return 0;
}
