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
from sad.machine.mcacpu import _known_models, host_model, substitute
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
