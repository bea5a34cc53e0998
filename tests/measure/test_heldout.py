"""benchmarks/heldout.py: a directory of kernels described by a manifest is built, timed and predicted; the
figures per level (median |error|, within 25 %, off by 2x, close pairs ranked right) are computed as defined."""
from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from tests.measure.benchmark_scripts import load

heldout = load("heldout")

KERNEL = """#include <stdio.h>
#include "scale.h"
static double x[SIZE];
int main(void) {
  int i, r, reps;
  double s = 0.0;
  if (scanf("%d", &reps) != 1) return 1;
  for (r = 0; r < reps; r++)
    for (i = 0; i < SIZE; i++) { x[i] = x[i] * FACTOR + 1.0; s += x[i]; }
  printf("%g\\n", s);
  return 0;
}
"""


def test_figures_of_a_level():
    rows = [("a", 1.0, 1.1), ("b", 1.2, 1.0), ("c", 10.0, 25.0), ("d", 4.0, None)]
    s = heldout.summary(rows)
    assert s["kernels"] == 4 and s["predicted"] == 3
    assert s["median_abs_error"] == pytest.approx(1 / 6)          # errors 10 %, 16.7 %, 150 %
    assert s["within_25"] == 2 and s["off_2x"] == ["c"]
    assert (s["close_pairs"], s["close_pairs_right"]) == (1, 0)   # a, b measured 1.2x apart: ranked the wrong way


def test_several_earlier_reports_give_each_kernel_its_fastest_time(tmp_path: Path):
    """--measured repeated: a kernel in both reports keeps the faster time (a shared host only slows a program),
    one in either keeps its own, per level."""
    import json
    first, second = tmp_path / "a.json", tmp_path / "b.json"
    first.write_text(json.dumps({"levels": {"-O0": {"rows": [{"name": "lu", "measured": 23.3, "predicted": 10.2},
                                                             {"name": "mvt", "measured": 0.41, "predicted": 0.3}]}}}))
    second.write_text(json.dumps({"levels": {"-O0": {"rows": [{"name": "lu", "measured": 14.3, "predicted": 10.2}]},
                                             "-O2": {"rows": [{"name": "lu", "measured": 4.0, "predicted": 2.0}]}}}))
    assert heldout.earlier_times([str(first), str(second)]) == {"-O0": {"lu": 14.3, "mvt": 0.41}, "-O2": {"lu": 4.0}}
    broken = tmp_path / "broken.json"
    broken.write_text('{"levels": 3')
    for bad, why in ((broken, "JSONDecodeError"), (tmp_path / "missing.json", "FileNotFoundError")):
        with pytest.raises(heldout.ManifestError, match=rf"^{bad}: error: no earlier --json report: {why}"):
            heldout.earlier_times([str(first), str(bad)])


def test_manifest_errors_name_the_entry(tmp_path: Path):
    (tmp_path / "heldout.yaml").write_text("kernels:\n  - name: k1\n    source: missing.c\n")
    with pytest.raises(heldout.ManifestError, match=r"heldout.yaml: error: kernels\[0\] \(k1\): no such source"):
        heldout.read_manifest(tmp_path)


@pytest.mark.skipif(shutil.which("gcc") is None, reason="needs gcc")
def test_a_kernel_with_an_include_directory_is_built_timed_and_predicted(tmp_path: Path, capsys):
    (tmp_path / "inc").mkdir()
    (tmp_path / "inc" / "scale.h").write_text("#define FACTOR 0.5\n")
    (tmp_path / "scale.c").write_text(KERNEL)
    (tmp_path / "heldout.yaml").write_text(
        "kernels:\n  - name: scale\n    source: scale.c\n    flags: [-I, inc, -DSIZE=4000]\n"
        "    stdin: '50'\n    bind: {reps: 50}\n")
    (k,) = heldout.read_manifest(tmp_path)
    assert k.analyze_flags() == ["-I", str(tmp_path / "inc"), "-D", "SIZE=4000"]
    out_json = tmp_path / "out.json"
    # the levels as the usage line spells them: a value after a space that begins with a dash
    assert heldout.main([str(tmp_path), "--levels", "-O0", "--machine", "-O0=sparc2", "--runs", "1",
                         "--json", str(out_json)]) == 0
    text = capsys.readouterr().out
    assert "-O0: 1/1 predicted" in text, text
    import json
    (row,) = json.loads(out_json.read_text())["levels"]["-O0"]["rows"]
    assert row["measured"] > 0 and row["predicted"] > 0
