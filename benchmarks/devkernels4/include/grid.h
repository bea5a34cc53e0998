/* the grid of stencil5.c, found with -I include */
#ifndef GRID_H
#define GRID_H
#ifndef NX
#define NX 1200
#endif
#ifndef NY
#define NY 1200
#endif
#ifndef STEPS
#define STEPS 80
#endif
#endif
