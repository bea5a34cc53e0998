"""The lexical index of sad.codebase.sources: which files a file's unit loads, from the names it mentions
outside character constants and comments."""
from __future__ import annotations

from pathlib import Path

from sad.codebase.sources import definers, dependencies, scan


def _deps(tmp_path: Path, files: dict[str, str], of: str) -> list[str]:
    for name, text in files.items():
        (tmp_path / name).write_text(text)
    scanned = {str(tmp_path / name): scan(str(tmp_path / name)) for name in files}
    found = dependencies(scanned[str(tmp_path / of)], scanned, definers(list(scanned.values())))
    return sorted(Path(p).name for p in found)


def _routine(name: str) -> str:
    return f"      SUBROUTINE {name}(X)\n      X = 1.0\n      END\n"


def test_a_routine_named_in_a_character_constant_is_no_dependency(tmp_path):
    # STREVC3's ILAENV(1, 'STREVC', ...) loaded STREVC's file and its callees into STREVC3's unit
    files = {"top.f": "      SUBROUTINE TOP(N)\n"
                      "      NB = ILAENV(1, 'OLD', 'SV', N, -1, -1, -1)\n"
                      "      CALL XERBLA('TOP', 1)\n"
                      "      CALL USED(X)\n"
                      "      END\n",
             "old.f": _routine("OLD"), "used.f": _routine("USED"), "xerbla.f": _routine("XERBLA"),
             "ilaenv.f": "      INTEGER FUNCTION ILAENV(I, A, B, N1, N2, N3, N4)\n      ILAENV = 1\n      END\n"}
    assert _deps(tmp_path, files, "top.f") == ["ilaenv.f", "used.f", "xerbla.f"]


def test_a_constant_continued_on_the_next_line_keeps_both_lines_names(tmp_path):
    # the first line ends inside the constant, the second starts inside it: neither is cut, USED is kept
    files = {"top.f": "      SUBROUTINE TOP(N)\n"
                      "      CALL SHOW('a message that goes on\n"
                      "     $ and ends here', USED(N))\n"
                      "      END\n",
             "used.f": "      INTEGER FUNCTION USED(N)\n      USED = N\n      END\n",
             "show.f": _routine("SHOW")}
    assert _deps(tmp_path, files, "top.f") == ["show.f", "used.f"]


def test_free_form_names_after_a_bang_in_a_constant_are_read(tmp_path):
    files = {"top.f90": "subroutine top(x)\n  call show('Hi!', used(x))  ! old(x) in a comment\nend subroutine\n",
             "used.f90": "integer function used(x)\n  used = 1\nend function\n",
             "show.f90": "subroutine show(s, n)\nend subroutine\n",
             "old.f90": "subroutine old(x)\nend subroutine\n"}
    assert _deps(tmp_path, files, "top.f90") == ["show.f90", "used.f90"]


def test_c_names_in_string_literals_are_no_dependency(tmp_path):
    files = {"main.c": '#include <stdio.h>\nint main(void) {\n  printf("old(\\"x\\") failed\\n");\n'
                       "  return used(1);\n}\n",
             "used.c": "int used(int x) {\n  return x;\n}\n",
             "old.c": "int old(int x) {\n  return x;\n}\n"}
    assert _deps(tmp_path, files, "main.c") == ["used.c"]
