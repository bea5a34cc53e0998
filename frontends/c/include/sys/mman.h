/* sad: declarations only (no definitions). */
#ifndef _SAD_SYS_MMAN_H
#define _SAD_SYS_MMAN_H
#include <sys/types.h>
#define PROT_NONE 0
#define PROT_READ 1
#define PROT_WRITE 2
#define MAP_SHARED 1
#define MAP_PRIVATE 2
#define MAP_ANONYMOUS 32
#define MAP_FAILED ((void *)-1)
void *mmap(void *addr, size_t len, int prot, int flags, int fd, off_t off);
int munmap(void *addr, size_t len);
int mlock(const void *addr, size_t len);
int munlock(const void *addr, size_t len);
#endif
