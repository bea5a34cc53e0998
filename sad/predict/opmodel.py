"""In-core time of a loop body that is not priced from compiled code: throughput bound versus latency bound.

Data flow: an innermost loop of the source (sad.predict.loopcost.SourceLoop) and the operation classes that
`sad calibrate` measured (the ``ops`` of the machine's ``hierarchy``: per class a latency, from one dependent
chain, and a reciprocal throughput, from eight independent ones) → seconds per iteration, the larger of

    throughput   Σ operations of one iteration (sad.analysis.cost, both arms of a branch counted) × the
                 class's reciprocal throughput; an operation without a class (loads, stores, subscripts, the
                 loop's own increment and test, intrinsics) keeps the machine's per-operation price
    latency      the longest loop-carried chain: an assignment whose value reads its own scalar target
                 (``s = s + a(i) * b(i)``) costs the latencies of the operations on the path from the old value
                 to the new one, plus store-to-load forwarding where the compile keeps variables in memory (-O0)

It is used where the compiler or llvm-mca is missing or the compiled loop cannot be matched to the source;
sad.predict.loopcost adds the data term (cache levels) as for compiled loops.
"""
from __future__ import annotations

from collections import Counter

from sad import ir
from sad.analysis.cost import Layout, statement_cost
from sad.ir.walk import walk, walk_stmts
from sad.machine.hierarchy import Hierarchy

_CLASS_OF = {"add": "add", "sub": "add", "neg": "add", "compare": "add", "mul": "mul", "div": "div"}
_BINOP = {"add": "add", "sub": "sub", "mul": "mul", "div": "div"}


def op_class(key: str) -> str | None:
    """'sub.double' → 'add.double' (the class whose figures price it); None for keys no class covers."""
    head, _, kind = key.partition(".")
    if head not in _CLASS_OF or kind not in ("integer", "real", "double"):
        return None
    return f"{_CLASS_OF[head]}.{'double' if kind == 'real' else kind}"


def iteration_ops(body: list[ir.Stmt], layout: Layout) -> Counter:
    """Operations of one iteration of a loop body (every statement once; the loop's increment and test not)."""
    total: Counter = Counter()
    for stmt in walk_stmts(body):
        total.update(statement_cost(stmt, layout).ops)
    return total


def throughput_seconds(ops: Counter, hierarchy: Hierarchy, price) -> float:
    """Σ count × reciprocal throughput of the class, or the per-operation price ``price(key)`` without one."""
    total = 0.0
    for key, n in sorted(ops.items()):
        cls = op_class(key)
        if cls is not None and cls in hierarchy.ops:
            total += n * hierarchy.ops[cls][1]
        else:
            total += n * (price(key) or 0.0)
    return total


def chain_seconds(body: list[ir.Stmt], hierarchy: Hierarchy, in_memory: bool) -> float:
    """The longest loop-carried chain through a scalar (see the module docstring)."""
    longest = 0.0
    for stmt in walk_stmts(body):
        if not isinstance(stmt, ir.Assign) or not isinstance(stmt.target, ir.Var):
            continue
        path = _path_ops(stmt.value, stmt.target.name)
        if path is None:
            continue
        seconds = sum(_latency(key, hierarchy) for key in path)
        if in_memory:
            floating = stmt.target.type in ("real", "double", "complex")
            seconds += hierarchy.forward_fp_s if floating else hierarchy.forward_s
        longest = max(longest, seconds)
    return longest


def _path_ops(expr: ir.Expr, name: str | ir.Expr) -> list[str] | None:
    """Operation keys from the leaf ``name`` (a scalar's name, or an array element like the assignment's
    target) to the root of ``expr`` (the deepest such path); None if ``expr`` does not read it."""
    if _is_leaf(expr, name):
        return []
    paths = []
    for _, child in expr.children():
        if isinstance(child, ir.Expr) and any(_is_leaf(n, name) for n in walk(child)):
            sub = _path_ops(child, name)
            if sub is not None:
                paths.append(sub)
    if not paths:
        return None
    here = []
    if isinstance(expr, ir.BinOp) and expr.op in _BINOP:
        here = [f"{_BINOP[expr.op]}.{expr.type}"]
    return max(paths, key=len) + here


def _is_leaf(node, name: str | ir.Expr) -> bool:
    if isinstance(name, str):
        return isinstance(node, ir.Var) and node.name == name
    return isinstance(node, ir.ArrayRef) and isinstance(name, ir.ArrayRef) and node.name == name.name \
        and repr(node.indices) == repr(name.indices)


def element_chain_seconds(body: list[ir.Stmt], index: str | None, hierarchy: Hierarchy, clock_cycle: float
                          ) -> float:
    """The operations on the loop-carried chain of an array element the loop updates in place while its
    subscripts do not move (``x[j] += a[i*n+j]`` inside a loop on i): forwarding is added by the caller.
    Operations without a calibrated class count 3 cycles (a floating-point add on most cores)."""
    longest = 0.0
    for stmt in walk_stmts(body):
        if not isinstance(stmt, ir.Assign):
            continue
        target = stmt.target
        if not isinstance(target, ir.ArrayRef) or not target.indices:
            continue
        if index is not None and any(isinstance(n, ir.Var) and n.name == index for n in walk(target)):
            continue
        path = _path_ops(stmt.value, target)
        if path:
            longest = max(longest, sum(_latency(key, hierarchy) or 3 * clock_cycle for key in path))
    return longest


def _latency(key: str, hierarchy: Hierarchy) -> float:
    cls = op_class(key)
    return hierarchy.ops[cls][0] if cls is not None and cls in hierarchy.ops else 0.0


def core_seconds(body: list[ir.Stmt], layout: Layout, hierarchy: Hierarchy, price, in_memory: bool
                 ) -> tuple[float, float]:
    """(throughput bound, latency bound) per iteration of a loop body, in seconds."""
    ops = iteration_ops(body, layout)
    ops.update({"loop_iter": 1})
    return throughput_seconds(ops, hierarchy, price), chain_seconds(body, hierarchy, in_memory)
