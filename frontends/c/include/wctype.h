/* sad: declarations only (no definitions). */
#ifndef _SAD_WCTYPE_H
#define _SAD_WCTYPE_H
#include <wchar.h>
typedef unsigned long wctype_t;
int iswalpha(wint_t c);
int iswdigit(wint_t c);
int iswspace(wint_t c);
int iswupper(wint_t c);
int iswlower(wint_t c);
wint_t towupper(wint_t c);
wint_t towlower(wint_t c);
#endif
