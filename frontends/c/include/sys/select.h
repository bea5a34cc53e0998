/* sad: declarations only (no definitions). */
#ifndef _SAD_SYS_SELECT_H
#define _SAD_SYS_SELECT_H
#include <sys/time.h>
typedef struct { long fds_bits[16]; } fd_set;
#define FD_SETSIZE 1024
#define FD_ZERO(s) ((void)(s))
#define FD_SET(fd, s) ((void)(fd), (void)(s))
#define FD_CLR(fd, s) ((void)(fd), (void)(s))
#define FD_ISSET(fd, s) ((fd) >= 0 && (s) != 0)
int select(int n, fd_set *r, fd_set *w, fd_set *e, struct timeval *timeout);
#endif
