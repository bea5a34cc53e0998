"""Source languages by file suffix, and the linkage name that makes a routine the same across them.

Plain tables and string functions, shared by the frontends (which parser a file goes to), the analysis
(call resolution) and `sad check`'s lexical index of a codebase (sad.codebase.sources), which must stay
cheap to import: a run whose results are all cached parses nothing.
"""
from __future__ import annotations

import os
from functools import lru_cache

FORTRAN_SUFFIXES = {".f", ".for", ".f77", ".ftn", ".F", ".FOR", ".fpp"}
C_SUFFIXES = {".c", ".h"}


@lru_cache(maxsize=1 << 14)  # asked for every procedure of every unit
def language_of(path: str) -> str | None:
    """The language of a source file by its suffix: 'fortran', 'c', or None for neither."""
    suffix = os.path.splitext(path)[1]  # Path(path).suffix, without building a Path
    if suffix in FORTRAN_SUFFIXES or suffix.lower() in {".f", ".for", ".f77"}:
        return "fortran"
    if suffix in C_SUFFIXES:
        return "c"
    return None


def resolve_name(name: str) -> str:
    """Cross-language linkage name: Fortran MATMUL and C matmul_ / matmul are the same routine."""
    return name.lower().rstrip("_")
