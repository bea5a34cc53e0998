/* The harness's run-time part: aligned allocation, a cache flush before the timed region, a wall-clock timer */
#include <stdio.h>
#include <stdlib.h>
#include <sys/time.h>
#include "harness.h"
#define FLUSH_DOUBLES (4 * 1024 * 1024)
static double t_start, t_stop;
void *harness_alloc(unsigned long long n, int size) {
    void *p = NULL;
    if (posix_memalign(&p, 4096, n * size) != 0 || p == NULL) {
        fprintf(stderr, "harness: cannot allocate %llu bytes\n", n * size);
        exit(1);
    }
    return p;
}
static void flush_cache(void) {
    double *junk = (double *)calloc(FLUSH_DOUBLES, sizeof(double));
    double s = 0.0;
    int i;
    for (i = 0; i < FLUSH_DOUBLES; i++) s += junk[i];
    if (s > 10.0) fprintf(stderr, "%g\n", s);
    free(junk);
}
static double now(void) {
    struct timeval tv;
    gettimeofday(&tv, NULL);
    return tv.tv_sec + tv.tv_usec * 1.0e-6;
}
void harness_timer_start(void) { flush_cache(); t_start = now(); }
void harness_timer_stop(void) { t_stop = now(); }
void harness_timer_print(void) { printf("%0.6f\n", t_stop - t_start); }
