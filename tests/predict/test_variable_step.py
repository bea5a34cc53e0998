"""A loop whose step is a variable (the sieve of Eratosthenes' `for (j = i * i; j <= N; j += i)`) has no stride
the data part knows: it prices each reference a step of one element, which for the sieve's primes past 64 is a
sixty-fourth of the line each iteration moves (the sieve at N = 10^8, -O2: 0.22 s predicted, 1.25 s measured).
The report says so in a warning naming the loop and in its loop line; a constant step says nothing."""
from __future__ import annotations

import shutil

import pytest

from tests.predict.loop_nests import explain_compiled

SIEVE = """static char composite[100001];
int main(void) {
    long i, j, count = 0;
    for (i = 2; i < 317; i++)
        if (!composite[i])
            for (j = i * i; j <= 100000; j += STEP)
                composite[j] = 1;
    for (i = 2; i <= 100000; i++)
        count += !composite[i];
    return count > 0;
}
"""


@pytest.mark.skipif(not (shutil.which("gcc") and shutil.which("llvm-mca")), reason="needs gcc, llvm-mca")
@pytest.mark.parametrize("step, said", [("i", True), ("3", False)])
def test_a_variable_step_is_said(tmp_path, step, said):
    out, err = explain_compiled(tmp_path, "sieve.c", SIEVE.replace("STEP", step), "gcc -O2")
    warned = [line for line in err.splitlines() if "the step is not a constant" in line]
    assert warned == ([f"{tmp_path / 'sieve.c'}:6: warning: 1 innermost loop (line 6): the step is not a "
                       "constant, so the data part prices each reference a step of one element; where the step "
                       "reaches a cache line or more, every iteration moves a line and the loop may run many "
                       "times longer than priced"] if said else [])
    assert ("1 with a step that is not a constant (stride unknown: see the warnings)" in out) == said
