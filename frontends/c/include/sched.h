/* sad: declarations only (no definitions). */
#ifndef _SAD_SCHED_H
#define _SAD_SCHED_H
#include <time.h>
#include <sys/types.h>
struct sched_param { int sched_priority; };
typedef struct { unsigned long __bits[16]; } cpu_set_t;
#define SCHED_OTHER 0
#define SCHED_FIFO 1
#define SCHED_RR 2
#define CPU_SETSIZE 1024
#define CPU_ZERO(set) ((void)(set))
#define CPU_SET(cpu, set) ((void)(cpu), (void)(set))
#define CPU_CLR(cpu, set) ((void)(cpu), (void)(set))
#define CPU_ISSET(cpu, set) ((cpu) >= 0 && (set) != 0)
#define CPU_COUNT(set) 1
int sched_yield(void);
int sched_get_priority_max(int policy);
int sched_get_priority_min(int policy);
int sched_setscheduler(pid_t pid, int policy, const struct sched_param *param);
int sched_getscheduler(pid_t pid);
int sched_setparam(pid_t pid, const struct sched_param *param);
int sched_getparam(pid_t pid, struct sched_param *param);
int sched_setaffinity(pid_t pid, size_t size, const cpu_set_t *set);
int sched_getaffinity(pid_t pid, size_t size, cpu_set_t *set);
int sched_getcpu(void);
#endif
