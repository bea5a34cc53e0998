      SUBROUTINE APPLY(TRANS, N, X)
C     DLARFB's TRANST: the option it passes on is 'T' where its own is
C     'N', else 'N'.
      CHARACTER TRANS
      INTEGER N
      DOUBLE PRECISION X(*)
      CHARACTER TRANST
      IF (TRANS.EQ.'N') THEN
         TRANST = 'T'
      ELSE
         TRANST = 'N'
      END IF
      CALL SWEEP(TRANST, N, X)
      RETURN
      END

      SUBROUTINE SWEEP(TRANS, N, X)
      CHARACTER TRANS
      INTEGER N
      DOUBLE PRECISION X(*)
      INTEGER I
      IF (TRANS.EQ.'N') THEN
         DO 10 I = 1, N
            X(I) = X(I) + 1.0D0
   10    CONTINUE
      ELSE
         DO 20 I = 1, 2 * N
            X(I) = X(I) * 0.5D0
   20    CONTINUE
      END IF
      RETURN
      END

      PROGRAM TRANST
C     APPLY with 'N' (SWEEP runs its 'T' arm: 2 * 7 trips) and with 'T'
C     (its 'N' arm: 7 trips).
      DOUBLE PRECISION X(20)
      INTEGER I
      DO 5 I = 1, 20
         X(I) = 1.0D0
    5 CONTINUE
      CALL APPLY('N', 7, X)
      CALL APPLY('T', 7, X)
      PRINT *, X(1)
      END
