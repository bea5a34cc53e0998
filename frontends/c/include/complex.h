#ifndef _SAD_COMPLEX_H
#define _SAD_COMPLEX_H
#define complex _Complex
extern const float _Complex _Complex_I; /* the imaginary unit, by name */
#define I _Complex_I
double _Complex csqrt(double _Complex z);
double _Complex cexp(double _Complex z);
double _Complex clog(double _Complex z);
double _Complex csin(double _Complex z);
double _Complex ccos(double _Complex z);
double _Complex ctan(double _Complex z);
double _Complex cpow(double _Complex x, double _Complex y);
double _Complex conj(double _Complex z);
double cabs(double _Complex z);
double carg(double _Complex z);
double creal(double _Complex z);
double cimag(double _Complex z);
float _Complex csqrtf(float _Complex z);
float _Complex cexpf(float _Complex z);
float _Complex conjf(float _Complex z);
float cabsf(float _Complex z);
float crealf(float _Complex z);
float cimagf(float _Complex z);
#endif
