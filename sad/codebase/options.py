"""Options of a routine in library mode: its CHARACTER formal arguments that select what it does (`SIDE`,
`UPLO`, `TRANS` of the BLAS and LAPACK), each with the values the routine tests it against, and its LOGICAL
formal arguments its tests read (`WANTT`, `UPPER`), each .TRUE. and .FALSE.

Data flow: the analysis keeps a character formal as a symbol standing for a character code and a test
`LSAME(SIDE, 'L')` as `SIDE = 'L' or SIDE = 'l'` (sad.analysis.characters); this module reads the values
a routine's time formula compares each such symbol with (the upper-case letters: LSAME does not tell case
apart), and sad.codebase.routines evaluates the formula once per combination of them at each reference
point. Values no test names are not enumerated (in the BLAS and LAPACK, which test every value they accept,
such a value takes the routine's error exit), except for an option tested against one value only (`IF (TRANS
.EQ. 'N') ... ELSE ...`): its other arm is the value `other`. The routine's own row is at each option's
first value.
"""
from __future__ import annotations

import itertools

import sympy

from sad.analysis.freesymbols import free_symbols

MAX_COMBINATIONS = 64  # combinations reported per routine (DTRSM has 24); more are not enumerated
OTHER = "other"  # the value of an option tested against one value that is not that value
TRUTHS = (".TRUE.", ".FALSE.")  # a LOGICAL option's values; a formula's float walk takes 1 and 0 for them


def option_values(time: sympy.Expr, character_formals: set[str],
                  logical_formals: frozenset[str] = frozenset()) -> dict[str, list[str]]:
    """Symbol name → the sorted distinct letters (or characters) the formula compares it with; for a
    LOGICAL formal in the formula, .TRUE. and .FALSE."""
    found: dict[str, set[str]] = {}
    truths = {s.name: list(TRUTHS) for s in free_symbols(time) if s.name in logical_formals} \
        if logical_formals else {}
    if not character_formals:
        return dict(sorted(truths.items()))
    for relation in _relations(time):
        for side, other in ((relation.lhs, relation.rhs), (relation.rhs, relation.lhs)):
            if isinstance(side, sympy.Symbol) and side.name in character_formals \
                    and isinstance(other, sympy.Integer) and 0 < int(other) < 256:
                found.setdefault(side.name, set()).add(chr(int(other)).upper())
    letters = {name: sorted(values) + ([OTHER] if len(values) == 1 else []) for name, values in found.items()}
    return dict(sorted({**letters, **truths}.items()))


def _relations(expr: sympy.Basic) -> list[sympy.Basic]:
    """The distinct Eq and Ne nodes of a formula, each shared subexpression visited once (sympy's atoms
    walks the tree: 2**24 nodes for a routine whose 24 IFs rejoin in a row)."""
    seen: set[sympy.Basic] = set()
    found = []
    stack = [expr]
    while stack:
        node = stack.pop()
        if node in seen or not node.args:
            continue
        seen.add(node)
        if isinstance(node, (sympy.Eq, sympy.Ne)):
            found.append(node)
        stack.extend(node.args)
    return found


def code_of(value: str) -> int:
    """The character code standing for an option's value (`other`: 0, which no test names); 1 and 0 for
    .TRUE. and .FALSE."""
    if value in TRUTHS:
        return int(value == TRUTHS[0])
    return 0 if value == OTHER else ord(value)


def combinations(options: dict[str, list[str]]) -> list[tuple[str, dict[str, int]]]:
    """(label, symbol → character code) for each combination of the options' values, in sorted order
    (`SIDE=L UPLO=U`); none when there are more than MAX_COMBINATIONS."""
    names = sorted(options)
    total = 1
    for name in names:
        total *= len(options[name])
    if not names or total > MAX_COMBINATIONS:
        return []
    out = []
    for chosen in itertools.product(*(options[name] for name in names)):
        label = " ".join(f"{name.rsplit('.', 1)[-1]}={value}" for name, value in zip(names, chosen))
        out.append((label, {name: code_of(value) for name, value in zip(names, chosen)}))
    return out
