"""What holds at a call statement: a value's choices as the IFs on the way to the call leave them.

Data flow: the value backtracer (sad.analysis.values) gives a variable assigned in several places as a
Piecewise of its values under the conditions of the IFs that assign it; at a call, some of those choices
cannot be the one made. The call expander (sad.analysis.calls) asks here before binding such a value to a
callee's formal, and the backtracer itself before binding the callee of an earlier call that left a header
element (`values._passed_element`: DGETSLS passes DGEQR's `TQ` to DGEMQR). Two things decide:
- the IF arms around the call: the arm holding it has its condition true, the arms before it false (DLARF's
  LASTV is M where `IF (APPLYLEFT)` calls DGEMV, not a choice of M, N and 0);
- the IFs passed on the way whose arms each end by returning: none of their conditions held (DGETSLS's `IF
  (INFO.NE.0) ... RETURN` before its factoring call, so its argument checks passed there).
A choice whose value would make a condition that holds false is dropped. The module reads the IR and sympy
values only: the conditions are evaluated through the `Condition` callable its caller passes.
"""
from __future__ import annotations

from collections.abc import Callable

import sympy

from sad import ir
from sad.analysis.conditional import is_condition
from sad.analysis.products import tree_size

# A condition's value just before a statement, or None where it cannot be told (ValueResolver.expr_at)
Condition = Callable[[ir.Expr | None, ir.Stmt], sympy.Basic | None]

_CONJUNCT_NODES = 80  # the largest comparison of a choice split piece by piece (_conjuncts)
_CHOICE_NODES = 4_000  # the largest choice whose pieces are read for what `choice == number` says


def within(value: sympy.Expr, body: list[ir.Stmt], at: ir.Stmt, condition: Condition) -> sympy.Expr:
    """`value`'s choices as the IF arms around `at` (a statement of `body`) leave them: their conditions hold
    there, the earlier arms' do not; nor do those of the IFs before it that return (_passed_returns)."""
    known: dict = {}
    for stmts, k in ir.path_to(body, at) or []:
        _passed_returns(stmts[:k], condition, known)
        stmt = stmts[k]
        if isinstance(stmt, ir.If):
            _around(stmt, at, condition, known)
    holding = [c for c, v in known.items() if v is sympy.true and c.has(value)]
    pruned = value.xreplace(known) if known else value
    if not isinstance(pruned, sympy.Piecewise) or not holding or len(pruned.args) != len(value.args):
        return pruned
    # a choice that would make a condition that holds here false is not the one made (LASTV = 0 where
    # `IF (LASTV.GT.0)` calls DGEMV)
    pieces = [(v, c) for (v, c), (original, _) in zip(pruned.args, value.args)
              if not any(h.xreplace({value: original}) is sympy.false for h in holding)]
    if len(pieces) != len(pruned.args) and pieces:
        pieces[-1] = (pieces[-1][0], sympy.true)
        return pieces[0][0] if len(pieces) == 1 else sympy.Piecewise(*pieces)
    return pruned


def _around(stmt: ir.If, at: ir.Stmt, condition: Condition, known: dict) -> None:
    """Note the truth of the conditions of `stmt`'s arms up to the one holding `at`: that one true, the
    earlier ones false; what a true condition implies piece by piece true as well."""
    inside = next((j for j, arm in enumerate(stmt.arms) if any(s is at for s in ir.walk_stmts(arm.body))),
                  len(stmt.arms))
    for j, arm in enumerate(stmt.arms[:inside + 1]):
        cond = condition(arm.cond, stmt)
        if cond is None or not is_condition(cond) or cond in (sympy.true, sympy.false):
            continue
        known[cond] = sympy.true if j == inside else sympy.false
        if j == inside:  # LASTV > 0, with LASTV = M where TAU /= 0 (and SIDE is 'L'): TAU /= 0
            for conjunct in _conjuncts(cond.xreplace(known)):
                known.setdefault(conjunct, sympy.true)


def _passed_returns(before: list[ir.Stmt], condition: Condition, known: dict) -> None:
    """The conditions of the IFs in `before` (the statements a straight run passes on its way to a call)
    whose first arms each end by returning: none of them held where the run goes on (DGETSLS's `IF
    (INFO.NE.0) ... RETURN` and `IF (LQUERY) ... RETURN` before its factoring call, so its argument
    checks passed there and its workspace queries stored their sizes)."""
    for stmt in before:
        if not isinstance(stmt, ir.If):
            continue
        for arm in stmt.arms:
            if not _returns(arm.body):
                break
            cond = condition(arm.cond, stmt)
            if cond is not None and is_condition(cond) and cond not in (sympy.true, sympy.false):
                negated(cond, known)


def _returns(body: list[ir.Stmt]) -> bool:
    """Whether a block ends by leaving the routine (RETURN, STOP) with no jump before that could leave it
    another way."""
    return bool(body) and isinstance(body[-1], (ir.Return, ir.Stop)) and \
        not any(ir.jump_targets(s) for s in ir.walk_stmts(body[:-1]))


def _operands_of(cond: sympy.Basic, op: type[sympy.Basic]) -> tuple:
    """The operands of an And (Or), or the condition alone."""
    return tuple(cond.args) if isinstance(cond, op) else (cond,)


def negated(cond: sympy.Basic, known: dict) -> None:
    """Note that `cond` is false: each of its disjuncts, each with its negation true (`M < 0` false is `M >= 0`
    true, the form a choice's condition takes); a comparison of a choice, as `_chosen_piece` tells."""
    for part in _operands_of(cond, sympy.Or):
        if isinstance(part, (sympy.Eq, sympy.Ne)) and _chosen_piece(part, isinstance(part, sympy.Ne), known):
            continue
        _noted(part, sympy.false, known)


def _noted(part: sympy.Basic, truth: sympy.Basic, known: dict) -> None:
    """Note one condition's truth and its negation's opposite."""
    known[part] = truth
    negation = sympy.Not(part)
    if negation not in (sympy.true, sympy.false):
        known.setdefault(negation, sympy.Not(truth))


def _chosen_piece(relation: sympy.Basic, equal: bool, known: dict) -> bool:
    """Where `relation`, a choice (Eq, Ne) compared to a number, is known to have `equal` as the truth of
    `choice == number`: the piece taken is one whose value may be that number, and a piece is taken where its
    condition holds and every earlier one's does not. What holds for every such piece holds (noted in
    `known`). INFO after a routine's argument checks is such a choice: past `IF (INFO.NE.0) RETURN` its
    checks all passed (DGETSLS: M >= 0, N >= 0, LDA >= MAX(1, M), ...). False (nothing noted) where it
    cannot tell."""
    choice, number = relation.args if relation.args[1].is_Number else relation.args[::-1]
    if not (equal and isinstance(choice, sympy.Piecewise) and number.is_Number) \
            or tree_size([choice]) > _CHOICE_NODES:
        return False
    before: dict = {}  # what every earlier piece's condition being false says
    common: dict | None = None
    for value, cond in sympy.piecewise_fold(choice).args:
        if not (value.is_Number and value != number):
            facts = dict(before)
            for conjunct in _operands_of(cond, sympy.And):
                if conjunct is not sympy.true:
                    _noted(conjunct, sympy.true, facts)
            common = facts if common is None else {k: v for k, v in common.items() if facts.get(k) is v}
        if not isinstance(cond, sympy.And):
            for part in _operands_of(cond, sympy.Or):
                _noted(part, sympy.false, before)
    if not common:
        return False
    for k, v in common.items():
        known.setdefault(k, v)
    return True


def _conjuncts(cond: sympy.Basic) -> list[sympy.Basic]:
    """What a condition that holds implies piece by piece: the conjuncts of a conjunction, and of a
    comparison of a choice whose other choices fail it (`Piecewise((M, TAU /= 0), (0, True)) > 0`: TAU /= 0
    and M > 0)."""
    if isinstance(cond, sympy.And):
        return list(cond.args)
    if not (cond.is_Relational and cond.has(sympy.Piecewise)) or tree_size([cond]) > _CONJUNCT_NODES:
        return []
    folded = sympy.piecewise_fold(cond)
    if not isinstance(folded, sympy.Piecewise):
        return []
    (value, where), *rest = folded.args
    if value is sympy.false or any(v is not sympy.false for v, _ in rest):
        return []  # more than the first choice passes: nothing follows piece by piece
    return [where, *([value] if value is not sympy.true else [])]
