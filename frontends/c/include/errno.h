#ifndef _SAD_ERRNO_H
#define _SAD_ERRNO_H
extern int errno;
#define EDOM 33
#define ERANGE 34
#define EINVAL 22
#define ENOMEM 12
#define ENOENT 2
#endif
