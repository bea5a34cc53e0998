"""sad calibrate: the generated microbenchmarks compile and run with the real compilers; a calibration renders
to a machine database that loads and prices every key (figures derived from others checked by hand); refusals.

The rendering and loading tests start from a Calibration whose figures are chosen here (a small, exact fixture)
instead of timing every kernel: a full calibration takes minutes and its figures are noise for these checks.
"""
from __future__ import annotations

import io
import re
from pathlib import Path

import pytest

from sad.cli.main import run
from sad.machine import microbench as mb
from sad.machine.calibrate import (
    COMPILERS,
    Calibration,
    Figure,
    _run,
    _startup,
    compile_bench,
    find_compiler,
    render_yaml,
)
from sad.machine.model import MachineError, load_machine

NS = 1e-9
# Figures that other figures are derived from get their own values, so that a derivation is checked exactly.
CHOSEN = {"ops.real.add": 1 * NS, "ops.real.mul": 3 * NS, "ops.real.div": 5 * NS, "ops.double.pow": 10 * NS,
          "ops.double.convert": 2 * NS, "io.item1": 100 * NS, "io.item4": 250 * NS, "control.loop_iter": 4 * NS}
DEFAULT = 2 * NS


def chosen_calibration(language: str) -> Calibration:
    """A calibration with a figure for every kernel of ``language`` (as `calibrate` yields) and a start-up."""
    cal = Calibration(compiler="gcc" if language == "c" else "gfortran", compiler_version="test 1.0",
                      language=language, flags=["-O0"], cpu="test cpu", clock_hz=2e9, date="2026-11-22T10:00:00+00:00")
    for b in mb.for_language(language):
        seconds = CHOSEN.get(b.figure, DEFAULT)
        cal.figures[b.figure] = Figure(seconds=seconds, spread=0.25, raw=seconds, samples=3)
    cal.figures["control.startup"] = Figure(seconds=1e-3, spread=0.0, raw=1e-3, samples=5)
    return cal


@pytest.fixture(scope="module", params=["c", "fortran"])
def rendered(request, tmp_path_factory) -> Path:
    path = tmp_path_factory.mktemp("cal") / f"{request.param}.yaml"
    path.write_text(render_yaml(chosen_calibration(request.param), "here"))
    return path


def test_rendered_calibration_loads_and_prices_every_key(rendered: Path):
    machine = load_machine(rendered)
    for key in ("add.double", "mul.real", "div.integer", "pow.integer", "assign.logical", "compare.double",
                "convert.integer", "intrinsic.SQRT.double", "intrinsic.ANINT.double", "intrinsic.FOO.double",
                "load.double", "store.integer", "index", "loop_start", "loop_iter", "branch", "goto", "call",
                "io.write", "io_item", "add.complex", "logical", "bitop"):
        assert machine.op_cost(key) is not None, key
        assert machine.op_cost(key) >= 0, key
    text = rendered.read_text()
    assert "spread 25.0 %" in text and machine.models["cpu"] == "test cpu" and machine.models["optimization"] == "-O0"
    assert re.search(r"memory\.load\.double@16 ", text)          # every working set recorded (as a comment)
    assert re.search(r"^format_version: 8$", text, re.M) and machine.format_version == 8  # a versioned file


def test_derived_figures_follow_their_formulas(rendered: Path):
    machine = load_machine(rendered)
    assert float(machine.op_cost("mul.complex")) == pytest.approx(4 * 3e-9 + 2 * 1e-9)   # 4 mul.real + 2 add.real
    assert float(machine.op_cost("div.complex")) == pytest.approx(6 * 3e-9 + 3 * 1e-9 + 2 * 5e-9)
    assert float(machine.op_cost("add.complex")) == pytest.approx(2e-9)
    assert float(machine.op_cost("io_item")) == pytest.approx((250e-9 - 100e-9) / 3)
    assert float(machine.op_cost("io.write")) == pytest.approx(100e-9 - 50e-9)
    assert float(machine.op_cost("loop_iter")) == pytest.approx(4e-9)
    if load_machine(rendered).models["language"] == "c":       # C has no integer power: derived
        assert float(machine.op_cost("pow.integer")) == pytest.approx(10e-9 + 2 * 2e-9)


def test_a_write_statement_below_the_resolution_is_one_call_not_zero(tmp_path: Path):
    """Issue 27: a busy machine timed the write of four items as 4x the write of one (72 ns each), so the
    statement's own part came out 0 and was written as `statement: 0 ns`. It becomes the calibrated call
    (2 ns here), the item the rest of the one-item write (72 - 2 ns), with a warning naming it."""
    from sad.machine.calibrate import derive_unmeasured
    cal = chosen_calibration("c")
    cal.figures["io.item1"] = Figure(seconds=72e-9, spread=0.01, raw=72e-9, samples=7)
    cal.figures["io.item4"] = Figure(seconds=288e-9, spread=0.01, raw=288e-9, samples=7)
    derive_unmeasured(cal)
    path = tmp_path / "io.yaml"
    path.write_text(render_yaml(cal, "io"))
    machine = load_machine(path)
    assert float(machine.op_cost("io.write")) == pytest.approx(DEFAULT)
    assert float(machine.op_cost("io_item")) == pytest.approx(72e-9 - DEFAULT)
    assert not re.search(r"^\s+\w+: 0 ns", path.read_text(), re.M)
    assert [w for w in cal.warnings if w.startswith("io.statement: one library call")]


def test_rendered_calibration_has_strided_and_startup(rendered: Path):
    """Strided references and process start-up get their own figures (no fallback)."""
    machine = load_machine(rendered)
    for t in ("integer", "real", "double"):
        for kind in ("load_strided", "store_strided"):
            path, seconds = machine.resolve(f"{kind}.{t}")
            assert path == f"processor.memory.{kind}.{t}" and float(seconds) == pytest.approx(DEFAULT)
    assert machine.resolve("load_strided.complex")[0] == "processor.memory.load_strided.default"
    path, seconds = machine.resolve("startup")
    assert path == "processor.control.startup" and float(seconds) == pytest.approx(1e-3)
    assert "empty program" in rendered.read_text()


@pytest.mark.parametrize("compiler", sorted(COMPILERS))
def test_microbenchmarks_compile_and_run(compiler: str, tmp_path: Path):
    """The real toolchain: every kernel of the language compiles in one program; a few of them (arithmetic, a
    sequential and a strided memory walk) and the empty program run and report times."""
    language = COMPILERS[compiler]
    items = mb.for_language(language)
    exe = compile_bench(find_compiler(compiler), language, ["-O0"], tmp_path, items)
    picks = [next(k for k, b in enumerate(items) if b.figure == name)
             for name in ("ops.double.add", "memory.load.double@16", "memory.load_strided.double")]
    for k in picks:
        w = max(1, items[k].size_kb * 1024 // items[k].elem_bytes)
        times = _run(exe, k, 10, 2, w)
        assert len(times) == 2 and all(t >= 0 for t in times), (items[k].figure, times)
    (startup,) = _startup(find_compiler(compiler), language, ["-O0"], tmp_path, 1)
    assert 0 < startup < 5


def test_strided_kernels_touch_one_line_per_element():
    strided = [b for b in mb.benches() if b.figure.startswith(("memory.load_strided.", "memory.store_strided."))
               and "@" not in b.figure]
    assert len(strided) == 6
    for b in strided:
        assert b.stride * b.elem_bytes >= mb.LINE_BYTES and b.size_kb >= 32 * 1024 and b.kind == "array"
        assert "memory.index" in b.minus


def test_never_overwrites_without_force(tmp_path: Path):
    out = tmp_path / "here.yaml"
    out.write_text("mine\n")
    err = io.StringIO()
    assert run(["calibrate", "--quick", "-o", str(out)], io.StringIO(), err) == 2
    assert "exists" in err.getvalue() and out.read_text() == "mine\n"


def test_refuses_without_compiler(tmp_path: Path, monkeypatch):
    monkeypatch.setenv("PATH", str(tmp_path))               # a PATH with no compiler on it
    err = io.StringIO()
    assert run(["calibrate", "--compiler", "gfortran", "--quick", "-o", str(tmp_path / "x.yaml")],
               io.StringIO(), err) == 2
    assert "no compiler 'gfortran'" in err.getvalue()
    assert not (tmp_path / "x.yaml").exists()


@pytest.mark.parametrize("drop, key", [("    call:", "processor.control: missing required key 'call'"),
                                       ("      mul:", "processor.ops.integer: missing required key 'mul'"),
                                       ("    default:", "processor.intrinsics: missing required key 'default'")])
def test_missing_figure_is_named(rendered: Path, tmp_path: Path, drop: str, key: str):
    lines = rendered.read_text().splitlines()
    first = next(i for i, line in enumerate(lines) if line.startswith(drop))
    bad = tmp_path / "bad.yaml"
    bad.write_text("\n".join(lines[:first] + lines[first + 1:]) + "\n")
    with pytest.raises(MachineError, match=re.escape(key)):
        load_machine(bad)


def test_negative_figure_is_named(rendered: Path, tmp_path: Path):
    text = re.sub(r"(    loop_iter: )[^#\n]*", r"\1-1 ns ", rendered.read_text())
    bad = tmp_path / "neg.yaml"
    bad.write_text(text)
    with pytest.raises(MachineError, match=r"processor\.control\.loop_iter: negative time"):
        load_machine(bad)
