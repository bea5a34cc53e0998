/* an empty counted loop: at -O0 the index incremented and compared through its stack slot, nothing else */
#include <stdio.h>
#define N 600
#define R 130000
int main(void) {
    int i, r;
    volatile int seen = 0;
    for (r = 0; r < R; r++) {
        for (i = 0; i < N; i++)
            ;
        seen = seen + i;
    }
    printf("%d\n", seen);
    return 0;
}
