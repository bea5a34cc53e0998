/* all-pairs gravitational accelerations in single precision (no cutoff): a square root and a division per
   pair, the accumulators in registers */
#include <math.h>
#include <stdio.h>
#ifndef N
#define N 3000
#endif
#ifndef T
#define T 16
#endif
static float X[N], Y[N], Z[N], M[N], AX[N], AY[N], AZ[N];
int main(void) {
    int t, i, j;
    float s = 0.0f;
    for (i = 0; i < N; i++) {
        X[i] = (float)((i * 37) % 101); Y[i] = (float)((i * 53) % 103); Z[i] = (float)((i * 71) % 107);
        M[i] = 1.0f + (float)(i % 7);
    }
    for (t = 0; t < T; t++)
        for (i = 0; i < N; i++) {
            float ax = 0.0f, ay = 0.0f, az = 0.0f;
            for (j = 0; j < N; j++) {
                float dx = X[j] - X[i], dy = Y[j] - Y[i], dz = Z[j] - Z[i];
                float r2 = dx * dx + dy * dy + dz * dz + 0.01f;
                float inv = M[j] / (r2 * sqrtf(r2));
                ax += dx * inv; ay += dy * inv; az += dz * inv;
            }
            AX[i] = ax; AY[i] = ay; AZ[i] = az;
        }
    for (i = 0; i < N; i++) s += AX[i] + AY[i] + AZ[i];
    printf("%g\n", (double)s);
    return 0;
}
