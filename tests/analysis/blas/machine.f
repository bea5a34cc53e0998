*     DLAMCH with literal options (issue 29): its tests of the model numbers (EPSILON, TINY, HUGE) and
*     of RND = ONE are decided, the option chain is exact for each call.
      PROGRAM MACH
      DOUBLE PRECISION DLAMCH, S, E, O
      EXTERNAL DLAMCH
      S = DLAMCH('S')
      E = DLAMCH('e')
      O = DLAMCH('Overflow')
      WRITE (6, *) S, E, O
      END
