"""sad profile where two lines share their unknowns: the sieve of Eratosthenes runs its inner loop only for
primes, so the `for` line counts P W (T + 1) and its body P W T (W the outer while loop's trips, P the primes'
share, T the inner loop's mean trips). Neither line has a single unknown and neither pair differs by one, but
their ratio leaves T alone; P then follows. Both used to stay undetermined ("no equation pins it down")."""
from __future__ import annotations

import shutil

import pytest
import yaml

from sad.cli.main import main

SIEVE = """#include <stdio.h>
#define N 10000
static char composite[N + 1];
int main(void) {
    long i, j, count = 0;
    for (i = 2; i * i <= N; i++)
        if (!composite[i])
            for (j = i * i; j <= N; j += i)
                composite[j] = 1;
    for (i = 2; i <= N; i++)
        if (!composite[i])
            count++;
    printf("%ld\\n", count);
    return 0;
}
"""


@pytest.mark.skipif(shutil.which("gcov") is None, reason="needs gcc, gcov")
def test_the_sieves_inner_loop_and_its_test_are_derived(tmp_path, capsys):
    source = tmp_path / "sieve.c"
    source.write_text(SIEVE)
    out = tmp_path / "sieve.yaml"
    assert main(["profile", str(source), "-o", str(out), "--", "./sieve"]) == 0, capsys.readouterr().err
    params = yaml.safe_load(out.read_text())["parameters"]
    primes = [p for p in range(2, 101) if all(p % d for d in range(2, p))]
    inner = sum((10000 - p * p) // p + 1 for p in primes)   # j = p*p, p*p + p, ... <= N
    values = {name: entry["value"] for name, entry in params.items()}
    assert values["X_main_WHILE1"] == 99                      # i = 2 .. 100
    assert values["P_main_IF1"] == pytest.approx(len(primes) / 99)
    assert values["X_main_DO1"] == pytest.approx(inner / len(primes))
    assert values["P_main_IF2"] == pytest.approx(1229 / 9999)  # the primes up to 10 000 among i = 2 .. N
    assert main(["check-counts", str(source), "--params", str(out), "--require-bound", "--", "./sieve"]) == 0
