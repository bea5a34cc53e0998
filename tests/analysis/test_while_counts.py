"""While loops driven by an induction variable are counted as DO loops are (sad.analysis.whileloops): the
counts are hand-derived here and, for a C and a Fortran program, equal gcov's on a real run. Loops whose
variable, bound or step the body may change otherwise, or that can be left or skip the update, keep their
named count X_..., as before. Also the value backtracer's part (sad.analysis.conditional): a DO index or a
C loop's variable assigned again after its loop has that value, and the targets of C's continue and break
(which carry the loop's line) are not backward jumps."""
from __future__ import annotations

from pathlib import Path

import pytest
import sympy

from sad.analysis.description import line_counts
from sad.analysis.pipeline import analyze
from sad.cli.main import main

N = sympy.Symbol("N")


def _counts(tmp_path: Path, name: str, text: str) -> dict[int, sympy.Expr]:
    source = tmp_path / name
    source.write_text(text)
    analysis = analyze([str(source)], [])
    assert not [d for d in analysis.diagnostics if d.severity == "error"]
    return {line: sympy.sympify(count) for (file, line), count in line_counts(analysis.counts).items()
            if Path(file) == source}


def _at(count: sympy.Expr, **values: int) -> sympy.Expr:
    return count.subs({s: values[s.name] for s in count.free_symbols if s.name in values})


def _named(count: sympy.Expr) -> bool:
    return any(s.name.startswith("X_") for s in count.free_symbols)


C_LOOPS = """\
#include <stdio.h>
int main(void)
{
    int i, j, k, n;
    long s = 0;
    if (scanf("%d", &n) != 1)
        return 1;
    i = 0;
    while (i < n) {
        s += i;
        i += 4;
    }
    j = 3;
    do {
        s -= j;
        j = j + 5;
    } while (j <= 40);
    for (k = n; k > 2; k -= 3)
        s += k;
    for (i = 0; i < 10; i++) {
        if (i == 4)
            continue;
        s++;
    }
    i = 7;
    while (i >= 0) {
        s += 2;
        i--;
    }
    i = 0;
    while (i < n && i <= 40) {
        s += i;
        i += 3;
    }
    k = n;
    while (k > 2 && k >= 20) {
        s -= k;
        k--;
    }
    printf("%ld\\n", s);
    return 0;
}
"""


def test_c_while_do_while_and_for_loops_are_counted(tmp_path):
    counts = _counts(tmp_path, "loops.c", C_LOOPS)
    for n in (1, 4, 5, 50, 53):
        assert _at(counts[10], n=n) == -(-n // 4)            # i = 0, 4, ... while i < n
    assert counts[15] == 8                                     # j = 3, 8, ..., 38: a do-while's 8 passes
    for n in (2, 3, 4, 50):
        assert _at(counts[19], n=n) == max(0, -(-(n - 2) // 3))  # k = n, n-3, ... while k > 2
    assert counts[27] == 8                                     # i = 7 ... 0: after the loop with continue


def _gcov_agrees(capsys, tmp_path: Path, name: str, text: str, *defines: str) -> str:
    """`sad check-counts` of the program with each NAME=VALUE bound and the values given as its input, in
    order: every line equal to gcov's, none unbound. Its output."""
    source = tmp_path / name
    source.write_text(text)
    (tmp_path / "in.txt").write_text(" ".join(d.split("=")[1] for d in defines) + "\n")
    bound = [arg for d in defines for arg in ("-D", d)]
    rc = main(["check-counts", str(source), *bound, "--", f"./{source.stem} < {tmp_path / 'in.txt'}"])
    out = capsys.readouterr().out
    assert rc == 0 and "MISMATCH" not in out and "unbound" not in out.splitlines()[-1], out
    return out


def test_c_counts_equal_gcov(capsys, tmp_path):
    out = _gcov_agrees(capsys, tmp_path, "loops.c", C_LOOPS, "n=53")
    assert " 14 " in out.split("loops.c:10 ")[1].splitlines()[0], out    # i = 0, 4, ..., 52


F_LOOPS = """\
      PROGRAM WH
      INTEGER I, J, N, S
      READ (5, *) N
      S = 0
      I = 1
      DO WHILE (I .LE. N)
         S = S + I
         I = I + 2
      END DO
      DO 10 J = 1, N
         S = S + J
   10 CONTINUE
      J = N
      DO WHILE (J .GE. 1)
         S = S - 1
         J = J - 1
      END DO
      I = 1
      DO WHILE (I .LE. N .AND. I .LT. 30)
         S = S + I
         I = I + 2
      END DO
      PRINT *, S
      END
"""


def test_fortran_do_while_and_an_index_reused_after_its_loop(tmp_path):
    counts = _counts(tmp_path, "wh.f", F_LOOPS)
    for n in (1, 2, 7, 8):
        assert _at(counts[7], N=n) == (n + 1) // 2             # I = 1, 3, ... while I <= N
        assert _at(counts[15], N=n) == n                       # J = N ... 1: J assigned again after its DO


def test_fortran_counts_equal_gcov(capsys, tmp_path):
    out = _gcov_agrees(capsys, tmp_path, "wh.f", F_LOOPS, "N=9")
    assert " 5 " in out.split("wh.f:7 ")[1].splitlines()[0], out          # I = 1, 3, ..., 9


GOTO_LOOPS = """\
      PROGRAM GL
      INTEGER I, K, N
      READ (5, *) N
      K = 0
      I = 0
   30 I = I + 1
      K = K + I
      IF (I .LT. N) GOTO 30
      I = N
   40 K = K - 1
      I = I - 2
      IF (I .GE. 1) GOTO 40
      PRINT *, K
      END
"""


def test_a_goto_loop_that_is_a_do_while_is_counted(tmp_path):
    # I = 1 .. N tested after the update: N trips (1 for N <= 1); I = N - 2, N - 4, ... tested >= 1 after
    # the update: 1 + floor((N - 1) / 2) trips
    counts = _counts(tmp_path, "gl.f", GOTO_LOOPS)
    for n in (1, 2, 7, 8):
        assert _at(counts[7], N=n) == max(1, n)
        assert _at(counts[10], N=n) == 1 + (n - 1) // 2


def test_goto_do_while_counts_equal_gcov(capsys, tmp_path):
    out = _gcov_agrees(capsys, tmp_path, "gl.f", GOTO_LOOPS, "N=9")
    assert " 9 " in out.split("gl.f:6 ")[1].splitlines()[0], out            # I = 1, ..., 9
    assert " 5 " in out.split("gl.f:10 ")[1].splitlines()[0], out           # I = 7, 5, 3, 1, then -1


STEP_IN_TEST = """\
      PROGRAM ST
      INTEGER I, J, K, N
      READ (5, *) N
      K = 0
      J = 1
   70 CONTINUE
      DO 80 I = 1, 3
         K = K + J
   80 CONTINUE
      IF (J .LT. N) THEN
         J = J + 1
         GO TO 70
      END IF
      PRINT *, K
      END
"""


def test_a_goto_loop_whose_step_is_in_the_test_is_counted(capsys, tmp_path):
    # DGTTS2's back solve: J = 1, 2, ... tested before its step, J .LT. N: N passes (1 for N <= 1), N - 1
    # steps; three additions a pass
    counts = _counts(tmp_path, "st.f", STEP_IN_TEST)
    for n in (0, 1, 2, 9):
        assert _at(counts[10], N=n) == max(1, n) and _at(counts[11], N=n) == max(0, n - 1)
        assert _at(counts[8], N=n) == 3 * max(1, n)
    out = _gcov_agrees(capsys, tmp_path, "st2.f", STEP_IN_TEST, "N=6")
    assert " 5 " in out.split("st2.f:11 ")[1].splitlines()[0], out          # J = 2, ..., 6


HEAD_TESTED = """\
      PROGRAM HT
      INTEGER I, J, K, N, S
      READ (5, *) N
      S = 0
      K = N
   10 IF (K .LE. 1) GO TO 20
      K = K / 2
      S = S + K
      GO TO 10
   20 CONTINUE
      J = 1
   30 CONTINUE
      IF (J .GT. N) GO TO 40
      S = S + J
      J = J + 3
      GO TO 30
   40 CONTINUE
      I = 2
      S = S + 1
   50 CONTINUE
      IF (I .LE. N) THEN
         S = S + I
         I = I + 2
         GO TO 50
      END IF
      K = 1
   60 IF (K .LT. N) THEN
         K = K * 3
         GO TO 60
      END IF
      PRINT *, S
      END
"""


def test_goto_loops_tested_at_their_head_are_counted_as_gcov_counts_them(capsys, tmp_path):
    # the F66 while loops: a labelled test (or a labelled CONTINUE and the test), the body, the GOTO back;
    # an exit by ``IF (c) GO TO out`` or a block IF whose arm ends with the GOTO back. At N = 37: K = 37, 18,
    # 9, 4, 2 halved 5 times; J = 1, 4, ..., 37 13 passes; I = 2, 4, ..., 36 18 passes; K = 1, 3, 9, 27 4
    counts = _counts(tmp_path, "ht.f", HEAD_TESTED)
    for n, passes in ((0, (0, 0, 0, 0)), (1, (0, 1, 0, 0)), (2, (1, 1, 1, 1)), (37, (5, 13, 18, 4))):
        got = tuple(_at(counts[line], N=n) for line in (7, 14, 22, 28))
        assert got == passes, (n, got)
        assert _at(counts[6], N=n) == passes[0] + 1 and _at(counts[21], N=n) == passes[2] + 1
    out = _gcov_agrees(capsys, tmp_path, "ht2.f", HEAD_TESTED, "N=37")
    assert " 18 " in out.split("ht2.f:23 ")[1].splitlines()[0], out          # I = 2, 4, ..., 36


@pytest.mark.parametrize("old, new", [
    ("      J = 1\n", "      J = 1\n      IF (N .GT. 5) GO TO 30\n"),       # entered past its assignment
    ("      J = J + 3\n", "      J = J + 3\n   35 S = S - 1\n"),         # a label inside: jumps may land there
    ("      J = J + 3\n", "      J = J + S\n"),                          # a step the analysis does not know
    ("      J = J + 3\n", "      J = J + 3\n      IF (S .GT. 99) GO TO 40\n"),  # left early
])
def test_head_tested_goto_loops_the_analysis_cannot_count_keep_their_named_count(tmp_path, old, new):
    counts = _counts(tmp_path, "ht3.f", HEAD_TESTED.replace(old, new))
    assert _named(counts[14]), counts[14]


def test_a_goto_loop_entered_from_elsewhere_keeps_its_named_count(tmp_path):
    text = GOTO_LOOPS.replace("      I = 0\n", "      I = 0\n      IF (N .GT. 5) GOTO 30\n")
    counts = _counts(tmp_path, "gl2.f", text)
    assert _named(counts[8]), counts[8]


BLOCKED = """\
      PROGRAM BL
      INTEGER J, K, N, NB, S
      READ (5, *) N, NB
      S = 0
      J = 1
   10 CONTINUE
      IF (J .LE. N) THEN
         S = S + J
         J = J + NB
         GO TO 10
      END IF
      K = N
      DO WHILE (K .GE. 1)
         S = S + K
         K = K - NB
      END DO
      PRINT *, S
      END
"""


def test_a_step_known_as_a_formula_is_counted_as_a_do_loops_is(capsys, tmp_path):
    # J = 1, 1 + NB, ... <= N and K = N, N - NB, ... >= 1: floor((N - 1) / NB) + 1 passes each (N >= 1), as
    # DO J = 1, N, NB counts them; a loop that is entered and ends moves towards its bound, so NB > 0 there
    counts = _counts(tmp_path, "bl.f", BLOCKED)
    for n, nb in ((1, 1), (7, 3), (100, 7), (0, 5)):
        want = max(0, (n - 1) // nb + 1) if n >= 1 else 0
        assert _at(counts[8], N=n, NB=nb) == want and _at(counts[14], N=n, NB=nb) == want, (n, nb)
    out = _gcov_agrees(capsys, tmp_path, "bl2.f", BLOCKED, "N=100", "NB=7")
    assert " 15 " in out.split("bl2.f:9 ")[1].splitlines()[0], out           # J = 1, 8, ..., 99


@pytest.mark.parametrize("body", [
    "s += i; i += s;",                  # a step the loop itself changes
    "if (s > 3) i += 1; s++;",          # the update under an IF
    "s += i; i += 1; if (s > 99) break;",  # left early
    "s += i; i *= 2;",                  # not an added constant
    "s += i; i += 1; bump(&i);",        # the variable's address given to a call
    "s += i; i += 1; n -= k;",          # the bound changed by a step the analysis does not know
    "s += i; i += 1; n = n * 2;",       # the bound changed otherwise than by an added constant
])
def test_loops_the_analysis_cannot_count_keep_their_named_count(tmp_path, body):
    text = ("void bump(int *p);\nint f(int n, int k)\n{\n    int i = 0, s = 0;\n    while (i < n) {\n"
            f"        {body}\n    }}\n    return s;\n}}\n")
    counts = _counts(tmp_path, "keep.c", text)
    assert _named(counts[6]), counts[6]


def test_a_bound_that_moves_by_a_constant_is_counted_on_the_difference(tmp_path):
    # i from 0 up by 1, n down by 1: i - n from -n by 2 while below 0, ceil(n / 2) trips
    text = ("int f(int n)\n{\n    int i = 0, s = 0;\n    while (i < n) {\n"
            "        s += i; i += 1; n--;\n    }\n    return s;\n}\n")
    counts = _counts(tmp_path, "ends.c", text)
    for n in (0, 1, 6, 7):
        assert _at(counts[5], **{"f.n": n}) == (n + 1) // 2


def test_a_pointer_to_the_variable_taken_before_the_loop_keeps_its_named_count(tmp_path):
    text = ("int f(int n)\n{\n    int i = 0, s = 0;\n    int *p = &i;\n    while (i < n) {\n"
            "        s += i;\n        i += 1;\n        *p += 1;\n    }\n    return s;\n}\n")
    counts = _counts(tmp_path, "alias.c", text)
    assert _named(counts[6]), counts[6]


def test_a_switch_after_the_loop_leaves_its_count_known(tmp_path):
    """A switch lowers to a computed GOTO whose targets all lie ahead: not a backward jump, so the value of
    `i` where the loop starts is still followed."""
    text = ("int f(int n)\n{\n    int i, s = 0;\n    for (i = 0; i < n; i++)\n        s += i;\n    i = 2;\n"
            "    while (i < 20) {\n        s++;\n        i += 3;\n    }\n    switch (s % 3) {\n"
            "    case 0: s++; break;\n    default: s--;\n    }\n    return s;\n}\n")
    counts = _counts(tmp_path, "sw.c", text)
    assert counts[8] == 6                                      # i = 2, 5, ..., 17



def test_two_bounds_joined_by_and_are_the_nearer_one(capsys, tmp_path):
    """C (C_LOOPS' last two whiles): i < n && i <= 40 by 3 is i < MIN(n, 41): 0, 3, ..., 39 at n = 53 (14
    trips); k from 53 down while k > 2 && k >= 20: 53 ... 20 (34 trips). Fortran (F_LOOPS' last DO WHILE):
    I <= N .AND. I < 30 by 2 from 1: 1, 3, ..., 29 at N = 53 (15 trips). Every line equal to gcov's."""
    counts = _counts(tmp_path, "loops.c", C_LOOPS)
    assert _at(counts[32], n=53) == 14 and _at(counts[32], n=7) == 3 and _at(counts[37], n=53) == 34
    out = _gcov_agrees(capsys, tmp_path, "loops.c", C_LOOPS, "n=53")
    assert " 14 " in out.split("loops.c:32 ")[1].splitlines()[0], out
    out = _gcov_agrees(capsys, tmp_path, "wh.f", F_LOOPS, "N=53")
    assert " 15 " in out.split("wh.f:21 ")[1].splitlines()[0], out


POINTER_WALKS = """\
#include <stdio.h>
static double v[600], w[600];
static double sum_back(const double *a, int n) {
    const double *p = a + n;
    double s = 0.0;
    do {
        p--;
        s += *p;
    } while (p > a);
    return s;
}
int main(void) {
    int n;
    double s = 0.0;
    if (scanf("%d", &n) != 1) return 1;
    for (double *p = v; p < v + n; p++)
        *p = 1.0;
    for (double *p = &w[3]; p <= &w[n - 1]; p += 2)
        *p = 2.0;
    double *q = w, *end = w + n;
    while (q != end)
        *q++ *= 0.5;
    for (double *p = v + n - 1; p >= v; p--)
        s += *p;
    s += sum_back(v, n);
    printf("%f\\n", s);
    return 0;
}
"""


def test_pointer_walks_are_counted(tmp_path):
    # a pointer from an array (or an element's address, or a pointer) up or down to the same array plus an
    # offset: counted on the offsets, in elements; each was a named count X_... before
    counts = _counts(tmp_path, "walks.c", POINTER_WALKS)
    for n in (1, 4, 37):
        assert _at(counts[17], n=n) == n                     # v .. v + n - 1
        assert _at(counts[19], n=n) == max(0, (n - 4) // 2 + 1)   # &w[3], &w[5], ... <= &w[n - 1]
        assert _at(counts[22], n=n) == n                     # q != w + n
        assert _at(counts[24], n=n) == n                     # v + n - 1 down to v
        assert _at(counts[7], n=n) == n                      # a do-while from a + n down to a (the call's n)
    assert not any(_named(c) for c in counts.values())


@pytest.mark.parametrize("n", [1, 4, 37])
def test_pointer_walk_counts_equal_gcov(capsys, tmp_path, n):
    _gcov_agrees(capsys, tmp_path, "walks.c", POINTER_WALKS, f"n={n}")


@pytest.mark.parametrize("loop", [
    "for (p = v; p < w + 50; p++) s += *p;",                    # bounded by another array
    "p = q;\n    q = q + 10;\n    while (p < q + 20) { s += *p; p++; }",  # the base moved after the start was read
    "p = v;\n    while (p < q) { s += *p; p++; q--; q--; }",      # a bound the body moves by more than one step
])
def test_pointer_walks_the_analysis_cannot_count_keep_their_named_count(tmp_path, loop):
    source = tmp_path / "keep.c"
    source.write_text("static double v[100], w[100];\nint main(void) {\n    double *p = v, *q = w;\n"
                      f"    double s = 0;\n    {loop}\n    return (int)s;\n}}\n")
    named = [p.name for p in analyze([str(source)], []).table.unresolved()]
    assert named == ["X_main_WHILE1"], named
