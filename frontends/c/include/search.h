/* sad: declarations only (no definitions). */
#ifndef _SAD_SEARCH_H
#define _SAD_SEARCH_H
#include <stddef.h>
void *lfind(const void *key, const void *base, size_t *n, size_t width, int (*cmp)(const void *, const void *));
void *lsearch(const void *key, void *base, size_t *n, size_t width, int (*cmp)(const void *, const void *));
#endif
