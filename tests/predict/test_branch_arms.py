"""An arm of an IF inside a compiled loop runs in its share of the iterations, and a test of data costs the
mispredictions of its minority outcome (sad.predict.incore.arm_cycles): llvm-mca runs every instruction of a
loop body in every iteration, which priced a pair-force loop's square root and division (19 % of the pairs)
in all of them, and the branch probability vanished from a time that was then called bound."""
from __future__ import annotations

import io
import json
import shutil
from pathlib import Path

import pytest

from sad.cli.main import run
from sad.predict import compiled as cc
from sad.predict.incore import skipped_arms
from tests.predict.loop_nests import host_machine

needs_mca = pytest.mark.skipif(shutil.which("llvm-mca") is None or shutil.which("gfortran") is None,
                               reason="llvm-mca and gfortran are needed for the compiled-code model")

ARM_F = """      PROGRAM ARM
      INTEGER N, J
      PARAMETER (N = 10000)
      DOUBLE PRECISION X(N), Y(N), T
      DO 10 J = 1, N
         X(J) = MOD(J * 37, 101) * 0.01D0
         Y(J) = 0.0D0
   10 CONTINUE
      T = 0.5D0
      DO 20 J = 1, N
         IF (X(J) .LT. T) THEN
            Y(J) = SQRT(X(J)) / X(J)
         END IF
   20 CONTINUE
      PRINT *, Y(1)
      END
"""


def test_the_arms_a_forward_jump_skips_outermost_only():
    # gfortran -O2's pair loop: IF (R2 .LT. RC2 .AND. R2 .GT. 0) jumps to .L3 from two tests: one arm
    body = ["movapd %xmm8, %xmm0", "subsd (%rbx,%rax), %xmm0", "mulsd %xmm0, %xmm0", "comisd %xmm0, %xmm5",
            "jbe .L3", "comisd %xmm6, %xmm0", "jbe .L3", "sqrtsd %xmm1, %xmm1", "divsd %xmm0, %xmm1",
            "movsd %xmm1, (%rdx)", "addq $8, %rax", "cmpq $12000, %rax", "jne .L6"]
    loop = cc.AsmLoop("main", 0, 12, body, where=[None] * 13, head=".L6", targets={".L3": 10})
    assert skipped_arms(loop) == [(5, 9)]


def _loop_seconds(tmp_path: Path, extra: str, *defines: str) -> tuple[float | None, str, str]:
    src = tmp_path / "arm.f"
    src.write_text(ARM_F)
    out, err = io.StringIO(), io.StringIO()
    argv = ["analyze", str(src), "-m", str(host_machine(tmp_path, "gfortran -O2", extra)), "--format", "json"]
    assert run(argv + [f"-D{d}" for d in defines], out, err) == 0
    doc = json.loads(out.getvalue())
    loop = [b for b in doc["blocks"] if b["first_line"] == 10 and b["kind"] == "loop_iter"]
    return loop[0]["time_s"] if loop else None, doc["time"], err.getvalue()


@needs_mca
def test_the_branch_probability_stays_in_the_time_until_bound(tmp_path):
    seconds, formula, _ = _loop_seconds(tmp_path, "  mispredict: 40 ns\n")
    assert seconds is None and "P_ARM_IF1" in formula and "Min(P_ARM_IF1, 1 - " in formula


@needs_mca
def test_a_test_of_data_costs_its_minority_mispredicted(tmp_path):
    # half the elements below T: a random test mispredicted in half the 10 000 iterations, 40 ns each
    priced, _, _ = _loop_seconds(tmp_path, "  mispredict: 40 ns\n", "P_ARM_IF1=0.5")
    unpriced, _, err = _loop_seconds(tmp_path, "", "P_ARM_IF1=0.5")
    assert priced - unpriced == pytest.approx(10000 * 0.5 * 40e-9, rel=1e-3)
    assert "a branch on data in the compiled code, and the machine database has no hierarchy.mispredict" in err
    never, _, _ = _loop_seconds(tmp_path, "  mispredict: 40 ns\n", "P_ARM_IF1=0")
    always, _, _ = _loop_seconds(tmp_path, "  mispredict: 40 ns\n", "P_ARM_IF1=1")
    assert never < always < priced        # the arm costs; a test that always goes one way is predicted


@needs_mca
def test_explain_names_the_arm_the_price_keeps_open(tmp_path):
    src = tmp_path / "arm.f"
    src.write_text(ARM_F)
    out, err = io.StringIO(), io.StringIO()
    assert run(["analyze", str(src), "-m", str(host_machine(tmp_path, "gfortran -O2", "  mispredict: 40 ns\n")),
                "--explain"], out, err) == 0
    assert "arm of an IF in Min(1, P_ARM_IF1) of the iterations" in out.getvalue()
    assert "40 ns a misprediction" in out.getvalue()


ONE_LINE_C = """#include <math.h>
#include <stdio.h>
#define N 10000
static double x[N], y[N];
int main(void) {
    int j;
    for (j = 0; j < N; j++) x[j] = (j * 37 % 101) * 0.01;
    for (j = 0; j < N; j++) {
        if (x[j] < 0.5) y[j] = x[j] * x[j] / (x[j] + 1.0);
    }
    printf("%g\\n", y[1]);
    return 0;
}
"""


@needs_mca
def test_an_arm_written_on_the_line_of_its_test_is_an_arm(tmp_path):
    # `if (c) y = ...;` on one line: the test's branch block and the arm's code block share the line; the
    # instructions the jump skips are the arm's, paid in its share and mispredicted in the minority (before,
    # the shared line had no share: the arm was paid in every iteration and never mispredicted)
    src = tmp_path / "arm.c"
    src.write_text(ONE_LINE_C)
    machine = host_machine(tmp_path, "gcc -O0", "  mispredict: 40 ns\n")

    def explained(p: str) -> str:
        out, err = io.StringIO(), io.StringIO()
        assert run(["analyze", str(src), "-m", str(machine), "--explain", f"-DP_main_IF1={p}"], out, err) == 0
        return out.getvalue()

    assert "tests of data mispredicted 20 ns" in explained("0.5")       # 0.5 x 40 ns
    assert "tests of data mispredicted 4 ns" in explained("0.9")        # min(0.9, 0.1) x 40 ns
    assert "mispredicted" not in explained("1")                         # a test that always goes one way
