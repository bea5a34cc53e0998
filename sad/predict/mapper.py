"""The mapper: the one place where program meets machine.

Data flow: the program's blocks (sad.analysis.description) × a machine (sad.machine.model) → the predicted time as a
formula in the parameters still unbound, a number once all are bound, and the breakdown by procedure and
by block. An operation the machine does not price becomes an unresolved parameter T_<op> (seconds), and an
unseen routine's cost C_<NAME> stays a parameter: nothing is silently defaulted. The calls still unpriced
(C_<NAME> and the T_lib_... of library routines the machine has no figure for) that nothing binds are left
out of the number, and named: `Prediction.excluded` ("time excludes 2 unpriced calls: ..."). Message-passing calls are
priced by their size with the machine's programming-model level (sad.predict.messages) and summed apart as
the communication time; an SPMD program's numbers are its slowest rank's (sad.predict.ranks).
"""
from __future__ import annotations

import functools
import math
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from typing import Any

import sympy

from sad.analysis.bindings import bind, evaluate
from sad.analysis.description import Block
from sad.analysis.freesymbols import free_symbols
from sad.analysis.params import Parameter, make_symbol
from sad.analysis.products import times, tree_size
from sad.analysis.spmd import MessageCost
from sad.predict import ranks
from sad.predict.messages import message_seconds


@dataclass
class BlockTime:
    """A block of the SAD priced on a machine: time per execution and in total."""
    block: Block
    seconds_each: sympy.Expr  # one execution
    count_value: float | None = None
    time_value: float | None = None

    @functools.cached_property
    def time(self) -> sympy.Expr:
        """count × seconds_each, built on first use: the report needs only the numbers, and sympy's product
        of a long count formula and a sum of machine figures (it distributes the figures over the count's
        terms) is costly, so a block whose count stays a formula never pays for it."""
        return times(self.block.count, self.seconds_each)



@dataclass
class Prediction:
    """The predicted time of a program: the formula, its value if bound, and per block and procedure."""
    time: sympy.Expr
    time_value: float | None
    blocks: list[BlockTime]
    unbound: list[str]
    missing_ops: list[str] = field(default_factory=list)
    by_procedure: dict[str, float | None] = field(default_factory=dict)
    operations: dict[str, sympy.Expr] = field(default_factory=dict)  # the SAD's closed form, by operation
    startup: float = 0.0  # seconds once per run (loading the program), when the machine gives a figure
    computation: sympy.Expr = sympy.Integer(0)  # time - communication (start-up included)
    communication: sympy.Expr = sympy.Integer(0)  # the message blocks' time
    computation_value: float | None = None
    communication_value: float | None = None
    rank: ranks.RankChoice | None = None  # SPMD: the rank the numbers are for (the slowest), or why none
    excluded: list[str] = field(default_factory=list)  # unpriced calls whose seconds the numbers leave out
    loop_coverage: Any = None  # sad.predict.loopcost.LoopCoverage: how the innermost loops were priced
    unevaluated: list[str] = field(default_factory=list)
    """References to functions the analysis could not run on the values bound (``KTURN(7/2, 20)``: DATAN, an I/O
    statement or an array in it) left in the bound time: why a time with every parameter bound has no number."""


def excluded_text(excluded: list[str]) -> str:
    """'time excludes 2 unpriced calls: C_bar, C_foo' (what every report says about `Prediction.excluded`)."""
    n = len(excluded)
    return f"time excludes {n} unpriced call{'s' if n != 1 else ''}: {', '.join(excluded)}"


NPROCS = make_symbol("NPROCS", "value", integer=True)


def price(cost: Counter, machine, missing: set[str]) -> sympy.Expr:
    """Seconds for one execution of a block with this cost vector."""
    total = sympy.Integer(0)
    for key in sorted(cost):
        n = cost[key]
        if n == 0:
            continue
        if key.startswith("cost:"):
            total += n * make_symbol(key[5:], "call_cost")
            continue
        if key.startswith("msg."):  # a message block's own call is priced by its size (predict)
            total += n * message_seconds(MessageCost(key[4:], key[4:], "", sympy.Integer(0), NPROCS), machine,
                                         missing)
            continue
        seconds = machine.op_cost(key)
        if seconds is None:
            missing.add(key)
            total += n * make_symbol(op_cost_name(key), "op_cost")
        else:
            total += _op_seconds(n, seconds)
    return total


@functools.lru_cache(maxsize=4096)
def _op_seconds(n: float, seconds: float) -> sympy.Expr:
    """n executions of an operation of `seconds` each, as a term of a block's price (the same few pairs recur
    in most of a program's blocks; 2 and 2.0 give the same term)."""
    return sympy.Float(n) * sympy.Float(seconds, 15) if not float(n).is_integer() else \
        int(n) * sympy.Float(seconds, 15)


def op_cost_name(key: str) -> str:
    """The parameter standing for an unpriced operation's seconds: 'T_add_double'."""
    return "T_" + key.replace(".", "_")


def unpriced_calls(blocks: list[Block], missing: set[str]) -> set[str]:
    """The parameters standing for the seconds of calls nothing prices: an unseen routine's C_<NAME> and the
    T_lib_... of a library routine's work the machine has no figure for."""
    names = {key[5:] for block in blocks for key in block.cost if key.startswith("cost:")}
    return names | {op_cost_name(key) for key in missing if key.startswith("lib.")}


def without_unpriced(expr: sympy.Expr, blocks: list[Block], missing: set[str], bindings: dict[str, sympy.Expr]
                     ) -> tuple[dict[str, sympy.Expr], list[str]]:
    """The bindings with every unpriced call of `expr` that they leave open set to 0 seconds, and those calls
    (sorted): the numbers then leave them out, and the reports say so (`excluded_text`)."""
    open_calls = sorted({s.name for s in free_symbols(expr)} & unpriced_calls(blocks, missing) - set(bindings))
    return {**bindings, **{name: sympy.Integer(0) for name in open_calls}}, open_calls


def missing_op_parameters(missing: list[str], machine) -> list[Parameter]:
    """Parameters for the operations the machine does not price."""
    return [Parameter(op_cost_name(key), "unresolved", "op_cost", str(machine.path), 0, "",
                      description=f"seconds per '{key}' (not priced by {machine.name})") for key in missing]


def operation_totals(blocks: list[Block]) -> dict[str, sympy.Expr]:
    """The closed form of the SAD as a vector: Σ_blocks count × S[block], by operation."""
    per_count: dict[sympy.Expr, Counter] = {}
    for block in blocks:
        per_count.setdefault(block.count, Counter()).update(block.cost)
    terms: dict[str, list] = defaultdict(list)
    for count, cost in per_count.items():
        for key, n in cost.items():
            if n:
                terms[key].append(times(count, _number(n)))
    return {key: sympy.Add(*terms[key]) for key in sorted(terms)}


def predict(blocks: list[Block], machine, bindings: dict[str, sympy.Expr],
            overrides: dict[int, sympy.Expr] | None = None) -> Prediction:
    """``overrides``: id(block) → seconds per execution from a block cost model that knows better than the sum
    of the operations' times (sad.predict.loopcost: innermost loops priced from the compiled code)."""
    missing: set[str] = set()
    timed: list[BlockTime] = []
    prices: dict[tuple, sympy.Expr] = {}   # (cost items, message) → seconds each
    per_count: dict[sympy.Expr, list] = {}
    communication: list[sympy.Expr] = []
    for block in blocks:
        cost = block.cost
        if block.message is not None:
            cost = Counter({k: n for k, n in cost.items() if not k.startswith("msg.")})
        key = (frozenset(cost.items()), block.message)
        if overrides and id(block) in overrides:
            each = overrides[id(block)]
        else:
            if key not in prices:
                prices[key] = price(cost, machine, missing)
                if block.message is not None:
                    prices[key] += message_seconds(block.message, machine, missing)
            each = prices[key]
        timed.append(BlockTime(block, each))
        per_count.setdefault(block.count, []).append(each)
        if block.message is not None:
            communication.append(timed[-1].time)
    # One term per distinct count: the formula keeps the SAD's shape, Σ count × (seconds of its blocks).
    startup = machine.op_cost("startup") or 0.0
    total = sympy.Add(*[times(count, sympy.Add(*eachs)) for count, eachs in per_count.items()])
    total = without_idle_probabilities(total)
    total += sympy.Float(startup, 15) if startup else 0
    comm = sympy.Add(*communication)
    bindings, excluded = without_unpriced(total, blocks, missing, bindings)
    bindings, rank = ranks.slowest(total, bindings)
    bound_total = bind(total, bindings)
    unbound = sorted({s.name for s in free_symbols(bound_total)})
    value = evaluate(bound_total)
    unevaluated = [] if value is not None else sorted(
        {str(f) for f in bound_total.atoms(sympy.Function)
         if getattr(f, "is_user_function", False) and not free_symbols(f)})
    # every number that can be computed is given, whether or not other parts of the program are bound
    counts: dict[sympy.Expr, float | None] = {}
    for bt in timed:
        if bt.block.count not in counts:
            counts[bt.block.count] = evaluate(bind(bt.block.count, bindings))
        bt.count_value = counts[bt.block.count]
        bt.time_value = evaluate(bind(bt.time, bindings)) if bt.count_value is not None else None
    by_proc: dict[str, float | None] = {}
    for bt in timed:
        proc = bt.block.procedure
        if proc in by_proc and by_proc[proc] is None:
            continue
        by_proc[proc] = None if bt.time_value is None else (by_proc.get(proc) or 0.0) + bt.time_value
    comm_value = evaluate(bind(comm, bindings))
    return Prediction(total, value, timed, unbound, sorted(missing), dict(sorted(by_proc.items())),
                      operation_totals(blocks), startup, computation=total - comm, communication=comm,
                      computation_value=None if value is None or comm_value is None else value - comm_value,
                      communication_value=comm_value, rank=rank, excluded=excluded, unevaluated=unevaluated)


# The exactness check expands a derivative: on the terms of one probability written out up to this many nodes.
# Past it (the probabilities of IFs that rejoin many times over, whose terms are immense as trees) the
# probability stays in the time, named as unbound like any other: never dropped without the check.
IDLE_CHECK_NODES = 4000


def without_idle_probabilities(total: sympy.Expr) -> sympy.Expr:
    """The time with every branch probability taken out that it does not depend on: an IF or select whose arms
    cost the same (``x = a > b ? a : b``) is counted X·P and X·(1 - P) times at one price, so the time must be
    bound without P (the counts keep it). Exact: the terms holding P are replaced by their value at P = 0 only
    when their derivative in P expands to 0; a P inside a Max or Piecewise (a loop priced as a whole) stays."""
    terms = list(sympy.Add.make_args(total))
    symbols = [free_symbols(t) for t in terms]
    probabilities = sorted({s for each in symbols for s in each if s.name.startswith("P_")}, key=lambda s: s.name)
    for p in probabilities:
        holding = [i for i, each in enumerate(symbols) if p in each]
        part = sympy.Add(*[terms[i] for i in holding])
        if tree_size([part]) > IDLE_CHECK_NODES or _depends_at_a_point(part, p):
            continue
        slope = part.diff(p)
        if slope != 0 and not _is_zero_polynomial(_shielded(slope)):
            continue
        for i in holding:
            terms[i] = sympy.Integer(0)
            symbols[i] = frozenset()
        rest = part.xreplace({p: sympy.Integer(0)})
        terms.append(rest)
        symbols.append(free_symbols(rest))
    return sympy.Add(*terms)


# Whole numbers for the point: distinct, none small (a bound of 5 leaves `DO J = 6, N` empty and hides a term)
_POINT = (37, 53, 71, 89, 107, 131, 151, 173, 193, 211, 233, 257)


def _depends_at_a_point(part: sympy.Expr, p: sympy.Symbol) -> bool:
    """Whether `part` is shown to depend on `p` by two values at one point: `p` at 1/3 and at 2/3, every other
    symbol at a whole number of _POINT, every other probability at 1/(11 + k) (so that no sum of a few of them
    is 1: `1 - P_a - P_b` is a factor of every term under a three-way IF). Cheap where the exact test is not:
    expanding the derivatives of STREVC3's terms took 44 of the 45 s of `sad analyze strevc3.f`. Equal values
    (or a point where the formula has no number, an open sum) prove nothing: the exact test follows."""
    if part.has(sympy.Sum):
        return False  # an open sum is added up trip by trip (counting.evaluate_sums): no cheap number
    truths = _truth_symbols(part)
    others = sorted(free_symbols(part) - {p}, key=lambda s: s.name)
    point: dict[sympy.Basic, sympy.Basic] = {
        s: sympy.true if s in truths else sympy.Rational(1, 11 + k) if s.name.startswith("P_")
        else sympy.Integer(_POINT[k % len(_POINT)]) for k, s in enumerate(others)}
    values = []
    for x in (sympy.Rational(1, 3), sympy.Rational(2, 3)):
        at = {**point, p: x}
        try:
            found = [evaluate(t.xreplace(at)) for t in sympy.Add.make_args(part)]
        except (TypeError, ValueError, ZeroDivisionError):  # a value the formula cannot take there
            return False
        terms = [v for v in found if v is not None and math.isfinite(v)]
        if len(terms) != len(found):
            return False
        values.append((sum(terms), sum(abs(v) for v in terms)))
    (a, scale_a), (b, scale_b) = values
    # more than rounding apart (the coefficients are floating-point seconds): an unpriced call of 53 s beside a
    # block of 1.8 µs that one arm makes 0.1 µs dearer (DBDSQR's IF34) differs by 2e-9 of the whole
    return abs(a - b) > 1e-12 * max(scale_a, scale_b, 1e-300)


def _shielded(expr: sympy.Expr) -> sympy.Expr:
    """`expr` with each function applied (a choice, a Max, a floor, a call's cost) and each quotient replaced
    by a symbol of its own, the same one wherever it recurs: expanding that multiplies out the products only,
    not the conditions inside the choices (IEEECK's tests of ONE/ZERO nested four deep took 117 s so), nor a
    quotient's (STREXC's 1/(1 + X) of its GOTO loops, 58 s). Zero so is zero."""
    names: dict[sympy.Basic, sympy.Symbol] = {}

    def name(e: sympy.Basic) -> sympy.Symbol:
        return names.setdefault(e, sympy.Dummy(f"f{len(names)}"))

    def opaque(e: sympy.Basic) -> bool:
        return e.is_Function or isinstance(e, (sympy.Sum, sympy.Derivative, sympy.Subs)) \
            or (e.is_Pow and not (e.exp.is_Integer and e.exp >= 0))
    return expr.replace(opaque, name)


def _is_zero_polynomial(expr: sympy.Expr) -> bool:
    """Whether a polynomial in its symbols is 0, multiplied out in sympy's sparse polynomial ring (a product
    of ten `1 - P` factors is 1 024 terms, which sympy.expand builds as expressions, ten times slower); a
    power by a symbol or a quotient by one is expanded as an expression."""
    gens = sorted(free_symbols(expr), key=sympy.default_sort_key)
    if not gens:
        return expr == 0
    floats = expr.has(sympy.Float)  # seconds: over the reals, as sympy's Floats add; else exactly, over QQ
    ring, *symbols = sympy.polys.rings.ring(gens, sympy.RR if floats else sympy.QQ)
    generators = dict(zip(gens, symbols))

    def element(e: sympy.Basic):
        if e in generators:
            return generators[e]
        if e.is_Number:
            return ring(float(e) if floats else e)
        if e.is_Add:
            return sum((element(a) for a in e.args), ring.zero)
        if e.is_Mul:
            product = ring.one
            for a in e.args:
                product *= element(a)
            return product
        if e.is_Pow and e.exp.is_Integer and e.exp >= 0:
            return element(e.base) ** int(e.exp)
        raise ValueError(e)
    try:
        return not element(expr)
    except (ValueError, TypeError):  # not a polynomial (or an infinite number in it): as an expression
        return sympy.expand(expr) == 0


def _truth_symbols(expr: sympy.Expr) -> set[sympy.Basic]:
    """The symbols a formula uses as truth values (a LOGICAL formal, DLASQ5's IEEE, as a choice's condition),
    which the point gives `true`, not a number."""
    found: set[sympy.Basic] = set()
    stack = [cond for pw in expr.atoms(sympy.Piecewise) for _, cond in pw.args]
    while stack:
        cond = stack.pop()
        if isinstance(cond, sympy.Symbol):
            found.add(cond)
        elif isinstance(cond, sympy.logic.boolalg.BooleanFunction):
            stack.extend(cond.args)
    return found


def _number(n):
    return sympy.Integer(int(n)) if float(n).is_integer() else sympy.Float(n)
