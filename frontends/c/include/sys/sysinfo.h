/* sad: declarations only (no definitions). */
#ifndef _SAD_SYS_SYSINFO_H
#define _SAD_SYS_SYSINFO_H
int get_nprocs(void);
int get_nprocs_conf(void);
#endif
