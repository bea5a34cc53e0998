/* mvt at a power-of-two size: rows 16 KiB apart, the column walk in few L1 sets */
#define N 2048
#include "mvt.c"
