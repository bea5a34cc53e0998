"""Passed elements: an array's elements at constant subscripts that one call leaves and a later call reads.

Data flow: a helper of the value backtracer (sad.analysis.values) for the binding of a call's callee
(sad.analysis.calls) and for an element the caller reads itself. LAPACK's tall-skinny QR keeps its block sizes
in its factor's header: DGEQR stores `T(2) = MB` and `T(3) = NB`, and DGEMQR, given the same T, reads `MB =
INT(T(2))`. In DGEMQR alone T(2) is a run-time value (`DGEMQR.T_2`, sad.analysis.values' element rule); at a
call it is what the nearest earlier call passing the very same actual left in that element (DGETSLS passes
`WORK(LW2+1)` to both). A caller reads such an element itself after a workspace query (DGETSLS' `TSZO =
INT(TQ(1))` after `CALL DGEQR(..., TQ, -1, ...)`); an assignment to it before the call no longer holds there.

This module reads the IR only: which constant elements a routine reads of a one-dimensional array formal,
every statement that may write such an array (an assignment to an element, a call it is passed to: the
analysis of modified formals covers scalars only), so that the value a routine leaves in one element can be
followed through its assignments (sad.analysis.conditional), and which statements pass an array on.
"""
from __future__ import annotations

from dataclasses import dataclass

from sad import ir

_FIRST = ir.Const(1, type="integer")  # the whole array passed: from its first element on


@dataclass(frozen=True)
class Write:
    """A statement that may write an element of the formal: an assignment to `where`, or a call passed the
    element `where` (it may write that element and every one after it, never one before)."""
    stmt: ir.Stmt
    where: ir.Expr
    from_on: bool


def one_dimensional(proc: ir.Procedure, name: str, any_storage: bool = False) -> bool:
    """Whether `name` is a Fortran array formal of `proc` (any array of it, with `any_storage`) with one
    dimension from 1: its element I is the I-th in storage order, as a one-dimensional formal sees it."""
    decl = proc.variables.get(name)
    if proc.language != "fortran" or decl is None or not decl.dims or len(decl.dims) != 1 \
            or not (any_storage or decl.storage == "formal"):
        return False
    low = decl.dims[0][0]
    return low is None or (isinstance(low, ir.Const) and low.value == 1)


def read_offsets(proc: ir.Procedure, name: str) -> tuple[int, ...]:
    """The constant subscripts `proc` reads the one-dimensional formal `name` at (`T(2)`), in order."""
    if not one_dimensional(proc, name):
        return ()
    found: set[int] = set()
    for stmt in ir.walk_stmts(proc.body):
        for expr in ir.own_exprs(stmt):
            for node in ir.walk(expr):
                if isinstance(node, ir.ArrayRef) and node.name == name and len(node.indices) == 1 \
                        and isinstance(node.indices[0], ir.Const) and type(node.indices[0].value) is int:
                    found.add(node.indices[0].value)
    return tuple(sorted(found))


def writes_of(proc: ir.Procedure, name: str) -> list[Write] | None:
    """Every statement of `proc` that may write an element of its one-dimensional formal `name`: each call it
    is passed to may (sad.analysis.values' ModifiedFormals tells of scalars only), the whole array from its
    first element on. None where one may write it in a way no subscript tells (an assignment to the whole
    array, a READ, a message)."""
    writes: list[Write] = []
    for stmt in ir.walk_stmts(proc.body):
        if isinstance(stmt, ir.Assign) and isinstance(stmt.target, (ir.Var, ir.ArrayRef)) \
                and stmt.target.name == name:
            if not isinstance(stmt.target, ir.ArrayRef) or len(stmt.target.indices) != 1:
                return None
            writes.append(Write(stmt, stmt.target.indices[0], False))
        elif isinstance(stmt, (ir.IO, ir.Message)) and _mentions(stmt, name):
            if isinstance(stmt, ir.Message) or any(_names(t, name) for t in stmt.targets):
                return None
        for args in _arguments_passed(stmt):
            for arg in args:
                if not isinstance(arg, (ir.Var, ir.ArrayRef)) or arg.name != name:
                    continue
                if isinstance(arg, ir.ArrayRef) and len(arg.indices) != 1:
                    return None
                writes.append(Write(stmt, arg.indices[0] if isinstance(arg, ir.ArrayRef) else _FIRST, True))
    return writes


def passes(stmt: ir.Stmt, name: str) -> bool:
    """Whether a statement passes the array `name` (or an element of it) to a routine, reads into it or
    sends or receives it: a statement that may store in it other than by an assignment of its own."""
    if isinstance(stmt, (ir.IO, ir.Message)):
        return _mentions(stmt, name)
    return any(isinstance(a, (ir.Var, ir.ArrayRef)) and a.name == name for args in _arguments_passed(stmt)
               for a in args)


def _arguments_passed(stmt: ir.Stmt) -> list[list[ir.Expr]]:
    """The argument lists of the calls a statement makes itself (a CALL, references to functions not
    intrinsic: `MB = INT(T(2))` only reads)."""
    calls = [c.args for e in ir.own_exprs(stmt) for c in ir.walk(e) if isinstance(c, ir.FuncCall) and not c.intrinsic]
    if isinstance(stmt, ir.CallStmt):
        calls.append(stmt.args)
    return calls


def _mentions(stmt: ir.Stmt, name: str) -> bool:
    return any(_names(e, name) for e in ir.own_exprs(stmt))


def _names(expr: ir.Expr, name: str) -> bool:
    return any(isinstance(n, (ir.Var, ir.ArrayRef)) and n.name == name for n in ir.walk(expr))
