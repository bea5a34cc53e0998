"""A C file that cpp would only strip the comments from is not given to cpp (frontends.c.verbatim): its text
parses to the same AST, at the same lines, as cpp's output; every file that needs cpp (a directive, a splice,
a name cpp defines as a macro, an unterminated comment) still goes to it."""
from __future__ import annotations

import importlib.util
import subprocess
from pathlib import Path

import pytest
from pycparser import c_ast, c_generator

from sad.frontends.c import load
from sad.frontends.c.parse import parse
from sad.frontends.c.preprocess import cpp_command, direct_command, preprocess
from sad.frontends.c.verbatim import verbatim

ROOT = Path(__file__).resolve().parents[2]

TRICKY = r"""/* a comment
   over three lines with "quotes" and 'ticks' and // slashes */
int f(int n, const char *s)   // a comment with /* inside
{
    int   i, total = 0;       /* several */ /* comments */
    char c = '"', d = '\'', e = '/';
    const char *t = "/* not a comment */ // nor this \" escaped";
    for (i = 0; i < n; i++)
        total += i * 2 / 1;
    return total + (s[0] == c) + (t[0] == d) + e;
}
"""


def _cpp_text(path: str, defines: dict[str, str] | None = None) -> str:
    done = subprocess.run(direct_command(cpp_command(path, [], defines or {})), capture_output=True, text=True,
                          check=True)
    return done.stdout


def _shape(ast: c_ast.Node) -> tuple[str, list[tuple[str, str, int]]]:
    """The program as C text, and every node's kind, file and line."""
    places: list[tuple[str, str, int]] = []

    def walk(node: c_ast.Node) -> None:
        if node.coord:
            places.append((type(node).__name__, node.coord.file, node.coord.line))
        for child in node:
            walk(child)
    walk(ast)
    return c_generator.CGenerator().visit(ast), places


def _options(path: Path, defines: dict[str, str] | None = None) -> list[str]:
    return cpp_command(str(path), [], defines or {})[:-1]


def test_comments_and_literals_come_out_as_cpp_gives_them(tmp_path):
    path = tmp_path / "tricky.c"
    path.write_text(TRICKY)
    text = verbatim(str(path), _options(path))
    assert text is not None
    assert text.startswith(f'# 1 "{path}"\n')
    assert "/* not a comment */ // nor this" in text and "several" not in text and "slashes" not in text
    assert len(text.splitlines()) == len(TRICKY.splitlines()) + 1   # the marker, then line for line
    mine, _ = parse(text, str(path))
    cpps, _ = parse(_cpp_text(str(path)), str(path))
    assert mine is not None and cpps is not None
    assert _shape(mine) == _shape(cpps)
    assert _shape(mine)[1][-1][2] == 10   # the last node, in the return on the file's line 10


def _generated(tmp_path: Path) -> list[Path]:
    """The C files of one copy of the generated codebase (benchmarks/codebase.py)."""
    spec = importlib.util.spec_from_file_location("codebase_generator", ROOT / "benchmarks" / "codebase.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return [p for p in module.generate(tmp_path / "code", 1) if p.suffix == ".c"]


def test_every_c_file_here_it_takes_parses_as_cpps_output(tmp_path):
    """The corpus, the real-code tests and the generated codebase: the files taken give cpp's AST, the others
    are those with directives."""
    taken = 0
    mine_too = sorted([*(ROOT / "corpus").rglob("*.c"), *(ROOT / "tests").rglob("*.c"), *_generated(tmp_path)])
    for path in mine_too:
        text = verbatim(str(path), _options(path))
        if text is None:
            continue
        taken += 1
        mine, _ = parse(text, str(path))
        cpps, _ = parse(_cpp_text(str(path)), str(path))
        assert mine is not None and cpps is not None and _shape(mine) == _shape(cpps), path
    assert taken >= 10
    assert all(verbatim(str(p), _options(p)) is None for p in mine_too if "#" in p.read_text())


@pytest.mark.parametrize("source, why", [
    ("#include <math.h>\nint f(void) { return 0; }\n", "a directive"),
    ("int f(void) { return 0; }\n  # define X 1\n", "a directive after blanks"),
    ("int f(void) { return 1 + \\\n 2; }\n", "a line splice"),
    ("int f(void) { return 0; } // a comment \\\nint g;\n", "a spliced line comment"),
    ("int unix;\nint f(void) { return unix; }\n", "a predefined macro (unix is 1)"),
    ("inline int f(void) { return 0; }\n", "a macro of sad's prelude"),
    ("int f(void) { return __LINE__; }\n", "a built-in macro"),
    ("int f(void) { return 0; } /* unterminated\n", "an unterminated comment"),
    ('const char *s = "open;\n', "an unterminated string"),
    ("int f(void) { return 0; }\rint g;\n", "a lone carriage return"),
    ('const char *s = "??=";\n', "a trigraph"),
])
def test_what_cpp_would_change_goes_to_cpp(tmp_path, source, why):
    path = tmp_path / "f.c"
    path.write_text(source)
    assert verbatim(str(path), _options(path)) is None, why


def test_a_user_macro_name_sends_the_file_to_cpp(tmp_path):
    path = tmp_path / "sized.c"
    path.write_text("int f(void) { int a[N]; return sizeof a; }\n")
    assert verbatim(str(path), _options(path)) is not None
    assert verbatim(str(path), _options(path, {"N": "8"})) is None
    # and through the frontend, -D N=8 still reaches the code
    program = load(str(path), [], {"N": "8"})
    assert not [d for d in program.diagnostics if d.severity == "error"]
    assert "[8]" in _cpp_text(str(path), {"N": "8"})


def test_windows_line_ends_keep_the_lines(tmp_path):
    path = tmp_path / "crlf.c"
    path.write_bytes(b"int f(int n)\r\n{\r\n    /* two\r\n       lines */\r\n    return n;\r\n}\r\n")
    text = verbatim(str(path), _options(path))
    assert text is not None and "\r" not in text
    mine, _ = parse(text, str(path))
    cpps, _ = parse(_cpp_text(str(path)), str(path))
    assert mine is not None and _shape(mine) == _shape(cpps)
    assert [line for kind, _, line in _shape(mine)[1] if kind == "Return"] == [5]


def test_the_frontend_takes_it_and_gives_the_same_procedures(tmp_path):
    path = tmp_path / "tricky.c"
    path.write_text(TRICKY)
    done = preprocess(str(path), [], {})
    assert done.ok and done.files == [str(path)]
    assert done.text == verbatim(str(path), _options(path))   # not cpp's text, which starts `# 0 "..."`
    program = load(str(path), [], {})
    assert [p.name for p in program.procedures] == ["f"] and not program.diagnostics
    assert [type(s).__name__ for s in program.procedures[0].body][-1] == "Return"
    assert program.procedures[0].body[-1].loc.line == 10
