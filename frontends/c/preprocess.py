"""Step 1 of the C frontend: run the system `cpp` on the user's file against sad's own headers.

Data flow: `load` (package __init__) → `preprocess(path, include_dirs, defines)` → preprocessed text with
`# N "file"` line markers (which pycparser follows, so every AST coord is already the user's original file and
line) or error Diagnostics in the user's coordinates (a missing header is reported at the #include line, with
the header's name and the directories searched).

Real system headers are never read: `-nostdinc`, then the user's -I directories, then frontends/c/include
(declarations written for sad). The prelude `_sad_prelude.h` is read with -imacros to define away compiler
extensions (__attribute__, __restrict, inline, asm, ...).
"""
from __future__ import annotations

import os
import re
import shlex
import shutil
import subprocess
from dataclasses import dataclass, field

from sad.ir import Diagnostic, Loc

from .verbatim import verbatim

INCLUDE_DIR = os.path.join(os.path.dirname(os.path.abspath(__file__)), "include")
PRELUDE = os.path.join(INCLUDE_DIR, "_sad_prelude.h")

_CPP_DIAG = re.compile(r"^(?P<file>.+?):(?P<line>\d+):(?:(?P<col>\d+):)?\s*(?:fatal\s+)?(?P<sev>error|warning)"
                       r":\s*(?P<msg>.*)$")
_MISSING = re.compile(r"^(?P<header>.+?): No such file or directory$")
_MARKER = re.compile(r'^#\s*(?:line\s+)?(\d+)\s+"((?:[^"\\]|\\.)*)"')


@dataclass
class Preprocessed:
    """cpp's output for one file, with the diagnostics it gave and the user's files it read."""
    text: str = ""
    diagnostics: list[Diagnostic] = field(default_factory=list)
    files: list[str] = field(default_factory=list)  # the user's files that were read (not sad's headers)
    ok: bool = True


def cpp_command(path: str, include_dirs: list[str], defines: dict[str, str]) -> list[str]:
    """The cpp command line: shipped headers only, the user's -I directories and -D macros."""
    cpp = shutil.which("cpp") or "cpp"
    cmd = [cpp, "-nostdinc", "-imacros", PRELUDE]
    for d in include_dirs:
        cmd += ["-I", d]
    cmd += ["-I", INCLUDE_DIR]
    for name, value in defines.items():
        cmd.append(f"-D{name}" if value is None or value == "" else f"-D{name}={value}")
    cmd.append(path)
    return cmd


def direct_command(cmd: list[str]) -> list[str]:
    """The preprocessor proper (gcc's cc1 -E) as the `cpp` driver would run it for cmd (whose last item is
    the file), so that a C file costs one process instead of two: about 7 ms of CPU instead of 9.5 per file.
    The driver is asked once per set of options with `-###`, which prints its commands without running them;
    cmd itself when that cannot be read (another compiler's cpp)."""
    *options, path = cmd
    key = (tuple(options), os.path.splitext(path)[1])
    if key not in _TEMPLATES:
        _TEMPLATES[key] = _template(key[0], path)
    template = _TEMPLATES[key]
    if template is None:
        return cmd
    args, slots = template
    values = {"path": path, "base": os.path.basename(path), "ext": os.path.splitext(path)[1]}
    return [values[slots[i]] if i in slots else arg for i, arg in enumerate(args)]


_TEMPLATES: dict[tuple[tuple[str, ...], str], tuple[list[str], dict[int, str]] | None] = {}


def _template(options: tuple[str, ...], path: str) -> tuple[list[str], dict[int, str]] | None:
    """The driver's command for `options + [path]` with the places of the file's path, base name and
    extension: the first file met stands for every file with the same options and extension."""
    try:
        shown = subprocess.run([*options, "-###", path], capture_output=True, text=True, timeout=60)
    except (OSError, subprocess.SubprocessError):
        return None
    commands = [shlex.split(line) for line in shown.stderr.splitlines() if line.startswith(" ")]
    if shown.returncode != 0 or len(commands) != 1 or not os.path.basename(commands[0][0]).startswith("cc1"):
        return None
    args = commands[0]
    slots = {i: "path" for i, arg in enumerate(args) if arg == path}
    for flag, slot in (("-dumpbase", "base"), ("-dumpbase-ext", "ext")):
        if flag in args[:-1]:
            slots[args.index(flag) + 1] = slot
    if list(slots.values()).count("path") != 1 or "-E" not in args:
        return None
    return args, slots


def is_sad_header(filename: str) -> bool:
    """True for sad's own headers (and cpp's pseudo-files): their declarations are not user code."""
    if filename.startswith("<"):
        return True
    try:
        return os.path.abspath(filename).startswith(INCLUDE_DIR + os.sep)
    except (OSError, ValueError):
        return False


def user_files(text: str, main: str) -> list[str]:
    """The user's files named by line markers, main file first, in order of first appearance."""
    seen = [main]
    for line in text.splitlines():
        if not line.startswith("#"):
            continue
        m = _MARKER.match(line)
        if m:
            name = unescape(m.group(2))
            if name not in seen and not is_sad_header(name):
                seen.append(name)
    return seen


def marker_file(line: str) -> str | None:
    """The file a cpp line marker (`# N "file" flags`) switches to, None for any other line."""
    m = _MARKER.match(line)
    return unescape(m.group(2)) if m else None


def unescape(name: str) -> str:
    """A file name from a #line marker with its backslash escapes removed."""
    return re.sub(r"\\(.)", r"\1", name)


def preprocess(path: str, include_dirs: list[str], defines: dict[str, str]) -> Preprocessed:
    """Run cpp on a C file: the text, the line map back to the user's files and diagnostics."""
    out = Preprocessed()
    if not os.path.isfile(path):
        out.ok = False
        out.diagnostics.append(Diagnostic(Loc(path, 1), "error", "cannot read file: no such file"))
        return out
    cmd = cpp_command(path, include_dirs, defines)
    text = verbatim(path, cmd[:-1])
    if text is not None:  # cpp would only strip its comments: not run (frontends.c.verbatim)
        out.text, out.files = text, [path]
        return out
    try:
        proc = subprocess.run(direct_command(cmd), capture_output=True, text=True, errors="replace", timeout=120)
    except (OSError, subprocess.SubprocessError) as exc:
        out.ok = False
        out.diagnostics.append(Diagnostic(Loc(path, 1), "error", f"cannot run the C preprocessor: {exc}"))
        return out
    searched = list(include_dirs) + [INCLUDE_DIR]
    for line in proc.stderr.splitlines():
        m = _CPP_DIAG.match(line.strip())
        if not m:
            continue
        msg = m.group("msg").strip()
        missing = _MISSING.match(msg)
        if missing:
            header = missing.group("header")
            dirs = ", ".join(d for d in searched if d != INCLUDE_DIR)
            msg = (f"header '{header}' not found (searched the including file's directory, "
                   + (f"-I {dirs}, " if dirs else "") + "and the C headers shipped with sad); if it is one of "
                   "your program's headers, add its directory with -I DIR")
        sev = m.group("sev")
        out.diagnostics.append(Diagnostic(Loc(m.group("file"), int(m.group("line"))), sev, msg))
    if proc.returncode != 0:
        out.ok = False
        if not any(d.severity == "error" for d in out.diagnostics):
            tail = proc.stderr.strip().splitlines()[-1:] or ["unknown failure"]
            out.diagnostics.append(Diagnostic(Loc(path, 1), "error", f"preprocessing failed: {tail[0]}"))
        return out
    out.text = proc.stdout
    out.files = user_files(out.text, path)
    return out
