/* sad: declarations only (no definitions). */
#ifndef _SAD_STDNORETURN_H
#define _SAD_STDNORETURN_H
#define noreturn _Noreturn
#endif
