/* sad: declarations only (no definitions). */
#ifndef _SAD_FEATURES_H
#define _SAD_FEATURES_H
#define __GLIBC__ 2
#define __GLIBC_MINOR__ 36
#endif
