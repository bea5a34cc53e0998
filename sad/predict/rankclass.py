"""Classes of ranks that behave alike: one rank traced, its events re-evaluated at every rank of its class.

Data flow: sad.predict.trace follows one rank with its rank number as a `Sym` (an integer that also knows how
it is computed from the rank) → every value computed from it is a `Sym` too, and every time the tracer
looks at such a value (a branch, a trip count, a comparison, an array offset, a dictionary key) the outcome
is recorded as a guard → `Template`: the rank's events with their partners, tags and sizes as functions of
the rank, and the guards → `Template.instantiate` gives the events of any rank at which every guard has the
same outcome (`Template.holds`): the same statements run there in the same order, so its events are these
with the partners, tags and sizes computed at that rank (Tracer.trace at that rank gives the same list).
`Template.members` and `Template.instances` do the same for a list of ranks at once: each value a list over
the ranks, computed from its operation's parts (`_column`), so that checking and filling thousands of ranks
costs the operations themselves and not a chain of calls per rank and value.

Why this is exact and not a guess: a rank's trace depends on its number only through the values computed
from it (RANK from MPI_COMM_RANK, the collectives' own rank arithmetic); every way Python can observe a
`Sym` (comparison, truth, hashing, conversion to int, float or text, indexing) records a guard, and
arithmetic records none but keeps the function. A trace that reads what other ranks left for it (a value
sent on its own, a broadcast scalar, a Cartesian or in-place layout computed from the plain rank) is not a
template (Tracer.private) and such ranks are traced one by one.

What it buys: the CG programs' ranks fall into a few classes (a tree's levels, its leaves, the root), so
P = 1024 traces a few dozen ranks and checks the guards of the others (issue 28: ranks that behave alike
simulated once per class).
"""
from __future__ import annotations

import itertools
import math
import operator
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from sad.predict.events import Op

Guard = tuple[Callable[[int], object], object]
"""A function of the rank and the outcome it had at the traced rank."""


class Guards(list):
    """One traced rank's guards, each once (the same function of the rank with the same outcome), and the
    functions of the rank made so far (`made`): an expression evaluated again (a loop's next trip, a routine
    called again) gets the same function, so its guards are found equal and checked once per rank."""

    def __init__(self) -> None:
        super().__init__()
        self.seen: set = set()
        self.made: dict = {}

    def add(self, at: Callable[[int], object], outcome: object) -> None:
        """Append the guard unless it is there already."""
        try:
            key = (id(at), outcome.__class__, outcome)
            if key in self.seen:
                return
            self.seen.add(key)
        except TypeError:  # an outcome that is no dictionary key: kept as it is
            pass
        self.append((at, outcome))


class _Symbolic:
    """What Sym and SymFloat share: how to compute the value at any rank (`at`) and the guards its
    observations append to (`log`)."""

    at: Callable[[int], object]
    log: Guards

    def _pin(self) -> Any:
        value = plain(self)
        self.log.add(self.at, value)
        return value


class Sym(_Symbolic, int):
    """An integer computed from the rank: its value at the traced rank and `at(r)`, its value at rank r. Every
    observation of the value appends a guard to `log` (the tracer's); arithmetic gives another Sym."""

    def __new__(cls, value: int, at: Callable[[int], object], log: Guards) -> Sym:
        """value: at the traced rank; at: the same at any rank; log: the tracer's guards."""
        self = int.__new__(cls, value)
        self.at, self.log = at, log
        return self

    def __trunc__(self) -> int:
        return self

    __floor__ = __ceil__ = __trunc__

    def __round__(self, ndigits=None):
        return self if ndigits is None else round(self._pin(), ndigits)


class SymFloat(_Symbolic, float):
    """A real computed from the rank (a Sym converted, divided, ...): as Sym, for floats."""

    def __new__(cls, value: float, at: Callable[[int], object], log: Guards) -> SymFloat:
        """As Sym.__new__."""
        self = float.__new__(cls, value)
        self.at, self.log = at, log
        return self

    def __round__(self, ndigits=None):
        return round(self._pin(), ndigits)


SYMBOLIC = (Sym, SymFloat)


def plain(value: object) -> object:
    """The value at the traced rank, with no guard (for what cannot change the rank's own events)."""
    if value.__class__ is Sym:
        return int.__int__(value)
    if value.__class__ is SymFloat:
        return float.__float__(value)
    return value


def lift(value: object, at: Callable[[int], object], log: Guards) -> object:
    """A result computed from Syms: a number stays symbolic; anything else (a truth value, None) is what the
    tracer will look at, so its outcome becomes a guard."""
    if value.__class__ is int:
        return Sym(value, at, log)
    if value.__class__ is float:
        return SymFloat(value, at, log)
    log.add(at, value)
    return value


def lifted(function: Callable[..., object], *args: object, key: object = None) -> object:
    """function(*args) where some args are Syms: computed at the traced rank, and at any rank r by the same
    function of the args at r (evaluated once per rank: the last rank asked is remembered). key names the
    function when it is made anew at each call (a partial): the same key and args give the same function."""
    log: Guards | None = None
    getters: list = []
    values: list = []
    names: list = []  # what the function is made of: a Sym's function by id, any other arg by its value
    for a in args:  # one pass, no generators: the tracer calls this for every operation on a Sym
        kind = a.__class__
        if kind is Sym or kind is SymFloat:
            sym: Any = a
            if log is None:
                log = sym.log
            getters.append(sym.at)
            values.append(int.__int__(sym) if kind is Sym else float.__float__(sym))
            names.append(id(sym.at))
        else:
            getters.append(None)
            values.append(a)
            names.append((kind, a))
    assert log is not None
    made = None
    try:
        made = (key if key is not None else function, tuple(names))
        at = log.made.get(made)
    except TypeError:  # an argument that is no dictionary key (an array's elements)
        at = None
    if at is None:
        at = _evaluator(function, getters, values)
        if made is not None:
            log.made[made] = at
    return lift(function(*values), at, log)


def _evaluator(function: Callable[..., object], getters: list, values: list) -> Callable[[int], object]:
    """function of the args at rank r (getters: each Sym's own; values: the others'), the last rank's result
    remembered. One and two arguments (nearly every one) are spelled out: Template.holds and instantiate
    call these for every rank."""
    evaluate = _closure(function, getters, values)
    # for _column: the same operation, a list of ranks at a time
    evaluate.parts = function, tuple(getters), tuple(values)  # type: ignore[attr-defined]
    return evaluate


def _closure(function: Callable[..., object], getters: list, values: list) -> Callable[[int], object]:
    last: list = [None, None]
    if len(getters) == 1 and getters[0] is not None:
        g0 = getters[0]

        def one(r: int) -> object:
            if last[0] != r:
                last[0], last[1] = r, function(g0(r))
            return last[1]
        return one
    if len(getters) == 2 and None not in getters:
        g1, g2 = getters

        def both(r: int) -> object:
            if last[0] != r:
                last[0], last[1] = r, function(g1(r), g2(r))
            return last[1]
        return both
    if len(getters) == 2:
        k, g = (0, getters[0]) if getters[0] is not None else (1, getters[1])
        other = values[1 - k]

        def left(r: int) -> object:
            if last[0] != r:
                last[0], last[1] = r, function(g(r), other)
            return last[1]

        def right(r: int) -> object:
            if last[0] != r:
                last[0], last[1] = r, function(other, g(r))
            return last[1]
        return left if k == 0 else right

    def general(r: int) -> object:
        if last[0] != r:
            last[0], last[1] = r, function(*[g(r) if g is not None else v for g, v in zip(getters, values)])
        return last[1]
    return general


def _binary_method(function: Callable[..., Any], reflected: bool = False):
    def method(self, other: object) -> object:
        if not isinstance(other, (int, float)):
            return NotImplemented  # None, text, a tuple: not a number, so nothing of the value is observed
        return lifted(function, other, self) if reflected else lifted(function, self, other)
    return method


def _unary_method(function: Callable[..., Any]):
    def method(self) -> object:
        return lifted(function, self)
    return method


def _converted(function: Callable[..., Any]):
    def method(self, *args) -> object:
        return function(self._pin(), *args)
    return method


def _pinned_method(name: str):
    def method(self, *args, **kwargs) -> object:
        return getattr(self._pin(), name)(*args, **kwargs)
    return method


_ARITHMETIC: tuple[tuple[str, Callable[..., Any]], ...] = (
    ("add", operator.add), ("sub", operator.sub), ("mul", operator.mul), ("floordiv", operator.floordiv),
    ("truediv", operator.truediv), ("mod", operator.mod), ("pow", operator.pow), ("divmod", divmod))
_BITS: tuple[tuple[str, Callable[..., Any]], ...] = (
    ("lshift", operator.lshift), ("rshift", operator.rshift), ("and", operator.and_), ("or", operator.or_),
    ("xor", operator.xor))
_COMPARISONS: tuple[tuple[str, Callable[..., Any]], ...] = (
    ("eq", operator.eq), ("ne", operator.ne), ("lt", operator.lt), ("le", operator.le), ("gt", operator.gt),
    ("ge", operator.ge))
_UNARY: tuple[tuple[str, Callable[..., Any]], ...] = (("neg", operator.neg), ("pos", operator.pos), ("abs", abs))
_VALUE_METHODS = {Sym: ("bit_length", "bit_count", "to_bytes", "as_integer_ratio"),
                  SymFloat: ("is_integer", "as_integer_ratio", "hex")}
"""Methods that read the value without a dunder method: each pins it."""
_CONVERSIONS: dict[str, Callable[..., Any]] = {
    "__hash__": hash, "__bool__": bool, "__int__": int, "__float__": float, "__repr__": repr, "__str__": str,
    "__format__": format, "__reduce__": lambda value: (value.__class__, (value,))}
"""Conversions of the value: each pins it (a SymFloat's trunc, floor and ceil too; a Sym's are itself)."""
_FLOAT_CONVERSIONS: dict[str, Callable[..., Any]] = {"__trunc__": math.trunc, "__floor__": math.floor,
                                                     "__ceil__": math.ceil}

for _cls in SYMBOLIC:
    for _name, _function in _ARITHMETIC + (_BITS if _cls is Sym else ()):
        setattr(_cls, f"__{_name}__", _binary_method(_function))
        setattr(_cls, f"__r{_name}__", _binary_method(_function, reflected=True))
    for _name, _function in _COMPARISONS:
        setattr(_cls, f"__{_name}__", _binary_method(_function))
    for _name, _function in _UNARY + ((("invert", operator.invert),) if _cls is Sym else ()):
        setattr(_cls, f"__{_name}__", _unary_method(_function))
    for _name in _VALUE_METHODS[_cls]:
        setattr(_cls, _name, _pinned_method(_name))
    _pinned: dict[str, Callable[..., Any]] = {**_CONVERSIONS, **(_FLOAT_CONVERSIONS if _cls is SymFloat else {}),
                                              **({"__index__": int} if _cls is Sym else {})}
    for _name, _function in _pinned.items():
        setattr(_cls, _name, _converted(_function))


@dataclass
class Template:
    """A traced rank's events (Syms where they depend on the rank), its guards and replicated trips."""
    ops: list[Op]
    guards: list[Guard]
    repeats: list[tuple[int, int, int]]

    def __post_init__(self) -> None:
        self._symbolic = {id(op): op for op in self.ops if _is_symbolic(op)}
        # the longest replicated trips (sad.predict.trace: two trips traced, the second's ops copied): the
        # copies are the same objects, instantiated once
        start, size, trips = max(self.repeats, key=lambda x: x[1] * x[2]) if self.repeats else (0, 0, 0)
        block, end = start + size, start + size * trips
        if trips < 3 or any(self.ops[k] is not self.ops[block + (k - block) % size] for k in range(block, end)):
            block = size = trips = end = 0  # not plain copies: every op instantiated
        self._pieces = (self.ops[:block + size], trips - 2, self.ops[block:block + size], self.ops[end:])
        # where each piece holds a symbolic event: an instance is the piece copied with those replaced
        self._places = tuple([k for k, op in enumerate(piece) if id(op) in self._symbolic]
                             for piece in (self._pieces[0], self._pieces[2], self._pieces[3]))

    def holds(self, rank: int) -> bool:
        """Does every guard have the traced rank's outcome at `rank`? (One rank: the guards' own functions,
        which remember their last rank's value; `members` checks many ranks at once.)"""
        for at, outcome in self.guards:
            value = at(rank)
            if not (value.__class__ is outcome.__class__ and value == outcome):
                return False
        return True

    def instantiate(self, rank: int) -> list[Op]:
        """The events at `rank` (one of the class: `holds(rank)`)."""
        return self.instances([rank])[0]

    def members(self, ranks: list[int]) -> tuple[list[int], dict[int, list]]:
        """The ranks of `ranks` at which every guard has the traced rank's outcome, and the values computed on
        the way at those ranks (`_column`'s, for `instances`). Guard by guard over all the ranks still in (a
        rank is dropped at its first guard that differs, as a rank-by-rank check would drop it): one list
        per value, no call per rank and value but the operation's own."""
        columns: dict[int, list] = {}
        alive = ranks
        for at, outcome in self.guards:
            if not alive:
                break
            kind = outcome.__class__
            keep = [k for k, value in enumerate(_column(at, alive, columns))
                    if value.__class__ is kind and value == outcome]
            if len(keep) < len(alive):
                alive = [alive[k] for k in keep]
                columns = {key: [column[k] for k in keep] for key, column in columns.items()}
        return alive, columns

    def instances(self, ranks: list[int], columns: dict[int, list] | None = None) -> list[list[Op]]:
        """The events at each of `ranks` (members of the class; columns: `members`' values at them). One Op
        per distinct event, shared by the trips that repeat it, as the tracer's own list is."""
        columns = {} if columns is None else columns
        made = {key: _events(op, ranks, columns) for key, op in self._symbolic.items()}
        head, copies, block, tail = self._pieces
        at_head, at_block, at_tail = self._places

        def filled(piece: list[Op], places: list[int], k: int) -> list[Op]:
            out = piece[:]
            for place in places:
                out[place] = made[id(piece[place])][k]
            return out
        if copies <= 0:
            return [filled(head, at_head, k) + filled(tail, at_tail, k) for k in range(len(ranks))]
        return [filled(head, at_head, k) + filled(block, at_block, k) * copies + filled(tail, at_tail, k)
                for k in range(len(ranks))]


_RANKED = ("seconds", "peer", "tag", "nbytes", "total")
"""The fields of an event that may depend on the rank."""


def _is_symbolic(op: Op) -> bool:
    return any(getattr(op, name).__class__ in SYMBOLIC for name in _RANKED)


def _events(op: Op, ranks: list[int], columns: dict[int, list]) -> list[Op]:
    """The event at each of `ranks`: its fields that depend on the rank evaluated there (`_column`)."""
    fields = [getattr(op, name) for name in _RANKED]
    seconds, peer, tag, nbytes, total = (_column(value.at, ranks, columns) if value.__class__ in SYMBOLIC
                                         else itertools.repeat(value) for value in fields)
    kind, where, call, sync = op.kind, op.where, op.call, op.sync
    return [Op(kind, s, p, t, b, where, call, o, sync) for s, p, t, b, o in zip(seconds, peer, tag, nbytes, total)]


def _column(at: Callable[[int], object], ranks: list[int], columns: dict[int, list]) -> list:
    """at(r) for every r of ranks, each value computed once (columns: the lists made so far, by id of
    their function): a function of the rank is the rank itself or an operation of such functions and
    constants (`_evaluator`'s parts), evaluated here one list at a time."""
    key = id(at)
    column = columns.get(key)
    if column is not None:
        return column
    if at is _identity:
        column = ranks
    else:
        parts: tuple[Callable[..., object] | None, tuple, tuple] = getattr(at, "parts", (None, (), ()))
        function, getters, values = parts
        if function is None:  # not made by _evaluator: called rank by rank
            column = [at(r) for r in ranks]
        elif len(getters) == 1:
            column = [function(x) for x in _column(getters[0], ranks, columns)]
        elif len(getters) == 2 and None not in getters:
            column = [function(x, y) for x, y in zip(_column(getters[0], ranks, columns),
                                                     _column(getters[1], ranks, columns))]
        elif len(getters) == 2 and getters[0] is not None:
            other = values[1]
            column = [function(x, other) for x in _column(getters[0], ranks, columns)]
        elif len(getters) == 2:
            other = values[0]
            column = [function(other, x) for x in _column(getters[1], ranks, columns)]
        else:
            args = [_column(g, ranks, columns) if g is not None else itertools.repeat(v)
                    for g, v in zip(getters, values)]
            column = [function(*xs) for xs in zip(*args)]
    columns[key] = column
    return column


def rank_symbol(rank: int, log: Guards) -> Sym:
    """The rank number as a Sym (MPI_COMM_RANK's value)."""
    return Sym(rank, _identity, log)


def _identity(r: int) -> int:
    return r
