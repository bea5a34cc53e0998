/* Selects whose arms GCC lays out in either order (tests/measure/test_select_arms.py). */
#include <stdio.h>
#define N 30
double A[N][N], B[N][N];
int K[N][N], V[1000];
static int gap(int i, int j) { return i < j ? 0 : i - j; }
int main(void) {
  double s = 0.5, t = 0.25;
  int big = 0;
  for (int i = 0; i < 1000; i++)
    V[i] = (i * 37) % 11;
  for (int i = 0; i < N; i++)
    for (int j = 0; j < N; j++)
      A[i][j] = (double)(i * N + j) / (N * N);
  for (int i = 0; i < N; i++)
    for (int j = 0; j < N; j++) {
      B[i][j] = i < j ? 1.0 : A[i][j];
      B[i][j] += i < j ? s : A[i][j];
      B[i][j] += i < 2 * j ? A[i][j] : s;
      B[i][j] += i + 3 < j ? s : t;
      K[i][j] = i < j ? -1 : i + 1;
      K[i][j] += gap(i, j);
      B[i][j] += i < j ? (double)big : A[i][j];
    }
  for (int i = 0; i < 1000; i++)
    big += V[i] > 6 ? 1 : V[i] * 2;
  printf("%f %d %d\n", B[3][4], K[5][2], big);
  return 0;
}
