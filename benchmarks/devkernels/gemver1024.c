/* gemver at a power-of-two size: rows 8 KiB apart */
#define N 1024
#include "gemver.c"
