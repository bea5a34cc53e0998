"""`--quiet` and `--verbose`, the same on every command (`sad analyze --quiet ...`, `sad --quiet analyze ...`).

Data flow: the parsed Namespace's `quiet` / `verbose` → `applied(args)` around the command's run function
(sad.cli.main.run). Commands print their findings in compiler form (`file:line: severity: message`) and their
progress as plain lines and bars, all on stderr; the two options act on that one stream, so every command
(and any later one) obeys them without code of its own:

- `--quiet`: stderr keeps only errors and warnings (lines with `error:` or `warning:`); notes, progress
  lines and progress bars are dropped. The report on stdout is unchanged.
- `--verbose`: notes that a command leaves out by default (`sad profile`'s) are shown, and the command's
  wall time is printed at the end.
"""
from __future__ import annotations

import argparse
import contextlib
import io
import re
import sys
import time
from collections.abc import Iterator

_KEPT = re.compile(r"(^|\s|:)(error|warning|fatal error):")
GLOBAL = ("--quiet", "--verbose")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Add --quiet and --verbose to a command's parser (one group, the two exclusive)."""
    group = parser.add_argument_group("output").add_mutually_exclusive_group()
    group.add_argument("--quiet", action="store_true",
                       help="print only errors and warnings on stderr (no notes, progress lines or bars)")
    group.add_argument("--verbose", action="store_true",
                       help="also the notes a command leaves out by default, and the command's wall time")


def level(args: argparse.Namespace | None = None) -> int:
    """-1 quiet, 0 normal, 1 verbose: of `args`, or of the command running now."""
    if args is None:
        return _current
    return -1 if getattr(args, "quiet", False) else 1 if getattr(args, "verbose", False) else 0


_current = 0


class _ErrorsAndWarnings(io.TextIOBase):
    """A text stream that passes on the complete lines naming an error or a warning, and drops the rest
    (progress bars end their updates with `\\r`: a piece of a line ending in one is dropped)."""

    def __init__(self, target) -> None:
        self.target = target
        self.pending = ""

    def writable(self) -> bool:
        return True

    def write(self, text: str) -> int:
        self.pending += text
        *lines, self.pending = re.split(r"(?<=\n)", self.pending)
        if "\r" in self.pending:
            self.pending = self.pending.rsplit("\r", 1)[1]
        for line in lines:
            if _KEPT.search(line):
                self.target.write(line)
        return len(text)

    def flush(self) -> None:
        if self.pending and _KEPT.search(self.pending):
            self.target.write(self.pending)
        self.pending = ""
        self.target.flush()

    def isatty(self) -> bool:
        return False  # progress bars (tqdm's disable=None) stay off


@contextlib.contextmanager
def applied(args: argparse.Namespace) -> Iterator[None]:
    """Run the command under its --quiet / --verbose."""
    global _current
    before, _current = _current, level(args)
    start = time.perf_counter()
    try:
        if _current < 0:
            stream = _ErrorsAndWarnings(sys.stderr)
            with contextlib.redirect_stderr(stream):
                try:
                    yield
                finally:
                    stream.flush()
        else:
            yield
            if _current > 0:
                name = " ".join(["sad", *([args.subcommand] if getattr(args, "subcommand", None) else [])])
                print(f"{name}: {time.perf_counter() - start:.2f} s", file=sys.stderr)
    finally:
        _current = before


def split_global(argv: list[str]) -> tuple[list[str], list[str]]:
    """`sad --quiet analyze ...`: the global options written before the command, moved after it."""
    lead = []
    k = 0
    while k < len(argv) and argv[k] in GLOBAL:
        lead.append(argv[k])
        k += 1
    return lead, argv[k:]
