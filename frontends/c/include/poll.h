/* sad: declarations only (no definitions). */
#ifndef _SAD_POLL_H
#define _SAD_POLL_H
struct pollfd { int fd; short events; short revents; };
typedef unsigned long nfds_t;
#define POLLIN 1
#define POLLOUT 4
#define POLLERR 8
int poll(struct pollfd *fds, nfds_t n, int timeout);
#endif
