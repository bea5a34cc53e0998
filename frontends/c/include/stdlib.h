#ifndef _SAD_STDLIB_H
#define _SAD_STDLIB_H
#include <stddef.h>
#define EXIT_SUCCESS 0
#define EXIT_FAILURE 1
#define RAND_MAX 2147483647
typedef struct { int quot; int rem; } div_t;
typedef struct { long quot; long rem; } ldiv_t;
void *malloc(size_t size);
void *calloc(size_t nmemb, size_t size);
void *realloc(void *ptr, size_t size);
void *aligned_alloc(size_t alignment, size_t size);
int posix_memalign(void **memptr, size_t alignment, size_t size);
void free(void *ptr);
void exit(int status);
void _Exit(int status);
void abort(void);
int atexit(void (*fn)(void));
int atoi(const char *s);
long atol(const char *s);
long long atoll(const char *s);
double atof(const char *s);
double strtod(const char *s, char **end);
float strtof(const char *s, char **end);
long double strtold(const char *s, char **end);
long strtol(const char *s, char **end, int base);
long long strtoll(const char *s, char **end, int base);
unsigned long strtoul(const char *s, char **end, int base);
unsigned long long strtoull(const char *s, char **end, int base);
int rand(void);
void srand(unsigned int seed);
int rand_r(unsigned int *seed);
long random(void);
void srandom(unsigned int seed);
double drand48(void);
double erand48(unsigned short xsubi[3]);
long lrand48(void);
void srand48(long seed);
void qsort(void *base, size_t nmemb, size_t size, int (*compar)(const void *, const void *));
void *bsearch(const void *key, const void *base, size_t nmemb, size_t size,
              int (*compar)(const void *, const void *));
int abs(int j);
long labs(long j);
long long llabs(long long j);
div_t div(int num, int den);
ldiv_t ldiv(long num, long den);
char *getenv(const char *name);
int setenv(const char *name, const char *value, int overwrite);
int system(const char *command);
#endif
