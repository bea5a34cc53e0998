#ifndef _SAD_SYS_TYPES_H
#define _SAD_SYS_TYPES_H
#include <stddef.h>
typedef long ssize_t;
typedef long off_t;
typedef int pid_t;
typedef unsigned int uid_t;
typedef unsigned int gid_t;
typedef unsigned int mode_t;
typedef long suseconds_t;
typedef long time_t;
typedef long clock_t;
#endif
