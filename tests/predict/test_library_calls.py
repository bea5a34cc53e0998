"""C library calls (malloc, free, memcpy, qsort, ...) are priced by the machine database, and calls nothing
prices are named wherever a time is shown ("time excludes 2 unpriced calls: ...") instead of costing 0 s
without a word (issue 30, item 3)."""
from __future__ import annotations

import io
import json
import math
import re
from pathlib import Path

import sympy

from sad.cli.main import run
from sad.machine import libbench
from sad.machine.model import load_machine
from sad.predict.job import Options
from sad.predict.job import run as run_job

ROOT = Path(__file__).resolve().parents[2]

SORT = """#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int cmp(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

int main(void)
{
    int n, i;
    double *v, *w;
    if (scanf("%d", &n) != 1) return 1;
    v = malloc(n * sizeof(double));
    w = calloc(n, sizeof(double));
    for (i = 0; i < n; i++) v[i] = (double)((i * 7919) % n);
    memcpy(w, v, n * sizeof(double));
    qsort(w, n, sizeof(double), cmp);
    printf("%g\\n", w[n / 2]);
    free(v);
    free(w);
    return 0;
}
"""

# per call / per byte / per n log2 n, in ns: chosen so that each term of the hand-derived sum is told apart
LIBRARY = """  library:
    malloc: 100 ns
    free: 50 ns
    calloc: {call: 120 ns, byte: 0.5 ns}
    memcpy: {call: 20 ns, byte: 0.25 ns}
    qsort: {call: 30 ns, nlogn: 7 ns}
"""


def _machine_with_library(tmp_path: Path, library: str = LIBRARY) -> Path:
    """sparc2 with its processor.library replaced by `library`."""
    text = (ROOT / "machine_db/sparc2.yaml").read_text()
    text = text.replace("name: sparc2\n", "name: sparc2lib\n")
    start = text.index("\n  library:")
    text = text[:start + 1] + library + text[text.index("\n\n", start):]
    path = tmp_path / "sparc2lib.yaml"
    path.write_text(text)
    return path


def _predict(tmp_path: Path, machine, n: int):
    source = tmp_path / "sort.c"
    source.write_text(SORT)
    return run_job([str(source)], Options(bindings={"n": sympy.Integer(n)}), machine).prediction


def test_library_calls_are_priced_by_the_machine(tmp_path: Path):
    """With figures for the routines, the time is the machine's own operations plus, by hand:
    2 malloc-or-calloc calls, 2 free, memcpy and calloc by 8n bytes, qsort by n log2 n."""
    n = 1000
    priced = _predict(tmp_path, load_machine(_machine_with_library(tmp_path)), n)
    plain = _predict(tmp_path, load_machine("sparc2"), n)
    assert priced.excluded == [] and priced.unbound == []
    assert plain.excluded == ["T_lib_calloc", "T_lib_calloc_byte", "T_lib_free", "T_lib_malloc", "T_lib_qsort",
                              "T_lib_qsort_nlogn"]  # sparc2 prices memcpy: 30 cycles + 1 cycle per byte at 40 MHz
    library = (100 + 2 * 50 + 120 + 0.5 * 8 * n + 20 + 0.25 * 8 * n + 30 + 7 * n * math.log2(n)) * 1e-9
    library -= (30 + 8 * n) * 25e-9
    assert math.isclose(priced.time_value - plain.time_value, library, rel_tol=1e-9)


def test_unpriced_calls_are_named_in_text_json_and_a_warning(tmp_path: Path):
    """Before: `C_qsort`, `C_malloc`, ... stayed unbound parameters of a time that was never a number, and
    validate made them 0 s silently. Now the number leaves them out and every output names them."""
    source = tmp_path / "sort.c"
    source.write_text(SORT.replace("qsort(w, n, sizeof(double), cmp);", "mysort(w, n);"))
    out, err = io.StringIO(), io.StringIO()
    assert run(["analyze", str(source), "-m", str(_machine_with_library(tmp_path)), "-D", "n=1000"], out, err) == 0
    assert re.search(r"T = [0-9.]+ \S*s  \(time excludes 1 unpriced call: C_mysort\)", out.getvalue()), out.getvalue()
    assert "sad: warning: time excludes 1 unpriced call: C_mysort" in err.getvalue()
    out = io.StringIO()
    run(["analyze", str(source), "-m", str(_machine_with_library(tmp_path)), "-D", "n=1000", "--format", "json"],
        out, io.StringIO())
    doc = json.loads(out.getvalue())
    assert doc["excluded_calls"] == ["C_mysort"] and doc["unbound"] == [] and doc["time_s"] > 0


def test_sweep_names_the_unpriced_calls(tmp_path: Path):
    source = tmp_path / "sort.c"
    source.write_text(SORT)
    out, err = io.StringIO(), io.StringIO()
    assert run(["sweep", str(source), "-m", "sparc2", "-D", "n=100,1000", "--format", "json"], out, err) == 0
    series = json.loads(out.getvalue())["series"][0]
    assert series["excluded_calls"][:2] == ["T_lib_calloc", "T_lib_calloc_byte"]
    assert "time excludes 6 unpriced calls: T_lib_calloc" in err.getvalue()


def test_library_figures_from_raw_times_by_hand():
    """Per byte: the slope between the two sizes; per call: the small copy minus its bytes (calloc: and minus
    the free timed with it); qsort per n log2 n: a sort minus a call."""
    raw = {"malloc": 10e-9, "free": 6e-9, "realloc": 30e-9, "qsort.call": 5e-9,
           "qsort.sorted": 5e-9 + 10e-9 * libbench.SORT_N * math.log2(libbench.SORT_N)}
    for name in ("calloc", "memcpy", "memmove", "memset"):
        raw[f"{name}.small"] = 20e-9 + 0.05e-9 * libbench.SMALL + (6e-9 if name == "calloc" else 0)
        raw[f"{name}.large"] = 20e-9 + 0.05e-9 * libbench.LARGE + (6e-9 if name == "calloc" else 0)
    cal = libbench.figures_of(raw, "gcc", ["-O0"])
    for name in ("calloc", "memcpy", "memmove", "memset"):
        assert math.isclose(cal.figures[f"{name}.byte"], 0.05e-9, rel_tol=1e-9)
        assert math.isclose(cal.figures[f"{name}.call"], 20e-9, rel_tol=1e-9)
    assert math.isclose(cal.figures["qsort.nlogn"], 10e-9, rel_tol=1e-9)
    assert cal.figures["malloc"] == 10e-9 and cal.figures["free"] == 6e-9


def test_measured_library_figures_load_into_a_machine(tmp_path: Path):
    """The real microbenchmarks run, and their YAML lines load as processor.library and price every key."""
    cal = libbench.measure(["-O0"])
    assert all(seconds >= 0 for seconds in cal.figures.values())
    assert cal.figures["memcpy.byte"] > 0 and cal.figures["qsort.nlogn"] > 0 and cal.figures["malloc"] > 0
    machine = load_machine(_machine_with_library(tmp_path, "\n".join(libbench.render_yaml(cal)) + "\n"))
    for key in ("lib.malloc", "lib.free", "lib.realloc", "lib.calloc", "lib.calloc.byte", "lib.memcpy",
                "lib.memcpy.byte", "lib.memmove.byte", "lib.memset.byte", "lib.qsort", "lib.qsort.nlogn",
                "lib.__muldc3", "lib.__divdc3", "lib.__mulsc3", "lib.__divsc3"):
        assert machine.op_cost(key) is not None, key
