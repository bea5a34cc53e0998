/* sad: declarations only (no definitions). */
#ifndef _SAD_STDDEF_H
#define _SAD_STDDEF_H
typedef unsigned long size_t;
typedef long ptrdiff_t;
typedef int wchar_t;
typedef long max_align_t;
#ifndef NULL
#define NULL ((void *)0)
#endif
#define offsetof(t, m) ((size_t)&(((t *)0)->m))
#endif
