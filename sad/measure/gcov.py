"""Measured line counts: build a program with coverage, run it, and read gcov's per-line counts.

Data flow: the user's source files → a private build directory (copies of the sources, gfortran/gcc
`--coverage -O0`, one executable) → a COMMAND run with its paths made to work → `gcov -b --json-format` →
{(source path as the user gave it, line): count} and, for lines with one two-way branch, how often its
condition held (the count of a one-line `IF (C) S` is the condition's, not S's: only the branch counts say
how often S ran). sad.measure.profile compares or solves these against the SAD's
line counts; nothing here knows about the SAD.

The user's tree is never written to: sources are copied, objects and .gcda files stay in the build
directory, and the command runs there (relative paths in it that name existing files of the user's working
directory are made absolute first). An MPI program (it includes mpi.h or mpif.h) is built with mpicc/mpif77
and `./STEM` is a wrapper that points GCOV_PREFIX at rank<r>/ for each rank, so that the counts of every
rank are read apart (`Run.by_rank`); a PVM program is linked with PVM's libraries.
"""
from __future__ import annotations

import gzip
import json
import os
import re
import shlex
import shutil
import subprocess
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

from sad import ir
from sad.ir.languages import FREE_FORM_SUFFIXES

FORTRAN_SUFFIXES = {".f", ".for", ".f77", ".F", ".fpp", ".FOR", ".F77"} | FREE_FORM_SUFFIXES
_MODULE = re.compile(r"^[ \t]*MODULE[ \t]+(?!PROCEDURE\b)([A-Z]\w*)", re.IGNORECASE | re.MULTILINE)
_USE = re.compile(r"^[ \t]*USE\b(?:[ \t]*,[ \t]*NON_INTRINSIC)?[ \t]*(?:::)?[ \t]*([A-Z]\w*)",
                  re.IGNORECASE | re.MULTILINE)
C_SUFFIXES = {".c"}
_OPERATORS = set("<>|&;()")


class ToolError(RuntimeError):
    """The build, the run or gcov failed; the message says which step and shows the tool's output."""


@dataclass
class Build:
    """A program built with --coverage: its directory, executable, sources and compilers."""
    directory: Path
    executable: Path
    sources: dict[str, str]  # basename in the build directory → path as the user gave it
    compilers: list[str] = field(default_factory=list)  # version lines of the compilers used
    ranked: bool = False  # an MPI program: ./STEM is a wrapper writing each rank's counts to rank<r>/


@dataclass
class Run:
    """One coverage run: the command as given, its per-line counts (per rank for MPI), its output."""
    command: str  # as given, before its paths were made absolute: what a params file's provenance records
    counts: dict[tuple[str, int], int]  # an MPI program: rank 0's
    stdout: str
    gcov_version: str
    by_rank: dict[int, dict[tuple[str, int], int]] = field(default_factory=dict)  # MPI: every rank's counts
    branches: dict[tuple[str, int], tuple[int, int]] = field(default_factory=dict)  # see read_gcov
    argc: int | None = None  # the program's argument count (its name included), when the command tells it


_MPI_USE = re.compile(r"^\s*(#\s*include\s*[<\"]mpi\.h[>\"]|include\s*['\"]mpif\.h['\"])", re.I | re.M)
_PVM_USE = re.compile(r"^\s*(#\s*include\s*[<\"]pvm3\.h[>\"]|include\s*['\"]fpvm3\.h['\"])", re.I | re.M)


def message_library(files: list[str]) -> str | None:
    """'mpi' when a source includes mpi.h / mpif.h (built with mpicc / mpif77, run under mpirun with a
    rank's counts apart), 'pvm' for pvm3.h / fpvm3.h (linked with libfpvm3, libgpvm3, libpvm3), else None."""
    texts = [Path(f).read_text(errors="replace") for f in files if Path(f).is_file()]
    if any(_MPI_USE.search(t) for t in texts):
        return "mpi"
    if any(_PVM_USE.search(t) for t in texts):
        return "pvm"
    return None


_RANK_WRAPPER = """#!/bin/sh
# sad: one directory of coverage data per MPI rank (Open MPI, MPICH/PMI, PMIx name the rank)
r=${{OMPI_COMM_WORLD_RANK:-${{PMI_RANK:-${{PMIX_RANK:-0}}}}}}
GCOV_PREFIX={directory}/rank$r GCOV_PREFIX_STRIP={strip} exec {binary} "$@"
"""


def _first_line(cmd: list[str]) -> str:
    try:
        out = subprocess.run(cmd, capture_output=True, text=True, timeout=30).stdout
    except (OSError, subprocess.SubprocessError):
        return f"{cmd[0]} (version unknown)"
    return out.splitlines()[0].strip() if out else f"{cmd[0]} (version unknown)"


def _require(tool: str) -> str:
    path = shutil.which(tool)
    if path is None:
        raise ToolError(f"{tool} not found on PATH (needed to build with coverage)")
    return path


def build(files: list[str], include_dirs: list[str], defines: dict[str, str],
          workdir: Path | None = None) -> Build:
    """Copy the sources, compile each with --coverage -O0, link. Raises ToolError on any failure; a build
    directory made here is removed then (the caller only cleans up a build it was given)."""
    if workdir is not None:
        return _build_in(Path(workdir), files, include_dirs, defines)
    directory = Path(tempfile.mkdtemp(prefix="sad-profile-"))
    try:
        return _build_in(directory, files, include_dirs, defines)
    except BaseException:
        shutil.rmtree(directory, ignore_errors=True)
        raise


def _build_in(directory: Path, files: list[str], include_dirs: list[str], defines: dict[str, str]) -> Build:
    directory.mkdir(parents=True, exist_ok=True)
    sources: dict[str, str] = {}
    langs: set[str] = set()
    for path in files:
        src = Path(path)
        if not src.is_file():
            raise ToolError(f"{path}: no such source file")
        if src.suffix in FORTRAN_SUFFIXES:
            langs.add("fortran")
        elif src.suffix in C_SUFFIXES:
            langs.add("c")
        else:
            raise ToolError(f"{path}: unknown source suffix (expected .f .for .f77 .F .fpp .f90 .F90 or .c)")
        if src.name in sources:
            raise ToolError(f"{path}: two sources named {src.name}; rename one to profile them together")
        shutil.copyfile(src, directory / src.name)
        sources[src.name] = path
    # the original directories come first so that INCLUDE / #include find what they found before
    incs = [f"-I{Path(p).resolve()}" for p in include_dirs]
    incs += sorted({f"-I{Path(p).resolve().parent}" for p in files})
    # -D reaches the compiler exactly as it reaches sad's own preprocessing (sad.analysis.pipeline): as a
    # macro where it is no variable of the program, so `-D LARGE_DATASET` profiles the size analyzed and
    # `-D n=100` for a value read by scanf leaves the program's `n` alone
    from sad.analysis.pipeline import preprocessor_defines
    library = message_library(files)
    cc, fc = ("mpicc", "mpif77") if library == "mpi" else ("gcc", "gfortran")
    objects = []
    for name in compile_order(list(sources), directory):
        original = sources[name]
        suffix = Path(name).suffix
        macros = [f"-D{k}={v}" for k, v in sorted(preprocessor_defines(original, defines).items())]
        if suffix in C_SUFFIXES:
            cmd = [_require(cc), "-std=gnu99", "-w", *macros]
        else:
            cmd = [_require(fc), "-std=legacy", "-w", *macros]
        obj = Path(name).stem + ".o"
        cmd += ["-O0", "--coverage", *incs, "-c", name, "-o", obj]
        _run_tool(cmd, directory, f"{original}: does not compile")
        objects.append(obj)
    exe = directory / Path(files[0]).stem
    linker = _require(fc) if "fortran" in langs else _require(cc)
    libs = ["-lfpvm3", "-lgpvm3", "-lpvm3"] if library == "pvm" else []
    binary = exe.with_name(exe.name + ".bin") if library == "mpi" else exe
    _run_tool([linker, "--coverage", "-o", binary.name, *objects, *libs, "-lm"], directory, "linking failed")
    if library == "mpi":
        strip = len(directory.resolve().parts) - 1
        exe.write_text(_RANK_WRAPPER.format(directory=shlex.quote(str(directory.resolve())), strip=strip,
                                            binary=shlex.quote(str(binary.resolve()))))
        exe.chmod(0o755)
    compilers = [_first_line([_require(t), "--version"]) for t in
                 ([fc] if "fortran" in langs else []) + ([cc] if "c" in langs else [])]
    return Build(directory, exe, sources, compilers, ranked=library == "mpi")


def compile_order(names: list[str], directory: Path) -> list[str]:
    """The sources in the order to compile them: free-form files that define a Fortran 90 MODULE first, each
    after the module files it USEs (the compiler writes a module's .mod file, which the files that USE it
    read: LAPACK's la_xisnan.F90 uses la_constants.f90), the others as given."""
    texts = {n: (directory / n).read_text(errors="replace") for n in names if Path(n).suffix in FREE_FORM_SUFFIXES}
    defines = {n: {m.upper() for m in _MODULE.findall(t)} for n, t in texts.items()}
    uses = {n: {m.upper() for m in _USE.findall(t)} for n, t in texts.items()}
    modules = [n for n in names if defines.get(n)]
    ordered: list[str] = []
    while modules:  # a module file whose used modules are compiled (or defined elsewhere) goes next
        pending = set().union(*(defines[n] for n in modules))
        ready = next((n for n in modules if not (uses[n] - defines[n]) & pending), modules[0])
        ordered.append(ready)
        modules.remove(ready)
    return ordered + [n for n in names if n not in ordered]


def _run_tool(cmd: list[str], cwd: Path, what: str) -> None:
    proc = subprocess.run(cmd, cwd=cwd, capture_output=True, text=True)
    if proc.returncode != 0:
        output = (proc.stderr or proc.stdout).strip()
        raise ToolError(f"{what} ({' '.join(cmd)}):\n{_tail(output)}")


def _tail(text: str, lines: int = 20) -> str:
    parts = text.splitlines()
    return "\n".join(parts[-lines:]) if parts else "(no output)"


def _shell_words(command: str) -> list[str]:
    """The words of a shell command as sh splits them, operators (<, >, |, ...) words of their own; raises
    ValueError on an unclosed quote."""
    lexer = shlex.shlex(command, posix=True, punctuation_chars=True)
    lexer.whitespace_split = True
    return list(lexer)


def rewrite_command(command: str, user_cwd: Path, executable: str) -> str:
    """Make a command written for the user's working directory run in the build directory: every word
    that names an existing file or directory relative to user_cwd becomes absolute, except the program
    itself (`./md1` must start the instrumented copy, not a binary of the same name in the user's tree).
    Shell operators (<, >, |) stay operators."""
    words = []
    for word in _shell_words(command):
        if word and set(word) <= _OPERATORS:
            words.append(word)
            continue
        is_program = word in (executable, f"./{executable}")
        if word and not is_program and not word.startswith(("/", "-")) and (user_cwd / word).exists():
            word = str((user_cwd / word).resolve())
        words.append(shlex.quote(word))
    return " ".join(words)


_REDIRECTS = {"<", ">", ">>", "<>", ">&", "<&", ">|"}
_EXPANDED = set("$`*?[~{")  # a word the shell may turn into several words, or none


def argument_count(command: str, executable: str) -> int | None:
    """C's argc of the program that COMMAND starts: its own name plus the words after it up to a pipe or
    a list operator, redirections and their targets left out. None where the shell decides it (the
    program named more than once or not at all, a word with $, `, a glob or a brace); the command is
    never run for this."""
    try:
        words = _shell_words(command)
    except ValueError:  # an unclosed quote: the shell would refuse it too
        return None
    starts = [i for i, w in enumerate(words) if w in (executable, f"./{executable}", "{exe}")]
    if len(starts) != 1:
        return None
    after = words[starts[0] + 1:]
    count, i = 1, 0
    while i < len(after):
        word, following = after[i], after[i + 1] if i + 1 < len(after) else ""
        if word in _REDIRECTS or (word.isdigit() and following in _REDIRECTS):  # `< in`, `2> err`
            i += 2 if word in _REDIRECTS else 3
            continue
        if word and set(word) <= _OPERATORS:
            break
        if set(word) & _EXPANDED:
            return None
        count, i = count + 1, i + 1
    return count


def reset_counters(b: Build) -> None:
    """Forget the counts of an earlier run, so that each run is measured on its own."""
    for gcda in b.directory.glob("*.gcda"):
        gcda.unlink()
    for rank_dir in b.directory.glob("rank*"):
        shutil.rmtree(rank_dir, ignore_errors=True)


def run(b: Build, command: str, user_cwd: Path, timeout: float | None = None, stdin_text: str | None = None
        ) -> Run:
    """Run COMMAND in the build directory and collect gcov's counts. Raises ToolError on failure."""
    reset_counters(b)
    rewritten = rewrite_command(command, user_cwd, b.executable.name)
    try:
        proc = subprocess.run(["/bin/sh", "-c", rewritten], cwd=b.directory, capture_output=True, text=True,
                              timeout=timeout, input=stdin_text)
    except subprocess.TimeoutExpired:
        raise ToolError(f"command timed out after {timeout} s: {command}") from None
    if proc.returncode != 0:
        raise ToolError(f"command failed with exit status {proc.returncode}: {command}\n"
                        f"{_tail(proc.stderr or proc.stdout)}")
    if not list(b.directory.glob("*.gcda")) and not list(b.directory.glob("rank*/*.gcda")):
        raise ToolError(f"the command did not run the instrumented program (no coverage data written); "
                        f"start it as ./{b.executable.name}: {command}")
    argc = argument_count(command, b.executable.name)
    if b.ranked:
        by_rank = _read_ranks(b)
        version = gcov_version()
        return Run(command, by_rank.get(0, {}), proc.stdout, version, by_rank, argc=argc)
    branches: dict[tuple[str, int], tuple[int, int]] = {}
    counts, version = read_gcov(b, branches)
    return Run(command, counts, proc.stdout, version, branches=branches, argc=argc)


def _read_ranks(b: Build) -> dict[int, dict[tuple[str, int], int]]:
    """Each rank's counts, from the rank<r>/ directory its GCOV_PREFIX named (the notes files, .gcno, are
    the build's: copied beside each rank's .gcda for gcov)."""
    by_rank: dict[int, dict[tuple[str, int], int]] = {}
    for rank_dir in sorted(b.directory.glob("rank*"), key=lambda d: d.name):
        if not rank_dir.name[4:].isdigit():
            continue
        for name in b.sources:
            for suffix in (".gcno",):
                note = b.directory / (Path(name).stem + suffix)
                if note.exists():
                    shutil.copyfile(note, rank_dir / note.name)
            shutil.copyfile(b.directory / name, rank_dir / name)
        counts, _ = read_gcov(Build(rank_dir, b.executable, b.sources, b.compilers))
        by_rank[int(rank_dir.name[4:])] = counts
    return by_rank


def read_gcov(b: Build, branches: dict[tuple[str, int], tuple[int, int]] | None = None
              ) -> tuple[dict[tuple[str, int], int], str]:
    """Per-line counts of every source of the build, keyed by the path the user gave; with `branches`,
    that dict receives (condition held, condition evaluated) of every line with exactly one two-way branch."""
    counts: dict[tuple[str, int], int] = {}
    version = ""
    for name, original in sorted(b.sources.items()):
        found_branches: dict[int, tuple[int, int]] = {}
        lines, found = source_line_counts(name, name, b.directory, Path(name).stem + ".o", found_branches)
        version = version or found
        for line, count in lines.items():
            counts[(original, line)] = count
        if branches is not None:
            branches.update({(original, line): taken for line, taken in found_branches.items()})
    return counts, version


def source_line_counts(target: str, source_name: str, directory: Path, object_path: str | None = None,
                       branches: dict[int, tuple[int, int]] | None = None) -> tuple[dict[int, int], str]:
    """gcov's count of every line of the source file named `source_name` (lines listed once per function
    are added up), from running gcov in `directory` on `target` (the source, or its .gcda file), and the
    version of the compiler that gcov reports. The one gcov reader: `sad profile`, `sad check-counts` and
    the corpus's verify_counts.py scripts all read counts here. With `branches`, every line whose code
    has exactly one two-way branch gets (fall-through count, both counts added): the fall-through edge of
    an IF's test is the way into its arm (GCC 12 at -O0, gfortran and gcc, `IF (C) S`, `if (c) s;` and
    `x = c ? a : b` alike); lines with more branches (`||`, loops) are left out."""
    gcov = _require("gcov")
    counts: dict[int, int] = {}
    edges: dict[int, list[list[tuple[int, bool]]]] = {}
    version = ""
    for doc in _gcov_json(gcov, target, directory, object_path):
        version = version or str(doc.get("gcc_version", ""))
        for f in doc.get("files", []):
            if Path(f.get("file", "")).name != source_name:
                continue  # a header or another unit's inline code
            for line in f.get("lines", []):
                n = int(line["line_number"])
                counts[n] = counts.get(n, 0) + int(line["count"])
                taken = [(int(e["count"]), bool(e.get("fallthrough"))) for e in line.get("branches", [])
                         if not e.get("throw")]
                if taken:
                    edges.setdefault(n, []).append(taken)
    if branches is not None:
        branches.update(_two_way(edges))
    return counts, version


def _two_way(edges: dict[int, list[list[tuple[int, bool]]]]) -> dict[int, tuple[int, int]]:
    """(fall-through count, evaluations) of the lines whose every listing has one two-way branch (a line
    listed once per function, as inline code is, adds its listings up)."""
    found = {}
    for line, listings in edges.items():
        if not all(len(pair) == 2 and sum(f for _, f in pair) == 1 for pair in listings):
            continue
        through = sum(c for pair in listings for c, f in pair if f)
        found[line] = (through, sum(c for pair in listings for c, _ in pair))
    return found


def _gcov_json(gcov: str, target: str, directory: Path, object_path: str | None) -> list[dict]:
    """gcov's JSON for one source: from --stdout where supported, else from the gzip'd .gcov.json.gz
    intermediate file that older gcov versions write."""
    where = ["-o", object_path] if object_path else []
    proc = subprocess.run([gcov, "-b", "--json-format", "--stdout", *where, target], cwd=directory,
                          capture_output=True, text=True)
    docs = [json.loads(chunk) for chunk in proc.stdout.splitlines() if chunk.strip().startswith("{")]
    if proc.returncode == 0 and docs:
        return docs
    proc = subprocess.run([gcov, "-b", "--json-format", *where, target], cwd=directory, capture_output=True,
                          text=True)
    if proc.returncode != 0:
        raise ToolError(f"gcov failed on {target}:\n{_tail(proc.stderr or proc.stdout)}")
    docs = []
    for path in sorted(directory.glob("*.gcov.json.gz")):
        with gzip.open(path, "rt") as fh:
            docs.append(json.load(fh))
        path.unlink()
    return docs


def cleanup(b: Build) -> None:
    """Remove a build directory."""
    shutil.rmtree(b.directory, ignore_errors=True)


def gcov_version() -> str:
    """The first line of `gcov --version`."""
    return _first_line([_require("gcov"), "--version"])


def environment_note() -> str:
    """The operating system and machine type, for provenance records."""
    return os.uname().sysname + " " + os.uname().machine


# GCC's fold_ternary puts the "simpler" operand of `c ? a : b` second, inverting the test, where the test
# can be inverted (tree_swap_operands_p: constants last, then variables last; a floating-point ordering
# cannot be inverted under the default -ftrapping-math, equality can). The instrumented code then falls
# through into the else arm, so gcov's fall-through count is the else arm's (GCC 12 at -O0: `i == j ? 1.0
# : (i + j) / n` is laid out as `i != j ? (i + j) / n : 1.0`).
_ORDERINGS = {"lt", "le", "gt", "ge"}
_COMPARISONS = _ORDERINGS | {"eq", "ne"}


def else_first(stmt: ir.If) -> bool:
    """Whether GCC lays out the select `stmt` (a lowered `c ? a : b`) with its else arm as the fall-through
    of the test, so that gcov's fall-through branch count is the else arm's, not the then arm's."""
    if stmt.select is None or len(stmt.arms) != 1 or stmt.orelse is None:
        return False
    cond = stmt.arms[0].cond
    if not isinstance(cond, ir.BinOp) or cond.op not in _COMPARISONS:
        return False  # not a comparison: GCC does not swap (or the test was split into several)
    floating = any(side.type in ("real", "double", "float", "complex") for side in (cond.left, cond.right))
    if floating and cond.op in _ORDERINGS:
        return False
    then, orelse = stmt.select
    if orelse == "constant":
        return False
    return then == "constant" or (then == "variable" and orelse == "other")

