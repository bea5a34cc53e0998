/* sad: declarations only (no definitions). */
#ifndef _SAD_ALLOCA_H
#define _SAD_ALLOCA_H
#include <stddef.h>
void *alloca(size_t size);
#endif
