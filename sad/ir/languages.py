"""Source languages by file suffix, and the linkage name that makes a routine the same across them.

Plain tables and string functions, shared by the frontends (which parser a file goes to), the analysis
(call resolution) and `sad check`'s lexical index of a codebase (sad.codebase.sources), which must stay
cheap to import: a run whose results are all cached parses nothing.
"""
from __future__ import annotations

import os
from functools import lru_cache

FIXED_FORM_SUFFIXES = {".f", ".for", ".f77", ".ftn", ".F", ".FOR", ".fpp"}
# free-form Fortran 90 and later; the upper-case suffixes go through the C preprocessor first, as with gfortran
FREE_FORM_SUFFIXES = {".f90", ".F90", ".f95", ".F95", ".f03", ".F03", ".f08", ".F08"}
FORTRAN_SUFFIXES = FIXED_FORM_SUFFIXES | FREE_FORM_SUFFIXES
C_SUFFIXES = {".c", ".h"}


@lru_cache(maxsize=1 << 14)  # asked for every procedure of every unit
def language_of(path: str) -> str | None:
    """The language of a source file by its suffix: 'fortran', 'c', or None for neither."""
    suffix = os.path.splitext(path)[1]  # Path(path).suffix, without building a Path
    if suffix in FORTRAN_SUFFIXES or suffix.lower() in {".f", ".for", ".f77", ".f90"}:
        return "fortran"
    if suffix in C_SUFFIXES:
        return "c"
    return None


def free_form(path: str) -> bool:
    """Whether a Fortran source file is free form (Fortran 90 source form) by its suffix, as gfortran decides."""
    return os.path.splitext(path)[1] in FREE_FORM_SUFFIXES or os.path.splitext(path)[1].lower() == ".f90"


def resolve_name(name: str) -> str:
    """Cross-language linkage name: Fortran MATMUL and C matmul_ / matmul are the same routine."""
    return name.lower().rstrip("_")


def result_variable(name: str, variables: dict) -> str:
    """The variable that holds a Fortran function's result: its name, or for a module procedure
    (MODULE_MP_NAME) or an internal one (HOST_IP_NAME), the NAME it is declared with (LA_XISNAN's DISNAN
    assigns DISNAN, not LA_XISNAN_MP_DISNAN)."""
    if name in variables:
        return name
    for mark in ("_IP_", "_MP_"):
        if mark in name:
            short = name.rsplit(mark, 1)[1]
            if short in variables:
                return short
    return name
