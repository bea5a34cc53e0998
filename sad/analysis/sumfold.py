"""sympy's Piecewise folding kept from pulling a condition on a sum's own index out of that sum.

Data flow: installed by sad.analysis.counting, which builds the open sums (sympy.Sum) of loop bodies; sympy
folds the summand of every Sum it builds (AddWithLimits calls piecewise_fold), and piecewise_fold descends
into a Sum inside that summand as into any other node: `Sum(Piecewise((3, k1 > 0), (0, True)), (k1, 0, n))`
becomes `Piecewise((Sum(3, (k1, 0, n)), k1 > 0), (Sum(0, (k1, 0, n)), True))`, where k1 is no longer the
sum's index but a free symbol. A callee's loop in a caller's loop in another caller's loop (DTRMV under
DTRTI2 under DTRTRI) is such a sum of a sum, and the bound counts came out with k1 free.

Here a Sum whose summand holds a Piecewise whose conditions depend on one of the Sum's own indices is
folded as a whole: it stands for a new symbol while the expression around it is folded, and its own
summand was folded when it was built. Every other fold is sympy's, with shortcuts to the same result
(_fold): a relation or logical node whose choices all test the same condition is not folded over every
combination of their pieces, a logical node whose choices test different conditions takes each as the
if-then-else it is (what a condition makes of a choice anyway), and a combination that divides by zero is
undefined (nan) instead of an exception.
"""
from __future__ import annotations

from itertools import product

import sympy
import sympy.concrete.expr_with_limits as _with_limits
import sympy.functions.elementary.piecewise as _piecewise
from sympy.core.sorting import ordered
from sympy.functions.elementary.piecewise import ExprCondPair
from sympy.logic.boolalg import Boolean, BooleanFunction

_sympy_fold = _piecewise.piecewise_fold


def _fold(expr, evaluate=True):
    """sympy's piecewise_fold(expr, evaluate), the same expression, without the product of pieces where the
    choices of the arguments of one node share their test. A node other than Add and Mul (a relation, an
    And, an Or) whose folded arguments are choices is folded by sympy over every combination of their
    pieces: a test of SORMQR's on its formal NQ, bound in SORMHR to `NH if LEFT else M`, is a conjunction
    of a dozen clauses, each such a choice, and its 2**12 combinations took 20 s. Where every choice is
    two pieces, (a, C) and (b, True), with the same C, a combination that takes some first pieces has the
    condition C and is dropped by Piecewise's own collapse as a repeat of the first combination's, which
    takes all first pieces; the last takes all second pieces. So those two combinations alone make the
    same Piecewise (with evaluation; without it sympy keeps every combination, and its fold is used)."""
    if evaluate is not True or not isinstance(expr, sympy.Basic) or isinstance(expr, (ExprCondPair, sympy.Piecewise)) \
            or not expr.has(sympy.Piecewise):
        return _sympy_fold(expr, evaluate)
    if expr.is_Add or expr.is_Mul:
        return _fold_operands(expr) if expr.is_commutative else _sympy_fold(expr, evaluate)
    folded = list(map(_piecewise.piecewise_fold, expr.args))  # sympy's recursion, through the installed fold
    choices = [_pieces(f) for f in folded]
    test = next((c[0][1] for c in choices if len(c) > 1), None)
    if test is not None and all(len(c) == 1 or (len(c) == 2 and c[0][1] == test and c[1][1] is sympy.true)
                                for c in choices):
        choices = [[c[0], c[-1]] if len(c) == 2 else [c[0], c[0]] for c in choices]
        combinations = [tuple(c[0] for c in choices), tuple(c[1] for c in choices)]
    elif isinstance(expr, BooleanFunction):
        return _logical(expr.func, folded)
    else:
        combinations = list(product(*choices))
    return _combined(expr.func, combinations)


def _logical(func, folded: list) -> sympy.Basic:
    """A logical node (And, Or, Not, ITE) on its folded operands, a choice among truth values written as the
    if-then-else it is: `A & Piecewise((R1, C), (R2, True))` is `A & ITE(C, R1, R2)`, the same truth
    everywhere. sympy folds such a node over every combination of its operands' pieces into a choice of the
    whole conjunction, which a condition (ExprCondPair) then rewrites as ITE again: DGELQ's workspace tests,
    clauses on its block size NB (a choice holding ILAENV's value) and on sizes chosen from NB, made
    `sad check-counts` of a driver calling it take 24 CPU s that way, 4 s this way."""
    return func(*(_as_ite(f) for f in folded))


def _as_ite(value: sympy.Basic) -> sympy.Basic:
    """A choice among truth values as nested ITEs, pieces in order; anything else as it is. A choice with
    no piece for True (undefined somewhere) is left to sympy's rewrite."""
    if not isinstance(value, sympy.Piecewise):
        return value
    *first, (last, cond) = value.args
    if cond is not sympy.true or not all(isinstance(v, Boolean) for v, _ in value.args):
        return value.rewrite(sympy.ITE)
    out = last
    for v, c in reversed(first):
        out = sympy.ITE(c, v, out)
    return out


def _fold_operands(expr: sympy.Expr) -> sympy.Expr:
    """sympy's piecewise_fold of a sum or a product, with the operands that fold to choices on the same
    conditions joined before the pieces are combined. sympy joins the operands that are choices already,
    but folds a product holding one (`c*Piecewise((a, C), (b, True))`) into a choice afterwards, and then
    takes every combination of the operands' pieces: a loop body's terms, each a count times its path's
    indicator, made 2**m combinations for m terms under the same test (DTPQRT's blocked loop over DTPRFB:
    one open sum did not fold in 30 minutes). Operands with the same conditions, in the same order, take
    their pieces together, piece by piece, which is the same choice: any other combination holds a
    condition an earlier combination met and is dropped by Piecewise's own collapse. The joined choice
    stands where its first operand stood, so the combinations left come in the order sympy's product gives
    them."""
    operands: list[sympy.Expr | None] = [_piecewise.piecewise_fold(a) for a in _sympy_order(expr)]
    for at in _by_conditions(enumerate(operands)).values():
        if len(at) > 1:
            operands[at[0]] = _joined([operands[n] for n in at], expr.func)
            for n in at[1:]:
                operands[n] = None
    return _combined(expr.func, product(*[_pieces(a) for a in operands if a is not None]))


def _pieces(operand) -> tuple | list:
    """An operand's pieces as (value, condition): a choice's own, anything else one piece under True."""
    return operand.args if isinstance(operand, sympy.Piecewise) else [(operand, sympy.true)]


def _combined(func, combinations) -> sympy.Expr:
    """The choice of `func` over combinations of the operands' pieces, each under the conjunction of their
    conditions, folded again where a value still holds a choice (the end of sympy's piecewise_fold)."""
    new_args = []
    for ec in combinations:
        e, c = zip(*ec)
        new_args.append((_value(func, e), sympy.And(*c)))
    rv = sympy.Piecewise(*new_args)
    if any(s.expr.has(sympy.Piecewise) for p in rv.atoms(sympy.Piecewise) for s in p.args):
        return _piecewise.piecewise_fold(rv)
    return rv


def _value(func, operands: tuple) -> sympy.Expr:
    """`func` of one combination's operands. A combination may hold a division by zero where the source
    guards it (DGELQ's `MOD(N - M, NB - M)` under `NB.GT.M`, folded with the piece where NB = M): that
    piece is undefined (nan), as sympy's own 0/0 is, and a count bound to it is Unbindable (counting)."""
    try:
        return func(*operands)
    except ZeroDivisionError:
        return sympy.nan


def _sympy_order(expr: sympy.Expr) -> list[sympy.Expr]:
    """The operands of a sum or a product in the order sympy's piecewise_fold combines them: those that are
    not choices as they stand, then the choices, joined where their conditions are the same, by their
    conditions (sympy's `ordered`)."""
    plain = [a for a in expr.args if not isinstance(a, sympy.Piecewise)]
    groups = _by_conditions(enumerate(expr.args))
    return plain + [expr.args[at[0]] if len(at) == 1 else _joined([expr.args[n] for n in at], expr.func)
                    for at in (groups[conditions] for conditions in ordered(groups))]


def _by_conditions(operands) -> dict[tuple, list[int]]:
    """The places of the choices among numbered operands, by their conditions, in the order first met."""
    places: dict[tuple, list[int]] = {}
    for n, a in operands:
        if isinstance(a, sympy.Piecewise):
            places.setdefault(tuple(c for _, c in a.args), []).append(n)
    return places


def _joined(choices: list, func) -> sympy.Piecewise:
    """Choices on the same conditions as one choice, their values under each condition taken together."""
    conditions = [c for _, c in choices[0].args]
    return sympy.Piecewise(*[(func(*[choice.args[i].expr for choice in choices]), c)
                             for i, c in enumerate(conditions)], evaluate=False)


def _binds_a_condition(s: sympy.Sum) -> bool:
    """Whether a condition of a Piecewise in the sum's summand depends on one of its indices."""
    indices = set(s.variables)
    return any(indices & cond.free_symbols for p in s.function.atoms(sympy.Piecewise) for _, cond in p.args)


def piecewise_fold(expr, evaluate=True):
    """sympy.piecewise_fold(expr, evaluate), with each Sum that binds a condition of its summand kept whole."""
    if not isinstance(expr, sympy.Basic) or not expr.has(sympy.Piecewise) or not expr.has(sympy.Sum):
        return _fold(expr, evaluate)
    closed = sorted((s for s in expr.atoms(sympy.Sum) if s.has(sympy.Piecewise) and _binds_a_condition(s)),
                    key=sympy.default_sort_key)
    if not closed:
        return _fold(expr, evaluate)
    # outermost sums only: an inner one travels inside the outer's placeholder
    outermost = [s for s in closed if not any(s is not t and t.has(s) for t in closed)]
    stand_in = {s: sympy.Symbol(f"_SUMFOLD_{n}") for n, s in enumerate(outermost)}  # names: deterministic order
    folded = _fold(expr.xreplace(stand_in), evaluate)
    return folded.xreplace({d: s for s, d in stand_in.items()})


def install() -> None:
    """Let sympy's Sum (and every other user of piecewise_fold in sympy) fold this way (idempotent)."""
    _piecewise.piecewise_fold = piecewise_fold
    _with_limits.piecewise_fold = piecewise_fold
