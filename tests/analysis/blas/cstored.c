#include <stdio.h>
static void refl(int m, double alpha, double *tau) {
    if (m <= 1) { *tau = 0.0; return; }
    *tau = alpha * 2.0;
}
static double leave(double x) { x = 0.0; return x; }
int main(void) {
    double a[6], tau[6], s = 0.0, y = 0.5;
    int i;
    for (i = 0; i < 6; i++) a[i] = (i + 1) / 7.0;
    for (i = 0; i < 6; i++) refl(6 - i, a[i], &tau[i]);
    s += leave(y);
    for (i = 0; i < 6; i++) {
        if (tau[i] == 0.0)
            s += 1.0;
        if (a[i] != 0.0) s += a[i];
    }
    printf("%g\n", s);
    return 0;
}
