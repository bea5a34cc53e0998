"""The statements nested in each compound statement of a procedure, walked once per procedure.

Data flow: asked by the conditional-assignment runs (sad.analysis.conditional), which for every variable
with several definitions run their routine's statement lists and, at each statement, look at the
statements inside it (is the variable defined there, is the use there, may a jump land there). Walking a
loop's body again at each statement of each level it encloses, for each of a routine's variables, was a
tenth of `sad check`'s time on LAPACK's Schur routines (49 million statements yielded by walk_stmts for
STREVC, SLAQR3, SGEHRD, ...). The answers are those of `walk_stmts`: the analysis never changes the IR of
a procedure it analyzes (a build that may is given a copy of the parse, sad.codebase.routines).
"""
from __future__ import annotations

from collections import OrderedDict

from sad.ir.nodes import If, IfArm, Message, Procedure, Stmt
from sad.ir.walk import child_bodies, jump_targets, walk_stmts

_KEPT = 64  # procedures remembered: the runs of one build ask about one routine at a time


class Nesting:
    """One procedure's statements, in walk_stmts order, and for each compound statement those inside it."""

    def __init__(self, proc: Procedure) -> None:
        self.proc = proc  # kept alive with the nesting, so that its statements' ids stay theirs
        self.statements: tuple[Stmt, ...] = tuple(walk_stmts(proc.body))
        self._inside: dict[int, tuple[Stmt, ...]] = {}
        self._jumps_to: dict[str, list[Stmt]] | None = None
        self._arm_ends: dict[int, tuple[IfArm, If]] | None = None
        self.messages: tuple[Message, ...] = tuple(s for s in self.statements if isinstance(s, Message))

    @property
    def jumps_to(self) -> dict[str, list[Stmt]]:
        """Each label → the statements that may jump to it, in walk order (asked by every run of the
        routine: computing it per run was a tenth of a small routine's analysis)."""
        if self._jumps_to is None:
            found: dict[str, list[Stmt]] = {}
            for stmt in self.statements:
                for label in jump_targets(stmt):
                    found.setdefault(label, []).append(stmt)
            self._jumps_to = found
        return self._jumps_to

    def arm_ending(self, stmt: Stmt) -> tuple[IfArm, If] | None:
        """The IF arm whose last statement is `stmt` (a failure return's GOTO, say), with its IF; None for a
        statement that ends no arm."""
        if self._arm_ends is None:
            self._arm_ends = {id(arm.body[-1]): (arm, s) for s in self.statements if isinstance(s, If)
                              for arm in s.arms if arm.body}
        return self._arm_ends.get(id(stmt))

    def inside(self, stmt: Stmt) -> tuple[Stmt, ...]:
        """The statements nested in `stmt` (not itself), depth first in source order, as walk_stmts gives
        them for its bodies one after the other."""
        found = self._inside.get(id(stmt))
        if found is None:
            found = self._inside[id(stmt)] = tuple(inner for body in child_bodies(stmt) for inner in walk_stmts(body))
        return found


_NESTINGS: OrderedDict[int, Nesting] = OrderedDict()


def nesting(proc: Procedure) -> Nesting:
    """The procedure's Nesting, made on first need and remembered for the last _KEPT procedures asked."""
    known = _NESTINGS.get(id(proc))
    if known is not None and known.proc is proc:
        _NESTINGS.move_to_end(id(proc))
        return known
    made = _NESTINGS[id(proc)] = Nesting(proc)
    _NESTINGS.move_to_end(id(proc))
    while len(_NESTINGS) > _KEPT:
        _NESTINGS.popitem(last=False)
    return made
