"""The compile that reads a program's loops is the user's build: the -I and -D of the analysis reach it, and a
compile that fails says so once per file, naming the compiler's first error (issue 27, item 1)."""
from __future__ import annotations

import io
import json
import shutil
from pathlib import Path

import pytest

from sad.cli.main import run

ROOT = Path(__file__).resolve().parents[2]
needs_mca = pytest.mark.skipif(shutil.which("llvm-mca") is None or shutil.which("gcc") is None,
                               reason="llvm-mca and gcc are needed for the compiled-code model")

KERNEL = """#include "sizes.h"
static real_t a[N][N], x[N];
int main(void) {
    int i, j;
    real_t s = 0;
    for (i = 0; i < N; i++)
        for (j = 0; j < N; j++)
            a[i][j] = i + j + OFFSET;
    for (j = 0; j < N; j++)
        for (i = 0; i < N; i++)
            x[j] += a[i][j];
    for (i = 0; i < N; i++) s += x[i];
    return s > 0;
}
"""


def _machine(tmp_path: Path, compile_spec: str) -> Path:
    """sparc2's operation prices with a hierarchy and a compile command: the compiled-code model's inputs
    (no operation classes, so a loop not priced from the compiled code keeps its per-operation price)."""
    text = (ROOT / "machine_db" / "sparc2.yaml").read_text()
    text = text.replace("models:\n", f'models:\n  compile: "{compile_spec}"\n', 1)
    text += ("hierarchy:\n  clock: 2500 MHz\n  line: 64\n  forward: 2.8 ns\n  forward_fp: 3.2 ns\n  levels:\n"
             "    - {name: L1, size: 32 KiB, read: 0.3 ns, write: 0.4 ns}\n"
             "    - {name: memory, read: 6 ns, write: 8 ns}\n")
    path = tmp_path / "host.yaml"
    path.write_text(text)
    return path


def _program(tmp_path: Path) -> Path:
    (tmp_path / "inc").mkdir()
    (tmp_path / "inc" / "sizes.h").write_text("#define N 400\ntypedef double real_t;\n")
    src = tmp_path / "k.c"
    src.write_text(KERNEL)
    return src


def _sad(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    status = run(list(argv), out, err)
    return status, out.getvalue(), err.getvalue()


@needs_mca
def test_header_found_only_with_dash_i_is_priced_from_its_compiled_code(tmp_path):
    src = _program(tmp_path)
    machine = _machine(tmp_path, "gcc -O2")
    status, out, err = _sad("analyze", str(src), "-I", str(tmp_path / "inc"), "-D", "OFFSET=1", "-m", str(machine),
                            "--explain")
    assert status == 0, err
    assert "innermost" not in err
    cores = [line.strip() for line in out.splitlines() if line.strip().startswith("core:")]
    assert len(cores) == 3 and all("cycles/iteration from" in c for c in cores), out
    assert "3 of 3 innermost loops priced from the compiled code (gcc -O2" in out
    status, out, _ = _sad("analyze", str(src), "-I", str(tmp_path / "inc"), "-D", "OFFSET=1", "-m", str(machine),
                          "--format", "json")
    loops = json.loads(out)["innermost_loops"]
    assert (loops["total"], loops["compiled_code"], loops["operation_classes"]) == (3, 3, 0)


@needs_mca
def test_a_failing_compile_gives_one_warning_naming_the_cause(tmp_path):
    src = _program(tmp_path)
    machine = _machine(tmp_path, "gcc -O2 -mno-such-option")
    status, out, err = _sad("analyze", str(src), "-I", str(tmp_path / "inc"), "-D", "OFFSET=1", "-m", str(machine),
                            "--explain")
    assert status == 0, err
    warnings = [line for line in err.splitlines() if "innermost" in line]
    assert len(warnings) == 1, err
    assert warnings[0].startswith(f"{src}: warning: 3 innermost loops (lines 7, 10, 12) not priced from the compiled "
                                  "code, priced from per-operation prices")
    assert "unrecognized command-line option" in warnings[0] and "-mno-such-option" in warnings[0]
    assert "0 of 3 innermost loops priced from the compiled code" in out


SEARCH = """static int v[1000];
int main(void) {
    int i, q, found = 0;
    for (i = 0; i < 1000; i++) v[i] = 3 * i;
    for (q = 0; q < 50; q++) {
        int lo = 0, hi = 999;
        while (lo < hi) {
            int mid = (lo + hi) / 2;
            if (v[mid] < 7 * q) lo = mid + 1;
            else hi = mid;
        }
        found += v[lo] == 7 * q;
    }
    return found;
}
"""


@needs_mca
def test_a_while_loop_is_counted_and_named_as_priced_per_operation(tmp_path):
    """The compiled-code model takes counted loops: a binary search's while loop kept its per-operation price
    without a word, and the report said "1 of 1 innermost loops priced from the compiled code"."""
    src = tmp_path / "search.c"
    src.write_text(SEARCH)
    status, out, err = _sad("analyze", str(src), "-m", str(_machine(tmp_path, "gcc -O2")))
    assert status == 0, err
    assert "1 of 2 innermost loops priced from the compiled code (gcc -O2), 1 per operation" in out
    assert f"{src}:7: warning: 1 innermost loop not priced from the compiled code, priced per operation (the " \
           "machine database's prices): line 7, a while loop" in err
