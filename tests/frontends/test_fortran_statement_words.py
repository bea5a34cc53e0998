"""The words a statement class needs (frontends.fortran.parse._NEEDS): fparser never matches a statement without
them, so skipping the class on such a statement changes nothing; the IR of every Fortran program of the
repository is the same with and without the skipping."""
from __future__ import annotations

from pathlib import Path

import pytest

from sad.frontends import load_file
from sad.frontends.fortran import memo, parse
from sad.frontends.fortran.rewrite import rewrite
from sad.frontends.fortran.source import SourceReader
from sad.ir import jsonio

ROOT = Path(__file__).resolve().parents[2]
FORTRAN = sorted(str(p.relative_to(ROOT)) for suffix in ("*.f", "*.F") for p in ROOT.rglob(suffix)
                 if ".git" not in p.parts)
TRICKY = ["IF (N .GT. 0) THEN", "ELSE IF (X) THEN", "ELSEIF(X)THEN", "ELSE", "ENDIF", "END IF", "END DO", "ENDDO",
          "DO 10 I = 1, N", "DO I = 1, N", "DO10I=1,N", "DO10I=1.5", "IF (X) GOTO 10", "IFX = 1", "DATA X /1.0/",
          "DATAX = 2", "BLOCK DATA INIT", "PARAMETER (N = 10)", "COMMON /C/ A, B", "SAVE", "FORMAT (I5)",
          "FORMATX = 3", "REAL FUNCTION F(X)", "SUBROUTINE S", "PROGRAM P", "ENTRY E(X)", "X = 'IF THEN'",
          "implicit none", "if (n .gt. 0) then", "end if", "do 20 j = 1, m"]


def _statements() -> list[str]:
    texts = list(TRICKY)
    for path in FORTRAN:
        reader = SourceReader([str((ROOT / path).parent)], {})
        texts += [rewrite(stmt.text).strip() for stmt in reader.read(str(ROOT / path))]
    return sorted(set(texts))


def test_a_class_matches_only_statements_with_its_words():
    table = parse.classes()
    statements = _statements()
    assert len(statements) > 1000
    matched = 0
    for name, words in parse._NEEDS.items():
        for text in statements:
            try:
                node = table[name](text)
            except Exception:
                continue
            if node is not None:
                matched += 1
                assert all(word in text.upper() for word in words), (name, text)
    assert matched > 300


@pytest.mark.heavy
def test_the_ir_of_every_fortran_program_is_the_same_without_skipping(monkeypatch):
    with_words = {path: _ir(path) for path in FORTRAN}
    monkeypatch.setattr(parse, "_NEEDS", {})
    memo._MEMO.clear()
    assert {path: _ir(path) for path in FORTRAN} == with_words


def _ir(path: str) -> str:
    program = load_file(str(ROOT / path), [str((ROOT / path).parent)], {})
    return jsonio.dumps(program) + repr([(d.loc, d.severity, d.message) for d in program.diagnostics])
