/* sad: declarations only (no definitions). */
#ifndef _SAD_SYS_IPC_H
#define _SAD_SYS_IPC_H
#include <sys/types.h>
typedef int key_t;
#define IPC_CREAT 512
#define IPC_PRIVATE 0
#define IPC_RMID 0
#endif
