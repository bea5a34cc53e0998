"""Source text to logical statements: the first stage of the Fortran frontend.

Data flow: file on disk → (C preprocessor for .F/.FPP/.F90, line markers kept) → physical lines, each tagged with
its original Loc → fixed-form reader (comments, tab format, columns 73-80, continuation lines, labels), or for
.f90/.F90 the free-form one (frontends.fortran.freeform), with INCLUDE expanded in place → `Logical`
statements, each with the Loc of its first line. The next stage (frontends.fortran.rewrite) rewrites
constructs fparser rejects; frontends.fortran.units then parses.
"""
from __future__ import annotations

import os
import re
import shutil
import subprocess
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from sad.ir import Diagnostic, Loc
from sad.ir.languages import free_form

from . import freeform

CPP_SUFFIXES = {".F", ".FPP", ".fpp", ".FOR", ".F77", ".F90", ".F95", ".F03", ".F08"}
MAX_INCLUDE_DEPTH = 20


@dataclass
class Physical:
    """One source line as read, with its location."""
    text: str
    loc: Loc


@dataclass
class Logical:
    """One Fortran statement with its continuation lines joined (columns 7-72 only)."""
    text: str
    label: str | None
    loc: Loc
    truncated: list[int] | None = None  # lines of the statement whose text past column 72 was dropped


class SourceReader:
    """Reads one top-level file into logical statements, collecting diagnostics instead of raising."""

    def __init__(self, include_dirs: list[str], defines: dict[str, str]) -> None:
        self.include_dirs = include_dirs
        self.defines = defines
        self.diagnostics: list[Diagnostic] = []
        self.files: list[str] = []
        self.free = False  # the top-level file is free form (Fortran 90): its INCLUDEd files are too

    # ------------------------------------------------------------------ physical lines
    def physical_lines(self, path: str) -> list[Physical] | None:
        """The physical lines of a file (run through cpp first for .F-style suffixes), or None if it cannot be read."""
        try:
            with open(path, "rb") as handle:
                raw = handle.read().decode("utf-8", errors="replace")
        except OSError as exc:
            self.diagnostics.append(Diagnostic(Loc(path, 1), "error", f"cannot read file: {exc.strerror or exc}"))
            return None
        if path not in self.files:
            self.files.append(path)
        if os.path.splitext(path)[1] in CPP_SUFFIXES:
            return self.preprocess(path, raw)
        return [Physical(line, Loc(path, i + 1)) for i, line in enumerate(raw.splitlines())]

    def preprocess(self, path: str, raw: str) -> list[Physical]:
        """Run the C preprocessor in traditional mode and map lines back through its `# N "file"` markers."""
        cpp = shutil.which("cpp")
        if cpp is None:
            self.diagnostics.append(Diagnostic(Loc(path, 1), "warning",
                                               "no C preprocessor found; directives ignored"))
            return [Physical(line, Loc(path, i + 1)) for i, line in enumerate(raw.splitlines())
                    if not line.startswith("#")]
        cmd = [*cpp_options(cpp, path, self.include_dirs, self.defines), "-traditional-cpp", "-E", path]
        try:
            proc = subprocess.run(cmd, capture_output=True, text=True, timeout=60, errors="replace")
        except (OSError, subprocess.SubprocessError) as exc:
            self.diagnostics.append(Diagnostic(Loc(path, 1), "error", f"C preprocessor failed: {exc}"))
            return []
        self._cpp_diagnostics(path, proc.stderr)
        return map_cpp_output(proc.stdout, path)

    def _cpp_diagnostics(self, path: str, stderr: str) -> None:
        for line in stderr.splitlines():
            m = re.match(r"^(.*?):(\d+):(?:\d+:)?\s*(fatal error|error|warning):\s*(.*)$", line)
            if m:
                sev = "warning" if m.group(3) == "warning" else "error"
                self.diagnostics.append(Diagnostic(Loc(m.group(1), int(m.group(2))), sev,
                                                   f"preprocessor: {m.group(4)}"))

    # ------------------------------------------------------------------ logical statements
    def read(self, path: str, depth: int = 0) -> list[Logical]:
        """The logical statements of a file, continuations joined and INCLUDEs expanded."""
        if depth == 0:
            self.free = free_form(path)
        lines = self.physical_lines(path)
        if lines is None:
            return []
        return self.logical_lines(lines, depth)

    def logical_lines(self, lines: list[Physical], depth: int) -> list[Logical]:
        """Join physical lines into logical statements (comments dropped, labels split off), by the rules of
        the file's source form."""
        if self.free:
            out: list[Logical] = []
            for stmt in freeform.statements([(p.text, p.loc) for p in lines], self.diagnostics):
                self._emit(Logical(stmt.text, stmt.label, stmt.loc), out, depth)
            return out
        return self.fixed_lines(lines, depth)

    def fixed_lines(self, lines: list[Physical], depth: int) -> list[Logical]:
        """Join fixed-form physical lines into logical statements (comments dropped, labels split off)."""
        out: list[Logical] = []
        current: Logical | None = None
        for phys in lines:
            kind, label, body = split_fixed(phys.text)
            if kind == "comment":
                continue
            dropped = truncated_text(phys.text, body) if kind in ("stmt", "cont") else ""
            if dropped:
                self.diagnostics.append(Diagnostic(Loc(phys.loc.file, phys.loc.line, 73), "warning",
                                                   f"line truncated at column 72: '{_clip(dropped)}' is ignored "
                                                   f"(fixed form reads columns 7-72; gfortran -Wline-truncation)"))
            if kind == "badlabel":
                self.diagnostics.append(Diagnostic(phys.loc, "error",
                                                   f"invalid character in label field: '{label}'"))
                continue
            if kind == "cont":
                if current is None:
                    self.diagnostics.append(Diagnostic(phys.loc, "error",
                                                       "continuation line without a statement to continue"))
                    continue
                # an inline `! comment` ends its own line only: the next line continues the statement
                current.text = strip_inline_comment(current.text) + body
                if dropped:
                    current.truncated = [*(current.truncated or []), phys.loc.line]
                continue
            if current is not None:
                self._emit(current, out, depth)
            current = Logical(body, label, phys.loc, [phys.loc.line] if dropped else None)
        if current is not None:
            self._emit(current, out, depth)
        return out

    def _emit(self, stmt: Logical, out: list[Logical], depth: int) -> None:
        stmt.text = strip_inline_comment(stmt.text).rstrip()
        if not stmt.text.strip():
            if stmt.label:
                self.diagnostics.append(Diagnostic(stmt.loc, "warning", f"label {stmt.label} on an empty statement"))
            return
        m = re.match(r"^\s*INCLUDE\s*(['\"])(.*)\1\s*$", stmt.text, re.IGNORECASE)
        if m:
            out.extend(self.include(m.group(2), stmt.loc, depth))
            return
        out.append(stmt)

    def include(self, name: str, loc: Loc, depth: int) -> list[Logical]:
        """The logical lines of an INCLUDEd file, or an error diagnostic and nothing if missing/too deep."""
        if depth >= MAX_INCLUDE_DEPTH:
            self.diagnostics.append(Diagnostic(loc, "error", f"INCLUDE nested too deeply: '{name}'"))
            return []
        found = find_include(name, loc.file, self.include_dirs)
        if found is None:
            self.diagnostics.append(Diagnostic(loc, "error", f"INCLUDE file not found: '{name}'"))
            return []
        try:
            raw = Path(found).read_bytes().decode("utf-8", errors="replace")
        except OSError as exc:
            self.diagnostics.append(Diagnostic(loc, "error", f"cannot read INCLUDE file '{name}': {exc}"))
            return []
        if found not in self.files:
            self.files.append(found)
        lines = [Physical(line, Loc(found, i + 1)) for i, line in enumerate(raw.splitlines())]
        return _without_interfaces(self.logical_lines(lines, depth + 1))


def _without_interfaces(stmts: list[Logical]) -> list[Logical]:
    """An included file's Fortran 90 INTERFACE blocks (Open MPI's mpif.h brings MPI_Sizeof's) declare
    routines only: a Fortran 77 program's analysis does not need them, so they are left out."""
    out: list[Logical] = []
    depth = 0
    for stmt in stmts:
        text = stmt.text.strip().upper()
        if re.match(r"^(ABSTRACT\s+)?INTERFACE\b", text):
            depth += 1
        elif depth and re.match(r"^END\s*INTERFACE\b", text):
            depth -= 1
        elif not depth:
            out.append(stmt)
    return out


SHIPPED_INCLUDE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "include")
"""Declarations-only mpif.h and fpvm3.h shipped with sad: searched after the user's directories."""


def find_include(name: str, including_file: str, include_dirs: list[str]) -> str | None:
    """Search relative to the including file's directory, then the -I directories, then sad's shipped
    headers (mpif.h, fpvm3.h), then as given."""
    candidates = [os.path.join(os.path.dirname(including_file) or ".", name)]
    candidates += [os.path.join(d, name) for d in include_dirs]
    candidates.append(os.path.join(SHIPPED_INCLUDE, name))
    if os.path.isabs(name):
        candidates.insert(0, name)
    for cand in candidates:
        if os.path.isfile(cand):
            return os.path.normpath(cand)
    return None


def cpp_options(cpp: str, path: str, include_dirs, defines: Mapping[str, str | None]) -> list[str]:
    """cpp and its options for a Fortran file (no system headers, the -D macros, the file's directory and the
    -I directories searched), without the mode, -E and the file: frontends.macros asks the same cpp which
    macros the file read."""
    return [cpp, "-nostdinc", *(f"-D{k}" if v is None or v == "" else f"-D{k}={v}" for k, v in defines.items()),
            *(f"-I{d}" for d in [str(Path(path).parent), *include_dirs])]


def map_cpp_output(text: str, path: str) -> list[Physical]:
    """Tag each line of cpp output with the file and line its `# N "file"` markers say it came from."""
    out: list[Physical] = []
    cur_file, cur_line = path, 1
    for line in text.splitlines():
        m = re.match(r'^#\s*(?:line\s+)?(\d+)\s+"(.*?)"', line)
        if m:
            cur_line = int(m.group(1))
            name = m.group(2)
            cur_file = path if os.path.abspath(name) == os.path.abspath(path) else name
            continue
        if line.startswith("#") and re.match(r"^#\s*(pragma|ident)\b", line):
            cur_line += 1
            continue
        out.append(Physical(line, Loc(cur_file, cur_line)))
        cur_line += 1
    return out


def split_fixed(line: str) -> tuple[str, str | None, str]:
    """Classify one fixed-form line: ("comment"|"stmt"|"cont"|"badlabel", label, statement text cols 7-72)."""
    if not line.strip() or line[0] in "Cc*!Dd$":
        return "comment", None, ""
    if "\t" in line[:6]:
        return _split_tab(line)
    line = line.expandtabs(8)
    if line.lstrip().startswith("!") and len(line) - len(line.lstrip()) < 6:
        return "comment", None, ""
    field, cont, body = line[:5], line[5:6], line[6:72]
    if cont not in ("", " ", "0"):
        if field.strip():
            return "badlabel", field.strip(), ""
        return "cont", None, body
    label = field.strip()
    if label and not label.replace(" ", "").isdigit():
        if line.strip().startswith("!"):
            return "comment", None, ""
        return "badlabel", label, ""
    return "stmt", (str(int(label.replace(" ", ""))) if label else None), body


def truncated_text(line: str, body: str) -> str:
    """The statement text a fixed-form line has past column 72 (what `split_fixed` drops), or '' when there
    is none or it follows an inline `!` comment."""
    if strip_inline_comment(body) != body:
        return ""
    if "\t" in line[:6]:
        head, _, rest = line.partition("\t")
        rest = rest.expandtabs(8)
        if not head.strip() and rest[:1].isdigit() and rest[:1] != "0":
            rest = rest[1:]
        return rest[66:].strip()
    return line.expandtabs(8)[72:].strip()


def _clip(text: str, width: int = 40) -> str:
    return text if len(text) <= width else text[:width - 3] + "..."


def _split_tab(line: str) -> tuple[str, str | None, str]:
    """DEC tab format: label<TAB>statement, or <TAB>digit for a continuation line."""
    head, _, rest = line.partition("\t")
    label = head.strip()
    if label and not label.isdigit():
        return "badlabel", label, ""
    if not label and rest[:1].isdigit() and rest[:1] != "0":
        return "cont", None, rest[1:].expandtabs(8)[:66]
    return "stmt", (str(int(label)) if label else None), rest.expandtabs(8)[:66]


def strip_inline_comment(text: str) -> str:
    """Remove a trailing `! comment` (an extension) outside character constants."""
    quote = None
    for i, ch in enumerate(text):
        if quote:
            if ch == quote:
                quote = None
        elif ch in "'\"":
            quote = ch
        elif ch == "!":
            return text[:i]
    return text
