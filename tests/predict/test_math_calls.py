"""A compiled loop that calls a math routine (``call exp``: one instruction to llvm-mca) adds the routine's
calibrated work, processor.library.<name>.call (sad.machine.libbench), to its own cycles; a routine no figure
prices is named in a warning (issue 27: a loop of sqrt·exp was predicted at half its time)."""
from __future__ import annotations

import io
import json
import math
import shutil
from pathlib import Path

import pytest

from sad.cli.main import run
from sad.machine import libbench
from sad.predict.incore import library_calls
from tests.predict.loop_nests import host_machine

needs_mca = pytest.mark.skipif(shutil.which("llvm-mca") is None or shutil.which("gcc") is None,
                               reason="llvm-mca and gcc are needed for the compiled-code model")

KERNEL = """#include <math.h>
#define N 1000
static double x[N], y[N];
int main(void) {
    int i;
    for (i = 0; i < N; i++)
        x[i] = 0.001 * i;
    for (i = 0; i < N; i++)
        y[i] = exp(-x[i]);
    return y[3] > 2;
}
"""


def _machine(tmp_path: Path, library: str, compile_command: str = "gcc -O2") -> Path:
    """The two-level host of the compiled-code tests with ``library`` as its processor.library."""
    path = host_machine(tmp_path, compile_command)
    text = path.read_text()
    start = text.index("\n  library:")
    path.write_text(text[:start + 1] + library + text[text.index("\n\n", start):])
    return path


def _analyze(tmp_path: Path, library: str, *extra: str) -> tuple[int, str, str]:
    src = tmp_path / "k.c"
    src.write_text(KERNEL)
    out, err = io.StringIO(), io.StringIO()
    status = run(["analyze", str(src), "-m", str(_machine(tmp_path, library)), *extra], out, err)
    return status, out.getvalue(), err.getvalue()


def test_the_calls_of_a_loop_body_are_read_from_its_assembly():
    body = ("movsd (%rbx), %xmm0", "call\texp@PLT", "call *%rax", "call sqrt", "movsd %xmm0, (%rbp)")
    figures = {"exp": 5e-9}
    assert library_calls(body, figures.get) == (("exp", 5e-9), ("sqrt", None))


def test_libmvecs_vector_routines_are_named_by_their_lanes():
    # gfortran -O2 vectorizes a loop of EXP into calls of glibc's libmvec, two doubles (four floats) a call
    assert libbench.vector_key("_ZGVbN2v_exp") == "exp_x2" and libbench.vector_key("_ZGVbN4vv_powf") == "powf_x4"
    assert libbench.vector_key("_ZGVdN4v_exp") == "exp_x4" and libbench.vector_key("exp") is None
    body = ("movapd (%r14), %xmm0", "call\t_ZGVbN2v_exp@PLT", "movaps %xmm0, -16(%r15)")
    assert library_calls(body, {"exp_x2": 3e-9}.get) == (("exp_x2", 3e-9),)
    raw = {"math.same_v2d": 2e-9, "math.exp_x2": 6.5e-9, "math.same_v4d": 2.5e-9, "math.exp_x4": 5.5e-9}
    cal = libbench.figures_of(raw | _other_routines(), "gcc", ["-O2"])
    assert math.isclose(cal.figures["exp_x2.call"], 4.5e-9, rel_tol=1e-12)
    assert math.isclose(cal.figures["exp_x4.call"], 3.0e-9, rel_tol=1e-12)   # AVX2: -march=native's calls
    # the AVX2 variants are timed only where the calibration's flags enable AVX2, as a user's build calls them
    assert "#if defined(__x86_64__) && defined(__AVX2__)" in libbench.program()
    assert "v4d _ZGVdN4v_exp(v4d);" in libbench.program()


def test_a_routines_work_is_its_loop_minus_a_call_returning_the_argument():
    raw = {"math.same": 2e-9, "math.copy": 0.5e-9, "math.exp": 9e-9, "math.floor": 1.5e-9}
    cal = libbench.figures_of(raw | _other_routines(), "gcc", ["-O2"])
    assert math.isclose(cal.figures["exp.call"], 7e-9, rel_tol=1e-12)
    assert math.isclose(cal.figures["same.call"], 1.5e-9, rel_tol=1e-12)  # the call itself: same - copy
    assert cal.figures["floor.call"] == 0.0   # faster than the empty call: no work, never negative
    assert "log.call" not in cal.figures       # not timed: no figure
    assert "exp:\n      call: 7 ns" in "\n".join(libbench.render_yaml(cal))


def test_libgccs_complex_routines_are_timed_as_calls_of_four_parts():
    # gcc -O0 calls __muldc3 for a C99 z * w: its figure is its loop less the loop calling a routine that
    # returns x[i], so the passing of four parts and the return of two are in it
    raw = {"math.same": 2e-9, "math.copy": 1.5e-9, "math.__muldc3": 3.5e-9, "math.__mulsc3": 12e-9}
    cal = libbench.figures_of(raw | _other_routines(), "gcc", ["-O0"])
    assert math.isclose(cal.figures["__muldc3.call"], 1.5e-9, rel_tol=1e-12)
    assert math.isclose(cal.figures["__mulsc3.call"], 10e-9, rel_tol=1e-12)
    assert "__divdc3.call" not in cal.figures   # not timed: no figure
    text = libbench.program()
    assert "double _Complex __muldc3(double, double, double, double);" in text
    assert 'MATH("math.__divsc3", zc_float[i] = __divsc3(xf[i], 0.5, 0.3, xf[i]));' in text


CPLX = """#include <complex.h>
#define N 1000
static double complex z[N], w[N];
int main(void) {
    int i;
    for (i = 0; i < N; i++) {
        z[i] = 0.5 + 0.25 * I;
        w[i] = 0.9 - 0.1 * I;
    }
    for (i = 0; i < N; i++)
        z[i] = z[i] * w[i];
    return creal(z[3]) > 2;
}
"""


@needs_mca
def test_a_complex_product_at_O0_costs_libgccs_routine(tmp_path):
    src = tmp_path / "c.c"
    src.write_text(CPLX)
    library = "  library:\n    __muldc3: {call: 1000 ns}\n    same: {call: 100 ns}\n"
    machine = _machine(tmp_path, library, "gcc -O0")
    out, err = io.StringIO(), io.StringIO()
    assert run(["analyze", str(src), "-m", str(machine), "--explain"], out, err) == 0, err.getvalue()
    assert "calls: __muldc3 1e+03 ns, calling 100 ns per iteration" in out.getvalue()
    assert "__muldc3" not in err.getvalue()   # priced: no warning


def _other_routines() -> dict[str, float]:
    raw = {"malloc": 1e-8, "free": 1e-8, "realloc": 1e-8, "qsort.call": 1e-8, "qsort.sorted": 1e-3}
    for name in ("calloc", "memcpy", "memmove", "memset"):
        raw[f"{name}.small"], raw[f"{name}.large"] = 2e-8, 4e-7
    return raw


@needs_mca
def test_a_loop_calling_exp_costs_the_routines_figure_more(tmp_path):
    # exp at 1 us a call, the call itself 100 ns: the loop of line 8 runs 1000 iterations of 1.1 us and its own
    # few cycles at 2.5 GHz
    library = "  library:\n    exp: {call: 1000 ns}\n    same: {call: 100 ns}\n"
    status, out, err = _analyze(tmp_path, library, "--explain")
    assert status == 0, err
    assert "calls: exp 1e+03 ns, calling 100 ns per iteration" in out
    status, out, _ = _analyze(tmp_path, library, "--format", "json")
    loop = [b for b in json.loads(out)["blocks"] if b["first_line"] == 8 and b["kind"] == "loop_iter"]
    assert len(loop) == 1 and 1100e-6 < loop[0]["time_s"] < 1100e-6 + 1000 * 10 / 2.5e9, loop


@needs_mca
def test_a_machine_without_the_cost_of_a_call_says_so(tmp_path):
    status, _, err = _analyze(tmp_path, "  library:\n    exp: {call: 5 ns}\n")
    assert status == 0
    assert "k.c:8: warning: 1 innermost loop (line 8): a loop calling library routines, and the machine " \
           "database has no processor.library.same" in err


@needs_mca
def test_llvm_mca_is_not_given_the_call_it_cannot_model():
    """llvm-mca takes 100 cycles for a call's latency; a long -O0 body calling sqrtf kept about three of its
    iterations in flight and was priced at 49 cycles where it runs 29 (the call's work is priced apart)."""
    from sad.predict import compiled as cc
    body = tuple(f"movss\t-{4 * (k % 12) + 8}(%rbp), %xmm{k % 4}" if k % 3 else f"addl\t$1, -{4 * (k % 5) + 60}(%rbp)"
                 for k in range(60))
    with_call = cc.mca(body[:30] + ("call\tsqrtf@PLT", "movss\t%xmm0, -100(%rbp)") + body[30:])
    without = cc.mca(body[:30] + ("nop", "movss\t%xmm0, -100(%rbp)") + body[30:])
    assert with_call is not None and without is not None
    assert with_call.cycles == without.cycles


@needs_mca
def test_a_routine_without_a_figure_is_named_in_a_warning(tmp_path):
    status, out, err = _analyze(tmp_path, "  library:\n    log: {call: 5 ns}\n")
    assert status == 0
    assert "calls exp in the compiled code, which the machine does not price" in err
    assert "k.c:8: warning: 1 innermost loop (line 8) calls exp" in err


COPY = """#define N 1000
static double y[N], z[N];
int main(void) {
    int r, i;
    for (r = 0; r < 100; r++) {
        for (i = 0; i < N; i++)
            z[i] = y[i] + r;
        for (i = 0; i < N; i++)
            y[i] = z[i];
    }
    return y[3] > 2;
}
"""
"""Line 8's copy, which gcc -O2 replaces by a copy of the C library's (contract.c's ``Y[i] = Z[i]`` in
tests/predict/test_incore.py)."""


@needs_mca
def test_a_copy_the_compiler_made_a_memcpy_without_its_figure_says_so(tmp_path):
    src = tmp_path / "copy.c"
    src.write_text(COPY)
    warned = "copy.c:8: warning: 1 innermost loop (line 8): a loop the compiler replaced by a call of memcpy, " \
             "and the machine database has no processor.library.memcpy.byte"
    for library, missing in (("  library:\n    memcpy: {call: 2 ns}\n", True),
                             ("  library:\n    memcpy: {call: 2 ns, byte: 0.0125 ns}\n", False)):
        out, err = io.StringIO(), io.StringIO()
        assert run(["analyze", str(src), "-m", str(_machine(tmp_path, library))], out, err) == 0, err.getvalue()
        assert (warned in err.getvalue()) == missing
        assert ("recalibrate: memcpy per byte" in out.getvalue()) == missing
