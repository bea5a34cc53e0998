"""The C frontend runs gcc's preprocessor proper (cc1 -E) as the `cpp` driver would run it
(frontends.c.preprocess.direct_command): the same text, messages and exit status as `cpp` itself, for every C
file of the corpus, with -I and -D, for a missing header, and for a file whose name has a space in it."""
from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from sad.frontends.c.preprocess import cpp_command, direct_command

ROOT = Path(__file__).resolve().parents[2]
CORPUS = sorted(str(p) for p in (ROOT / "corpus").rglob("*.c"))


def _run(cmd: list[str]) -> tuple[str, str, int]:
    done = subprocess.run(cmd, capture_output=True, text=True)
    return done.stdout, done.stderr, done.returncode


@pytest.mark.parametrize("include, defines", [([], {}), (["/tmp"], {"N": "5", "FLAG": ""})])
def test_the_same_output_as_cpp_on_the_corpus(include, defines):
    assert len(CORPUS) >= 10
    for path in CORPUS:
        cmd = cpp_command(path, include, defines)
        direct = direct_command(cmd)
        assert direct[0] != cmd[0] and Path(direct[0]).name.startswith("cc1")  # one process, not two
        assert _run(direct) == _run(cmd), path


def test_a_missing_header_and_a_name_with_a_space(tmp_path):
    missing = tmp_path / "uses missing.c"
    missing.write_text('#include "nothere.h"\nint x;\n')
    fine = tmp_path / "plain file.c"
    fine.write_text("#define TWICE(x) ((x) + (x))\nint f(int a) { return TWICE(a); }\n")
    for path in (missing, fine):
        cmd = cpp_command(str(path), [], {})
        assert _run(direct_command(cmd)) == _run(cmd)
    stdout, stderr, status = _run(direct_command(cpp_command(str(missing), [], {})))
    assert status != 0 and "nothere.h" in stderr
    assert "((a) + (a))" in _run(direct_command(cpp_command(str(fine), [], {})))[0]
