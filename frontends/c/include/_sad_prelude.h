/* sad C frontend prelude: read with -imacros before every translation unit.
   Defines away compiler extensions that pycparser does not parse. Macros only. */
#define __SAD__ 1
#define __attribute__(x)
#define __attribute(x)
#define __extension__
#define __restrict
#define __restrict__
#define restrict
#define __inline
#define __inline__
#define inline
#define __forceinline
#define asm(...)
#define __asm__(...)
#define __asm(...)
#define __volatile__ volatile
#define __volatile volatile
#define __const const
#define __signed__ signed
#define __signed signed
#define __builtin_va_list char *
#define _Noreturn
#define __declspec(x)
#define __cdecl
#define __stdcall
#define __fastcall
#define __thread
#define _Thread_local
#define _Alignas(x)
#define _Alignof(x) 8
#define __alignof__(x) 8
#define _Nullable
#define _Nonnull
#define __nonnull(x)
#define __builtin_expect(x, y) (x)
#define __builtin_offsetof(t, m) ((unsigned long)&(((t *)0)->m))
#define __float128 long double
#define _Float128 long double
#define _Float64 double
#define _Float32 float
#define __PRETTY_FUNCTION__ __func__
#define __FUNCTION__ __func__
