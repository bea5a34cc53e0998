"""Unused prototypes of sad's headers are dropped before pycparser (frontends.c.prune): the ones the program
names stay, line numbers do not move, and the IR of every C program of the corpus is the same as from the
unpruned text."""
from __future__ import annotations

from pathlib import Path

import pytest

from sad.frontends.c.parse import parse
from sad.frontends.c.preprocess import preprocess
from sad.frontends.c.prune import drop_unused_prototypes
from sad.frontends.c.unit import lower_unit
from sad.ir import Program, jsonio

ROOT = Path(__file__).resolve().parents[2]
CORPUS = sorted(str(p.relative_to(ROOT)) for p in (ROOT / "corpus").rglob("*.c"))

PROGRAM = """#include <math.h>
#include <stdlib.h>
#include <mpi.h>
double (*pick)(double) = cos;
int main(void) { double x = sqrt(2.0) + powf(2.0f, 3.0f); return (int)x; }
"""


def _pruned(tmp_path: Path) -> tuple[str, str]:
    src = tmp_path / "p.c"
    src.write_text(PROGRAM)
    text = preprocess(str(src), [], {}).text
    return text, drop_unused_prototypes(text)


def test_named_prototypes_stay_and_the_others_go(tmp_path):
    text, pruned = _pruned(tmp_path)
    lines = pruned.splitlines()
    assert len(lines) == len(text.splitlines())  # emptied, not removed: coordinates unchanged
    for kept in ("double sqrt(double x);", "float powf(float x, float y);", "double cos(double x);"):
        assert kept in pruned
    for dropped in ("float sqrtf(float x);", "double sin(double x);", "double pow(double x, double y);",
                    "void *malloc(size_t size);"):
        assert dropped in text and dropped not in pruned
    assert "typedef unsigned long size_t;" in pruned  # typedefs, variables and multi-line forms stay
    assert "extern MPI_Comm MPI_COMM_WORLD" in pruned
    assert "int MPI_Isend(const void *buf" in pruned
    user = [i for i, line in enumerate(text.splitlines()) if "int main(void)" in line]
    assert user and lines[user[0]] == text.splitlines()[user[0]]


def _ir(text: str, path: str) -> str:
    ast, diags = parse(text, path)
    assert ast is not None and not diags
    procedures, globals_, diags = lower_unit(ast, path)
    return jsonio.dumps(Program(files=[path], procedures=procedures, globals=globals_, diagnostics=diags))


@pytest.mark.parametrize("path", CORPUS)
def test_the_ir_is_unchanged(path):
    pre = preprocess(str(ROOT / path), [], {})
    assert pre.ok
    assert _ir(drop_unused_prototypes(pre.text), path) == _ir(pre.text, path)
