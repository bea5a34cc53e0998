#ifndef _SAD_LOCALE_H
#define _SAD_LOCALE_H
#define LC_ALL 6
#define LC_NUMERIC 1
char *setlocale(int category, const char *locale);
#endif
