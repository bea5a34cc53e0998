/* an array of structures: positions advanced by velocities, velocities damped (48-byte records) */
#include <stdio.h>
#ifndef N
#define N 200000
#endif
#ifndef R
#define R 1000
#endif
struct particle { double x, y, z, vx, vy, vz; };
static struct particle p[N];
int main(void) {
    int i, r;
    double dt = 1e-3, damp = 0.999;
    for (i = 0; i < N; i++) {
        p[i].x = i; p[i].y = 2.0 * i; p[i].z = 0.5 * i;
        p[i].vx = 1.0; p[i].vy = -1.0; p[i].vz = 0.25;
    }
    for (r = 0; r < R; r++)
        for (i = 0; i < N; i++) {
            p[i].x += dt * p[i].vx;
            p[i].y += dt * p[i].vy;
            p[i].z += dt * p[i].vz;
            p[i].vx *= damp;
            p[i].vy *= damp;
            p[i].vz *= damp;
        }
    printf("%f %f\n", p[N - 1].x, p[7].vz);
    return 0;
}
