"""The files of a codebase and which of them each file needs: discovery, content digests, a lexical index.

Data flow: paths and --exclude globs → the source files (by suffix, directories walked recursively, sorted) →
each file's digest, line count, the routines (and Fortran 90 modules) it defines, the identifiers it mentions
and the files it includes → per file, the other files that define routines it may call (transitively). That
closure is what one analysis unit loads so that callees found in the codebase are expanded; it is also part of
the unit's cache key, with the INCLUDE / #include files of every file in it (an edited header or parameter file must
not be answered from the cache).

The index is lexical (regular expressions, no parse) on purpose: it runs in the driver over the whole
codebase before any worker starts and must cost far less than parsing. It over-approximates (a variable
named like a routine pulls that routine's file in), which costs time but never changes a result: a file
loaded for nothing contributes nothing to the routines reported.
"""
from __future__ import annotations

import fnmatch
import hashlib
import os
import re
from dataclasses import dataclass

from sad.ir.languages import free_form, resolve_name
from sad.ir.languages import language_of as source_language

_FORTRAN_DEF = re.compile(r"^[ \t]*(?:[A-Z][A-Z0-9_]*(?:[ \t]*\*[ \t]*(?:\d+|\(\*\)))?[ \t]+){0,3}"
                          r"(?:SUBROUTINE|FUNCTION|PROGRAM|ENTRY|MODULE(?![ \t]+PROCEDURE\b))[ \t]+([A-Z][A-Z0-9_]*)",
                          re.M)
_C_DEF = re.compile(r"^[A-Za-z_][\w \t\*]*?\b([A-Za-z_]\w*)[ \t]*\([^;{}]*\)[ \t\n]*\{", re.M)
_C_COMMENT = re.compile(r"/\*.*?\*/|//[^\n]*", re.S)
# INCLUDE 'file' (Fortran, in the statement field) and #include "file" / <file> (C, and Fortran run through cpp).
_INCLUDE = re.compile(r"""^[ \t]*(?:\#[ \t]*include[ \t]*["<]([^">\n]+)[">]|INCLUDE[ \t]*['"]([^'"\n]+)['"])""",
                      re.M | re.I)
_IDENT = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_C_KEYWORDS = {"if", "for", "while", "switch", "return", "sizeof", "do", "else"}


@dataclass(frozen=True)
class SourceFile:
    """A source file of the codebase: digest, size, language, the routines it defines and names it mentions."""
    path: str
    digest: str  # sha256 of the bytes
    lines: int
    language: str
    defines: tuple[str, ...]  # routine names (linkage form, see resolve_name)
    mentions: frozenset[str]  # identifiers, linkage form
    includes: tuple[str, ...] = ()  # the names its INCLUDE / #include lines give, in order of appearance


def discover(paths: list[str], excludes: list[str] | None = None) -> tuple[list[str], list[str]]:
    """Source files under `paths` (files as given, directories recursively by suffix), minus those
    matching an --exclude glob (against the path and its base name). Returns (files, missing paths)."""
    found: set[str] = set()
    missing: list[str] = []
    for given in paths:
        if os.path.isdir(given):
            for root, dirs, names in os.walk(given):
                dirs.sort()
                for name in names:
                    path = os.path.join(root, name)
                    if _is_unit(path):
                        found.add(os.path.normpath(path))
        elif os.path.isfile(given):
            found.add(os.path.normpath(given))
        else:
            missing.append(given)
    globs = list(excludes or [])
    kept = [p for p in found if not any(fnmatch.fnmatch(p, g) or fnmatch.fnmatch(os.path.basename(p), g)
                                        for g in globs)]
    return sorted(kept), missing


def _is_unit(path: str) -> bool:
    """A file that is analyzed on its own: Fortran or C source, not a header (headers are included)."""
    return source_language(path) is not None and not path.endswith(".h")


def scan(path: str) -> SourceFile:
    """What a source file defines and mentions, with its hash and size, without parsing it."""
    with open(path, "rb") as handle:
        data = handle.read()
    text = data.decode("latin-1")
    language = source_language(path) or "unknown"
    if language == "fortran":
        statement = _free_form_statement if free_form(path) else _fortran_statement
        raw = text.splitlines()
        body = "\n".join(statement(line) for line in raw)
        defines = _FORTRAN_DEF.findall(body.upper())
        includes = _included_names(body + "\n" + _directives(text))
        # the free form's names from the whole line: a `!` in a constant does not end it
        fields = raw if statement is _free_form_statement else [_fortran_statement(line) for line in raw]
        code = "\n".join(_code_of(line, "!") for line in fields)
    else:
        body = _C_COMMENT.sub(" ", text)
        defines = [n for n in _C_DEF.findall(body) if n not in _C_KEYWORDS]
        includes = _included_names(body)
        code = "\n".join(_code_of(line, "", "\\") for line in body.splitlines())
    mentions = frozenset(map(resolve_name, set(_IDENT.findall(code))))  # each word once, not each use
    return SourceFile(path, hashlib.sha256(data).hexdigest(), text.count("\n") + (not text.endswith("\n")),
                      language, tuple(sorted({resolve_name(n) for n in defines})), mentions, includes)


def _included_names(text: str) -> tuple[str, ...]:
    """The file names of the INCLUDE and #include lines of `text`, first appearance first."""
    names = (quoted or fortran for quoted, fortran in _INCLUDE.findall(text))
    return tuple(dict.fromkeys(name.strip() for name in names))


def _directives(text: str) -> str:
    """The preprocessor lines of a Fortran file (column 1 `#`, outside the statement field)."""
    return "\n".join(line for line in text.splitlines() if line.startswith("#"))


def included_files(source: SourceFile, include_dirs: tuple[str, ...],
                   seen: dict[str, SourceFile | None] | None = None) -> list[tuple[str, SourceFile | None]]:
    """Every file `source` includes, directly or through other included files, searched as the frontends
    search them (the including file's directory, then each -I directory): (name, the file, or None when no
    such file is found; a header that appears later must change the key too). Headers that only sad's
    shipped include directory provides belong to the tool version, which the key already holds.
    `seen` caches scans across the files of one run."""
    cache: dict[str, SourceFile | None] = {} if seen is None else seen
    found: list[tuple[str, SourceFile | None]] = []
    done: set[str] = set()
    frontier = [source]
    while frontier:
        current = frontier.pop(0)
        for name in current.includes:
            path = _search(name, current.path, include_dirs)
            label = path or name
            if label in done:
                continue
            done.add(label)
            if path is not None and path not in cache:
                try:
                    cache[path] = scan(path)
                except OSError:  # unreadable: keyed as absent; the frontend reports it at the INCLUDE line
                    cache[path] = None
            header = cache.get(path) if path is not None else None
            found.append((name, header))
            if header is not None:
                frontier.append(header)
    return found


def _search(name: str, including: str, include_dirs: tuple[str, ...]) -> str | None:
    """The path `name` resolves to from the including file's directory or an -I directory, if any."""
    for directory in (os.path.dirname(including) or ".", *include_dirs):
        candidate = os.path.normpath(os.path.join(directory, name))
        if os.path.isfile(candidate):
            return candidate
    return None


def _fortran_statement(line: str) -> str:
    """The statement field of a fixed-form line (columns 7-72), or nothing for a comment line."""
    if not line or line[0] in "cC*!dD":
        return ""
    return line[6:72]


def _free_form_statement(line: str) -> str:
    """A free-form line without its `!` comment (a `!` inside a character constant cuts it short here; the
    names are read from ``_code_of``, which knows the constants)."""
    return line.split("!", 1)[0]


def _code_of(line: str, comment: str, escape: str = "") -> str:
    """`line` with its character constants blanked and cut at a `comment` marker outside them: the names a
    file mentions. A name in a constant is no call (ILAENV(1, 'STREVC', ...) in STREVC3 pulled STREVC's
    file and its callees into STREVC3's unit: 16 % of its time). A line that ends inside a constant (one
    continued on the next line, or a continuation's tail) is kept whole: the index may over-approximate,
    never miss a name. ``escape``: the character that escapes a quote inside a constant (C's backslash)."""
    out: list[str] = []
    quote = ""
    escaped = False
    for ch in line:
        if quote:
            if escaped:
                escaped = False
            elif ch == escape:
                escaped = True
            elif ch == quote:
                quote = ""
            out.append(" ")
        elif ch in "'\"":
            quote = ch
            out.append(" ")
        elif ch == comment:
            break
        else:
            out.append(ch)
    return line if quote else "".join(out)


def definers(files: list[SourceFile]) -> dict[str, str]:
    """Routine name → the file that defines it (the first in path order, as the pipeline keeps the first
    definition)."""
    index: dict[str, str] = {}
    for source in files:
        for name in source.defines:
            index.setdefault(name, source.path)
    return index


def dependencies(source: SourceFile, files: dict[str, SourceFile], index: dict[str, str]) -> list[str]:
    """The other files that define routines `source` may call, directly or through them; sorted."""
    needed: set[str] = set()
    frontier = [source]
    while frontier:
        current = frontier.pop()
        for name in sorted(current.mentions & index.keys()):
            path = index[name]
            if path != source.path and path not in needed:
                needed.add(path)
                frontier.append(files[path])
    return sorted(needed)
