/* the sieve of Eratosthenes: the inner loop's stride is the prime, run only for primes */
#include <stdio.h>
#ifndef N
#define N 100000000
#endif
static char composite[N + 1];
int main(void) {
    long i, j, count = 0;
    for (i = 2; i * i <= N; i++)
        if (!composite[i])
            for (j = i * i; j <= N; j += i)
                composite[j] = 1;
    for (i = 2; i <= N; i++)
        if (!composite[i])
            count++;
    printf("%ld\n", count);
    return 0;
}
