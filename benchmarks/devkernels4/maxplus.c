/* max-plus (tropical) matrix product: C[i][j] = max_k A[i][k] + B[k][j], k outside j so the update runs
   along rows */
#include <stdio.h>
#ifndef N
#define N 900
#endif
static int A[N][N], B[N][N], C[N][N];
int main(void) {
    int i, j, k, a, t;
    long total = 0;
    for (i = 0; i < N; i++)
        for (j = 0; j < N; j++) {
            A[i][j] = (i * 13 + j * 7) % 101;
            B[i][j] = (i * 5 + j * 11) % 97;
            C[i][j] = -1000000;
        }
    for (i = 0; i < N; i++)
        for (k = 0; k < N; k++) {
            a = A[i][k];
            for (j = 0; j < N; j++) {
                t = a + B[k][j];
                C[i][j] = C[i][j] > t ? C[i][j] : t;
            }
        }
    for (i = 0; i < N; i++) total += C[i][(i * 3) % N];
    printf("%ld\n", total);
    return 0;
}
