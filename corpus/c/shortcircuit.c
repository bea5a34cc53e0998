/* shortcircuit.c -- sad corpus: && and || and ?: in conditions and in assignments.
 * Reads n from standard input. The right operand of one && is a call with a side effect, so the
 * number of calls depends on how often the left operand is true.
 * Prints counters and a sum. One statement per line (see expected.yaml).
 */
#include <stdio.h>

static int ncalls;

static int is_odd(int x)
{
    ncalls++;
    return x & 1;
}

int main(void)
{
    int n;
    int i;
    int both, either, evenish, other, odd_late, flag, any, big, ok;
    long s;

    if (scanf("%d", &n) != 1)
        return 1;
    both = 0;
    either = 0;
    evenish = 0;
    other = 0;
    odd_late = 0;
    s = 0;
    ncalls = 0;
    for (i = 0; i < n; i++) {
        if (i % 3 == 0 && i % 5 == 0)
            both++;
        if (i % 3 == 0 || i % 5 == 0)
            either++;
        if (!(i & 1) && (i > 3 || i == 0))
            evenish++;
        else
            other++;
        if (i >= 5 && is_odd(i))
            odd_late++;
        big = (i > n / 2) ? i : n - i;
        flag = (i % 2 == 0) && (i % 7 != 0);
        any = (i < 10) || (i > n - 10);
        s += big + flag + any;
        s += (i % 4 == 0) ? 2 * i : (i % 4 == 1 ? 1 : -1);
    }
    ok = (n > 0 && both > 0) ? 1 : 0;
    if (ok || n == 0)
        s += 7;
    printf("shortcircuit: n = %d  both = %d  either = %d  evenish = %d  other = %d\n", n, both, either, evenish, other);
    printf("shortcircuit: odd_late = %d  calls = %d  sum = %ld\n", odd_late, ncalls, s);
    return 0;
}
