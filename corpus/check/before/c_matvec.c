/* y := A*x for a row-major m by n matrix */
void c_matvec(int m, int n, const double *a, const double *x, double *y)
{
    int i, j;
    for (i = 0; i < m; i++) {
        double s = 0.0;
        for (j = 0; j < n; j++)
            s += a[i * n + j] * x[j];
        y[i] = s;
    }
}
