"""gcov's line convention around arithmetic IFs (GCC 12, -O0): the jumps of an arithmetic IF to a label are
charged to the line written before that label too (a DO loop's latch shows on the `GOTO 300` before `400
CONTINUE`). Real gfortran + gcov runs: check-counts passes where the model is right and fails where it is
wrong, and `sad profile` of such a program exits 0."""
from __future__ import annotations

from pathlib import Path

from sad.cli.main import main

HERE = Path(__file__).resolve().parent / "arithif"
ARITHIF = Path(__file__).resolve().parents[2] / "corpus" / "kernels" / "arithif.f"


def _check(capsys, source: Path, *defines: str, command: str) -> tuple[int, str]:
    args = [x for d in defines for x in ("-D", d)]
    rc = main(["check-counts", str(source), *args, "--require-bound", "--", command])
    return rc, capsys.readouterr().out


def _line(out: str, line: int) -> list[str]:
    return next(row.split() for row in out.splitlines() if f".f:{line} " in row)


def test_goto_before_a_do_terminal_carries_the_latch(capsys):
    """`GOTO 300` runs 28 times; gcov shows 38: its own runs plus the 10 jumps of the arithmetic IF to
    400 (the loop's latch). The loop count X = 2.8 per entry is the right value: every line agrees."""
    rc, out = _check(capsys, HERE / "latch.f", "X_LATCH_L300=2.8", command="./latch")
    assert rc == 0, out
    assert _line(out, 10)[1:4] == ["38", "38", "ok"]
    assert "MISMATCH" not in out


def test_a_wrong_model_still_fails(capsys):
    rc, out = _check(capsys, HERE / "latch.f", "X_LATCH_L300=3.8", command="./latch")
    assert rc == 1
    assert _line(out, 10)[1:4] == ["48", "38", "MISMATCH"]
    assert _line(out, 8)[1:4] == ["38", "28", "MISMATCH"]


def test_statement_before_a_target_label_shows_the_target_count(capsys):
    """`410 T = T + 1` runs 3 times of 10, gcov shows 10 (the runs of 420 it falls into plus the jumps);
    the logical IF GOTO loop above it has no such line."""
    rc, out = _check(capsys, HERE / "before.f", "X_BEFORE_L300=2.8", "P_BEFORE_L600=0",
                     command="./before")
    assert rc == 0, out
    assert _line(out, 15)[1:4] == ["10", "10", "ok"]
    assert _line(out, 11)[1:4] == ["28", "28", "ok"]   # the GOTO of a logical-IF loop: its own runs


def test_arithif_kernel_every_line_agrees(capsys, tmp_path):
    (tmp_path / "in.txt").write_text("20\n")
    rc, out = _check(capsys, ARITHIF, "N=20", "P_ARITH_AIF1_NEG=0.35", "P_ARITH_AIF1_ZERO=0.35",
                     "X_ARITH_L60=7", command=f"./arithif < {tmp_path / 'in.txt'}")
    assert rc == 0, out
    assert _line(out, 20)[1:4] == ["14", "14", "ok"] and _line(out, 23)[1:4] == ["13", "13", "ok"]
    assert _line(out, 35)[1:4] == ["8", "8", "ok"]


def test_profile_of_an_arithmetic_if_program_exits_0(capsys, tmp_path):
    out_file = tmp_path / "latch.params.yaml"
    rc = main(["profile", str(HERE / "latch.f"), "--size", "N=10", "-o", str(out_file), "--", "./latch"])
    captured = capsys.readouterr()
    assert rc == 0, captured.out + captured.err
    assert "X_LATCH_L300" in out_file.read_text()


def test_a_continued_computed_goto_is_compared_on_none_of_its_lines(capsys):
    """gcov's counts on the lines of a computed GOTO written over two (ILAENV's dispatch on ISPEC) are no
    counts of the statement: 7 runs show 6 and 7 here. Both lines are gcov's alone; the arms are compared:
    2 runs to label 10, 3 to 20 and 2 to 30, and every compared line agrees."""
    rc, out = _check(capsys, HERE / "spec.f", command="./spec")
    assert rc == 0, out
    assert _line(out, 4)[3] == "gcov-only" and _line(out, 5)[3] == "gcov-only"
    assert [_line(out, n)[1] for n in (8, 10, 12)] == ["2", "3", "2"]


def test_two_runs_of_ilaenvs_dispatch_show_one_on_its_last_line(capsys):
    """ILAENV's dispatch and entry (a CHARACTER*(*) argument) run for ISPEC 1 and 3, as DGEQRF runs it:
    gcov shows 1 on each of the GOTO's two lines for its 2 runs (DGEQRF's one MISMATCH when the last line
    was compared). The 2 runs of label 10's arm agree."""
    rc, out = _check(capsys, HERE / "spec2.f", command="./spec2")
    assert rc == 0, out
    assert _line(out, 7)[2:4] == ["1", "gcov-only"] and _line(out, 8)[2:4] == ["1", "gcov-only"]
    assert _line(out, 12)[1:4] == ["2", "2", "ok"]
