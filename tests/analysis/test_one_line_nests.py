"""A nest of C loops written on one line: gcov counts the line as the times control enters it from another
line plus the times each loop goes round, not the inner loops' entries (which come from the same line):
N*M + N + 1 for two loops, where their tests add up to N*M + 2N + 1 (sad.measure.profile._one_line_nests).
Before, check-counts said MISMATCH on such lines and `sad profile` took them for equations that disagree.
Cross-checked against gcov by check-counts --require-bound."""
from __future__ import annotations

from pathlib import Path

from .gcov_checked import sad_counts

NESTS = """\
#include <stdio.h>
static double a[30][40][50];
int main(void) {
    int i, j, k, n = 0;
    for (i = 0; i < 30; i++) for (j = 0; j < 40; j++) for (k = 0; k < 50; k++) a[i][j][k] = i + j + k;
    for (i = 0; i < 30; i++) for (j = 0; j < i; j++) n++;
    for (i = 0; i < 30; i++)
        for (j = 0; j < 40; j++) a[i][j][0] += n;
    printf("%g %d\\n", a[29][39][49], n);
    return 0;
}
"""


def test_a_nest_on_one_line_counts_its_entry_and_its_turns(tmp_path: Path) -> None:
    counts = sad_counts(tmp_path, "nests", NESTS)
    # 1 entry + 30 + 30*40 + 30*40*50 turns
    assert counts[5] == str(1 + 30 + 30 * 40 + 30 * 40 * 50)
    # triangular: 1 + 30 + (0 + 1 + ... + 29)
    assert counts[6] == str(1 + 30 + 29 * 30 // 2)
    # loops on lines of their own keep their tests: 31, and 30 entries + 1 200 turns
    assert (counts[7], counts[8]) == ("31", str(30 + 30 * 40))
