"""Formulas as text that stays short: written out in full, or with the parts they repeat named once.

Data flow: a helper of the reports that write whole formulas — `sad check`'s routine times
(sad.codebase.routines: `time` and `subexpressions`) and `sad analyze --format json` (sad.predict.report:
every formula of the document and one `subexpressions` list). Formulas (sympy expressions) come in, text
leaves.

A formula is a graph, not a tree: the probability of reaching a block after IFs that rejoin, the visits of
a GOTO region, a callee's time appear in many terms as the same object. Written out as a tree it can be
immense: each IF that rejoins can double it. ODEPACK's LSODA has 828 distinct subexpressions, which
written out are 206 million nodes, 772 MB of text; `sad check` on a 125-line routine of 24 such IFs
ran past its 60 s limit printing. Past a limit (WRITTEN_LIMIT nodes, CHECK_LIMIT in `sad check`) the
repeated parts are named `_E1`, `_E2`, … instead (sympy.cse) and each is defined once, in the names before
it: LSODA's formula is then 237 definitions and 12.6 kB.
"""
from __future__ import annotations

import itertools
from collections.abc import Iterator, Sequence

import sympy

# Nodes of a formula written out as a tree before naming parts: about 40 kB of text. `sad check` passes a
# higher limit, as sympy.cse rebuilds every expression it touches: at this one it was 30 % of the analysis of
# SLSQP's file, whose formulas of up to 100 000 nodes take less to print in full.
WRITTEN_LIMIT = 10_000
CHECK_LIMIT = 100_000  # about 400 kB
PREFIX = "_E"  # not a Fortran name (a letter first), reserved in C: no parameter has it (names taken skipped)


def written_size(expr: sympy.Basic) -> int:
    """The nodes of `expr` written out as a tree (a shared subexpression counted each time it occurs)."""
    return written_sizes([expr])[expr]


def written_sizes(exprs: Sequence[sympy.Basic], known: dict[sympy.Basic, int] | None = None
                  ) -> dict[sympy.Basic, int]:
    """Every distinct subexpression's written size, each computed once (iteratively: a formula may be
    deeper than the interpreter's recursion limit), a node of `known` weighing what it gives. Also what
    sad.analysis.products.tree_size adds up."""
    return add_sizes(exprs, dict(known or {}))


def add_sizes(exprs: Sequence[sympy.Basic], size: dict[sympy.Basic, int]) -> dict[sympy.Basic, int]:
    """written_sizes with `size` as the known sizes, filled in place and returned: sizes added up over many
    calls (a callee's counts bound one by one) walk each distinct subexpression once in all."""
    stack: list[tuple[sympy.Basic, bool]] = [(expr, False) for expr in exprs]
    while stack:
        node, ready = stack.pop()
        if node in size:
            continue
        if ready:
            size[node] = 1 + sum(size[arg] for arg in node.args)
        else:
            stack.append((node, True))
            stack.extend((arg, False) for arg in node.args if arg not in size)
    return size


def named_parts(exprs: Sequence[sympy.Expr], limit: int = WRITTEN_LIMIT
                ) -> tuple[list[tuple[sympy.Symbol, sympy.Expr]], list[sympy.Expr]]:
    """(definitions, formulas): `exprs` as they are and no definitions when each written out has at most
    `limit` nodes; else the long ones in terms of `_E` names defined in order (the short ones as
    they are: a part named in a long formula is not looked for in them)."""
    size = written_sizes(exprs)
    long = [i for i, expr in enumerate(exprs) if size[expr] > limit]
    if not long:
        return [], list(exprs)
    taken = {node.name for node in size if isinstance(node, sympy.Symbol)}
    # order="none": sympy's canonical order sorts every subexpression written out, as slow as the text
    # (81 s on LSODA's formula); without it the names follow the formulas' argument order, which does not
    # depend on hashing (the same text under every PYTHONHASHSEED)
    definitions, reduced = sympy.cse([exprs[i] for i in long], symbols=_names(taken), order="none")
    out = list(exprs)
    for i, expr in zip(long, reduced):
        out[i] = expr
    return definitions, out


def formula_text(expr: sympy.Expr, printer, limit: int = WRITTEN_LIMIT) -> tuple[str, list[tuple[str, str]]]:
    """The formula's text and its named parts ((name, text) in definition order; none when it is short)."""
    definitions, (reduced,) = named_parts([expr], limit)
    return printer.doprint(reduced), [(symbol.name, printer.doprint(value)) for symbol, value in definitions]


def _names(taken: set[str]) -> Iterator[sympy.Symbol]:
    """_E1, _E2, … skipping any name the formulas already have."""
    return (sympy.Symbol(f"{PREFIX}{i}") for i in itertools.count(1) if f"{PREFIX}{i}" not in taken)
