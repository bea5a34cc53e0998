#ifndef _SAD_STDARG_H
#define _SAD_STDARG_H
typedef char *va_list;
#define va_start(ap, last) ((void)0)
#define va_arg(ap, type) (*(type *)(ap))
#define va_end(ap) ((void)0)
#define va_copy(d, s) ((void)0)
#endif
