/* sad: declarations only (no definitions). */
#ifndef _SAD_THREADS_H
#define _SAD_THREADS_H
#include <time.h>
typedef unsigned long thrd_t;
typedef struct { int _x; } mtx_t;
typedef struct { int _x; } cnd_t;
typedef int once_flag;
typedef int (*thrd_start_t)(void *);
enum { thrd_success, thrd_busy, thrd_error, thrd_nomem, thrd_timedout };
enum { mtx_plain = 0, mtx_recursive = 1, mtx_timed = 2 };
#define ONCE_FLAG_INIT 0
int thrd_create(thrd_t *thr, thrd_start_t func, void *arg);
int thrd_join(thrd_t thr, int *res);
thrd_t thrd_current(void);
void thrd_yield(void);
int mtx_init(mtx_t *m, int type);
int mtx_lock(mtx_t *m);
int mtx_unlock(mtx_t *m);
void mtx_destroy(mtx_t *m);
int cnd_init(cnd_t *c);
int cnd_signal(cnd_t *c);
int cnd_broadcast(cnd_t *c);
int cnd_wait(cnd_t *c, mtx_t *m);
void cnd_destroy(cnd_t *c);
void call_once(once_flag *flag, void (*func)(void));
#endif
