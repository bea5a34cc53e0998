"""sympy's And and Or built once per process for each list of arguments, and each relation's canonical form
found once.

Data flow: installed by sad.analysis.counting with the other construction memos (minmaxmemo, piecewisememo).
A condition that compares choices (a blocked loop's block size NB, chosen in several places, against
its crossover NX, when the stand-ins of a loop's bounds are put back, sad.analysis.standins) is folded by
sympy over every combination of the choices' pieces, and each combination's condition is the And of
one piece's condition from each choice: the same few conditions in And after And. And.__new__ orders
its arguments (sympy's `ordered`, which counts every argument's nodes) and puts every relation in
canonical form to drop repeats, each time: 25 000 Ands were 60 % of SGEHRD's build.

Building an And or an Or is a function of its class and its arguments alone (LatticeOp.__new__ takes no
options that change it; expressions are immutable, a symbol's assumptions are part of the symbol), so
remembering the answer gives the same expression, tree for tree, as building it again: what sympy's own
cache (sympy.core.cache.cacheit) does for Add and Mul, whose constructors it wraps and LatticeOp's it does not.
Only constructions whose arguments are all sympy objects are remembered; anything else goes to sympy.
A relation's canonical form (Relational.canonical, which And asks of each argument and Piecewise of each
condition) is a function of the relation alone too, and is remembered per relation. So is the form with its
leading coefficient divided out that Piecewise puts each relation of each condition in before comparing
conditions (sympy's _canonical_coeff, asked in _piecewise_collapse_arguments): 250 000 of them, each
dividing and rebuilding a relation through the assumptions, were a tenth of STREVC3's and SLAQR4's builds.
An And not built before still orders its arguments by their node counts, each a walk of the whole argument:
counted once per expression, with every subexpression's count remembered on the way (DTPQRT: 16 % of its
build was counting the nodes of the same conditions again).
"""
from __future__ import annotations

from functools import lru_cache

from sympy import And, Basic, Or
from sympy.core import sorting
from sympy.core.operations import LatticeOp
from sympy.core.relational import Relational, _canonical_coeff
from sympy.functions.elementary import piecewise

_new = LatticeOp.__new__
_canonical = Relational.canonical.fget
_node_count = sorting._node_count


@lru_cache(maxsize=32768)
def _built(cls: type, args: tuple):
    return _new(cls, *args)


def new(cls, *args, **options):
    """LatticeOp.__new__(cls, *args, **options) for And and Or, once per process for each class and
    arguments (the options are not read by it)."""
    if options or not all(isinstance(a, Basic) for a in args):
        return _new(cls, *args, **options)
    return _built(cls, args)


@lru_cache(maxsize=32768)
def _canonical_of(relation: Relational):
    return _canonical(relation)


def canonical(self: Relational):
    """Relational.canonical, once per process for each relation."""
    return _canonical_of(self)


@lru_cache(maxsize=32768)
def canonical_coeff(relation: Basic) -> Basic:
    """sympy's _canonical_coeff(relation) (-2*x + 1 < 0 as x > 1/2), once per process for each relation."""
    return _canonical_coeff(relation)


@lru_cache(maxsize=65536)
def node_count(expr: Basic) -> float:
    """sympy's node count of an expression (`ordered`'s first key), once per process for each expression;
    sympy's count asks for its arguments' through the module's name, so they are remembered too."""
    return _node_count(expr)


def install() -> None:
    """Let every And and Or be built, and every relation's canonical forms be found, through the memos
    (idempotent)."""
    And.__new__ = staticmethod(new)
    Or.__new__ = staticmethod(new)
    Relational.canonical = property(canonical)
    # the name Piecewise's argument collapse looks up at each call (sympy.functions.elementary.piecewise)
    piecewise._canonical_coeff = canonical_coeff
    sorting._node_count = node_count
