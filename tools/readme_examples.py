"""The README's example outputs, generated: every fenced block announced by a marker is the real output of
the `sad` command it shows, run in this process from the repository root.

A marker is an HTML comment on the line before the fence (invisible on GitHub):

    <!-- example: head=12 tail=5 -->
    ```
    $ sad analyze corpus/kernels/triangular.f --machine sparc2 -D N=1000
    ... (replaced by the output)
    ```

The command is the block's first line (after `$ `; a line ending in `\\` continues it). Options (shell
words): `from='TEXT'` starts the output at the first line containing TEXT (after a `...` line); `head=N`
and `tail=N` keep the first and last lines of the output with a `...` line between them; `stderr` shows
the diagnostics too; `exit` appends `$ echo $?` and the exit status; `workdir=DIR` runs the command in a
temporary copy of DIR (a folder of the repository) instead of the root, one copy per generation shared by
all blocks naming that DIR, in README order, so that an example may use the files an earlier one wrote
(`--save-baseline`, then `--baseline`) and the repository is never written to. Anyone adding a README section
marks their blocks the same way.

    python3 tools/readme_examples.py            # rewrite README.md in place
    python3 tools/readme_examples.py --check    # exit 1 and show a diff when README.md is not current

tests/test_readme_examples.py runs --check, so the README cannot drift from what the tool prints.
"""
from __future__ import annotations

import contextlib
import difflib
import io
import os
import re
import shlex
import shutil
import sys
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
README = ROOT / "README.md"
MARKER = re.compile(r"^<!-- example:(?P<options>[^>]*)-->\s*$")


@dataclass
class Example:
    """A marked README block: where it is, the command it shows and its options."""
    start: int  # index of the fence line that opens the block
    end: int  # index of the closing fence
    command: list[str]  # the command lines as written (with continuation backslashes)
    options: dict[str, str]

    @property
    def argv(self) -> list[str]:
        """The command's arguments after `sad`."""
        text = " ".join(line.rstrip("\\").strip() for line in self.command)
        words = shlex.split(text.removeprefix("$").strip())
        if not words or words[0] != "sad":
            raise ValueError(f"README example does not start with `$ sad`: {text}")
        return words[1:]


def _options(text: str) -> dict[str, str]:
    out = {}
    for word in shlex.split(text):
        name, _, value = word.partition("=")
        out[name] = value
    return out


def find_examples(lines: list[str]) -> list[Example]:
    """Every marked block of the README, in order."""
    found = []
    for k, line in enumerate(lines):
        m = MARKER.match(line)
        if not m:
            continue
        start = k + 1
        if start >= len(lines) or not lines[start].startswith("```"):
            raise ValueError(f"README.md:{k + 1}: an example marker must be followed by a ``` block")
        end = next(j for j in range(start + 1, len(lines)) if lines[j].startswith("```"))
        command = [lines[start + 1]]
        j = start + 1
        while command[-1].endswith("\\") and j + 1 < end:
            j += 1
            command.append(lines[j])
        found.append(Example(start, end, command, _options(m.group("options"))))
    return found


def run_sad(argv: list[str], cwd: Path = ROOT) -> tuple[int, str, str]:
    """`sad argv` in this process, from cwd (the repository root by default): exit status, stdout, stderr."""
    from sad.cli.main import run
    out, err = io.StringIO(), io.StringIO()
    with contextlib.chdir(cwd):
        code = run(argv, out, err)
    return code, out.getvalue(), err.getvalue()


@dataclass
class Workdirs:
    """Temporary copies of repository folders for `workdir=` examples, each made on first use."""
    root: Path
    copies: dict[str, Path] = field(default_factory=dict)

    def get(self, folder: str) -> Path:
        """The copy of the repository folder `folder` under root."""
        if folder not in self.copies:
            self.copies[folder] = Path(shutil.copytree(ROOT / folder, self.root / folder))
        return self.copies[folder]


def render(example: Example, workdirs: Workdirs | None = None) -> list[str]:
    """The block's new lines: the command as written, then its (trimmed) output."""
    cwd = ROOT
    folder = example.options.get("workdir")
    if folder:
        if workdirs is None:
            raise ValueError(f"README example `{' '.join(example.command)}`: workdir= needs generate()")
        cwd = workdirs.get(folder)
    code, out, err = run_sad(example.argv, cwd)
    text = (err + out) if "stderr" in example.options else out
    body = text.rstrip("\n").splitlines()
    start = example.options.get("from")
    if start:
        k = next((i for i, line in enumerate(body) if start in line), None)
        if k is None:
            raise ValueError(f"README example `{' '.join(example.command)}`: no output line contains {start!r}")
        prefix, body = (["..."] if k else []), body[k:]
    else:
        prefix = []
    head = int(example.options.get("head") or 0)
    tail = int(example.options.get("tail") or 0)
    if (head or tail) and head + tail < len(body):
        body = body[:head] + ["..."] + (body[-tail:] if tail else [])
    body = prefix + body
    body = [line.rstrip() for line in body]
    if "exit" in example.options:
        body += ["$ echo $?", str(code)]
    return example.command + body


@contextlib.contextmanager
def _fresh_cache(path: Path) -> Iterator[None]:
    """$XDG_CACHE_HOME pointed at an empty directory: the examples show what a first run on a fresh machine
    prints, never results kept by an earlier run of this user."""
    saved = os.environ.get("XDG_CACHE_HOME")
    os.environ["XDG_CACHE_HOME"] = str(path)
    try:
        yield
    finally:
        if saved is None:
            del os.environ["XDG_CACHE_HOME"]
        else:
            os.environ["XDG_CACHE_HOME"] = saved


def generate(text: str) -> str:
    """The README with every marked block replaced by the current output."""
    lines = text.split("\n")
    examples = find_examples(lines)
    with tempfile.TemporaryDirectory(prefix="sad-readme-") as tmp, _fresh_cache(Path(tmp) / "cache"):
        # run in README order (later blocks may read what earlier ones wrote), replace from the end
        workdirs = Workdirs(Path(tmp))
        rendered = [render(example, workdirs) for example in examples]
    for example, new in zip(reversed(examples), reversed(rendered)):
        lines[example.start + 1:example.end] = new
    return "\n".join(lines)


def main(argv: list[str]) -> int:
    """Rewrite README.md's examples, or with --check report (exit 1, a diff) when they are stale."""
    check = argv == ["--check"]
    if argv not in ([], ["--check"]):
        print(__doc__, file=sys.stderr)
        return 2
    sys.path.insert(0, str(ROOT))
    current = README.read_text(encoding="utf-8")
    new = generate(current)
    if check:
        if new == current:
            return 0
        sys.stdout.writelines(difflib.unified_diff(current.splitlines(True), new.splitlines(True),
                                                   "README.md", "README.md (generated)"))
        return 1
    if new != current:
        README.write_text(new, encoding="utf-8")
        print("README.md: examples regenerated", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
