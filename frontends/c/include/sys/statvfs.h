/* sad: declarations only (no definitions). */
#ifndef _SAD_SYS_STATVFS_H
#define _SAD_SYS_STATVFS_H
struct statvfs { unsigned long f_bsize; unsigned long f_blocks; unsigned long f_bfree; };
int statvfs(const char *path, struct statvfs *buf);
#endif
