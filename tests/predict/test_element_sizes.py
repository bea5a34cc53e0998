"""The bytes of a C integer array's elements as declared (char 1, short 2, int 4, long 8): the IR calls them all
"integer", the memory model reads the declaration's size (ir.Variable.elem_bytes)."""
from __future__ import annotations

from tests.predict.loop_nests import inner_loop

SOURCE = """#include <stdio.h>
static char c[1000]; static short s[1000]; static int n[1000]; static long l[1000]; static double d[1000];
int main(void) {
    int i; long t = 0;
    for (i = 0; i < 1000; i++)
        t += c[i] + s[i] + n[i] + l[i] + (long)d[i];
    printf("%ld\\n", t);
    return 0;
}
"""


def test_each_integer_kind_has_its_declared_size(tmp_path):
    loop, _trips = inner_loop(tmp_path, SOURCE, 5)
    sizes = {ref.array: ref.elem_bytes for ref in loop.refs}
    assert sizes == {"c": 1, "s": 2, "n": 4, "l": 8, "d": 8}


FORTRAN = """      PROGRAM SIZES
      COMPLEX*16 Z(100)
      COMPLEX(KIND=8) W(100)
      DOUBLE COMPLEX V(100)
      COMPLEX C(100)
      INTEGER*8 K(100)
      INTEGER M(100)
      INTEGER I
      DO 10 I = 1, 100
         Z(I) = W(I) + V(I) + C(I) + K(I) + M(I)
   10 CONTINUE
      END
"""


def test_fortran_complex_and_integer_kinds_have_their_declared_size(tmp_path):
    # COMPLEX*16 (the star counts bytes), COMPLEX(KIND=8) (the kind counts a part's) and DOUBLE COMPLEX are
    # 16 bytes, COMPLEX 8; INTEGER*8 8, INTEGER 4: a COMPLEX*16 loop priced with 8-byte elements moved half
    # its data and took two elements a pass for one (zaxpy at -O2: -49 %)
    loop, _trips = inner_loop(tmp_path, FORTRAN, 9, "sizes.f")
    sizes = {ref.array: ref.elem_bytes for ref in loop.refs}
    assert sizes == {"Z": 16, "W": 16, "V": 16, "C": 8, "K": 8, "M": 4}


STRUCTS = """#include <complex.h>
struct particle { double x, y, z, vx, vy, vz; };
struct pair { int key; float w; };
static struct particle p[1000]; static struct pair q[1000];
static double complex z[1000]; static float complex f[1000];
int main(void) {
    int i;
    for (i = 0; i < 1000; i++) {
        p[i].x += 0.001 * p[i].vx;
        q[i].w = q[i].key + crealf(f[i]) + creal(z[i]);
    }
    return 0;
}
"""


def test_a_struct_member_steps_over_the_record_and_c_complex_has_its_size(tmp_path):
    # p[i].x is a double, but i steps over 48-byte records: priced as 8 bytes an iteration, a loop updating
    # every member of 200 000 particles came out 7x too fast at -O2 (0.068 s predicted, 0.48 s measured),
    # and the compiled loop's 96-byte step read as twelve source iterations a pass
    loop, _trips = inner_loop(tmp_path, STRUCTS, 8)
    sizes = {(ref.array, ref.elem_bytes) for ref in loop.refs}
    assert sizes == {("p", 48), ("q", 8), ("f", 8), ("z", 16)}
