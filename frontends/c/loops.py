"""Recognising canonical C for-loops (the syntactic half; `stmts` adds the semantic checks and builds Do).

Data flow: `stmts._For` calls `match_for` on pycparser's For node; a `ForShape` says which variable is the
index, its start, the comparison (normalised to `index OP bound`), the bound and the step. `written_names`
and `is_pure` let `stmts` check that the body does not write the index or the bound and that the bound has
no side effects. Everything else lowers to init + While.

Canonical: init `i = a` / `int i = a` (other comma-separated inits allowed), condition `i OP b` or `b OP i`
with OP in < <= > >= !=, increment i++ / ++i / i-- / --i / i += s / i -= s / i = i + s / i = s + i /
i = i - s (other comma-separated increments allowed). The step must move towards the bound (< and <= need
a positive step, > and >= a negative one; an unknown `+= s` counts as positive, `-= s` as negative); != is
canonical only for a constant step of +1 or -1.

An index shifted by a term free of it on its side of the comparison, `i + 3 < n`, `3 + i < n`, `i - 2 >= 0`
(hand-unrolled loops, tests of a neighbour `i + 1 < n`), is the same loop as `i < n - 3`: the term moves to
the bound's side (`ForShape.shifted`; `stmts` keeps such a loop only for a signed index, where `i + c` does
not wrap). Two bounds on the index joined by `&&`, `i < n && i < m`, are the nearer one (`_both`).
"""
from __future__ import annotations

from dataclasses import dataclass, field

from pycparser import c_ast

_FLIP = {"<": ">", "<=": ">=", ">": "<", ">=": "<=", "!=": "!="}


@dataclass
class ForShape:
    """A `for` recognized as a counted loop: its index, start, bound, comparison and step."""
    index: str
    lo: c_ast.Node
    index_decl: c_ast.Decl | None  # `int i = a` inside the for
    other_init: list[c_ast.Node] = field(default_factory=list)
    cmp: str = "<"  # index on the left
    bound: c_ast.Node | None = None
    sign: int = 1
    step: c_ast.Node | None = None  # None: magnitude 1
    step_const: int | None = None  # the signed step when constant
    other_next: list[c_ast.Node] = field(default_factory=list)
    shifted: bool = False  # the condition was `index ± term OP bound`, the term moved to the bound


def _int_const(node: c_ast.Node | None) -> int | None:
    if isinstance(node, c_ast.Constant) and node.type in ("int", "long int", "unsigned int", "long long int",
                                                          "unsigned long int", "unsigned long long int"):
        text = node.value.rstrip("uUlL")
        try:
            if text.lower().startswith("0x"):
                return int(text, 16)
            if len(text) > 1 and text.startswith("0"):
                return int(text, 8)
            return int(text)
        except ValueError:
            return None
    if isinstance(node, c_ast.UnaryOp) and node.op == "-":
        inner = _int_const(node.expr)
        return -inner if inner is not None else None
    return None


def _is_id(node: c_ast.Node | None, name: str) -> bool:
    return isinstance(node, c_ast.ID) and node.name == name


def _step_of(node: c_ast.Node, index: str) -> tuple[int, c_ast.Node | None, int | None] | None:
    """(sign, magnitude node or None for 1, signed constant or None) if node updates index, else None."""
    if isinstance(node, c_ast.UnaryOp) and node.op in ("++", "p++", "--", "p--") and _is_id(node.expr, index):
        sign = 1 if "+" in node.op else -1
        return sign, None, sign
    if isinstance(node, c_ast.Assignment) and _is_id(node.lvalue, index):
        if node.op in ("+=", "-="):
            s = node.rvalue
            sign = 1 if node.op == "+=" else -1
        elif node.op == "=" and isinstance(node.rvalue, c_ast.BinaryOp):
            rv = node.rvalue
            if rv.op == "+" and _is_id(rv.left, index):
                s, sign = rv.right, 1
            elif rv.op == "+" and _is_id(rv.right, index):
                s, sign = rv.left, 1
            elif rv.op == "-" and _is_id(rv.left, index):
                s, sign = rv.right, -1
            else:
                return None
        else:
            return None
        if index in names_in(s):
            return None
        k = _int_const(s)
        if k is not None:
            k *= sign
            if k == 0:
                return None
            return (1 if k > 0 else -1), None if abs(k) == 1 else s, k
        return sign, s, None
    return None


def match_for(node: c_ast.For) -> ForShape | None:
    """The canonical shape of a for loop, or None (syntax only)."""
    init, cond, nxt = node.init, node.cond, node.next
    if init is None or cond is None or nxt is None:
        return None
    # candidate indices: name -> (lo, decl)
    candidates: dict[str, tuple[c_ast.Node, c_ast.Decl | None]] = {}
    items = list(init.decls if isinstance(init, c_ast.DeclList) else
                 (init.exprs if isinstance(init, c_ast.ExprList) else [init]))
    for item in items:
        if isinstance(item, c_ast.Decl) and item.init is not None and item.name \
                and isinstance(item.type, c_ast.TypeDecl) and not isinstance(item.init, c_ast.InitList):
            candidates[item.name] = (item.init, item)
        elif isinstance(item, c_ast.Assignment) and item.op == "=" and isinstance(item.lvalue, c_ast.ID):
            candidates[item.lvalue.name] = (item.rvalue, None)
    test = _comparison(cond, candidates) or _both(cond, candidates)
    if test is None:
        return None
    index, op, bound, shifted = test
    if index in names_in(bound):
        return None
    lo, decl = candidates[index]
    if index in names_in(lo):
        return None
    nexts = list(nxt.exprs if isinstance(nxt, c_ast.ExprList) else [nxt])
    found = [(n, _step_of(n, index)) for n in nexts]
    updates = [(n, s) for n, s in found if s is not None]
    if len(updates) != 1:
        return None
    upd_node, (sign, step, step_const) = updates[0]
    others = [n for n in nexts if n is not upd_node]
    if any(index in written_names([n]) for n in others):
        return None
    if op in ("<", "<=") and sign < 0 or op in (">", ">=") and sign > 0:
        return None
    if op == "!=" and step_const not in (1, -1):
        return None
    other_init = [it for it in items if not (it is decl or (isinstance(it, c_ast.Assignment)
                                                            and _is_id(it.lvalue, index)))]
    if len([it for it in items if isinstance(it, c_ast.Assignment) and _is_id(it.lvalue, index)]) > 1:
        return None
    return ForShape(index, lo, decl, other_init, op, bound, sign, step, step_const, others, shifted)


def _comparison(cond: c_ast.Node, candidates: dict) -> tuple[str, str, c_ast.Node, bool] | None:
    """(index, comparison with the index on the left, bound, shifted) of a condition `i OP b`, `b OP i`, or
    one whose index side is shifted (`i + 3 < n`, ``_unshifted``); None for any other condition."""
    if not isinstance(cond, c_ast.BinaryOp) or cond.op not in _FLIP:
        return None
    if isinstance(cond.left, c_ast.ID) and cond.left.name in candidates:
        return cond.left.name, cond.op, cond.right, False
    if isinstance(cond.right, c_ast.ID) and cond.right.name in candidates:
        return cond.right.name, _FLIP[cond.op], cond.left, False
    if cond.op != "!=" and (moved := _unshifted(cond.left, cond.right, candidates)) is not None:
        return moved[0], cond.op, moved[1], True
    if cond.op != "!=" and (moved := _unshifted(cond.right, cond.left, candidates)) is not None:
        return moved[0], _FLIP[cond.op], moved[1], True
    return None


def _both(cond: c_ast.Node, candidates: dict) -> tuple[str, str, c_ast.Node, bool] | None:
    """A conjunction of two bounds on one index in one direction, `i < n && i < m` (`i <= n && i + 1 < m`;
    `i > a && i >= b` downwards), as the loop it is: `i < (n < m ? n : m)`, a `<=` bound taken as `<` its
    bound + 1 (`>=`: `>` its bound - 1). None for any other `&&` (a test of data, `i < n && a[i] != 0`, stays
    a while loop)."""
    if not isinstance(cond, c_ast.BinaryOp) or cond.op != "&&":
        return None
    first, second = _comparison(cond.left, candidates), _comparison(cond.right, candidates)
    if first is None or second is None or first[0] != second[0]:
        return None
    up = first[1] in ("<", "<=")
    if "!=" in (first[1], second[1]) or up != (second[1] in ("<", "<=")):
        return None
    strict = "<" if up else ">"
    bounds = [bound if op == strict else c_ast.BinaryOp("+" if up else "-", bound,
                                                         c_ast.Constant("int", "1", coord=cond.coord),
                                                         coord=cond.coord)
              for _, op, bound, _ in (first, second)]
    nearer = c_ast.TernaryOp(c_ast.BinaryOp(strict, bounds[0], bounds[1], coord=cond.coord), bounds[0], bounds[1],
                             coord=cond.coord)
    return first[0], strict, nearer, first[3] or second[3]


def _unshifted(side: c_ast.Node, other: c_ast.Node, candidates: dict) -> tuple[str, c_ast.Node] | None:
    """(index, bound) of a condition whose `side` is a candidate index plus or minus a term free of it
    (`i + 3`, `3 + i`, `i - 2`) compared with `other`: the bound is `other` minus (plus) the term."""
    if not isinstance(side, c_ast.BinaryOp) or side.op not in ("+", "-"):
        return None
    if isinstance(side.left, c_ast.ID) and side.left.name in candidates:
        index, term = side.left.name, side.right
    elif side.op == "+" and isinstance(side.right, c_ast.ID) and side.right.name in candidates:
        index, term = side.right.name, side.left
    else:
        return None
    if index in names_in(term):
        return None
    back = "-" if side.op == "+" else "+"
    return index, c_ast.BinaryOp(back, other, term, coord=side.coord)


@dataclass
class GeometricShape:
    """A `for` whose index is multiplied or divided by a power of two each iteration: an FFT's stages
    (`for (len = 2; len <= n; len *= 2)`), a tree reduction's strides (`for (s = n / 2; s > 0; s >>= 1)`)."""
    index: str
    lo: c_ast.Node
    index_decl: c_ast.Decl | None
    cmp: str          # index on the left
    bound: c_ast.Node
    shift: int        # the factor is 2**shift
    growing: bool
    update: c_ast.Node


def match_geometric(node: c_ast.For) -> GeometricShape | None:
    """The shape of a for loop with one index, initialized alone, compared with a bound and multiplied
    (`*= 2`, `<<= 1`, `= v * 4`) or divided (`/= 2`, `>>= 1`) by a power of two; None otherwise (syntax only)."""
    init, cond, nxt = node.init, node.cond, node.next
    if init is None or cond is None or nxt is None or isinstance(nxt, c_ast.ExprList):
        return None
    items = list(init.decls if isinstance(init, c_ast.DeclList) else
                 (init.exprs if isinstance(init, c_ast.ExprList) else [init]))
    if len(items) != 1:
        return None
    item = items[0]
    if isinstance(item, c_ast.Decl) and item.init is not None and item.name and isinstance(item.type, c_ast.TypeDecl):
        index, lo, decl = item.name, item.init, item
    elif isinstance(item, c_ast.Assignment) and item.op == "=" and isinstance(item.lvalue, c_ast.ID):
        index, lo, decl = item.lvalue.name, item.rvalue, None
    else:
        return None
    if not isinstance(cond, c_ast.BinaryOp) or cond.op not in ("<", "<=", ">", ">="):
        return None
    if _is_id(cond.left, index):
        op, bound = cond.op, cond.right
    elif _is_id(cond.right, index):
        op, bound = _FLIP[cond.op], cond.left
    else:
        return None
    factor = _factor_of(nxt, index)
    if factor is None or index in names_in(bound) | names_in(lo):
        return None
    shift, growing = factor
    if growing != (op in ("<", "<=")):
        return None
    return GeometricShape(index, lo, decl, op, bound, shift, growing, nxt)


def _factor_of(node: c_ast.Node, index: str) -> tuple[int, bool] | None:
    """(shift, growing) where node multiplies (growing) or divides the index by 2**shift, else None."""
    if not isinstance(node, c_ast.Assignment) or not _is_id(node.lvalue, index):
        return None
    if node.op in ("*=", "<<=", "/=", ">>="):
        op, k = node.op[:-1], _int_const(node.rvalue)
    elif node.op == "=" and isinstance(node.rvalue, c_ast.BinaryOp) and _is_id(node.rvalue.left, index):
        op, k = node.rvalue.op, _int_const(node.rvalue.right)
    elif node.op == "=" and isinstance(node.rvalue, c_ast.BinaryOp) and node.rvalue.op == "*" \
            and _is_id(node.rvalue.right, index):
        op, k = "*", _int_const(node.rvalue.left)
    else:
        return None
    if k is None or op not in ("*", "<<", "/", ">>"):
        return None
    if op in ("<<", ">>"):
        return (k, op == "<<") if 1 <= k <= 16 else None
    if k < 2 or k & (k - 1):
        return None   # a factor other than a power of two: the loop stays a while loop
    return k.bit_length() - 1, op == "*"


# ------------------------------------------------------------------------------------------ AST queries
def walk(node: c_ast.Node | None):
    """Every pycparser node below and including `node`, depth first."""
    if node is None:
        return
    stack = [node]
    while stack:
        n = stack.pop()
        yield n
        stack.extend([child for _, child in n.children()])   # a list: faster than a generator here


def names_in(node: c_ast.Node | None) -> set[str]:
    """The identifiers a pycparser subtree mentions."""
    return {n.name for n in walk(node) if isinstance(n, c_ast.ID)}


def _base_name(node: c_ast.Node) -> str | None:
    while isinstance(node, (c_ast.ArrayRef, c_ast.StructRef, c_ast.UnaryOp, c_ast.Cast)):
        if isinstance(node, (c_ast.ArrayRef, c_ast.StructRef)):
            node = node.name
        elif isinstance(node, c_ast.Cast):
            node = node.expr
        else:
            node = node.expr
    return node.name if isinstance(node, c_ast.ID) else None


def changed_by(n: c_ast.Node) -> c_ast.Node | None:
    """What an assignment, an increment or an address-of changes (None for any other node)."""
    if isinstance(n, c_ast.Assignment):
        return n.lvalue
    return n.expr if isinstance(n, c_ast.UnaryOp) and n.op in ("++", "--", "p++", "p--", "&") else None


def written_names(nodes: list[c_ast.Node | None]) -> set[str]:
    """Names assigned, incremented or whose address is taken (base names of element writes included)."""
    out: set[str] = set()
    for root in nodes:
        for n in walk(root):
            target = changed_by(n)
            if isinstance(n, c_ast.Decl) and n.name:
                out.add(n.name)  # a redeclaration shadows: treat as written
            if target is not None:
                name = _base_name(target)
                if name is not None:
                    out.add(name)
    return out


def has_side_effects(node: c_ast.Node | None, pure_calls: set[str]) -> bool:
    """Whether evaluating the subtree may change state (assignment, ++/--, a call not in `pure_calls`)."""
    for n in walk(node):
        if isinstance(n, c_ast.Assignment):
            return True
        if isinstance(n, c_ast.UnaryOp) and n.op in ("++", "--", "p++", "p--"):
            return True
        if isinstance(n, c_ast.FuncCall):
            if not (isinstance(n.name, c_ast.ID) and n.name.name in pure_calls):
                return True
    return False
