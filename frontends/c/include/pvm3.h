#ifndef _SAD_PVM3_H
#define _SAD_PVM3_H
/* sad: PVM 3 declarations only (the PVM 3.4 C interface), so that PVM programs analyze without PVM
   installed; a real pvm3.h given with -I is read instead. sad prices the pvm_* calls by name. */
#define PvmDataDefault 0
#define PvmDataRaw 1
#define PvmDataInPlace 2
#define PvmTaskDefault 0
#define PvmTaskHost 1
#define PvmTaskArch 2
#define PvmOk 0
#define PvmBadParam -2
#define PvmNoData -5
#define PvmSysErr -14
#define PvmNoParent -23
int pvm_mytid(void);
int pvm_parent(void);
int pvm_exit(void);
int pvm_initsend(int encoding);
int pvm_pkbyte(char *cp, int cnt, int std);
int pvm_pkcplx(float *xp, int cnt, int std);
int pvm_pkdcplx(double *zp, int cnt, int std);
int pvm_pkdouble(double *dp, int cnt, int std);
int pvm_pkfloat(float *fp, int cnt, int std);
int pvm_pkint(int *np, int cnt, int std);
int pvm_pkuint(unsigned int *np, int cnt, int std);
int pvm_pklong(long *np, int cnt, int std);
int pvm_pkulong(unsigned long *np, int cnt, int std);
int pvm_pkshort(short *np, int cnt, int std);
int pvm_pkushort(unsigned short *np, int cnt, int std);
int pvm_pkstr(char *cp);
int pvm_upkbyte(char *cp, int cnt, int std);
int pvm_upkcplx(float *xp, int cnt, int std);
int pvm_upkdcplx(double *zp, int cnt, int std);
int pvm_upkdouble(double *dp, int cnt, int std);
int pvm_upkfloat(float *fp, int cnt, int std);
int pvm_upkint(int *np, int cnt, int std);
int pvm_upkuint(unsigned int *np, int cnt, int std);
int pvm_upklong(long *np, int cnt, int std);
int pvm_upkulong(unsigned long *np, int cnt, int std);
int pvm_upkshort(short *np, int cnt, int std);
int pvm_upkushort(unsigned short *np, int cnt, int std);
int pvm_upkstr(char *cp);
int pvm_send(int tid, int msgtag);
int pvm_psend(int tid, int msgtag, void *buf, int len, int datatype);
int pvm_mcast(int *tids, int ntask, int msgtag);
int pvm_recv(int tid, int msgtag);
int pvm_nrecv(int tid, int msgtag);
int pvm_trecv(int tid, int msgtag, void *tmout);
int pvm_precv(int tid, int msgtag, void *buf, int len, int datatype, int *atid, int *atag, int *alen);
int pvm_probe(int tid, int msgtag);
int pvm_bufinfo(int bufid, int *bytes, int *msgtag, int *tid);
int pvm_spawn(char *task, char **argv, int flag, char *where, int ntask, int *tids);
int pvm_joingroup(char *group);
int pvm_lvgroup(char *group);
int pvm_gsize(char *group);
int pvm_getinst(char *group, int tid);
int pvm_barrier(char *group, int count);
int pvm_bcast(char *group, int msgtag);
int pvm_reduce(void (*func)(), void *data, int count, int datatype, int msgtag, char *group, int root);
#endif
