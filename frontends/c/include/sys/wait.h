/* sad: declarations only (no definitions). */
#ifndef _SAD_SYS_WAIT_H
#define _SAD_SYS_WAIT_H
#include <sys/types.h>
#define WNOHANG 1
#define WEXITSTATUS(s) (((s) >> 8) & 255)
#define WIFEXITED(s) (((s) & 127) == 0)
pid_t wait(int *status);
pid_t waitpid(pid_t pid, int *status, int options);
#endif
