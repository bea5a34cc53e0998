"""Walk probe: a column walk timed on this host at the walk's own pitch and rows.

Data flow: machine layer, beside sad.machine.calibrate; asked by the prediction's data term
(sad.predict.reuse.data_seconds, ``probed_seconds``) for a walk whose pitch (a page or more) and rows are
numbers, where the machine file describes the host sad runs on (its ``cpu`` as `sad calibrate` wrote it,
``for_machine``).

Why timed and not modelled: what a column walk costs an access depends on its pitch in ways that neither the
caches' set mapping nor a TLB geometry fitted to a few pitches follows. On a Sapphire Rapids-class VM, -O2, the
best of several pinned runs, ns per access over 2 000 rows: 16 000 B apart 6.6-7.3, 16 800 B 0.95 (1 400 rows),
11 200 B 1.0 (1 400 rows); over 1 536 rows 16 000 B apart 3.7-4.0, 16 256 B 8.1-9.5, 8 128 B 8.0. The same walks
over 2 MiB pages (no page misses) still spread 0.75-4.9 ns: the caches' part is as irregular as the pages'. The
model put mvt's 16 000 B walk over 2 000 rows at 1.6 ns a source iteration (0.104 s predicted, 0.20 s
measured). The probe runs that walk: down ROWS rows PITCH bytes apart, each pass one double to the right (the
next column, as x[i] += A[j][i] * y[j] runs), over memory as the OS gives a program; its best of ``REPEATS``
pinned runs (a busy host only ever slows a run down) less the best of the same walk over ``BASE_ROWS`` rows
(the loads and adds alone) is the walk's data cost per access, lines and pages together, at least 0.

The figures are kept in $XDG_CACHE_HOME/sad/walkprobe.json by host, so that the same input gives the same
output after the first run; deleting the file times the walks again. ``SAD_WALK_PROBE=0`` switches the probe
off (the model's figures everywhere, the same on every host).
"""
from __future__ import annotations

import functools
import os
import shutil
import subprocess
import tempfile
from pathlib import Path

from sad.common import cachefiles
from sad.machine.hierarchy import pin_command, pinned_cpu

CACHE = "walkprobe.json"
REPEATS = 3
ACCESSES = 4_000_000      # per timed run: 15-40 ms at 4-10 ns an access
MAX_BYTES = 1 << 29       # walks larger than this (rows x pitch) are not timed: the model prices them
ENV = "SAD_WALK_PROBE"
PAGE = 4096
BASE_ROWS = 16            # the baseline walk: 16 lines in L1, 16 pages in the first-level TLB

SOURCE = r"""
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/mman.h>
/* walkprobe PITCH ROWS ACCESSES: ns per access of a walk down a column of ROWS rows PITCH bytes apart, each pass
   one double to the right of the last (x[i] += A[j][i] * y[j]: j, then i), over memory as the OS gives a program
   (anonymous pages, no advice) */
int main(int argc, char **argv) {
    long pitch, rows, accesses, cols, k, c, done = 0;
    size_t len;
    char *a;
    double s0 = 0, s1 = 0, t;
    struct timespec t0, t1;
    if (argc != 4) return 2;
    pitch = atol(argv[1]); rows = atol(argv[2]); accesses = atol(argv[3]);
    if (pitch < 16 || rows < 2) return 2;
    cols = pitch / 8 < 512 ? pitch / 8 : 512;
    len = (size_t)pitch * rows;
    a = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (a == MAP_FAILED) return 3;
    memset(a, 1, len);
    for (k = 0; k < rows; k++) s0 += *(double *)(a + k * pitch);
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t0);
    while (done < accesses)
        for (c = 0; c < cols; c++) {
            const char *col = a + c * 8;
            for (k = 0; k + 1 < rows; k += 2) {
                s0 += *(double *)(col + k * pitch); s1 += *(double *)(col + (k + 1) * pitch);
            }
            done += rows & ~1L;
        }
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t1);
    t = (t1.tv_sec - t0.tv_sec) * 1e9 + (t1.tv_nsec - t0.tv_nsec);
    printf("%.4f %g\n", t / done, s0 + s1);
    return 0;
}
"""


class WalkProbe:
    """The walks timed on one host, by (pitch, rows): seconds per access over the baseline walk's."""

    def __init__(self, host: str, cpu: int | None) -> None:
        self.host = host
        self._cpu = cpu
        self._exe: Path | None = None
        self._work: tempfile.TemporaryDirectory | None = None
        self.failed = ""                       # why the probe cannot run here (the first failure)
        self._known: dict | None = None        # the cache file's figures of this host, read once
        self._checked: bool | None = None      # ready()'s answer
        self._base: dict[int, float | None] = {}   # the baseline walk's ns by pitch

    def ready(self) -> bool:
        """Whether walks can be timed here: the probe builds and runs (its baseline walk once; ``failed`` says
        why not)."""
        if self._checked is None:
            self._checked = not self.failed and self._best(PAGE, BASE_ROWS, repeats=1) is not None
        return self._checked

    def extra_seconds(self, pitch: int, rows: int) -> float | None:
        """Seconds per access of the walk's lines and pages over the baseline's (None: not timed, the model
        prices it)."""
        if self.failed or pitch * rows > MAX_BYTES or rows < 2:
            return None
        key = f"{pitch},{rows}"
        if self._known is None:
            self._known = _cached(self.host)
        known = self._known.get(key)
        if not isinstance(known, (int, float)) or isinstance(known, bool):
            known = self._measure(pitch, rows)
            if known is None:
                return None
            self._known[key] = known
            _store(self.host, key, known)
        return float(known) * 1e-9

    def _measure(self, pitch: int, rows: int) -> float | None:
        """ns per access: the walk's best run less the best run of the same walk over ``BASE_ROWS`` rows (its
        lines in L1, its pages in the first-level TLB: the loads and adds alone), at least 0, to 3 decimals."""
        walk = self._best(pitch, rows)
        if pitch not in self._base:       # one baseline per pitch and process: the spread points share it
            self._base[pitch] = self._best(pitch, BASE_ROWS)
        base = self._base[pitch]
        if walk is None or base is None:
            return None
        return round(max(0.0, walk - base), 3)

    def _best(self, pitch: int, rows: int, repeats: int = REPEATS) -> float | None:
        exe = self._built()
        if exe is None:
            return None
        best = float("inf")
        accesses = ACCESSES if repeats > 1 else rows
        for _ in range(repeats):
            cmd = pin_command([str(exe), str(pitch), str(rows), str(accesses)], self._cpu)
            run = subprocess.run(cmd, capture_output=True, text=True, check=False, timeout=120)
            fields = run.stdout.split()
            if run.returncode != 0 or not fields:
                self.failed = f"the probe exited with status {run.returncode}"
                return None
            best = min(best, float(fields[0]))
        return best

    def _built(self) -> Path | None:
        if self._exe is not None:
            return self._exe
        compiler = shutil.which("gcc") or shutil.which("cc")
        if compiler is None:
            self.failed = "no C compiler (gcc or cc) on the PATH"
            return None
        self._work = tempfile.TemporaryDirectory(prefix="sad-walkprobe-")
        src, exe = Path(self._work.name) / "walkprobe.c", Path(self._work.name) / "walkprobe"
        src.write_text(SOURCE, encoding="utf-8")
        run = subprocess.run([compiler, "-O2", "-o", str(exe), str(src)], capture_output=True, text=True,
                             check=False)
        if run.returncode != 0:
            self.failed = f"the probe did not compile: {run.stderr.strip().splitlines()[-1:]}"
            return None
        self._exe = exe
        return exe


def for_machine(models: dict | None) -> WalkProbe | None:
    """The probe of this host where the machine file (its ``models`` block) was calibrated on it (the same
    ``cpu`` text) and ``SAD_WALK_PROBE`` is not 0; None elsewhere (another machine's file, a bundled one)."""
    if os.environ.get(ENV, "1").strip() == "0":
        return None
    cpu = str((models or {}).get("cpu") or "")
    if not cpu:
        return None
    from sad.machine.calibrate import cpu_info  # calibrate imports the hierarchy's measuring: on demand only
    if cpu != cpu_info()[0]:
        return None
    return _probe(cpu)


@functools.cache
def _probe(host: str) -> WalkProbe:
    """One probe per host and process: its executable is built once."""
    return WalkProbe(host, pinned_cpu())


def _cached(host: str) -> dict:
    doc = cachefiles.read_json(CACHE)
    hosts = doc if isinstance(doc, dict) else {}
    walks = hosts.get(host)
    return walks if isinstance(walks, dict) else {}


def _store(host: str, key: str, ns: float) -> None:
    """Add one walk's figure to the cache file (read again first: another process may have added others)."""
    doc = cachefiles.read_json(CACHE)
    hosts = doc if isinstance(doc, dict) else {}
    walks = hosts.get(host)
    hosts[host] = {**(walks if isinstance(walks, dict) else {}), key: ns}
    cachefiles.write_json(CACHE, hosts)
