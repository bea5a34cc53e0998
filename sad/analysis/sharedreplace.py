"""One replacement rule applied to many formulas that share subexpressions, each shared one rebuilt once.

Data flow: a helper of the builder's last steps on a routine's counts — a root's stand-ins named
(sad.analysis.standins.named), a callee's tests replaced by their probabilities at a call
(sad.analysis.calls) — where one rule goes into every count of a routine. sympy's xreplace walks each
formula as a tree, a subexpression again at each of its occurrences and nothing kept from one formula to
the next: SGEHRD's counts, whose blocked loop's choice of block size stands in hundreds of them, took 14 CPU s
to have their stand-ins named. The result is xreplace's, formula for formula: the same rule at each node
(a node in the rule is replaced; a node whose arguments changed is rebuilt by its class from them; any other
is kept), each distinct node answered once.
"""
from __future__ import annotations

from collections.abc import Iterable, Mapping

import sympy


class SharedReplace:
    """`expr.xreplace(rule)` for many expressions, the answers for their subexpressions shared."""

    def __init__(self, rule: Mapping) -> None:
        self.rule = rule
        self._memo: dict[sympy.Basic, tuple[sympy.Basic, bool]] = {}

    def __call__(self, expr: sympy.Basic) -> sympy.Basic:
        """expr.xreplace(rule)."""
        if not self.rule:
            return expr
        return self._walk(expr)[0]

    def _walk(self, e: sympy.Basic) -> tuple[sympy.Basic, bool]:
        # sympy's Basic._xreplace: (the new node, whether anything in it was replaced)
        if e in self.rule:
            return self.rule[e], True
        if not e.args:
            return e, False
        done = self._memo.get(e)
        if done is not None:
            return done
        args = []
        changed = False
        for a in e.args:
            if isinstance(a, sympy.Basic):
                new, hit = self._walk(a)
                args.append(new)
                changed |= hit
            else:
                args.append(a)
        done = self._memo[e] = (e.func(*args), True) if changed else (e, False)
        return done


def replaced_all(exprs: Iterable[sympy.Basic], rule: Mapping) -> list[sympy.Basic]:
    """[expr.xreplace(rule) for expr in exprs], each shared subexpression rebuilt once."""
    replace = SharedReplace(rule)
    return [replace(e) for e in exprs]
