"""A C switch whose cases each end in a jump is an if chain on its selector: a switch on loop indices is
counted exactly (every line equal to gcov's, no named probability), a switch with fall-through keeps the
computed jump and its probabilities."""
from __future__ import annotations

from pathlib import Path

from sad import ir
from sad.analysis.pipeline import analyze

from .gcov_checked import sad_counts

ON_INDEX = """\
#include <stdio.h>
#define N 1000
double a[N];
int main(void) {
    int i;
    double s = 0;
    for (i = 0; i < N; i++) a[i] = i * 0.5;
    for (i = 0; i < N; i++) {
        switch (i % 4) {
        case 0:
            s += a[i];
            break;
        default:
            s *= 0.5;
            break;
        case 1: case 2:
            s -= a[i];
            break;
        }
    }
    for (i = 0; i < N; i++) {
        switch (i) {
        case 0: s += 1; break;
        case 7: continue;
        default: s += a[i];
        }
    }
    printf("%g\\n", s);
    return 0;
}
"""


def test_switch_on_loop_indices_is_exact(tmp_path: Path) -> None:
    counts = sad_counts(tmp_path, "onindex", ON_INDEX)
    # i % 4: 250 zeros, 500 ones and twos, 250 threes (the default, written second)
    assert (counts[10], counts[11], counts[12]) == ("250", "250", "250")
    assert (counts[13], counts[14], counts[15]) == ("250", "250", "250")
    assert (counts[16], counts[17], counts[18]) == ("500", "500", "500")
    # switch (i): case 0 once, case 7 once (its continue), the default 998 times
    assert (counts[22], counts[23], counts[24], counts[25]) == ("1000", "1", "1", "998")


def _procedure(tmp_path: Path, body: str) -> ir.Procedure:
    path = tmp_path / "k.c"
    path.write_text("void k(int n, double *a) {\n" + body + "\n}\n")
    return analyze([str(path)]).program.procedures[0]


def test_cases_that_fall_through_keep_the_computed_jump(tmp_path: Path) -> None:
    body = _procedure(tmp_path, "switch (n) { case 0: a[0] = 1; case 1: a[1] = 2; break; }").body
    assert [type(s) for s in body if isinstance(s, (ir.ComputedGoto, ir.If))] == [ir.ComputedGoto]


def test_a_chain_tests_each_case_list(tmp_path: Path) -> None:
    body = _procedure(tmp_path, "switch (n) { case 1: case 2: a[0] = 1; break; default: a[1] = 2; }").body
    (chain,) = [s for s in body if isinstance(s, ir.If)]
    cond = chain.arms[0].cond
    assert isinstance(cond, ir.BinOp) and cond.op == "or"
    assert [(c.op, c.right.value) for c in (cond.left, cond.right)] == [("eq", 1), ("eq", 2)]
    assert chain.orelse is not None and not any(isinstance(s, ir.Goto) for s in chain.orelse)


def test_a_selector_with_effects_or_calls_keeps_the_computed_jump(tmp_path: Path) -> None:
    for selector in ("n++", "abs(n)"):
        body = _procedure(tmp_path, f"switch ({selector}) {{ case 0: a[0] = 1; break; default: a[1] = 2; }}").body
        assert any(isinstance(s, ir.ComputedGoto) for s in body), selector


def test_a_computed_selector_is_computed_once(tmp_path: Path) -> None:
    body = _procedure(tmp_path, "switch (n % 3) { case 0: a[0] = 1; break; case 1: a[1] = 2; break; }").body
    (chain,) = [s for s in body if isinstance(s, ir.If)]
    sets = [s for s in body if isinstance(s, ir.Assign) and s.target.name.startswith("__sw")]
    assert len(sets) == 1 and sets[0].value.op == "mod"
    assert all(arm.cond.left.name == sets[0].target.name for arm in chain.arms)
