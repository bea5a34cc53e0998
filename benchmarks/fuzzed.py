#!/usr/bin/env python3
"""Robustness of `sad check` on random Fortran 77 routines: no file may stall.

Usage: python3 benchmarks/fuzzed.py [--count N] [--seed S] [--depth D] [-j J] [--timeout T]

Each routine (generated from its seed, so a failure can be reproduced: `--seed S --count 1`) nests DO loops and
block IFs up to `--depth` levels: DO bounds from the arguments, the enclosing index, MIN and MOD; IF tests that
are exact (on the arguments), data-dependent (on array elements) or on loop indices; RETURNs and jumps out
of loops; calls to four small routines of another file (expanded into the caller); and, in some, a GOTO
loop around the whole body. Every file compiles with `gfortran -std=legacy`. The shapes are harsher than
real code (exact tests multiply), which is the point: the build used to multiply counts out to 2**k terms,
or spend minutes in sympy.simplify, on such routines.

Prints the files, the lines, the wall time of the run, the files stopped by --timeout and the slowest file.
Target: no file over 10 s (as for benchmarks/speed.py's codebase).
"""
from __future__ import annotations

import argparse
import random
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path

SLOWEST_FILE_S = 10.0
CALLEES = "".join(f"""\
      SUBROUTINE SUB{k}(N, A)
      INTEGER N, I
      DOUBLE PRECISION A(*)
      DO 10 I = 1, N + {k}
         A(I) = 0.0D0
   10 CONTINUE
      END
""" for k in range(4))


class Routine:
    """One random routine: statements appended by `block`, labels numbered from 101."""

    def __init__(self, seed: int, depth: int) -> None:
        self.rng = random.Random(seed)
        self.seed = seed
        self.depth = depth
        self.label = 100

    def condition(self) -> str:
        rng = self.rng
        kind = rng.choice(["exact", "data", "index"])
        if kind == "exact":
            return f"{rng.choice('NMK')} .{rng.choice(['EQ', 'GT', 'LT', 'GE', 'NE'])}. {rng.randint(0, 9)}"
        if kind == "data":
            return f"A({rng.randint(1, 5)}) .{rng.choice(['GT', 'LT', 'EQ'])}. {rng.randint(0, 3)}.0D0"
        return f"I{rng.randint(1, 3)} .GT. {rng.choice(['N', 'M', 'J', '2'])}"

    def block(self, level: int, count: int, indices: list[str]) -> list[str]:
        rng, out = self.rng, []
        pad = "      " + "  " * level
        for _ in range(count):
            r = rng.random()
            if r < 0.25 and level < self.depth and len(indices) < 3:
                index = f"I{len(indices) + 1}"
                low = rng.choice(["1", "2", indices[-1] if indices else "1"])
                high = rng.choice(["N", "M", "N-1", "MIN(N, 10)", "MOD(N, 4)", indices[-1] if indices else "K"])
                self.label += 1
                label = self.label
                out.append(f"{pad}DO {label} {index} = {low}, {high}")
                out += self.block(level + 1, rng.randint(1, 4), indices + [index])
                out.append(f" {label:4d} {'  ' * level}CONTINUE")
            elif r < 0.5 and level < self.depth:
                out.append(f"{pad}IF ({self.condition()}) THEN")
                out += self.block(level + 1, rng.randint(1, 3), indices)
                if rng.random() < 0.5:
                    out.append(f"{pad}ELSE IF ({self.condition()}) THEN")
                    out += self.block(level + 1, rng.randint(1, 3), indices)
                if rng.random() < 0.5:
                    out.append(f"{pad}ELSE")
                    out += self.block(level + 1, rng.randint(1, 3), indices)
                out.append(f"{pad}END IF")
            elif r < 0.6:
                out.append(f"{pad}IF ({self.condition()}) RETURN")
            elif r < 0.65 and indices:
                out.append(f"{pad}IF ({self.condition()}) GO TO 9000")
            elif r < 0.7:
                out.append(f"{pad}CALL SUB{rng.randint(0, 3)}(N, A)")
            else:
                out.append(f"{pad}A({rng.randint(1, 5)}) = A({rng.randint(1, 5)}) + {rng.randint(1, 9)}.0D0*S")
        return out

    def text(self) -> str:
        body = self.block(0, self.rng.randint(3, 7), [])
        if self.rng.random() < 0.4:  # a GOTO loop around the whole body
            body = [" 8000 CONTINUE", *body, f"      IF ({self.condition()}) GO TO 8000"]
        head = [f"      SUBROUTINE F{self.seed}(N, M, K, A)", "      INTEGER N, M, K, I1, I2, I3, J",
                "      DOUBLE PRECISION A(*), S", "      S = 1.0D0", "      J = 3"]
        return "\n".join([*head, *body, " 9000 CONTINUE", "      END"]) + "\n"


def generate(directory: Path, seed: int, count: int, depth: int) -> int:
    """Write `count` routines (seeds seed, seed + 1, ...) and their callees' file; the number of lines."""
    (directory / "callees.f").write_text(CALLEES)
    lines = CALLEES.count("\n")
    for s in range(seed, seed + count):
        text = Routine(s, depth).text()
        (directory / f"f{s}.f").write_text(text)
        lines += text.count("\n")
    return lines


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--count", type=int, default=40, help="routines to generate (default 40)")
    ap.add_argument("--seed", type=int, default=1000, help="seed of the first routine (default 1000)")
    ap.add_argument("--depth", type=int, default=3, help="deepest nesting of DO and IF blocks (default 3)")
    ap.add_argument("-j", "--jobs", type=int, default=2, help="sad check's workers (default 2)")
    ap.add_argument("--timeout", type=float, default=30.0, help="sad check's per-file limit, s (default 30)")
    args = ap.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="sad-fuzzed-") as tmp:
        lines = generate(Path(tmp), args.seed, args.count, args.depth)
        command = [sys.executable, "-m", "sad", "check", tmp, "--no-cache", "--no-progress", "-j", str(args.jobs),
                   "--timeout", str(args.timeout), "--format", "json", "-o", str(Path(tmp) / "out.json")]
        start = time.perf_counter()
        proc = subprocess.run(command, capture_output=True, text=True)
        seconds = time.perf_counter() - start
    stopped = sorted(set(re.findall(r"(\S+\.f):\d+: error: analysis stopped", proc.stderr)))
    internal = sorted(set(re.findall(r"(\S+\.f):\d+: error: internal error", proc.stderr)))
    slowest = re.search(r"slowest file (\S+) \(([\d.]+) s\)", proc.stderr)
    worst = float(slowest.group(2)) if slowest else 0.0
    print(f"{args.count} routines (seeds {args.seed}-{args.seed + args.count - 1}, depth {args.depth}), {lines} lines: "
          f"{seconds:.1f} s with -j {args.jobs}")
    print(f"stopped by --timeout {args.timeout:g} s: {len(stopped)} {[Path(p).name for p in stopped]}")
    print(f"internal errors: {len(internal)} {[Path(p).name for p in internal]}")
    print(f"slowest file: {Path(slowest.group(1)).name if slowest else '-'} ({worst:.2f} s), target < "
          f"{SLOWEST_FILE_S:.0f} s: {'ok' if worst < SLOWEST_FILE_S and not stopped else 'MISSED'}")
    return 0 if proc.returncode in (0, 1) else proc.returncode


if __name__ == "__main__":
    sys.exit(main())
