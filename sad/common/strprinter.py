"""sympy's str printer without its costliest questions: is this product negative? this number?

Used by the last steps of the data flow (sad.predict.report, sad.codebase.routines) to print formulas.

sympy's printer asks every product it prints, and each parent asks again when deciding on parentheses,
whether it "could extract a minus sign" (`Mul.could_extract_minus_sign`, through the precedence table of
sympy.printing.precedence). sympy answers by building the negated product, `self == -self`, with a fresh
coefficient whose assumptions are deduced from scratch: about 40 % of printing a `sad check` formula.
It asks every Float whether it is below 0 through a sympified comparison, and sorts the arguments of every
Max and Min it prints by their sort keys, computed again each time.

The answers are known without that: when a product's first argument is not a number, both of sympy's tests
fail and the answer is no; when it is a finite non-zero number c, the negated product has the coefficient
-c ≠ c, so the answer is whether c < 0, the sign of c; a non-zero finite Float is below 0 when its sign bit
is set. Anything else (0, ±oo, zoo, nan; a product with numbers after its first argument) is left to sympy.
The sort keys are sympy's own, remembered. The text printed is therefore the same, character for character
(tests/common/test_strprinter.py compares the two on random formulas).

The faster rules are put into sympy's precedence table only while one of these printers prints, and taken
out when the last one ends (printers may run in several threads of a Dask worker).
"""
from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager
from functools import lru_cache

import sympy
from sympy.core.sorting import default_sort_key
from sympy.printing import precedence as _precedence
from sympy.printing.str import StrPrinter

_SYMPY_RULE = _precedence.PRECEDENCE_FUNCTIONS["Mul"]
_SYMPY_FLOAT_RULE = _precedence.PRECEDENCE_FUNCTIONS["Float"]
_ADD, _MUL = _precedence.PRECEDENCE["Add"], _precedence.PRECEDENCE["Mul"]


def mul_precedence(item: sympy.Mul) -> int:
    """sympy's precedence_Mul, answered from the product's coefficient where that decides it."""
    if any(isinstance(arg, sympy.Function) and getattr(arg, "precedence", _MUL) < _MUL for arg in item.args):
        return _MUL
    first = item.args[0]
    if any(arg.is_Number for arg in item.args[1:]):  # an unevaluated product: as sympy decides
        return _SYMPY_RULE(item)
    if not first.is_Number:
        return _MUL
    if isinstance(first, sympy.Float) and first._mpf_[1]:  # a non-zero mantissa: finite, not zero
        return _ADD if first._mpf_[0] else _MUL  # the sign bit
    if isinstance(first, sympy.Rational) and first.p:
        return _ADD if first.p < 0 else _MUL
    return _SYMPY_RULE(item)


def float_precedence(item: sympy.Float) -> int:
    """sympy's precedence_Float (`item < 0`, a comparison through sympify), read off the sign bit of a
    non-zero finite Float."""
    if item._mpf_[1]:
        return _ADD if item._mpf_[0] else _ATOM
    return _SYMPY_FLOAT_RULE(item)


_ATOM = _precedence.PRECEDENCE["Atom"]
_LOCK = threading.Lock()
_USERS: dict[int, int] = {}  # thread → printings under way in it: the rule is sympy's again when none is


@contextmanager
def _quick_rule() -> Iterator[None]:
    me = threading.get_ident()
    with _LOCK:
        _USERS[me] = _USERS.get(me, 0) + 1
        _precedence.PRECEDENCE_FUNCTIONS["Mul"] = mul_precedence
        _precedence.PRECEDENCE_FUNCTIONS["Float"] = float_precedence
    try:
        yield
    finally:
        _release(me, 1)


def _release(thread: int, uses: int | None) -> None:
    """End `uses` printings of a thread (None: all of them); the last one anywhere puts sympy's rule back."""
    with _LOCK:
        left = 0 if uses is None else _USERS.get(thread, 0) - uses
        if left > 0:
            _USERS[thread] = left
        else:
            _USERS.pop(thread, None)
        if not _USERS:
            _precedence.PRECEDENCE_FUNCTIONS["Mul"] = _SYMPY_RULE
            _precedence.PRECEDENCE_FUNCTIONS["Float"] = _SYMPY_FLOAT_RULE


def release_thread() -> None:
    """Forget this thread's printings: an exception raised into the thread from outside (the time limit of
    sad.codebase.timelimit) can land inside a printing's clean-up and leave it counted."""
    _release(threading.get_ident(), None)


class QuickStrPrinter(StrPrinter):
    """StrPrinter, the same text, with the product's sign read off its coefficient. Within one doprint a
    subexpression met again (the same object: a routine's formula repeats its guards' Piecewise in many
    terms) is printed once: its text does not depend on where it stands (parentheses are the caller's)."""

    def __init__(self, settings=None) -> None:
        super().__init__(settings)
        self._local = threading.local()   # each thread's memo: one printer may serve several threads

    def doprint(self, expr) -> str:
        """The text of expr, as StrPrinter.doprint gives it."""
        outer = getattr(self._local, "seen", None)
        self._local.seen = {}
        try:
            with _quick_rule():
                return super().doprint(expr)
        finally:
            self._local.seen = outer

    def _print(self, expr, **kwargs) -> str:
        seen = getattr(self._local, "seen", None)
        if kwargs or seen is None or not isinstance(expr, sympy.Basic):
            return super()._print(expr, **kwargs)
        known = seen.get(id(expr))   # the object is kept with its text, so its id is not reused meanwhile
        if known is None:
            known = seen[id(expr)] = (super()._print(expr), expr)
        return known[0]

    def _print_LatticeOp(self, expr) -> str:
        """Max and Min with their arguments in default_sort_key order, as StrPrinter prints them; the keys
        remembered (the same Max(0, N) is printed in many formulas)."""
        numbers = [arg for arg in expr.args if arg.is_Number]
        others = [arg for arg in expr.args if not arg.is_Number]
        # A number's key starts with (1, 0, 'Number'), any other's with a greater tuple: one number goes
        # first without a key (the 0 of every Max(0, count))
        args = (numbers if len(numbers) < 2 else sorted(numbers, key=_sort_key)) + \
            (others if len(others) < 2 else sorted(others, key=_sort_key))
        return f"{expr.func.__name__}({', '.join(self._print(arg) for arg in args)})"


@lru_cache(maxsize=1 << 16)
def _sort_key(item: sympy.Basic) -> tuple:
    return default_sort_key(item)
