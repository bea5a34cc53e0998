"""Character values as numbers: the options of BLAS- and LAPACK-style routines (`'L'`, `'Upper'`, `'N'`)
followed through calls like any other constant.

Data flow: the value backtracer (sad.analysis.values) turns a character constant into an integer here (its
bytes read as one number, so that two values are equal exactly when the strings are, trailing blanks aside,
as Fortran's comparison pads the shorter with blanks) and a character formal argument into its symbol; a
call site (sad.analysis.calls) binds a callee's character formal to the caller's value cut to the formal's
declared length (`CHARACTER SIDE` sees the first character of `'Left'`). LSAME, the case-insensitive test of
one character that every option of the Reference BLAS and LAPACK goes through, is evaluated here: on two
known characters it is a known LOGICAL, on a one-character formal and a known letter it is the condition
`SIDE = 'L' or SIDE = 'l'`, an exact indicator each call binds.
"""
from __future__ import annotations

from typing import TypeAlias

import sympy

CharValue: TypeAlias = "sympy.Integer | sympy.Symbol"


def code(text: str) -> sympy.Integer:
    """A character constant's number: its bytes (Latin-1, trailing blanks dropped) read big-endian; one
    character is its ICHAR code."""
    return sympy.Integer(int.from_bytes(text.rstrip(" ").encode("latin-1", "replace"), "big"))


def text_of(number: int) -> str:
    """The string a code stands for (without trailing blanks)."""
    number = int(number)
    return number.to_bytes(max(1, (number.bit_length() + 7) // 8), "big").decode("latin-1").lstrip("\0")


def truncated(value: sympy.Expr, length: int | None) -> sympy.Expr:
    """A known string cut to `length` characters (a formal declared CHARACTER*length receives that much of
    a longer actual argument); unknown lengths and symbolic values are given back as they are."""
    if length is None or not isinstance(value, sympy.Integer):
        return value
    return code(text_of(int(value))[:length])


def first(value: sympy.Expr | None, one_character: bool) -> CharValue | None:
    """The code of a value's first character: a known string's first byte (a blank for the empty string),
    or the symbol of a variable declared one character long (`one_character`); None otherwise."""
    if isinstance(value, sympy.Integer):
        text = text_of(int(value))
        return sympy.Integer(ord(text[0]) if text else ord(" "))
    if isinstance(value, sympy.Symbol) and one_character:
        return value
    return None


def lsame(a: CharValue, b: CharValue) -> sympy.Basic | None:
    """LSAME(CA, CB) of the Reference BLAS: the first characters are the same letter regardless of case
    (or the same character). Two known characters give true or false; an unknown one against a known letter
    the condition that it is either case of that letter; two unknown ones, None."""
    if isinstance(a, sympy.Symbol) and isinstance(b, sympy.Symbol):
        return None
    if isinstance(a, sympy.Symbol):
        a, b = b, a
    letter = chr(int(a))
    if isinstance(b, sympy.Integer):
        return sympy.true if letter.upper() == chr(int(b)).upper() else sympy.false
    cases = sorted({ord(letter.upper()), ord(letter.lower())})
    return sympy.Or(*(sympy.Eq(b, c) for c in cases))


class Concat(sympy.Function):
    """`A // B` with A `width` characters long: a reference while a side is a formula (DTRTRI's `UPLO //
    DIAG`, its formals), the code of the joined string once both are known (bound at a call)."""

    @classmethod
    def eval(cls, left, right, width):
        """The joined string's code once both sides are known; None (stay a reference) before."""
        if isinstance(left, sympy.Integer) and isinstance(right, sympy.Integer):
            return code(text_of(int(left)).ljust(int(width)) + text_of(int(right)))
        return None

    def _sympystr(self, printer) -> str:
        return f"{shown(self.args[0])} // {shown(self.args[1])}"


def concatenated(left: sympy.Expr, right: sympy.Expr, width: int) -> sympy.Expr:
    """`left // right`, the left side `width` characters long (a code drops trailing blanks, so the width
    must be known): a code where both are known, else a Concat reference."""
    return Concat(left, right, sympy.Integer(width))


def shown(value: sympy.Expr) -> str:
    """A character value as the user wrote it: 'L' for a known one, else the formula."""
    if isinstance(value, sympy.Integer):
        return repr(text_of(int(value)))
    return str(value)
