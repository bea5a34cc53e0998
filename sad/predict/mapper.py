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
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from typing import Any

import sympy

from sad.analysis.bindings import bind, evaluate
from sad.analysis.description import Block
from sad.analysis.freesymbols import free_symbols
from sad.analysis.params import Parameter, make_symbol
from sad.analysis.products import times
from sad.analysis.spmd import MessageCost
from sad.predict import ranks
from sad.predict.idleprobabilities import without_idle_probabilities
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


def _number(n):
    return sympy.Integer(int(n)) if float(n).is_integer() else sympy.Float(n)
