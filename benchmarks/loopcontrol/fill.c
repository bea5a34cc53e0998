/* a store of a constant per iteration: the index's chain and one store */
#include <stdio.h>
#define N 600
#define R 130000
static double c[N];
int main(void) {
    int i, r;
    for (r = 0; r < R; r++)
        for (i = 0; i < N; i++)
            c[i] = 1.0;
    printf("%g\n", c[N / 2]);
    return 0;
}
