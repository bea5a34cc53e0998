/* sad: declarations only (no definitions). */
#ifndef _SAD_WCHAR_H
#define _SAD_WCHAR_H
#include <stddef.h>
#include <stdio.h>
typedef unsigned int wint_t;
typedef struct { int _x; } mbstate_t;
#define WEOF ((wint_t)-1)
size_t wcslen(const wchar_t *s);
wchar_t *wcscpy(wchar_t *d, const wchar_t *s);
int wcscmp(const wchar_t *a, const wchar_t *b);
int wprintf(const wchar_t *fmt, ...);
int fwprintf(FILE *f, const wchar_t *fmt, ...);
size_t mbstowcs(wchar_t *d, const char *s, size_t n);
size_t wcstombs(char *d, const wchar_t *s, size_t n);
#endif
