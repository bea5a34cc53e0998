"""A C switch without fall-through → an if / else-if chain on its selector.

Data flow: `stmts.StmtLowerer._Switch` lowers a switch's body to a flat list (a labelled Continue at each case,
``Goto .swN.end`` for each break) and asks `as_if_chain` whether that list is a plain chain of cases: each
case's statements end in a jump (break, continue, return, goto) and no other statement jumps to a case or out
of the switch. Such a switch is an If whose arms test ``selector == value`` (several values: joined by ``or``)
and whose else is the default's statements, so the analysis treats it as it treats the equivalent if chain: a
test of loop indices (``switch (i % 3)``) is an exact indicator, any other test a branch probability per
arm, as an If's. Anything else (fall-through, a break inside a nested if; and, decided by the caller, a
selector with side effects or calls) keeps the ComputedGoto lowering. The chain prices a comparison per arm
tested where a compiled switch of many cases jumps through a table: a few cheap operations more per entry.
"""
from __future__ import annotations

import copy

from sad import ir

from . import typesys as ts
from .context import JumpFrame, set_ctype

_ENDS = (ir.Goto, ir.Return, ir.Stop)


def as_if_chain(selector: ir.Expr, frame: JumpFrame, body: list[ir.Stmt], loc: ir.Loc) -> ir.If | None:
    """The If equivalent to the switch (``frame``: its case labels and values), or None where the body is not
    a chain of cases that each end in a jump."""
    segments = _segments(body, frame)
    if segments is None or not _only_final_breaks(segments, _labels(frame) | {frame.brk}):
        return None
    arms: list[ir.IfArm] = []
    orelse: list[ir.Stmt] | None = None
    for label, stmts in segments:
        if label == frame.default:
            orelse = stmts
        else:
            values = frame.cases[frame.targets.index(label)]
            arms.append(ir.IfArm(_matches(selector, values), stmts, loc))
    if not arms:
        return None
    return ir.If(arms, orelse, loc=loc)


def _segments(body: list[ir.Stmt], frame: JumpFrame) -> list[tuple[str, list[ir.Stmt]]] | None:
    """(case label, its statements) in order; each case's label kept as an unlabelled Continue on its line (gcov
    counts the case line) and a final break as an unlabelled Continue on the break's line."""
    labels = _labels(frame)
    out: list[tuple[str, list[ir.Stmt]]] = []
    for stmt in body:
        if isinstance(stmt, ir.Continue) and stmt.label in labels:
            if out and not _ends_in_jump(out[-1][1]):
                return None        # the previous case falls through into this one
            out.append((stmt.label, [ir.Continue(loc=stmt.loc)]))
        elif not out:
            return None            # statements before the first case: never run, or jumped into
        else:
            out[-1][1].append(stmt)
    if {label for label, _ in out} != labels:
        return None                # a case inside a nested statement (Duff's device)
    for _, stmts in out:
        last = stmts[-1]
        if isinstance(last, ir.Goto) and last.target == frame.brk:
            stmts[-1] = ir.Continue(loc=last.loc)
    return out


def _ends_in_jump(stmts: list[ir.Stmt]) -> bool:
    return isinstance(stmts[-1], _ENDS) and stmts[-1].label is None


def _labels(frame: JumpFrame) -> set[str]:
    return set(frame.targets) | ({frame.default} if frame.default else set())


def _only_final_breaks(segments: list[tuple[str, list[ir.Stmt]]], own: set[str]) -> bool:
    """No statement left jumps to the switch's end or to one of its cases (``own``), and no case's statements
    carry a C label a goto could enter by (the labels the lowering invents, a nested loop's break and continue,
    are reached from inside that loop only)."""
    for _, stmts in segments:
        for stmt in ir.walk_stmts(stmts):
            user_label = stmt.label is not None and not stmt.label.startswith(".")
            if user_label or stmt.label in own or own.intersection(ir.jump_targets(stmt)):
                return False
    return True


def _matches(selector: ir.Expr, values: list[ir.Expr]) -> ir.Expr:
    """selector == v1 or selector == v2 ... (a case list's values), typed as C's comparisons are (int); each test
    has a copy of the selector, as a written chain would."""
    test: ir.Expr | None = None
    for value in values:
        eq = set_ctype(ir.BinOp("eq", copy.deepcopy(selector), value), ts.INT)
        test = eq if test is None else set_ctype(ir.BinOp("or", test, eq), ts.INT)
    assert test is not None
    return test
