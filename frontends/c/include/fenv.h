#ifndef _SAD_FENV_H
#define _SAD_FENV_H
#define FE_TONEAREST 0
#define FE_ALL_EXCEPT 61
int fegetround(void);
int fesetround(int mode);
int feclearexcept(int excepts);
#endif
