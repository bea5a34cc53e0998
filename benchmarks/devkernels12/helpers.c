/* a function in another file, called once per element (not inlined across files) */
double weight(double x, double y) { return x * y + 0.25 * (x - y); }
