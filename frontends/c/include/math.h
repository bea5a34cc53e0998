#ifndef _SAD_MATH_H
#define _SAD_MATH_H
#define M_E 2.7182818284590452354
#define M_LOG2E 1.4426950408889634074
#define M_LOG10E 0.43429448190325182765
#define M_LN2 0.69314718055994530942
#define M_LN10 2.30258509299404568402
#define M_PI 3.14159265358979323846
#define M_PI_2 1.57079632679489661923
#define M_PI_4 0.78539816339744830962
#define M_1_PI 0.31830988618379067154
#define M_2_PI 0.63661977236758134308
#define M_2_SQRTPI 1.12837916709551257390
#define M_SQRT2 1.41421356237309504880
#define M_SQRT1_2 0.70710678118654752440
#define HUGE_VAL 1e500
#define HUGE_VALF 1e50f
#define INFINITY 1e50f
#define NAN (0.0f / 0.0f)
#define FP_NAN 0
#define FP_INFINITE 1
#define FP_ZERO 2
#define FP_SUBNORMAL 3
#define FP_NORMAL 4
/* one line per function family: double, float (f), long double (l) */
#define _SAD_M1(name) double name(double x); float name##f(float x); long double name##l(long double x);
#define _SAD_M2(name) double name(double x, double y); float name##f(float x, float y); \
    long double name##l(long double x, long double y);
_SAD_M1(sqrt) _SAD_M1(cbrt) _SAD_M1(fabs) _SAD_M1(exp) _SAD_M1(exp2) _SAD_M1(expm1)
_SAD_M1(log) _SAD_M1(log10) _SAD_M1(log2) _SAD_M1(log1p) _SAD_M1(logb)
_SAD_M1(sin) _SAD_M1(cos) _SAD_M1(tan) _SAD_M1(asin) _SAD_M1(acos) _SAD_M1(atan)
_SAD_M1(sinh) _SAD_M1(cosh) _SAD_M1(tanh) _SAD_M1(asinh) _SAD_M1(acosh) _SAD_M1(atanh)
_SAD_M1(floor) _SAD_M1(ceil) _SAD_M1(round) _SAD_M1(trunc) _SAD_M1(rint) _SAD_M1(nearbyint)
_SAD_M1(erf) _SAD_M1(erfc) _SAD_M1(tgamma) _SAD_M1(lgamma)
_SAD_M2(pow) _SAD_M2(atan2) _SAD_M2(fmod) _SAD_M2(fmin) _SAD_M2(fmax) _SAD_M2(hypot)
_SAD_M2(copysign) _SAD_M2(fdim) _SAD_M2(remainder) _SAD_M2(nextafter)
double fma(double x, double y, double z);
float fmaf(float x, float y, float z);
double ldexp(double x, int e);
float ldexpf(float x, int e);
double frexp(double x, int *e);
double modf(double x, double *ip);
double scalbn(double x, int n);
long lround(double x);
long lroundf(float x);
long long llround(double x);
long lrint(double x);
long long llrint(double x);
int ilogb(double x);
int isnan(double x);
int isinf(double x);
int isfinite(double x);
int isnormal(double x);
int signbit(double x);
int fpclassify(double x);
#undef _SAD_M1
#undef _SAD_M2
#endif
