/* sad: declarations only (no definitions). */
#ifndef _SAD_SYS_IOCTL_H
#define _SAD_SYS_IOCTL_H
int ioctl(int fd, unsigned long request, ...);
#endif
