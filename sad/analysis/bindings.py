"""Parameter bindings: reading `-D NAME=VALUE` and params-file values, and applying them to formulas.

Data flow: CLI text → {name: sympy value}, read with the restricted expression parser (sad.common.exprparse), never
eval. A value may be a number or an expression of other parameters (`-D NCELL=MX*MY*MZ`). The same
definitions also reach the C preprocessor of .F and C files as macros. `bind` substitutes bindings into a
SAD formula by name and `evaluate` turns a closed one into a number: the mapper, the params-file checks and
the profiler all bind the same way.
"""
from __future__ import annotations

import math
import re
from typing import Any

import sympy

from sad.analysis import extremes
from sad.analysis.counting import evaluate_sums
from sad.analysis.freesymbols import free_symbols
from sad.common.exprparse import ExprError, parse_expr

_NAME = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)?$")


class BindingError(ValueError):
    """A -D or params value that cannot bind: the message names the problem."""
    pass


def parse_define(text: str) -> tuple[str, str, sympy.Expr]:
    """'N=1000' → ('N', '1000', 1000); 'N' alone means 1, as a compiler's -D does. Raises BindingError
    naming the problem."""
    name, sep, value = text.partition("=")
    name, value = name.strip(), value.strip() if sep else "1"
    if not _NAME.match(name):
        raise BindingError(f"-D {text}: '{name}' is not a parameter name")
    if not value:
        raise BindingError(f"-D {text}: no value given for {name}")
    try:
        return name, value, parse_value(value)
    except BindingError as exc:
        raise BindingError(f"-D {text}: {exc}") from None


def parse_value(text: str) -> sympy.Expr:
    """A parameter's value, from -D or a params file: a finite number or an expression of parameters,
    read by the restricted parser. Raises BindingError saying what is wrong with it."""
    try:
        parsed = parse_expr(text)
    except ExprError as exc:
        raise BindingError(str(exc)) from None
    if isinstance(parsed, sympy.logic.boolalg.Boolean) or parsed.has(sympy.zoo, sympy.nan, sympy.oo,
                                                                      -sympy.oo):
        raise BindingError(f"'{text}' is not a finite number or expression")
    for number in parsed.atoms(sympy.Number):
        if not math.isfinite(float(number)):  # 1e400 is a sympy Float but no machine number: T would be inf
            raise BindingError(f"'{text}' is too large (beyond double precision)")
    return parsed


def parse_defines(texts: list[str]) -> tuple[dict[str, str], dict[str, sympy.Expr]]:
    """All -D options: the raw text (for preprocessors) and the parsed values (for parameters)."""
    raw: dict[str, str] = {}
    values: dict[str, sympy.Expr] = {}
    for text in texts:
        name, value, parsed = parse_define(text)
        raw[name] = value
        values[name] = parsed
    return raw, values


def bind(expr: sympy.Expr, bindings: dict[str, sympy.Expr]) -> sympy.Expr:
    """Substitute bound parameters by name (a value may mention other bound names: iterate).

    The same bindings are applied to many formulas that share subexpressions (the total, every block's
    count and time, the report's rows), and rebuilding a Min/Max is costly in sympy (its search for
    comparable arguments factors every pair), so each distinct subexpression is bound once per set of
    bindings: the result is what ``expr.xreplace`` by name gives, shared between calls."""
    memo = _memo(bindings)
    for _ in range(8):
        bound = _substitute(expr, bindings, memo)
        if bound is expr:
            break
        expr = bound
    return expr


_MEMOS: dict[tuple, dict] = {}
_MEMO_SETS = 8  # bindings remembered (the profiler binds many points; each point is one set)


def _memo(bindings: dict[str, sympy.Expr]) -> dict:
    """The memo of bound subexpressions for this content of bindings (dicts are compared by content, so a
    caller that changes its dict gets a fresh memo)."""
    key = tuple(sorted(bindings.items(), key=lambda item: item[0]))
    memo = _MEMOS.pop(key, None)
    if memo is None:
        memo = {}
        if len(_MEMOS) >= _MEMO_SETS:
            del _MEMOS[next(iter(_MEMOS))]
    _MEMOS[key] = memo  # most recently used last
    return memo


def _substitute(expr: sympy.Basic, bindings: dict[str, sympy.Expr], memo: dict) -> sympy.Basic:
    """One pass of substitution by name; the expression itself when nothing in it is bound (itself, not the
    equal object the memo met first: a parent that sees an argument not its own is built again)."""
    if isinstance(expr, sympy.Symbol):
        return bindings.get(expr.name, expr)
    if not expr.args:
        return expr
    done = memo.get(expr)
    if done is not None:
        return expr if done is _UNCHANGED else done
    if isinstance(expr, _BINDERS):  # a bound variable (a Sum's index) is not a parameter: only free names
        subs = {s: bindings[s.name] for s in expr.free_symbols if s.name in bindings}
        out = expr.xreplace(subs) if subs else expr
    else:
        args = [_substitute(a, bindings, memo) for a in expr.args]
        if all(new is old for new, old in zip(args, expr.args)):
            out = expr
        else:
            out = extremes.rebuild(expr.func, tuple(args))
    memo[expr] = _UNCHANGED if out is expr else out
    return out


_UNCHANGED: Any = object()   # memo entry of a subexpression that no binding touches


_BINDERS = (sympy.Sum, sympy.Product, sympy.Integral, sympy.Lambda)


def evaluate(expr: sympy.Expr) -> float | None:
    """The number a formula with no free symbols stands for (symbolic sums evaluated), else None."""
    if free_symbols(expr):
        return None
    if expr.has(sympy.Sum):
        expr = evaluate_sums(expr)
    try:
        return float(expr)
    except (TypeError, ValueError):
        return None
