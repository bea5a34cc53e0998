C     Problem size of cghalve.f: psize N, iterations NITER.
      INTEGER N, NITER
      PARAMETER (N = 1024, NITER = 1)
