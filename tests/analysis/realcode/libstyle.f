      PROGRAM LIBSTY
C     Shapes met in the Fortran 77 libraries scipy ships (MINPACK, DOP853, the ID library, LAPACK's
C     ILAENV), written here: RECURSIVE glued to the header by a continuation, blanks inside PARAMETER names,
C     a dummy procedure declared only EXTERNAL under IMPLICIT NONE, an open sum of an open sum bound by a
C     call, and an IEEE infinity made by dividing by a formal zero.
      INTEGER N, M
      DOUBLE PRECISION X(100), Y(100)
      READ *, N, M
      CALL LIBDRV(N, M, X, Y)
      END

      recursive
     *subroutine LIBDRV(N, M, X, Y)
      implicit none
      integer N, M, I, K, ISINF
      double precision X(*), Y(*), ER1, ER6, FAC, TRI
      external APPLY
      parameter (
     &  er 1 =  0.13D-01,
     &  er 6 = -0.12D+01)
      FAC = ER1 + ER6
      K = ISINF(0.0D0, 1.0D0)
      DO 10 I = 1, N
         Y(I) = TRI(I, M) + FAC
   10 CONTINUE
      call STEPS(N, APPLY, X, Y)
      RETURN
      END

      SUBROUTINE STEPS(N, OP, X, Y)
      implicit none
      integer N, I
      double precision X(*), Y(*)
      external OP
      DO 10 I = 1, N
         call OP(N, X, Y)
   10 CONTINUE
      RETURN
      END

      SUBROUTINE APPLY(N, X, Y)
      INTEGER N
      DOUBLE PRECISION X(*), Y(*)
      Y(1) = X(1)
      END

      recursivedouble precision function TRI(N, M)
      integer N, M, I, J, K
      TRI = 0.0D0
      DO 30 K = 1, N
         DO 20 I = 1, K
            DO 10 J = 1, I - M
               TRI = TRI + 1.0D0
   10       CONTINUE
   20    CONTINUE
   30 CONTINUE
      RETURN
      END

      INTEGER FUNCTION ISINF(ZERO, ONE)
      DOUBLE PRECISION ZERO, ONE, POSINF
      POSINF = ONE / ZERO
      ISINF = 0
      IF (POSINF .LE. ONE) RETURN
      ISINF = 1
      RETURN
      END

      SUBROUTINE FIRST(N, INDEX, K)
C     an array named like the INDEX intrinsic in a DO WHILE condition (PROPACK's Lanczos code)
      INTEGER N, INDEX(*), K, I
      I = 1
      DO WHILE (INDEX(I) .LE. K .AND. INDEX(I) .GT. 0)
         I = I + 1
      END DO
      N = I
      END
