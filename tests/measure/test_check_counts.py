"""The honesty check: for every corpus program whose counts are all resolved statically, the SAD's count of
every line equals gcov's on a real run (gfortran/gcc --coverage -O0), at the sample size and at another."""
from __future__ import annotations

from pathlib import Path

import pytest

from sad.cli.main import main
from tests.corpus_expectations import load_expected

ROOT = Path(__file__).resolve().parents[2]
KERNELS = ROOT / "corpus" / "kernels"
CKERNELS = ROOT / "corpus" / "c"
FORTRAN = ["matmul.f", "triangular.f", "trisolve.f", "stepped.f", "sharedlabel.f", "commoncall.f",
           "paramdirect.f"]
C_PROGRAMS = ["matmul_ijk.c", "matmul_kji.c", "lu.c", "trisolve.c", "jacobi.c", "stepped.c"]


def _fortran_cases():
    expected = load_expected(KERNELS / "expected.yaml")
    for name in FORTRAN:
        entry = expected[name]
        params = entry.get("params") or {}
        sets = [params] + ([entry["alt_params"][-1]] if entry.get("alt_params") else [])
        for values in sets:
            yield pytest.param(name, values, entry.get("input") or [], id=f"{name}-{values}")


def _c_cases():
    expected = load_expected(CKERNELS / "expected.yaml")
    for name in C_PROGRAMS:
        entry = expected[name]
        params = entry["params"]
        alt = {k: (v // 3 + 1 if isinstance(v, int) else v) for k, v in params.items()}
        for values in (params, alt):
            yield pytest.param(name, values, entry["stdin"], id=f"{name}-{values}")


def _check(capsys, source: Path, values: dict, input_file: Path) -> str:
    defines = [x for k, v in values.items() for x in ("-D", f"{k}={v}")]
    rc = main(["check-counts", str(source), *defines, "--", f"./{source.stem} < {input_file}"])
    out = capsys.readouterr().out
    assert rc == 0, out
    summary = out.strip().splitlines()[-1] if "unbound lines" not in out else out
    assert "MISMATCH" not in out and "unbound" not in summary, out
    return out


@pytest.mark.parametrize("name, values, order", list(_fortran_cases()))
def test_fortran_kernel_counts_equal_gcov(capsys, tmp_path, name, values, order):
    if values:
        input_file = tmp_path / "in.txt"
        input_file.write_text(" ".join(str(values[k]) for k in order) + "\n")
    else:
        input_file = KERNELS / name.replace(".f", ".in")
    out = _check(capsys, KERNELS / name, values, input_file)
    assert " ok " in out


@pytest.mark.parametrize("name, values, stdin", list(_c_cases()))
def test_c_kernel_counts_equal_gcov(capsys, tmp_path, name, values, stdin):
    input_file = tmp_path / "in.txt"
    input_file.write_text(stdin.format(**values))
    _check(capsys, CKERNELS / name, values, input_file)


def test_check_counts_reports_a_mismatch(capsys, tmp_path):
    """A wrong binding must show as MISMATCH with exit status 1 (the check can fail)."""
    rc = main(["check-counts", str(KERNELS / "matmul.f"), "-D", "N=39", "--",
               f"./matmul < {KERNELS / 'matmul.in'}"])
    out = capsys.readouterr().out
    assert rc == 1
    assert "MISMATCH" in out and "summary:" in out


def test_check_counts_command_failure(capsys):
    rc = main(["check-counts", str(KERNELS / "matmul.f"), "-D", "N=40", "--", "./matmul < /nonexistent/x"])
    err = capsys.readouterr().err
    assert rc == 2
    assert "command failed" in err


def _checked_at_10(capsys, tmp_path, name: str, text: str) -> tuple[int, str, dict[int, list[str]]]:
    """check-counts of a program that reads N = 10: its exit status, its output, and per line of the source
    the columns sad, gcov and status."""
    source = tmp_path / f"{name}.f"
    source.write_text(text)
    (tmp_path / "in.txt").write_text("10\n")
    rc = main(["check-counts", str(source), "-D", "N=10", "--", f"./{name} < {tmp_path / 'in.txt'}"])
    out = capsys.readouterr().out
    rows = {int(r.split()[0].rsplit(":", 1)[1]): r.split()[1:4] for r in out.splitlines()
            if r.startswith(str(source))}
    return rc, out, rows


STEPPED_DO = """\
      PROGRAM STEPDO
      INTEGER N, I, J, S
      READ *, N
      S = 0
      DO I = 1, N, 3
         S = S + I
      ENDDO
      DO I = 1, N, 3
         DO J = 1, 2
            S = S + J
         ENDDO
      ENDDO
      DO I = 1, N, 3
         IF (I .GT. N) THEN
            S = S - 1
         ENDIF
      ENDDO
      DO 50 I = 1, N, 3
         S = S + I
   50 CONTINUE
      DO 60 I = 1, N, 3
         DO J = 1, 2
            S = S + J
         ENDDO
   60 CONTINUE
      PRINT *, S
      END
"""


def test_a_counted_loop_s_test_goes_to_the_do_line_when_its_body_ends_in_a_block(capsys, tmp_path):
    """DO I = 1, N, 3 (a step other than 1, bounds not constants): gfortran counts the trips beforehand and
    its test per trip shares the line of the body's last statement; when that statement is a block (an
    inner DO, an IF block) the test is charged to the DO line instead: 1 + 4 at N = 10 (GCC 12, -O0)."""
    rc, out, rows = _checked_at_10(capsys, tmp_path, "stepdo", STEPPED_DO)
    assert rows[5] == ["1", "1", "ok"]     # ends in S = S + I: the test is on that line
    assert rows[8] == ["5", "5", "ok"]     # ends in an inner DO
    assert rows[13] == ["5", "5", "ok"]    # ends in an IF block
    assert rows[18] == ["1", "1", "ok"]    # DO 50 ... 50 CONTINUE: the last statement before it
    assert rows[21] == ["5", "5", "ok"]    # DO 60 ... inner DO ... 60 CONTINUE
    # END DO has no code: each loop's exit is charged to its body's last line (the inner DO line and the IF
    # line +1 per entry, the inner body's last line +4)
    assert rows[9] == ["13", "13", "ok"] and rows[14] == ["5", "5", "ok"] and rows[10] == ["12", "12", "ok"]
    assert rc == 0 and "MISMATCH" not in out


CALL_ENDED_DO = """\
      PROGRAM CALLDO
      INTEGER N, I, S
      READ *, N
      S = 0
      DO 10 I = 1, N, 3
         CALL ADD(S, I)
   10 CONTINUE
      DO 20 I = 1, N, 3
         PRINT *, I
   20 CONTINUE
      DO 30 I = 1, N, 3
         CALL ADD(S, I)
         S = S + 1
   30 CONTINUE
      PRINT *, S
      END
      SUBROUTINE ADD(S, I)
      INTEGER S, I
      S = S + I
      END
"""


def test_a_counted_loop_s_test_goes_to_the_do_line_when_its_body_ends_in_a_call(capsys, tmp_path):
    """With --coverage a call ends its basic block, so a body that ends in a CALL or an I/O statement leaves
    the test per trip to the DO line, as a block does (DTRTRI's `DO 20 J = 1, N, NB` ending in CALL DTRTI2):
    1 + 4 at N = 10 (GCC 12, -O0); where an assignment follows the call, 1."""
    rc, out, rows = _checked_at_10(capsys, tmp_path, "calldo", CALL_ENDED_DO)
    assert rows[5] == ["5", "5", "ok"] and rows[8] == ["5", "5", "ok"]
    assert rows[11] == ["1", "1", "ok"]
    assert rc == 0 and "MISMATCH" not in out
