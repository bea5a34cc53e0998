"""Every corpus program compiles with the real compilers and runs on its sample input.

gfortran -std=legacy -O0 for the Fortran programs, gcc -std=c99 -O0 ... -lm for the C programs; each is built in
tmp_path, run there with its sample input on stdin, and must exit 0 and print something. The Fortran and the C
md1 must print the same energies for the 500-particle input. No skips: a missing compiler is a failure (CI
installs gfortran and gcc).
"""
from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
CORPUS = ROOT / "corpus"
MD1_INPUT = CORPUS / "md1" / "inputs" / "md1_500.in"

FORTRAN = ["gfortran", "-std=legacy", "-O0"]
C = ["gcc", "-std=c99", "-O0"]
TIMEOUT = 60  # seconds per compile or run; every sample run takes well under a second


def _sample_input(source: Path) -> Path:
    """NAME.in next to the source; md1.f and md1.c use corpus/md1/inputs/md1_500.in."""
    if source in (CORPUS / "md1" / "md1.f", CORPUS / "c" / "md1.c"):
        return MD1_INPUT
    return source.with_suffix(".in")


def _fortran_sources() -> list[Path]:
    return ([CORPUS / "md1" / "md1.f"] + sorted((CORPUS / "kernels").glob("*.f"))
            + [CORPUS / "whetstone" / "whetstone.f"])


def _c_sources() -> list[Path]:
    return sorted((CORPUS / "c").glob("*.c")) + [CORPUS / "whetstone" / "whetstone.c"]


PROGRAMS = [(src, FORTRAN) for src in _fortran_sources()] + [(src, C) for src in _c_sources()]


def _id(item) -> str:
    return str(item.relative_to(CORPUS)) if isinstance(item, Path) else item[0]


def _compiler(command: list[str]) -> str:
    path = shutil.which(command[0])
    if path is None:
        pytest.fail(f"compiler {command[0]!r} not found on PATH: the corpus build tests need gfortran and gcc "
                    f"(Debian: apt-get install -y gfortran gcc)", pytrace=False)
    return path


def build_and_run(source: Path, command: list[str], workdir: Path) -> str:
    """Compile `source` into workdir, run it there with its sample input; return its stdout."""
    exe = workdir / source.stem
    argv = [_compiler(command), *command[1:], "-o", str(exe), str(source)]
    if source.suffix == ".c":
        argv.append("-lm")  # after the source, so that the linker resolves math.h calls from it
    res = subprocess.run(argv, cwd=workdir, capture_output=True, text=True, timeout=TIMEOUT)
    assert res.returncode == 0, f"{' '.join(argv)} failed ({res.returncode}):\n{res.stdout}{res.stderr}"
    sample = _sample_input(source)
    assert sample.is_file(), f"{source.relative_to(ROOT)}: no sample input {sample.relative_to(ROOT)}"
    with sample.open("rb") as stdin:
        run = subprocess.run([str(exe)], cwd=workdir, stdin=stdin, capture_output=True, timeout=TIMEOUT)
    out = run.stdout.decode(errors="replace")
    assert run.returncode == 0, (f"{source.relative_to(ROOT)} < {sample.relative_to(ROOT)} exited "
                                 f"{run.returncode}:\n{out[-2000:]}{run.stderr.decode(errors='replace')[-2000:]}")
    assert out.strip(), f"{source.relative_to(ROOT)} < {sample.relative_to(ROOT)} printed nothing on stdout"
    return out


def test_corpus_is_found():
    """Guard against an empty parametrization (which pytest would report as a skip, not a failure)."""
    assert len(_fortran_sources()) >= 3 and all(p.is_file() for p in _fortran_sources())
    assert len(_c_sources()) >= 3 and all(p.is_file() for p in _c_sources())
    assert MD1_INPUT.is_file()


@pytest.mark.parametrize("source,command", PROGRAMS, ids=[_id(s) for s, _ in PROGRAMS])
def test_builds_and_runs(source: Path, command: list[str], tmp_path: Path):
    build_and_run(source, command, tmp_path)


# --- md1.f and md1.c agree ---

_NUMBER = r"[-+]?(?:\d+\.?\d*|\.\d+)(?:[EeDd][-+]?\d+)?"
_NUMERIC_LINE = re.compile(rf"^\s*{_NUMBER}(?:\s+{_NUMBER})*\s*$")


def _floats(text: str) -> list[float]:
    return [float(x.replace("D", "E").replace("d", "e")) for x in re.findall(_NUMBER, text)]


def _numeric_lines(out: str) -> list[list[float]]:
    """Lines made only of numbers: the step table (STEP TEMP EKIN/N EPOT/N ETOT/N PRES) and g(r)."""
    return [_floats(line) for line in out.splitlines() if _NUMERIC_LINE.match(line)]


def _energy_lines(out: str) -> dict[str, list[float]]:
    """The summary lines about energies, by label ('TOTAL ENERGY / N', 'FULL LJ EPOT / N', ...)."""
    found = {}
    for line in out.splitlines():
        m = re.match(r"^\s*([A-Z][A-Z /]*?(?:ENERGY|EPOT)[A-Z /]*?)\s+([-+\d.].*)$", line)
        if m:
            found[" ".join(m.group(1).split())] = _floats(m.group(2))
    return found


def _close(a: list[float], b: list[float]) -> bool:
    # Both print the same formats; allow one unit in the 6th significant place for a last-digit rounding split.
    return len(a) == len(b) and all(abs(x - y) <= 1e-6 + 1e-6 * abs(x) for x, y in zip(a, b))


def test_md1_fortran_and_c_print_the_same_energies(tmp_path: Path):
    (tmp_path / "f").mkdir()
    (tmp_path / "c").mkdir()
    fortran = build_and_run(CORPUS / "md1" / "md1.f", FORTRAN, tmp_path / "f")
    c = build_and_run(CORPUS / "c" / "md1.c", C, tmp_path / "c")

    f_rows, c_rows = _numeric_lines(fortran), _numeric_lines(c)
    steps = [r for r in f_rows if len(r) == 6]
    assert len(steps) >= 11, f"md1.f printed {len(steps)} step rows (STEP TEMP EKIN/N EPOT/N ETOT/N PRES):\n{fortran}"
    assert len(f_rows) == len(c_rows), (f"md1.f printed {len(f_rows)} numeric lines, md1.c {len(c_rows)}\n"
                                        f"--- md1.f\n{fortran}\n--- md1.c\n{c}")
    for i, (a, b) in enumerate(zip(f_rows, c_rows)):
        assert _close(a, b), f"numeric line {i + 1} differs: md1.f {a} vs md1.c {b}"

    f_en, c_en = _energy_lines(fortran), _energy_lines(c)
    assert {"KINETIC ENERGY / N", "POTENTIAL ENERGY / N", "TOTAL ENERGY / N"} <= set(f_en), f_en
    assert f_en.keys() == c_en.keys(), (sorted(f_en), sorted(c_en))
    for label in f_en:
        assert _close(f_en[label], c_en[label]), f"{label}: md1.f {f_en[label]} vs md1.c {c_en[label]}"
