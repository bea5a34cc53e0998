"""sad validate predicts every size before it runs anything (issue 30, item 2), and leaves no call cost at 0 s
without saying so (item 3): real compilations and runs."""
from __future__ import annotations

import io
import re
import shlex
from pathlib import Path

from sad.cli.main import run
from sad.machine.model import load_machine
from sad.measure.validate import validate

ROOT = Path(__file__).resolve().parents[2]

TIMED = """#include <stdio.h>
#include <time.h>

int main(void)
{
    int n, i;
    double s = 0.0;
    clock_t t0;
    if (scanf("%d", &n) != 1) return 1;
    t0 = clock();
    for (i = 0; i < n; i++) s += i * 0.5;
    printf("%g %ld\\n", s, (long)t0);
    return 0;
}
"""


def test_unbound_prediction_stops_before_anything_runs(tmp_path: Path, monkeypatch):
    """md1 without its parameter values: before, 9 minutes of runs and `unbound` at every size, exit 0; now
    an error naming the values to give and how (`sad profile`, --params), nothing compiled, run or plotted."""
    monkeypatch.chdir(tmp_path)
    marker = tmp_path / "ran"
    out, err = io.StringIO(), io.StringIO()
    command = f"touch {marker}; ./md1 < {ROOT}/corpus/md1/inputs/md1_{{NPART}}.in"
    code = run(["validate", str(ROOT / "corpus/md1/md1.f"), "-m", "sparc2", "--sizes", "NPART=500,864",
                "--plot", str(tmp_path / "v.png"), "--", command], out, err)
    assert code == 2
    text = err.getvalue()
    assert "cannot be bound at NPART=500: no value for" in text and "nothing was run" in text
    assert re.search(r"no value for [^;]*\bRCUT\b[^;]*\bX_FORCE_L10\b", text)
    assert "--params FILE" in text and "sad profile" in text and "--size NPART=500 --size NPART=864" in text
    assert not marker.exists() and not (tmp_path / "v.png").exists() and out.getvalue() == ""


def _readme_validate_command() -> list[str]:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    commands = re.findall(r"`(sad validate [^`]*)`", text)
    assert len(commands) == 1, commands
    return shlex.split(commands[0])[1:]


def test_readme_validate_example_predicts_every_size(tmp_path: Path, monkeypatch):
    """The README's command as written, on sparc2 instead of the host's calibrated here.yaml (which
    `sad calibrate` makes) and with one run per size: every size predicted, exit 0."""
    argv = _readme_validate_command()
    assert "--params" in argv
    machine = argv.index("-m") + 1
    argv[machine] = "sparc2"
    dashes = argv.index("--")
    argv[dashes:dashes] = ["--runs", "1", "--plot", str(tmp_path / "v.png")]
    monkeypatch.chdir(ROOT)
    out, err = io.StringIO(), io.StringIO()
    assert run(argv, out, err) == 0, err.getvalue()
    rows = [line for line in out.getvalue().splitlines() if re.match(r"\s+\d+ ", line)]
    assert len(rows) == 4 and all("unbound" not in row for row in rows)
    assert "median |error|" in out.getvalue()


def test_validate_does_not_set_an_unseen_call_to_zero(tmp_path: Path):
    """clock() is a routine nothing prices: before, validate's gcov profile "solved" C_clock as 0 (no line
    count mentions it) and the table said nothing. Now it is no profiled value, and the table says the
    predicted times leave it out."""
    source = tmp_path / "timed.c"
    source.write_text(TIMED)
    results = validate(source, load_machine("sparc2"), ["-O0"], "n", ["1000", "2000"], "echo {n} | ./timed",
                       {}, {}, runs=1, cwd=tmp_path, profile=True)
    for r in results:
        assert r.predicted is not None and not r.unbound and "C_clock" not in r.profiled
        assert r.excluded == ["C_clock"]
    out, err = io.StringIO(), io.StringIO()
    assert run(["validate", str(source), "-m", "sparc2", "--sizes", "n=1000,2000", "--runs", "1", "--plot",
                str(tmp_path / "v.png"), "--", "echo {n} | ./timed"], out, err) == 0
    assert "predicted time excludes 1 unpriced call: C_clock" in out.getvalue()
    assert "warning: predicted time excludes 1 unpriced call: C_clock" in err.getvalue()


def test_profile_names_the_call_costs_it_leaves_out(tmp_path: Path, monkeypatch):
    """Before: "0 parameters written" and nothing about C_clock, so `analyze --params` stayed unbound."""
    source = tmp_path / "timed.c"
    source.write_text(TIMED)
    monkeypatch.chdir(tmp_path)
    err = io.StringIO()
    assert run(["profile", str(source), "--size", "n=1000", "-o", str(tmp_path / "p.yaml"), "--",
                "echo {n} | ./timed"], io.StringIO(), err) == 0, err.getvalue()
    assert "warning: call costs not profiled (seconds per call, not counts): C_clock;" in err.getvalue()


LOOP = """      PROGRAM WALK
      INTEGER N, I, J
      READ (*, *) N
      I = 0
      J = 1
   10 IF (J .LT. N) THEN
         J = J + J
         I = I + 1
         GOTO 10
      ENDIF
      WRITE (*, *) I
      END
"""


def test_validate_warns_about_values_profiled_at_other_sizes(tmp_path: Path, monkeypatch):
    """A loop count measured at N = 16 only and validated at N = 512: an extrapolation, said on stderr before
    the runs (issue 30, item 6: every command that uses a profiled value outside its sizes says so)."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "walk.f").write_text(LOOP)
    (tmp_path / "n.in").write_text("512\n")
    params = tmp_path / "walk.params.yaml"
    params.write_text("X_WALK_L10:\n  value: 4\n  sizes: {N: [16, 16]}\n")
    out, err = io.StringIO(), io.StringIO()
    code = run(["validate", "walk.f", "-m", "sparc2", "--params", str(params), "--sizes", "N=512", "--runs", "1",
                "--plot", str(tmp_path / "v.png"), "--", "./walk < n.in"], out, err)
    text = err.getvalue()
    assert code == 0, text
    assert "X_WALK_L10: measured at N=16 only, swept over N 512..512: an extrapolation" in text
