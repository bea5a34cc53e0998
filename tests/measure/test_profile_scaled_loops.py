"""sad profile where a loop count is a floor of a logarithm of a value read at run time (a loop that doubles
or halves its variable, sad.analysis.whileloops): each such line puts the value in a range, and the profile
takes the least value common to all of them, with which every line agrees with gcov."""
from __future__ import annotations

import yaml

from sad.cli.main import main

HALVING = r"""
#include <stdio.h>
int main(void) {
    int m, n, i, t = 0;
    if (scanf("%d", &n) != 1) return 1;
    for (m = 1; m <= n; m <<= 1)
        t++;
    i = n;
    while (i >= 3) {
        i >>= 1;
        t++;
    }
    printf("%d\n", t);
    return 0;
}
"""


def test_a_value_seen_through_two_logarithms_is_the_least_both_allow(tmp_path, capsys, monkeypatch):
    """n = 777: the doubling loop runs 10 times (n in [512, 1024)), the halving loop 9 times (n in [768,
    1536)): 768 reproduces both, as an integer (floor(log(768.0/3)/log(2)) is 7 in floating point, 8 here)."""
    (tmp_path / "half.c").write_text(HALVING)
    (tmp_path / "in.txt").write_text("777\n")
    monkeypatch.chdir(tmp_path)
    assert main(["profile", "half.c", "-o", "half.yaml", "--", "./half < in.txt"]) == 0
    err = capsys.readouterr().err
    assert "1 derived, 0 not exercised, 0 undetermined; 0 line(s) disagree" in err
    assert yaml.safe_load((tmp_path / "half.yaml").read_text())["parameters"]["n"]["value"] == 768
