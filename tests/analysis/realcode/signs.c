void half(int n, int m, double *x)
{
    int i, j;
    int k = n / 2;
    for (i = 0; i < k; i++)
        x[i] = 0.0;
    for (i = 0; i < k; i++)
        for (j = 0; j < i % 3; j++)
            x[j] += 1.0;
    for (i = 0; i < m % 4; i++)
        x[i] = 1.0;
}
