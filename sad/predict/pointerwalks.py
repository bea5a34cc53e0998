"""The loop model's view of a C pointer walk as a counted loop.

Data flow: sad.predict.sourceloops meets an innermost while loop that walks a pointer (``while (p < end) *p++ =
0.5 * *q++``, a for over a pointer; sad.analysis.whileloops.pointer_span reads where it starts and ends) →
`as_do`: a DO loop over the walk's offset from its base, whose body reads and writes the bases' elements
(``*p`` → ``v[k]``, ``*q`` → ``w[k + 0]``, ``p[1]`` → ``v[k + 1]``) and leaves the pointers' own steps out →
priced by sad.predict.incore (the compiled loop) and sad.predict.reuse (which level serves each element) as
any counted loop is. The IR keeps the while loop: sad.analysis counts it, this view only prices it.

The C frontend already lowers a for loop over a pointer declared outside it to a counted loop over a hidden
offset (frontends/c/stmts.py, ``_pointer_loop``); what reaches here is the rest: while loops, a for that
declares its pointer, several pointers stepping together.
"""
from __future__ import annotations

import copy
from collections.abc import Callable

from sad import ir
from sad.analysis import whileloops
from sad.ir.walk import walk, walk_stmts

_LAST = {"lt": -1, "le": 0, "gt": 1, "ge": 0}   # the bound's offset to the last value a pass runs with


def as_do(loop: ir.While, before: list[ir.Stmt], proc: ir.Procedure,
          declared: Callable[[str], ir.Variable | None]) -> ir.Do | None:
    """The walk as a DO loop over its offset (index ``<pointer>__k``), or None where it is no such walk: a test
    at its end, a step that is not a number, another pointer the body moves otherwise than by one constant
    step, or a pointer used otherwise than to reach an element."""
    span = whileloops.pointer_span(loop, before, proc, declared)
    size = _whole(span.found.step) if span is not None else None
    if span is None or loop.test_at_end or size is None:
        return None
    step = span.found.sign * size
    op = span.found.op if span.found.op != "ne" else ("lt" if step > 0 else "gt")
    if op not in _LAST or (step > 0) != (op in ("lt", "le")):
        return None
    index = f"{span.found.var.name}__k"
    walkers = _walkers(loop, before, span, declared, index, step)
    if walkers is None:
        return None
    updates = {id(update) for update, _ in walkers.values()}
    body = [copy.deepcopy(s) for s in loop.body if id(s) not in updates]
    if not _rewritten(body, {name: at for name, (_, at) in walkers.items()}):
        return None
    hi = _plus(span.bound, _LAST[op])
    return ir.Do(index=index, lo=span.start, hi=hi, step=None if step == 1 else _int(step), body=body,
                 loc=loop.loc)


def _walkers(loop: ir.While, before: list[ir.Stmt], span: whileloops.PointerSpan,
             declared: Callable[[str], ir.Variable | None], index: str, step: int
             ) -> dict[str, tuple[ir.Assign, tuple[str, ir.Expr]]] | None:
    """Each pointer the body steps (``p = p + c``, once, among its own statements) with its update and the
    element it reaches at the DO index: the walk's own pointer the base's element at the index, another one
    its start's offset plus c per pass (``q``: w's element at k - start + q's start offset, for steps of one);
    None where a pointer is assigned otherwise or does not start at a known address."""
    k = ir.Var(index, type="integer")
    found: dict[str, tuple[ir.Assign, tuple[str, ir.Expr]]] = {}
    pointers = {s.target.name for s in walk_stmts(loop.body) if isinstance(s, ir.Assign)
                and isinstance(s.target, ir.Var) and s.target.type == "pointer"}
    for name in sorted(pointers):
        updates = [s for s in loop.body if isinstance(s, ir.Assign) and isinstance(s.target, ir.Var)
                   and s.target.name == name]
        writes = [s for s in walk_stmts(loop.body) if isinstance(s, ir.Assign)
                  and isinstance(s.target, ir.Var) and s.target.name == name]
        moved = _constant_step(updates[0], name) if len(updates) == 1 and len(writes) == 1 else None
        if moved is None:
            return None
        if name == span.found.var.name:
            found[name] = updates[0], (span.base, k)
            continue
        start = whileloops.address(whileloops.assigned_before(before, name), declared)
        if start is None or abs(step) != 1 or start[0] in whileloops.assigned_names(before):
            return None
        passes = _times(ir.BinOp("sub", k, span.start, type="integer"), moved * step)
        found[name] = updates[0], (start[0], ir.BinOp("add", start[1], passes, type="integer"))
    return found


def _rewritten(body: list[ir.Stmt], walkers: dict[str, tuple[str, ir.Expr]]) -> bool:
    """Turn, in place, each element reached through a walking pointer into its base's element (``*q``, ``q[c]``);
    False where a walking pointer is read otherwise (compared, passed, copied) or reaches a multi-level
    element."""
    for stmt in walk_stmts(body):
        for node in walk(stmt):
            if isinstance(node, ir.ArrayRef) and node.name in walkers:
                if len(node.indices) > 1:
                    return False
                base, at = walkers[node.name]
                node.name = base
                node.indices = [copy.deepcopy(at) if not node.indices else
                                ir.BinOp("add", copy.deepcopy(at), node.indices[0], type="integer")]
            elif isinstance(node, ir.Var) and node.name in walkers:
                return False
    return True


def _constant_step(update: ir.Assign, name: str) -> int | None:
    """c of ``name = name + c`` (or - c) with c an integer constant, None otherwise."""
    value = update.value
    if not isinstance(value, ir.BinOp) or value.op not in ("add", "sub") or not isinstance(value.left, ir.Var) \
            or value.left.name != name:
        return None
    c = _whole(value.right)
    return None if c is None else c if value.op == "add" else -c


def _whole(expr: ir.Expr) -> int | None:
    """A non-zero integer constant's value, else None."""
    if isinstance(expr, ir.Const) and isinstance(expr.value, int) and not isinstance(expr.value, bool) \
            and expr.value != 0:
        return expr.value
    return None


def _int(value: int) -> ir.Const:
    return ir.Const(value, type="integer")


def _plus(expr: ir.Expr, c: int) -> ir.Expr:
    return expr if c == 0 else ir.BinOp("add", expr, _int(c), type="integer")


def _times(expr: ir.Expr, c: int) -> ir.Expr:
    return expr if c == 1 else ir.BinOp("mul", _int(c), expr, type="integer")
