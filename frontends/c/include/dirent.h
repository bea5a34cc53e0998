/* sad: declarations only (no definitions). */
#ifndef _SAD_DIRENT_H
#define _SAD_DIRENT_H
#include <sys/types.h>
struct dirent { unsigned long d_ino; char d_name[256]; unsigned char d_type; };
typedef struct { int _x; } DIR;
DIR *opendir(const char *name);
struct dirent *readdir(DIR *d);
int closedir(DIR *d);
#endif
