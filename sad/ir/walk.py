"""Walking the IR: one visitor base class and the generic traversals, all derived from each node's `_fields`.

Data flow: every pass after the frontends (call graph, value backtracing, cost counting, the SAD builder,
the gcov line model) reads the IR through these, so that a node kind added to `sad.ir.nodes` is walked
everywhere once its child fields are declared. The visitor follows pycparser: `NodeVisitor.visit` dispatches
to `visit_<ClassName>` and falls back to `generic_visit`, which visits the children; a visitor that computes
a value returns it from its `visit_` methods (pycparser's `c_generator` style) and overrides
`generic_visit` for the kinds it does not know.
"""
from __future__ import annotations

import copy
import dataclasses
from collections.abc import Callable, Iterator
from typing import Any

from sad.ir.nodes import (
    IO,
    ArithmeticIf,
    AssignedGoto,
    CallStmt,
    ComputedGoto,
    Do,
    Expr,
    FuncCall,
    Goto,
    IfArm,
    Node,
    Return,
    Stmt,
    Stop,
    Var,
)


class NodeVisitor:
    """Dispatch on the node's class name: `visit_BinOp(node, *args)`; unknown kinds go to
    `generic_visit`, which visits every child (with the same extra arguments) and returns None.
    Extra positional and keyword arguments are passed through unchanged (a value visitor's context)."""

    def visit(self, node: Node | None, *args: Any, **kwargs: Any) -> Any:
        """Visit `node` with its `visit_<Kind>` method (else `generic_visit`) and return what that returns."""
        if node is None:
            return None
        return self._method(type(node))(node, *args, **kwargs)

    def generic_visit(self, node: Node, *args: Any, **kwargs: Any) -> Any:
        """Visit every child of `node` in field order; returns None."""
        for child in node.child_nodes():
            self.visit(child, *args, **kwargs)
        return None

    def _method(self, kind: type) -> Callable[..., Any]:
        # The method name is looked up once per (visitor class, node class): walks are hot in large programs.
        key = (type(self), kind)
        name = _DISPATCH.get(key)
        if name is None:
            name = "visit_" + kind.__name__
            if not hasattr(self, name):
                name = "generic_visit"
            _DISPATCH[key] = name
        return getattr(self, name)


_DISPATCH: dict[tuple[type, type], str] = {}


def walk(node: Node) -> Iterator[Node]:
    """The node and all its descendants, depth first, in source order."""
    stack = [node]
    while stack:
        current = stack.pop()
        yield current
        children = current.child_nodes()
        children.reverse()
        stack.extend(children)


def walk_stmts(stmts: list[Stmt]) -> Iterator[Stmt]:
    """Every statement in a list, depth first, nested bodies included (expressions not entered)."""
    for stmt in stmts:
        yield stmt
        for body in child_bodies(stmt):
            yield from walk_stmts(body)


def child_bodies(node: Node) -> list[list[Stmt]]:
    """The nested statement lists of a compound statement, in source order (an IF's arms, then its ELSE)."""
    bodies: list[list[Stmt]] = []
    for name in node._bodies:
        value = getattr(node, name)
        if value is None:
            continue
        if value and isinstance(value[0], IfArm):
            bodies.extend(arm.body for arm in value)
        else:
            bodies.append(value)
    return bodies


def path_to(stmts: list[Stmt], at: Stmt) -> list[tuple[list[Stmt], int]] | None:
    """The statement lists from `stmts` down to the one holding `at`, with the index of the statement taken in
    each; None where `at` is not among them."""
    for k, stmt in enumerate(stmts):
        if stmt is at:
            return [(stmts, k)]
        for body in child_bodies(stmt):
            inner = path_to(body, at)
            if inner is not None:
                return [(stmts, k), *inner]
    return None


def expr_children(expr: Expr) -> list[Expr]:
    """The operand expressions of an expression node, in order."""
    return [child for child in expr.child_nodes() if isinstance(child, Expr)]


def own_exprs(stmt: Stmt) -> list[Expr]:
    """The expressions a statement evaluates itself (an IF's conditions included), not those of the
    statements nested in its bodies: its top-level expression children."""
    out: list[Expr] = []
    for child in stmt.child_nodes():
        if isinstance(child, Expr):
            out.append(child)
        elif isinstance(child, IfArm):
            out.append(child.cond)
    return out


def calls_in(node: Node) -> Iterator[CallStmt | FuncCall]:
    """Every call node (statement or function reference) below `node`, in source order."""
    for n in walk(node):
        if isinstance(n, (CallStmt, FuncCall)):
            yield n


def jump_targets(stmt: Stmt) -> list[str]:
    """The labels a statement may jump to, each once, in the order written: GOTO, computed GOTO (its default
    too), assigned GOTO (its list; empty when the list was omitted), arithmetic IF, and an I/O statement's
    END= and ERR= labels."""
    if isinstance(stmt, Goto):
        labels = [stmt.target]
    elif isinstance(stmt, ComputedGoto):
        labels = [*stmt.targets, *([stmt.default] if stmt.default else [])]
    elif isinstance(stmt, AssignedGoto):
        labels = list(stmt.targets)
    elif isinstance(stmt, ArithmeticIf):
        labels = [stmt.neg, stmt.zero, stmt.pos]
    elif isinstance(stmt, IO):
        labels = [label for label in (stmt.end_label, stmt.err_label) if label]
    else:
        labels = []
    return list(dict.fromkeys(labels))


def jumps_out(loop: Do) -> Iterator[Stmt]:
    """The statements of a loop's body that leave it other than by running out of trips: a jump to a label
    outside the body (an EXIT is one), a RETURN, a STOP."""
    inside = {s.label for s in walk_stmts(loop.body) if s.label is not None}
    for stmt in walk_stmts(loop.body):
        if isinstance(stmt, (Return, Stop)) or any(t not in inside for t in jump_targets(stmt)):
            yield stmt


def substitute(expr: Expr, mapping: dict[str, Expr]) -> Expr:
    """A copy of `expr` with Var(name) replaced by a copy of mapping[name], in every child field (a Fortran
    statement function inlined with its actual arguments; a C do-while's test reading a variable's old value)."""
    if isinstance(expr, Var) and expr.name in mapping:
        return copy.deepcopy(mapping[expr.name])
    new = copy.copy(expr)
    for f in dataclasses.fields(expr):
        value = getattr(expr, f.name)
        if isinstance(value, Expr):
            setattr(new, f.name, substitute(value, mapping))
        elif isinstance(value, list):
            setattr(new, f.name, [substitute(v, mapping) if isinstance(v, Expr) else v for v in value])
    return new
