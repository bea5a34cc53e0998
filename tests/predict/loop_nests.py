"""Loop nests of small C programs, analyzed and ready for the memory model (sad.predict.loopcost), as the
tests of tests/predict price them; COLUMN_C is the column sum: a[i*n+j] walked over i, one cache line per
row, rows 8 n bytes apart."""
from __future__ import annotations

from pathlib import Path

from sad.analysis.description import group_blocks
from sad.analysis.pipeline import analyze
from sad.predict.loopcost import loop_trips, source_loops

ROOT = Path(__file__).resolve().parents[2]

COLUMN_C = """#include <stdio.h>
#include <stdlib.h>
int main(void) {
    int n, i, j; double s = 0;
    if (scanf("%d", &n) != 1) return 1;
    double *a = malloc((long)n * n * sizeof(double));
    for (i = 0; i < n * n; i++) a[i] = i;
    for (j = 0; j < n; j++)
        for (i = 0; i < n; i++)
            s += a[i * n + j];
    printf("%g\\n", s);
    return 0;
}
"""


def matmul_c(order: str) -> str:
    """C = A·B on n×n row-major arrays, the three loops nested in `order` ("ijk", "jki", ...); the update
    innermost loop is on line 11 and its update `c[i*n+j] += a[i*n+k] * b[k*n+j]` on line 12."""
    loops = "\n".join(f"{'    ' * (d + 1)}for ({v} = 0; {v} < n; {v}++)" for d, v in enumerate(order))
    return f"""#include <stdio.h>
#include <stdlib.h>
int main(void) {{
    int n, i, j, k;
    if (scanf("%d", &n) != 1) return 1;
    double *a = malloc((long)n * n * sizeof(double)), *b = malloc((long)n * n * sizeof(double));
    double *c = calloc((long)n * n, sizeof(double));
    for (i = 0; i < n * n; i++) {{ a[i] = i; b[i] = 1; }}
{loops}
                c[i * n + j] += a[i * n + k] * b[k * n + j];
    printf("%g\\n", c[0]);
    return 0;
}}
"""


def inner_loop(tmp_path: Path, source: str, line: int, name: str = "prog.c", bindings: dict | None = None):
    """The loop of `source` that starts on `line` and the trip counts of its nest, keyed by id(loop), with the
    parameters ``bindings`` fixes put in."""
    src = tmp_path / name
    src.write_text(source)
    analysis = analyze([str(src)])
    blocks = group_blocks(analysis.counts)
    loop = next(lp for lp in source_loops(analysis.program) if lp.line == line)
    by_line = loop_trips(blocks, bindings)
    trips = {id(lp): by_line[(str(src.resolve()), lp.loc.line)]
             for lp in [*loop.nest, *(other.nest[-1] for other in loop.neighbours)]}
    return loop, trips


def column_loop(tmp_path: Path):
    """The inner loop of the column walk (line 9) and its nest's trip counts."""
    return inner_loop(tmp_path, COLUMN_C, 9, "col.c")


def host_machine(tmp_path: Path, compile_command: str = "gcc -O2", extra: str = "") -> Path:
    """A machine file: sparc2's database with ``compile_command`` and a two-level hierarchy (32 KiB L1 and memory,
    the compiled-code model on) plus the hierarchy lines ``extra`` (indented two spaces)."""
    text = (ROOT / "machine_db" / "sparc2.yaml").read_text()
    text = text.replace("models:\n", f'models:\n  compile: "{compile_command}"\n', 1)
    # the empty loop of this host, not the SPARC's 16 cycles (the least a -O0 pass costs, index_chain)
    text = text.replace("    loop_iter: (7 + 9) cycles", "    loop_iter: 0.4 ns", 1)
    text += ("hierarchy:\n  clock: 2500 MHz\n  line: 64\n  forward: 2.8 ns\n  forward_fp: 3.2 ns\n  levels:\n"
             "    - {name: L1, size: 32 KiB, read: 0.3 ns, write: 0.4 ns}\n"
             "    - {name: memory, read: 6 ns, write: 8 ns}\n" + extra)
    machine_file = tmp_path / "host.yaml"
    machine_file.write_text(text)
    return machine_file


def explain_compiled(tmp_path: Path, name: str, source: str, compile_command: str, extra: str = "") -> tuple[str, str]:
    """`sad analyze --explain` of ``source`` (written to ``name``) on ``host_machine`` with ``compile_command`` and
    the hierarchy lines ``extra``: (stdout, stderr)."""
    import io

    from sad.cli.main import run
    src = tmp_path / name
    src.write_text(source)
    out, err = io.StringIO(), io.StringIO()
    machine = host_machine(tmp_path, compile_command, extra)
    assert run(["analyze", str(src), "-m", str(machine), "--explain"], out, err) == 0
    return out.getvalue(), err.getvalue()


def forwarding_runs(tmp_path: Path, name: str, source: str, figure: str, line: int) -> tuple[str, str, str]:
    """``source`` compiled with gcc -O0 and explained twice: with the hierarchy's forwarding ``figure`` at 20 ns
    (the --explain row of the innermost loop on ``line``, and that run's stderr), and without it (its stderr)."""
    out, err = explain_compiled(tmp_path, name, source, "gcc -O0", f"  {figure}: 20 ns\n")
    row = next(t for t in out.splitlines() if f"{name}:{line} " in t and "per iteration" in t)
    _, missing = explain_compiled(tmp_path, name, source, "gcc -O0", "")
    return row, err, missing


COLUMN_SUM_C = """\
double A[512][ROW], s;
int main(void) {
    for (int j = 0; j < 8; j++)
        for (int k = 0; k < 512; k++)
            s += A[k][j];
    return s > 0;
}
"""
"""A column sum (line 4) over 512 rows of ``ROW`` doubles, eight columns."""


def column_sum_warnings(tmp_path: Path, naming: str, row: int, extra: str = "",
                        level_line: str | None = None) -> tuple[list, str]:
    """The warnings whose message names ``naming`` and the report's loop line of ``COLUMN_SUM_C`` over rows of
    ``row`` doubles, priced on ``host_machine`` with no chain waits, the hierarchy lines ``extra`` and, where
    given, ``level_line`` as its L1 entry."""
    from sad.machine.model import load_machine
    from sad.predict.loopcost import LoopCoverage, price_loops
    src = tmp_path / "colsum.c"
    src.write_text(COLUMN_SUM_C.replace("ROW", str(row)))
    machine_file = host_machine(tmp_path, extra="  chain_wait: {L1: [0 ns, 0 ns], memory: [0 ns, 0 ns]}\n" + extra)
    if level_line is not None:
        machine_file.write_text(machine_file.read_text().replace(
            "    - {name: L1, size: 32 KiB, read: 0.3 ns, write: 0.4 ns}\n", level_line))
    analysis = analyze([str(src)])
    coverage = LoopCoverage()
    price_loops(analysis, group_blocks(analysis.counts), load_machine(machine_file), coverage=coverage)
    return [d for d in coverage.warnings if naming in d.message], coverage.summary()
