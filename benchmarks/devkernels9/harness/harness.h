/* A benchmark harness in the style suites use: heap arrays through pointer-to-array casts, kernels given the
   arrays dereferenced, a dump guarded by a run-time test the compiler cannot fold, an optional timer */
#ifndef HARNESS_H
#define HARNESS_H
#include <stdlib.h>
#include <string.h>
#include <stdio.h>
#define HARR(x) *x
#define HDECL1(var, type, d1) type (*var)[d1]; var = (type(*)[d1])harness_alloc((d1), sizeof(type));
#define HDECL2(var, type, d1, d2) type (*var)[d1][d2]; \
    var = (type(*)[d1][d2])harness_alloc((unsigned long long)(d1) * (d2), sizeof(type));
#define HDECL3(var, type, d1, d2, d3) type (*var)[d1][d2][d3]; \
    var = (type(*)[d1][d2][d3])harness_alloc((unsigned long long)(d1) * (d2) * (d3), sizeof(type));
#define HFREE(x) free((void *)x);
#define HKEEP(call) if (argc > 42 && !strcmp(argv[0], "")) call
#ifdef HARNESS_TIME
#define HSTART harness_timer_start();
#define HSTOP harness_timer_stop();
#define HPRINT harness_timer_print();
#else
#define HSTART
#define HSTOP
#define HPRINT
#endif
void *harness_alloc(unsigned long long n, int size);
void harness_timer_start(void);
void harness_timer_stop(void);
void harness_timer_print(void);
#endif
