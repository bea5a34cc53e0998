/* sad: declarations only (no definitions). */
#ifndef _SAD_UTIME_H
#define _SAD_UTIME_H
#include <sys/types.h>
struct utimbuf { time_t actime; time_t modtime; };
int utime(const char *path, const struct utimbuf *t);
#endif
