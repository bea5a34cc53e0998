#ifndef _SAD_PTHREAD_H
#define _SAD_PTHREAD_H
#include <time.h>
typedef unsigned long pthread_t;
typedef struct { int _x; } pthread_attr_t;
typedef struct { int _x; } pthread_mutex_t;
typedef struct { int _x; } pthread_mutexattr_t;
typedef struct { int _x; } pthread_cond_t;
typedef struct { int _x; } pthread_condattr_t;
typedef struct { int _x; } pthread_barrier_t;
typedef struct { int _x; } pthread_barrierattr_t;
#define PTHREAD_MUTEX_INITIALIZER { 0 }
#define PTHREAD_COND_INITIALIZER { 0 }
int pthread_create(pthread_t *thread, const pthread_attr_t *attr, void *(*start)(void *), void *arg);
int pthread_join(pthread_t thread, void **retval);
void pthread_exit(void *retval);
pthread_t pthread_self(void);
int pthread_mutex_init(pthread_mutex_t *m, const pthread_mutexattr_t *attr);
int pthread_mutex_destroy(pthread_mutex_t *m);
int pthread_mutex_lock(pthread_mutex_t *m);
int pthread_mutex_unlock(pthread_mutex_t *m);
int pthread_cond_init(pthread_cond_t *c, const pthread_condattr_t *attr);
int pthread_cond_wait(pthread_cond_t *c, pthread_mutex_t *m);
int pthread_cond_signal(pthread_cond_t *c);
int pthread_cond_broadcast(pthread_cond_t *c);
int pthread_barrier_init(pthread_barrier_t *b, const pthread_barrierattr_t *attr, unsigned count);
int pthread_barrier_wait(pthread_barrier_t *b);
#endif
