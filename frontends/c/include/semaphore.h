/* sad: declarations only (no definitions). */
#ifndef _SAD_SEMAPHORE_H
#define _SAD_SEMAPHORE_H
#include <time.h>
typedef struct { int _x; } sem_t;
int sem_init(sem_t *s, int pshared, unsigned int value);
int sem_wait(sem_t *s);
int sem_post(sem_t *s);
int sem_destroy(sem_t *s);
#endif
