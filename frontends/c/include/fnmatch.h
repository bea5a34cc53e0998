/* sad: declarations only (no definitions). */
#ifndef _SAD_FNMATCH_H
#define _SAD_FNMATCH_H
int fnmatch(const char *pattern, const char *string, int flags);
#endif
