"""sad calibrate: a quick calibration with the real compiler yields a database that loads; refusals."""
from __future__ import annotations

import re
from pathlib import Path

import pytest

from sad.cli.main import main
from sad.machine.calibrate import Settings, calibrate, render_yaml
from sad.machine.model import MachineError, load_machine


@pytest.fixture(scope="module")
def quick_db(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("cal") / "here.yaml"
    assert main(["calibrate", "--quick", "-o", str(out)]) == 0
    return out


def test_quick_calibration_loads_and_prices_every_key(quick_db: Path):
    machine = load_machine(quick_db)
    for key in ("add.double", "mul.real", "div.integer", "pow.integer", "assign.logical", "compare.double",
                "convert.integer", "intrinsic.SQRT.double", "intrinsic.ANINT.double", "intrinsic.FOO.double",
                "load.double", "store.integer", "index", "loop_start", "loop_iter", "branch", "goto", "call",
                "io.write", "io_item", "add.complex", "logical", "bitop"):
        assert machine.op_cost(key) is not None, key
        assert machine.op_cost(key) >= 0, key
    text = quick_db.read_text()
    assert "spread" in text and machine.models["cpu"] and machine.models["optimization"] == "-O0"
    assert re.search(r"memory\.load\.double@16 ", text)          # several working sets recorded


def test_quick_calibration_has_strided_and_startup(quick_db: Path):
    """Strided references and process start-up are measured, with their own figures (no fallback)."""
    machine = load_machine(quick_db)
    for t in ("integer", "real", "double"):
        for kind in ("load_strided", "store_strided"):
            path, seconds = machine.resolve(f"{kind}.{t}")
            assert path == f"processor.memory.{kind}.{t}" and seconds >= 0
    assert machine.resolve("load_strided.complex")[0] == "processor.memory.load_strided.default"
    path, seconds = machine.resolve("startup")
    assert path == "processor.control.startup"
    assert 1e-5 < seconds < 0.5                    # an exec of an empty program: microseconds to milliseconds
    assert "empty program" in quick_db.read_text()


def test_strided_kernels_touch_one_line_per_element():
    from sad.machine import microbench as mb
    strided = [b for b in mb.benches() if b.figure.startswith(("memory.load_strided.", "memory.store_strided."))
               and "@" not in b.figure]
    assert len(strided) == 6
    for b in strided:
        assert b.stride * b.elem_bytes >= mb.LINE_BYTES and b.size_kb >= 32 * 1024 and b.kind == "array"
        assert "memory.index" in b.minus


def test_never_overwrites_without_force(quick_db: Path, capsys):
    before = quick_db.read_text()
    assert main(["calibrate", "--quick", "-o", str(quick_db)]) == 2
    assert "exists" in capsys.readouterr().err and quick_db.read_text() == before


def test_refuses_without_compiler(tmp_path: Path, monkeypatch, capsys):
    monkeypatch.setenv("PATH", str(tmp_path))               # a PATH with no compiler on it
    assert main(["calibrate", "--compiler", "gfortran", "--quick", "-o", str(tmp_path / "x.yaml")]) == 2
    assert "no compiler 'gfortran'" in capsys.readouterr().err
    assert not (tmp_path / "x.yaml").exists()


def test_fortran_calibration_renders(tmp_path: Path):
    cal = calibrate("gfortran", ["-O0"], Settings(target_s=0.0005, reps=1, sizes_kb=(16, 256),
                                                  hierarchy_budget_s=5.0))
    path = tmp_path / "f.yaml"
    path.write_text(render_yaml(cal, "f"))
    machine = load_machine(path)
    assert machine.op_cost("intrinsic.MAX.integer") is not None
    assert machine.resolve("load_strided.real")[0] == "processor.memory.load_strided.real"
    assert machine.resolve("startup")[0] == "processor.control.startup"


@pytest.mark.parametrize("drop, key", [("    call:", "processor.control: missing required key 'call'"),
                                       ("      mul:", "processor.ops.integer: missing required key 'mul'"),
                                       ("    default:", "processor.intrinsics: missing required key 'default'")])
def test_missing_figure_is_named(quick_db: Path, tmp_path: Path, drop: str, key: str):
    lines = quick_db.read_text().splitlines()
    first = next(i for i, line in enumerate(lines) if line.startswith(drop))
    bad = tmp_path / "bad.yaml"
    bad.write_text("\n".join(lines[:first] + lines[first + 1:]) + "\n")
    with pytest.raises(MachineError, match=re.escape(key)):
        load_machine(bad)


def test_negative_figure_is_named(quick_db: Path, tmp_path: Path):
    text = re.sub(r"(    loop_iter: )[^#\n]*", r"\1-1 ns ", quick_db.read_text())
    bad = tmp_path / "neg.yaml"
    bad.write_text(text)
    with pytest.raises(MachineError, match=r"processor\.control\.loop_iter: negative time"):
        load_machine(bad)
