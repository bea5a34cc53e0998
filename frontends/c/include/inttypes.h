#ifndef _SAD_INTTYPES_H
#define _SAD_INTTYPES_H
#include <stdint.h>
#define PRId32 "d"
#define PRIu32 "u"
#define PRId64 "ld"
#define PRIu64 "lu"
#define PRIx64 "lx"
#define PRIx32 "x"
#define SCNd32 "d"
#define SCNd64 "ld"
intmax_t strtoimax(const char *s, char **end, int base);
uintmax_t strtoumax(const char *s, char **end, int base);
#endif
