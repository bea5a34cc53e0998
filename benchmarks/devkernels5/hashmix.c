/* an integer hash chain: h = (h ^ v[i]) * 16777619 over a vector, repeated (a multiply chain) */
#include <stdio.h>
#ifndef N
#define N 4096
#endif
#ifndef R
#define R 100000
#endif
static unsigned v[N];
int main(void) {
    int r, i;
    unsigned h = 2166136261u;
    for (i = 0; i < N; i++)
        v[i] = (unsigned)(i * 2654435761u);
    for (r = 0; r < R; r++)
        for (i = 0; i < N; i++)
            h = (h ^ v[i]) * 16777619u;
    printf("%u\n", h);
    return 0;
}
