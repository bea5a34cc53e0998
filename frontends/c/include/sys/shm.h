/* sad: declarations only (no definitions). */
#ifndef _SAD_SYS_SHM_H
#define _SAD_SYS_SHM_H
#include <sys/ipc.h>
int shmget(key_t key, size_t size, int flags);
void *shmat(int id, const void *addr, int flags);
int shmdt(const void *addr);
#endif
