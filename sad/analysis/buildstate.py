"""What the pieces of one SAD build share: the program-wide context and the per-region event counts.

Data flow: sad.analysis.pipeline creates one `BuildContext` per program and builds procedures callees first;
each procedure's builder (sad.analysis.builder) fills `RegionResult`s, one per statement list, with the
help of the naming (sad.analysis.naming), control-edge (sad.analysis.jumps), branch (sad.analysis.branches)
and call-expansion (sad.analysis.calls) modules, which all read this context.
"""
from __future__ import annotations

from bisect import insort
from dataclasses import dataclass, field
from functools import cmp_to_key

import sympy

from sad import ir
from sad.analysis.description import Event, ProcedureSAD
from sad.analysis.params import Parameter, ParameterTable
from sad.analysis.values import ProgramFacts

# Where a control edge goes: a statement of the region by index (cfg.END past its end) or out of the
# region to a label ("esc", label); "@return" and "@stop" are the labels of RETURN and STOP.
Target = int | tuple[str, str]


@dataclass
class BuildContext:
    """What every procedure's build shares: program facts, parameters met, SADs built so far."""
    facts: ProgramFacts
    table: ParameterTable
    overrides: dict[str, sympy.Expr]
    built: dict[str, ProcedureSAD] = field(default_factory=dict)
    recursive_calls: set[tuple[str, str]] = field(default_factory=set)
    cycles: dict[str, frozenset[str]] = field(default_factory=dict)
    candidates: dict[sympy.Symbol, Parameter] = field(default_factory=dict)
    # per routine (linkage name): its exact indicators on formal arguments with the probability each stands
    # for at a call site that cannot bind the argument (data passed in: sad.analysis.calls)
    formal_branches: dict[str, list[tuple[sympy.Expr, sympy.Symbol]]] = field(default_factory=dict)
    diagnostics: list[ir.Diagnostic] = field(default_factory=list)
    seq: int = 0
    # a callee's counts bound to one call's actual values, by (callee, formal → value) (sad.analysis.calls)
    bindings: dict[tuple[str, frozenset], tuple[dict, dict]] = field(default_factory=dict)

    def next_seq(self) -> int:
        """The next sequence number of this analysis (unique parameter places)."""
        self.seq += 1
        return self.seq

    def note(self, loc: ir.Loc, message: str) -> None:
        """Record a note diagnostic at `loc`."""
        self.diagnostics.append(ir.Diagnostic(loc, "note", message))

    def warn(self, loc: ir.Loc, message: str) -> None:
        """Record a warning diagnostic at `loc`."""
        self.diagnostics.append(ir.Diagnostic(loc, "warning", message))


@dataclass
class RegionResult:
    """Event counts per entry into a statement list, the flow that falls out of its end, and the flow
    that leaves it by jumps to labels outside it."""
    counts: dict[Event, sympy.Expr] = field(default_factory=dict)
    fallthrough: sympy.Expr = sympy.Integer(1)
    escapes: dict[str, sympy.Expr] = field(default_factory=dict)

    def add(self, event: Event, count: sympy.Expr) -> None:
        """Add `count` executions of `event` (zero counts are not stored)."""
        if not _is(count, 0):
            known = self.counts.get(event)
            # a first count is stored as it is: 0 + count is count itself (sympy drops the identity)
            self.counts[event] = count if known is None else known + count


def mul(a: sympy.Expr | int, b: sympy.Expr | int) -> sympy.Expr:
    """a·b without building a product when one factor is 1 (keeps expressions small and their order stable)."""
    if _is(a, 1):
        return b
    if _is(b, 1):
        return a
    if isinstance(b, sympy.Mul):
        extended = _extend_product(a, b)
        if extended is not None:
            return extended
    elif isinstance(a, sympy.Mul):
        extended = _extend_product(b, a)
        if extended is not None:
            return extended
    return a * b


def _is(value: sympy.Expr | int, number: int) -> bool:
    """value == number, asked of sympy only for a number (an expression compared with an int is sympified
    and compared tree against tree, to say False)."""
    if isinstance(value, sympy.Basic) and not value.is_Number:
        return False
    return bool(value == number)


_ARG_ORDER = cmp_to_key(sympy.Basic.compare)


def _extend_product(factor, product: sympy.Mul) -> sympy.Expr | None:
    """factor·product built as sympy's Mul would build it, when nothing combines: a new commutative
    factor (no number, no product, its base not among the product's bases) inserted in sympy's canonical
    order of the product's factors (the number, if any, stays first). sympy's own Mul sorts all factors
    again at every product: the counts of statements nested k IFs deep are products of k probabilities,
    and 150 nested IFs took minutes. None when the general product is needed."""
    if not isinstance(factor, sympy.Basic) or factor.is_Number or factor.is_Mul or \
            not factor.is_commutative or not product.is_commutative:
        return None
    base = factor.as_base_exp()[0]
    args = list(product.args)
    if any(arg.as_base_exp()[0] == base for arg in args):
        return None
    coeff = [args.pop(0)] if args[0].is_Number else []
    insort(args, factor, key=_ARG_ORDER)
    return sympy.Mul._from_args(coeff + args, is_commutative=True)


def expanded(expr: sympy.Expr | int) -> sympy.Expr:
    """An edge weight in expanded form (atoms as they are)."""
    expr = sympy.sympify(expr)
    return expr if expr.is_Atom else sympy.expand(expr)


def is_logical(value: sympy.Basic) -> bool:
    """A truth value or condition (sympy's Symbol is also a Boolean, so test the kinds that are not)."""
    return (value.is_Relational or isinstance(value, sympy.logic.boolalg.BooleanFunction)
            or value in (sympy.true, sympy.false))
