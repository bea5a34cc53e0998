/* sad: declarations only (no definitions). */
#ifndef _SAD_LIBGEN_H
#define _SAD_LIBGEN_H
char *basename(char *path);
char *dirname(char *path);
#endif
