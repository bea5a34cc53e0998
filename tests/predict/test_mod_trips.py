"""A loop whose start depends on a remainder (red-black sweeps: ``j = 1 + (i + c) % 2; j += 2``) has trips per
entry that are a sum of Mod terms: the compiled-code model adds them up exactly instead of letting sympy
approximate them, which failed on its comparisons (h27: a devkernels3 kernel crashed `sad analyze`)."""
from __future__ import annotations

import json

import sympy

from sad.predict.loopcost import _exact_sums
from tests.predict.test_compile_options import _machine, _sad, needs_mca

RED_BLACK = """#define N 1500
static double U[N][N];
int main(void) {
    int i, j, c;
    for (c = 0; c < 2; c++)
        for (i = 1; i < N - 1; i++)
            for (j = 1 + (i + c) % 2; j < N - 1; j += 2)
                U[i][j] = 0.25 * (U[i - 1][j] + U[i + 1][j] + U[i][j - 1] + U[i][j + 1]);
    return U[3][3] > 1;
}
"""


def test_a_sum_of_remainders_is_added_up_exactly():
    i = sympy.Symbol("i", integer=True)
    # trips of j = 1 + i % 2, ..., 38 by 2: 19 whichever the start; 38 rows
    trips = sympy.Sum(sympy.floor((38 - (1 + sympy.Mod(i, 2))) / 2) + 1, (i, 1, 38))
    assert _exact_sums(trips) == 38 * 19


@needs_mca
def test_a_red_black_sweep_is_priced_from_its_compiled_code(tmp_path):
    src = tmp_path / "rb.c"
    src.write_text(RED_BLACK)
    status, out, err = _sad("analyze", str(src), "-m", str(_machine(tmp_path, "gcc -O0")), "--format", "json")
    assert status == 0, err
    assert json.loads(out)["innermost_loops"]["compiled_code"] == 1
