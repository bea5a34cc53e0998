/* sad: declarations only (no definitions). */
#ifndef _SAD_REGEX_H
#define _SAD_REGEX_H
#include <stddef.h>
typedef struct { size_t re_nsub; } regex_t;
typedef long regoff_t;
typedef struct { regoff_t rm_so; regoff_t rm_eo; } regmatch_t;
#define REG_EXTENDED 1
#define REG_ICASE 2
#define REG_NOSUB 4
#define REG_NEWLINE 8
#define REG_NOMATCH 1
int regcomp(regex_t *re, const char *pattern, int flags);
int regexec(const regex_t *re, const char *s, size_t n, regmatch_t m[], int flags);
void regfree(regex_t *re);
#endif
