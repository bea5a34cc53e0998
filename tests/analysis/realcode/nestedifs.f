      SUBROUTINE NIF(N, M, A)
C     20 nested IF blocks, each ELSE arm a RETURN on an exact test
      INTEGER N, M, I
      DOUBLE PRECISION A(*)
      IF (N .GT. 0) THEN
       A(1) = 1.0D0
      ELSE
       IF (M .EQ. 0) RETURN
       IF (N .GT. 1) THEN
        A(2) = 1.0D0
       ELSE
        IF (M .EQ. 1) RETURN
        IF (N .GT. 2) THEN
         A(3) = 1.0D0
        ELSE
         IF (M .EQ. 2) RETURN
         IF (N .GT. 3) THEN
          A(4) = 1.0D0
         ELSE
          IF (M .EQ. 3) RETURN
          IF (N .GT. 4) THEN
           A(5) = 1.0D0
          ELSE
           IF (M .EQ. 4) RETURN
           IF (N .GT. 5) THEN
            A(6) = 1.0D0
           ELSE
            IF (M .EQ. 5) RETURN
            IF (N .GT. 6) THEN
             A(7) = 1.0D0
            ELSE
             IF (M .EQ. 6) RETURN
             IF (N .GT. 7) THEN
              A(8) = 1.0D0
             ELSE
              IF (M .EQ. 7) RETURN
              IF (N .GT. 8) THEN
               A(9) = 1.0D0
              ELSE
               IF (M .EQ. 8) RETURN
               IF (N .GT. 9) THEN
                A(10) = 1.0D0
               ELSE
                IF (M .EQ. 9) RETURN
                IF (N .GT. 10) THEN
                 A(11) = 1.0D0
                ELSE
                 IF (M .EQ. 10) RETURN
                 IF (N .GT. 11) THEN
                  A(12) = 1.0D0
                 ELSE
                  IF (M .EQ. 11) RETURN
                  IF (N .GT. 12) THEN
                   A(13) = 1.0D0
                  ELSE
                   IF (M .EQ. 12) RETURN
                   IF (N .GT. 13) THEN
                    A(14) = 1.0D0
                   ELSE
                    IF (M .EQ. 13) RETURN
                    IF (N .GT. 14) THEN
                     A(15) = 1.0D0
                    ELSE
                     IF (M .EQ. 14) RETURN
                     IF (N .GT. 15) THEN
                      A(16) = 1.0D0
                     ELSE
                      IF (M .EQ. 15) RETURN
                      IF (N .GT. 16) THEN
                       A(17) = 1.0D0
                      ELSE
                       IF (M .EQ. 16) RETURN
                       IF (N .GT. 17) THEN
                        A(18) = 1.0D0
                       ELSE
                        IF (M .EQ. 17) RETURN
                        IF (N .GT. 18) THEN
                         A(19) = 1.0D0
                        ELSE
                         IF (M .EQ. 18) RETURN
                         IF (N .GT. 19) THEN
                          A(20) = 1.0D0
                         ELSE
                          IF (M .EQ. 19) RETURN
                         END IF
                        END IF
                       END IF
                      END IF
                     END IF
                    END IF
                   END IF
                  END IF
                 END IF
                END IF
               END IF
              END IF
             END IF
            END IF
           END IF
          END IF
         END IF
        END IF
       END IF
      END IF
      DO 10 I = 1, N
         A(I) = 0.0D0
   10 CONTINUE
      END
