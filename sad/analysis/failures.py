"""Failure returns: the arms through which a routine reports through its INFO argument that it could not do
its work, and leaves.

Data flow: a leaf of the analysis, asked by the branch model (sad.analysis.branches, through
sad.analysis.jumps.ErrorExits) when it weighs an IF's arms, and by the symbolic runs of
sad.analysis.conditional when they follow a status value to a routine's end. Both take such an arm, where its
test depends on data, as not taken (a matrix that is singular, not positive definite, an iteration that did
not converge), so that the counts and the status a caller tests after the call (`IF (INFO.EQ.0)` in DGESV
and DPOSV) rest on the same assumption.
"""
from __future__ import annotations

import itertools

from sad import ir
from sad.ir.nesting import nesting


def error_return(proc: ir.Procedure, body: list[ir.Stmt]) -> bool:
    """An arm that reports a failure through the routine's INFO argument and leaves (LAPACK's `INFO = J;
    RETURN`, or DPOTF2's `GO TO 30` to `30 INFO = J` ... RETURN). An argument error (INFO set to a negative
    constant) is no such exit: the caller's values decide it. An arm of assignments that falls through to
    the label the routine's failure returns jump to leaves with them (DPTTRF's `IF (D(N).LE.ZERO) INFO = N`
    before `30 CONTINUE; RETURN`, where its loops' `INFO = I; GO TO 30` arrive); a status set by a test at
    the end with no failure exit there (an expert driver's `IF (RCOND.LT.EPS) INFO = N + 1`) stays a status."""
    if "INFO" not in proc.formals or not body:
        return False
    if _joins_failures(proc, body):
        return any(_sets_info(stmt) for stmt in body)
    if not isinstance(body[-1], (ir.Return, ir.Goto)):
        return False
    tail = list(body)
    if isinstance(body[-1], ir.Goto):
        tail += straight_from(proc, body[-1].target)
        if not tail or not isinstance(tail[-1], ir.Return):
            return False
    return any(_sets_info(stmt) for stmt in tail)


def _joins_failures(proc: ir.Procedure, body: list[ir.Stmt]) -> bool:
    """Whether `body` is all assignments, an arm of an IF of the routine's own statement list that is followed
    by a label from which the routine returns straight away, and a failure return elsewhere jumps there."""
    if not all(isinstance(stmt, ir.Assign) for stmt in body):
        return False
    at = next((k for k, stmt in enumerate(proc.body) if isinstance(stmt, ir.If)
               and any(arm.body is body for arm in stmt.arms)), None)
    label = proc.body[at + 1].label if at is not None and at + 1 < len(proc.body) else None
    if label is None or not straight_from(proc, label):
        return False
    nested = nesting(proc)
    arms = [nested.arm_ending(jump) for jump in nested.jumps_to.get(label, [])]
    return any(found is not None and isinstance(found[0].body[-1], ir.Goto) and error_return(proc, found[0].body)
               for found in arms)


def straight_from(proc: ir.Procedure, label: str) -> list[ir.Stmt]:
    """The statements from `label` on, in its statement list, while they are CONTINUEs and assignments,
    ending with the RETURN (or the routine's end) they reach; [] where anything else comes first."""
    # the statement lists looked through lazily: the label is nearly always in the routine's own list
    bodies = itertools.chain([proc.body], (b for stmt in ir.walk_stmts(proc.body) for b in ir.child_bodies(stmt)))
    for stmts in bodies:
        start = next((i for i, stmt in enumerate(stmts) if stmt.label == label), None)
        if start is None:
            continue
        run = []
        for stmt in stmts[start:]:
            run.append(stmt)
            if isinstance(stmt, ir.Return):
                return run
            if not isinstance(stmt, (ir.Continue, ir.Assign)):
                return []
        return run + [ir.Return(loc=run[-1].loc)] if stmts is proc.body else []
    return []


def _sets_info(stmt: ir.Stmt) -> bool:
    if not (isinstance(stmt, ir.Assign) and isinstance(stmt.target, ir.Var) and stmt.target.name == "INFO"):
        return False
    value = stmt.value
    negative = isinstance(value, ir.UnOp) and value.op == "neg" and isinstance(value.operand, ir.Const)
    return not negative and not (isinstance(value, ir.Const) and isinstance(value.value, int) and value.value <= 0)
