"""SPMD semantics: an SPMD program takes as long as its slowest rank.

Data flow: the mapper (sad.predict.mapper) has one time formula for a generic rank: conditions on the rank
(`IF (ME .EQ. 0)`, `MOD(ME, 2)`) are indicators in the symbol RANK, decided per rank, not averaged. Here,
when NPROCS is bound, the formula is evaluated at every rank 0 … NPROCS−1 and the slowest one is bound as
RANK for the rest of the report; with NPROCS unbound the formula stays one for a generic rank and the note
says so. A RANK given with -D is taken as asked.
"""
from __future__ import annotations

from dataclasses import dataclass

import sympy

from sad.analysis.bindings import bind
from sad.analysis.counting import evaluate_sums
from sad.analysis.freesymbols import free_symbols
from sad.analysis.params import make_symbol

RANK = make_symbol("RANK", "value", integer=True)
NPROCS = make_symbol("NPROCS", "value", integer=True)
MAX_RANKS = 65536
"""Above this many processes the ranks are not enumerated (the formula is left for a generic rank)."""


@dataclass(frozen=True)
class RankChoice:
    """Which rank an SPMD prediction is for (the slowest), and for how many processes."""
    rank: int | None  # the rank the numbers are for; None when every rank is alike or NPROCS is unbound
    nprocs: int | None
    note: str
    fastest: float | None = None  # the fastest rank's time, for the spread


def slowest(total: sympy.Expr, bindings: dict[str, sympy.Expr]) -> tuple[dict[str, sympy.Expr],
                                                                          RankChoice | None]:
    """(bindings with RANK bound to the slowest rank where it can be found, the choice made)."""
    expr = bind(total, bindings)
    if "RANK" in bindings:
        return bindings, RankChoice(_int(bindings["RANK"]), _int(bindings.get("NPROCS")), "RANK bound with -D")
    if RANK not in free_symbols(expr):
        if NPROCS in free_symbols(total) or RANK in free_symbols(total):
            return bindings, RankChoice(None, _int(bindings.get("NPROCS")), "every rank takes the same time")
        return bindings, None
    nprocs = _int(bind(NPROCS, bindings))
    others = free_symbols(expr) - {RANK}
    if nprocs is None or others or not 0 < nprocs <= MAX_RANKS:
        why = "bind NPROCS" if nprocs is None else "bind the other parameters"
        return bindings, RankChoice(None, nprocs, f"formula for a generic rank RANK (0 <= RANK < NPROCS); {why} "
                                                  "to evaluate every rank and take the slowest")
    times = _per_rank(expr, nprocs)
    worst = max(range(nprocs), key=lambda r: (times[r], -r))
    bound = dict(bindings)
    bound["RANK"] = sympy.Integer(worst)
    return bound, RankChoice(worst, nprocs, f"slowest of {nprocs} ranks", min(times))


def _per_rank(expr: sympy.Expr, nprocs: int) -> list[float]:
    """The time of every rank; only the terms that depend on RANK are evaluated again."""
    fixed: list[sympy.Expr] = []
    varying: list[sympy.Expr] = []
    for term in sympy.Add.make_args(expr):
        (varying if RANK in term.free_symbols else fixed).append(term)
    base = _float(sympy.Add(*fixed))
    part = sympy.Add(*varying)
    return [base + _float(part.xreplace({RANK: sympy.Integer(r)})) for r in range(nprocs)]


def _float(expr: sympy.Expr) -> float:
    if expr.has(sympy.Sum):
        expr = evaluate_sums(expr)
    return float(expr)


def _int(value) -> int | None:
    if value is None:
        return None
    value = sympy.sympify(value)
    return int(value) if value.is_number and value == int(value) else None
