"""`sad check`'s cache key holds the files a source includes: editing an INCLUDE'd parameter file or a
#include'd header re-analyzes the files that include it (and only them), with the new counts."""
from __future__ import annotations

import json
from pathlib import Path

from tests.codebase.test_check import sad_check, summary

FORTRAN = """\
      SUBROUTINE SWEEP(X)
      INCLUDE 'sizes.inc'
      DOUBLE PRECISION X(N)
      INTEGER I
      DO 10 I = 1, N
         X(I) = 2.0D0*X(I)
   10 CONTINUE
      END
"""
C = """\
#include "dims.h"
void scale(double *x)
{
    int i;
    for (i = 0; i < M; i++)
        x[i] = 3.0 * x[i];
}
"""
OTHER = """\
      SUBROUTINE ALONE(X)
      DOUBLE PRECISION X(10)
      INTEGER I
      DO 10 I = 1, 10
         X(I) = 0.0D0
   10 CONTINUE
      END
"""


def _tree(root: Path) -> None:
    (root / "src" / "inc").mkdir(parents=True)
    (root / "src" / "sweep.f").write_text(FORTRAN)
    (root / "src" / "sizes.inc").write_text("      INTEGER N\n      PARAMETER (N = 100)\n")
    (root / "src" / "scale.c").write_text(C)
    (root / "src" / "inc" / "dims.h").write_text("#define M 40\n")
    (root / "src" / "alone.f").write_text(OTHER)


def _times(out: str) -> dict[str, str]:
    """Routine name → its time formula's text, from the JSON report."""
    return {r["name"]: r["time"] for r in json.loads(out)["routines"]}


def _check(root: Path, expect: int = 0) -> tuple[dict[str, str], tuple[int, int]]:
    code, out, err = sad_check(root, "src", "-I", "src/inc", "--format", "json", "--cache-dir", "cache")
    assert code == expect, err
    fresh = sad_check(root, "src", "-I", "src/inc", "--format", "json", "--no-cache")[1]
    assert out == fresh  # what the cache gives is what an analysis of the files as they are now gives
    return _times(out), summary(err)


def _set_n(root: Path, n: int) -> None:
    (root / "src" / "sizes.inc").write_text(f"      INTEGER N\n      PARAMETER (N = {n})\n")


def test_an_edited_include_file_is_not_answered_from_the_cache(tmp_path):
    _tree(tmp_path)
    first, counts = _check(tmp_path)
    assert counts == (0, 3)
    assert _check(tmp_path)[1] == (3, 0)

    _set_n(tmp_path, 300)
    second, counts = _check(tmp_path)
    assert counts == (2, 1)  # sweep.f only
    assert second["scale"] == first["scale"]
    _set_n(tmp_path, 500)
    third = _check(tmp_path)[0]
    # SWEEP's time is affine in N with a positive slope: 100 → 300 → 500 trips add the same time twice
    t100, t300, t500 = (float(r["SWEEP"]) for r in (first, second, third))
    assert t300 > t100 and abs((t500 - t300) - (t300 - t100)) < 1e-9 * t500

    (tmp_path / "src" / "inc" / "dims.h").write_text("#define M 80\n")
    fourth, counts = _check(tmp_path)
    assert counts == (2, 1)  # scale.c only
    assert float(fourth["scale"]) > float(third["scale"]) and fourth["ALONE"] == first["ALONE"]


def test_a_header_that_appears_later_changes_the_key(tmp_path):
    """A header found by no search path is part of the key as absent: adding it re-analyzes the file."""
    _tree(tmp_path)
    (tmp_path / "src" / "inc" / "dims.h").unlink()
    (tmp_path / "src" / "scale.c").write_text('#include "late.h"\n' + C.replace('#include "dims.h"\n', "#define M 8\n"))
    _check(tmp_path, expect=1)  # late.h: not found
    (tmp_path / "src" / "inc" / "late.h").write_text("/* now present */\n")
    assert _check(tmp_path)[1] == (2, 1)
