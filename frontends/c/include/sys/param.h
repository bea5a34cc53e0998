/* sad: declarations only (no definitions). */
#ifndef _SAD_SYS_PARAM_H
#define _SAD_SYS_PARAM_H
#define MAXPATHLEN 4096
#define MIN(a, b) (((a) < (b)) ? (a) : (b))
#define MAX(a, b) (((a) > (b)) ? (a) : (b))
#endif
