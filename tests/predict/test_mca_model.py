"""llvm-mca's scheduling model of this host's core (sad.machine.mcacpu): where LLVM does not know the core, the
newest model of the same line stands in for its generic one, and the user is told which (issue 27)."""
from __future__ import annotations

import io
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from sad.cli.main import run
from sad.machine import mcacpu
from sad.machine.mcacpu import _known_models, host_model, substitute
from sad.predict import compiled as cc
from tests.predict.test_compile_options import _machine

ZEN = {"znver1", "znver2", "znver3", "skylake", "generic"}


def test_an_unknown_zen_core_gets_the_newest_znver_model():
    assert substitute("AuthenticAMD", 26, ZEN) == "znver3"
    assert substitute("AuthenticAMD", 26, ZEN | {"znver10"}) == "znver10"     # by number, not by spelling
    assert substitute("AuthenticAMD", 21, ZEN) is None                       # a Bulldozer is no Zen
    assert substitute("GenuineIntel", 6, ZEN) == "skylake"
    assert substitute("GenuineIntel", 6, {"sapphirerapids", "skylake"}) == "sapphirerapids"
    assert substitute("HygonGenuine", 24, ZEN) is None


needs_mca = pytest.mark.skipif(shutil.which("llvm-mca") is None or shutil.which("gcc") is None,
                               reason="llvm-mca and gcc are needed")


@needs_mca
def test_the_model_used_is_the_hosts_or_named_in_a_warning(tmp_path: Path):
    """On a host LLVM knows, the model its host detection names and no warning; on one it does not (an AMD
    family 26 and LLVM 14), a znver model it lists, named in the report's line and in one warning."""
    version = subprocess.run(["llvm-mca", "--version"], capture_output=True, text=True, check=False).stdout
    model = host_model()
    src = tmp_path / "s.c"
    src.write_text("double x[1000];\nint main(void) {\n  int i;\n  double s = 0;\n"
                   "  for (i = 0; i < 1000; i++)\n    s += x[i];\n  return s > 0;\n}\n")
    machine = _machine(tmp_path, "gcc -O2")
    out, err = io.StringIO(), io.StringIO()
    assert run(["analyze", str(src), "-m", str(machine)], out, err) == 0, err.getvalue()
    named = re.search(r"Host CPU:\s*(\S+)", version)
    if named and named.group(1) != "(unknown)":
        # the model LLVM names for the host, by its name (a machine file's mca_scale records it)
        assert model.mcpu == named.group(1) and "llvm-mca does not know" not in err.getvalue()
        return
    assert model.mcpu in _known_models() and model.mcpu != "native"
    assert f"1 of 1 innermost loops priced from the compiled code (gcc -O2; llvm-mca -mcpu={model.mcpu})" \
        in out.getvalue()
    assert err.getvalue().count("llvm-mca does not know this host's core") == 1


EOS_C = """static double x[995], y[995], z[995], u[1002];
int main(void) {
    int k;
    double q = 0.5, r = 0.2, t = 0.1;
    for (k = 0; k < 995; k++)
        x[k] = u[k] + r * (z[k] + r * y[k]) +
               t * (u[k + 3] + r * (u[k + 2] + r * u[k + 1]) + t * (u[k + 6] + q * (u[k + 5] + q * u[k + 4])));
    return (int) x[9];
}
"""


@needs_mca
@pytest.mark.skipif(shutil.which("llvm-mca") is None or "znver3" not in _known_models(),
                    reason="llvm-mca with a znver3 model is needed")
def test_loads_in_flight_are_bounded_by_the_reorder_buffer_not_the_models_load_queue(tmp_path: Path):
    """Livermore 7 (equation of state) at -O0: the index reloaded from the stack for each of nine array reads,
    eight multiplications by scalars on the stack: 27 loads an iteration. LLVM 14's znver3 model holds each
    load's queue entry (72 of them) to retirement, about 2.7 iterations in flight: 21.9 cycles an iteration,
    36 % of them stalled on the queue. AMD's cores free the entry when the load has its data (Chips and Cheese,
    2022), so the loads are bounded by the 256-entry reorder buffer alone: 18.2 cycles (13 measured on a Zen 3
    host). A model without a load queue (znver2) gives the same cycles either way."""
    src = tmp_path / "eos.c"
    src.write_text(EOS_C)
    cf = cc.compiled_file(src, "gcc -O0")
    assert isinstance(cf, cc.CompiledFile)
    body = max(cf.loops, key=lambda lp: len(lp.instructions)).instructions
    assert sum(1 for i in body if re.search(r"\(%r", i) and not i.startswith("lea")) >= 27 - 1  # one store
    text = "\n".join(cc._neutral_jump(i) for i in body) + "\n"
    assert mcacpu.load_queue_flag("znver3") == ["-lqueue=256"]
    assert mcacpu.load_queue_flag("znver2") == ["-lqueue=192"]

    def queue_of_the_model(mcpu: str) -> float:
        out = subprocess.run(["llvm-mca", f"-mcpu={mcpu}", f"-iterations={mcacpu.MCA_ITERATIONS}"], input=text,
                             capture_output=True, text=True, check=True).stdout
        return int(re.search(r"^Total Cycles:\s+(\d+)", out, re.M).group(1)) / mcacpu.MCA_ITERATIONS

    bounded = mcacpu.run(text, "znver3")
    assert bounded is not None
    assert queue_of_the_model("znver3") == pytest.approx(21.9, abs=0.5)
    assert bounded.cycles == pytest.approx(18.2, abs=0.5)
    assert mcacpu.run(text, "znver2").cycles == queue_of_the_model("znver2")
