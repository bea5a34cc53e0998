/* column differences: d[i] += (A[j][i] - A[j-1][i])^2 over j (a column walk and the row before it), n = 1200 */
#include <stdio.h>
#define N 1200
#define R 64
static double A[N][N], d[N];
int main(void) {
    int r, i, j;
    double s = 0;
    for (i = 0; i < N; i++)
        for (j = 0; j < N; j++) A[i][j] = ((i * 3 + j * 5) % 17) / 17.0;
    for (r = 0; r < R; r++)
        for (i = 0; i < N; i++)
            for (j = 1; j < N; j++)
                d[i] = d[i] + (A[j][i] - A[j - 1][i]) * (A[j][i] - A[j - 1][i]);
    for (i = 0; i < N; i++) s += d[i];
    printf("%g\n", s);
    return 0;
}
