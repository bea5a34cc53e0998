"""Parameters: every symbol a SAD mentions, with a stable name, a class, a kind and a source location.

Data flow: the value backtracer and the SAD builder register parameters here as they meet them; the mapper,
the reports and the params export read the table. Classes (DESIGN.md): direct (known from the source or the
command line), indirect (derived by backtracing to direct ones), unresolved (only execution can tell).
Kinds: value, loop_count, branch_probability, call_cost, op_cost.

Naming (stable under edits elsewhere): run-time values are named by the variable (qualified `PROC.VAR` for a
local of a procedure other than the main program); loop counts X_<PROC>_<place>, branch probabilities
P_<PROC>_<place>[_<arm>], unseen routines C_<NAME>, where <place> is L<label> when the statement carries a
label and otherwise the kind and its ordinal within the procedure (IF3, WHILE1, DO2, AIF1, CGOTO1).
"""
from __future__ import annotations

from dataclasses import dataclass, field

import sympy

CLASSES = ("direct", "indirect", "unresolved")
KINDS = ("value", "loop_count", "branch_probability", "call_cost", "op_cost")


@dataclass
class Parameter:
    """A named quantity of the SAD (value, loop count, branch probability, cost) and where it comes from."""
    name: str
    cls: str
    kind: str
    file: str
    line: int
    procedure: str
    value: sympy.Expr | None = None  # direct / indirect: its value or defining expression
    description: str = ""
    depends_on: list[str] = field(default_factory=list)
    default: float | None = None  # a suggestion for a profiler's form, never used silently
    arms: int = 2  # for branch probabilities: how many ways the decision goes
    # For the trips of a loop left early: the flow that leaves it per trip (a jump out of the body, in the
    # body's branch probabilities). The loop falls through 1 - X·leaving times per entry, so X and the
    # probabilities must be chosen together: a reference point derives X's default from it.
    leaving: sympy.Expr | None = None

    @property
    def symbol(self) -> sympy.Symbol:
        """The sympy symbol standing for this parameter in formulas."""
        return make_symbol(self.name, self.kind)


def make_symbol(name: str, kind: str = "value", integer: bool = False) -> sympy.Symbol:
    """The one place symbols are made, so that the same name always carries the same assumptions."""
    if kind == "value":
        return sympy.Symbol(name, integer=True) if integer else sympy.Symbol(name, real=True)
    return sympy.Symbol(name, nonnegative=True)


class ParameterTable:
    """All parameters of an analysis, by name; the first registration of a name wins."""

    def __init__(self) -> None:
        self._params: dict[str, Parameter] = {}
        self._symbols: dict[str, sympy.Symbol] = {}

    def add(self, param: Parameter, symbol: sympy.Symbol | None = None) -> sympy.Symbol:
        """Register `param` (the first registration of a name wins) and return its symbol."""
        if param.name not in self._params:
            self._params[param.name] = param
            self._symbols[param.name] = symbol if symbol is not None else param.symbol
        return self._symbols[param.name]

    def get(self, name: str) -> Parameter | None:
        """The parameter called `name`, or None."""
        return self._params.get(name)

    def symbol(self, name: str) -> sympy.Symbol | None:
        """The symbol of the parameter called `name`, or None."""
        return self._symbols.get(name)

    def __contains__(self, name: str) -> bool:
        return name in self._params

    def __iter__(self):
        return iter(sorted(self._params.values(), key=lambda p: p.name))

    def entries(self) -> list[tuple[Parameter, sympy.Symbol]]:
        """(parameter, symbol) in the order of registration (sad.analysis.summaries replays a build's)."""
        return [(param, self._symbols[name]) for name, param in self._params.items()]

    def prune(self, keep) -> None:
        """Drop the parameters for which keep(param) is false."""
        for name in [n for n, p in self._params.items() if not keep(p)]:
            del self._params[name]
            del self._symbols[name]

    def unresolved(self) -> list[Parameter]:
        """The parameters sad could not resolve, which a user or a profile must bind."""
        return [p for p in self if p.cls == "unresolved"]
