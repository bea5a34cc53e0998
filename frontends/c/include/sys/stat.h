#ifndef _SAD_SYS_STAT_H
#define _SAD_SYS_STAT_H
#include <sys/types.h>
struct stat { off_t st_size; mode_t st_mode; };
int stat(const char *path, struct stat *buf);
int mkdir(const char *path, mode_t mode);
#endif
