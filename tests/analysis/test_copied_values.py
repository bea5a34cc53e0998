"""A copy of a run-time value taken before the value changes is not the value: Livermore loop 2's (ICCG's)
`IPNT = IPNTP` then `IPNTP = IPNTP + II` before `for (k = IPNT + 1; k < IPNTP; k += 2)` made both bounds the
one symbol IPNTP, and the loop ran 0 times where it runs II/2 (a wrong count, with no word). The loop's count is
now a named parameter, which a profile binds exactly."""
from __future__ import annotations

from sad.analysis.pipeline import analyze
from sad.cli.main import main

COPY = r"""
#include <stdio.h>
int main(void) {
    int k, m, ii = 16, ipnt, ipntp = 0;
    double s = 0.0;
    for (m = 0; m < 3; m++) {
        ipnt = ipntp;
        ipntp += ii;
        for (k = ipnt + 1; k < ipntp; k += 2)
            s += k;
    }
    printf("%g\n", s);
    return 0;
}
"""


def test_a_copy_older_than_the_value_leaves_the_loop_count_named(tmp_path):
    path = tmp_path / "copy.c"
    path.write_text(COPY)
    analysis = analyze([str(path)])
    (count,) = [c for ev, c in analysis.counts.items() if ev.loc.line == 10 and ev.role == "stmt"]
    assert count != 0 and {s.name for s in count.free_symbols} == {"X_main_DO2"}


def test_the_named_count_profiles_to_gcov_s(tmp_path, capsys, monkeypatch):
    """8 inner trips per pass (k = 16m+1, 16m+3, .., 16m+15), 24 in all: profiled, read back, equal to gcov."""
    (tmp_path / "copy.c").write_text(COPY)
    monkeypatch.chdir(tmp_path)
    assert main(["profile", "copy.c", "-o", "copy.yaml", "--", "./copy"]) == 0
    assert main(["check-counts", "copy.c", "--params", "copy.yaml", "--require-bound", "--", "./copy"]) == 0
    out = capsys.readouterr().out
    assert [line.split()[1:3] for line in out.splitlines() if line.startswith("copy.c:10 ")] == [["24", "24"]]


BLOCKS = r"""
int blocks(int n, int nsplit, int *isplit) {
    int j, jb, ioff, ibegin, iend = 0, save, t = 0;
    for (jb = 0; jb < nsplit; jb++) {
        ioff = iend;
        ibegin = ioff + 1;
        iend = isplit[jb];
        for (j = ibegin; j < iend; j++)
            t++;
    }
    save = iend;
    iend = iend + n;
    for (j = save; j < n; j++)
        t += 2;
    return t + iend;
}
"""


def test_only_a_use_that_also_reads_the_value_is_left_named(tmp_path):
    """DSTEBZ's (and DLARRD's) block loop: `IOFF = IEND`, `IBEGIN = IOFF + 1`, `IEND = ISPLIT(JB)` before
    `DO 40 J = IBEGIN, IEND - 1`, which counted 0 where each block of k rows runs k - 1 times: a named count
    now. A loop that reads only the copy (DLARRJ's `SAVI1 = I1` ... `DO 110 I = SAVI1, ILAST`) keeps the run-time
    value: the copy's symbol stands for the value when it was copied, and nothing else reads it there."""
    path = tmp_path / "blocks.c"
    path.write_text(BLOCKS)
    counts = {ev.loc.line: c for ev, c in analyze([str(path)]).counts.items() if ev.role == "stmt"}
    assert {s.name for s in counts[9].free_symbols} == {"X_blocks_DO2", "blocks.nsplit"}
    assert {s.name for s in counts[14].free_symbols} == {"blocks.iend", "blocks.n"}
