/* deriche-like: a recursive (IIR) smoothing filter on a float image, causal and anti-causal passes along rows
   and then along columns (the column passes walk the image with a row pitch) */
#include <stdio.h>
#include <math.h>
#ifndef W
#define W 4096
#endif
#ifndef H
#define H 2160
#endif
static float imgIn[W][H], imgOut[W][H], yy1[W][H], yy2[W][H];
int main(void) {
    int i, j;
    float alpha = 0.25f, s = 0;
    float k = (1.0f - expf(-alpha)) * (1.0f - expf(-alpha)) / (1.0f + 2.0f * alpha * expf(-alpha) - expf(2.0f * alpha));
    float a1 = k, a5 = k, a2 = k * expf(-alpha) * (alpha - 1.0f), a6 = a2;
    float a3 = k * expf(-alpha) * (alpha + 1.0f), a7 = a3, a4 = -k * expf(-2.0f * alpha), a8 = a4;
    float b1 = powf(2.0f, -alpha), b2 = -expf(-2.0f * alpha), c1 = 1, c2 = 1;
    float ym1, ym2, xm1, tm1, yp1, yp2, xp1, xp2, tp1, tp2;
    for (i = 0; i < W; i++)
        for (j = 0; j < H; j++)
            imgIn[i][j] = (float)((313 * i + 991 * j) % 65536) / 65535.0f;
    for (i = 0; i < W; i++) {
        ym1 = 0; ym2 = 0; xm1 = 0;
        for (j = 0; j < H; j++) {
            yy1[i][j] = a1 * imgIn[i][j] + a2 * xm1 + b1 * ym1 + b2 * ym2;
            xm1 = imgIn[i][j]; ym2 = ym1; ym1 = yy1[i][j];
        }
    }
    for (i = 0; i < W; i++) {
        yp1 = 0; yp2 = 0; xp1 = 0; xp2 = 0;
        for (j = H - 1; j >= 0; j--) {
            yy2[i][j] = a3 * xp1 + a4 * xp2 + b1 * yp1 + b2 * yp2;
            xp2 = xp1; xp1 = imgIn[i][j]; yp2 = yp1; yp1 = yy2[i][j];
        }
    }
    for (i = 0; i < W; i++)
        for (j = 0; j < H; j++)
            imgOut[i][j] = c1 * (yy1[i][j] + yy2[i][j]);
    for (j = 0; j < H; j++) {
        tm1 = 0; ym1 = 0; ym2 = 0;
        for (i = 0; i < W; i++) {
            yy1[i][j] = a5 * imgOut[i][j] + a6 * tm1 + b1 * ym1 + b2 * ym2;
            tm1 = imgOut[i][j]; ym2 = ym1; ym1 = yy1[i][j];
        }
    }
    for (j = 0; j < H; j++) {
        tp1 = 0; tp2 = 0; yp1 = 0; yp2 = 0;
        for (i = W - 1; i >= 0; i--) {
            yy2[i][j] = a7 * tp1 + a8 * tp2 + b1 * yp1 + b2 * yp2;
            tp2 = tp1; tp1 = imgOut[i][j]; yp2 = yp1; yp1 = yy2[i][j];
        }
    }
    for (i = 0; i < W; i++)
        for (j = 0; j < H; j++)
            imgOut[i][j] = c2 * (yy1[i][j] + yy2[i][j]);
    for (i = 0; i < W; i++) s += imgOut[i][(i * 7) % H];
    printf("%g\n", s);
    return 0;
}
