"""In-core time of a loop body that is not priced from compiled code: throughput bound versus latency bound.

Data flow: an innermost loop of the source (sad.predict.sourceloops.SourceLoop) and the operation classes that
`sad calibrate` measured (the ``ops`` of the machine's ``hierarchy``: per class a latency, from one dependent
chain, and a reciprocal throughput, from eight independent ones) → seconds per iteration, the larger of

    throughput   Σ operations of one iteration (sad.analysis.cost, both arms of a branch counted) × the
                 class's reciprocal throughput; an operation without a class (loads, stores, subscripts, the
                 loop's own increment and test, intrinsics) keeps the machine's per-operation price
    latency      the longest loop-carried chain: an assignment whose value reads its own scalar target
                 (``s = s + a(i) * b(i)``) costs the latencies of the operations on the path from the old value
                 to the new one, plus store-to-load forwarding where the compile keeps variables in memory (-O0)

It is used where the compiler or llvm-mca is missing or the compiled loop cannot be matched to the source;
sad.predict.incore uses it for such loops; sad.predict.loopcost adds the data term (sad.predict.reuse) as for
compiled loops.
"""
from __future__ import annotations

from collections import Counter
from collections.abc import Iterator

import sympy

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
    for child in expr.child_nodes():
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


def recurrence_seconds(loop: ir.Do, hierarchy: Hierarchy, clock_cycle: float) -> float:
    """Seconds per iteration of a recurrence through memory in code that keeps every variable in memory (-O0):
    an element the loop writes (``x[i]``) that a later iteration reads back (``x[i - 1]``, ``A[i*n + j-1]``
    in a loop on j): d iterations later (the distance, a constant). The value travels from that load through
    the operations and the scalar variables it passes (each stored and loaded again: store-to-load forwarding,
    ``v = A[..] + 1; u = u < v ? u : v`` at -O0 is a compare, a branch and a copy through memory) to the store
    of the element, which the load d iterations later waits for (forwarding again). Per iteration: that chain
    / d. Operations without a calibrated class count 3 cycles."""
    step = 1 if loop.step is None else _constant(loop.step)
    if not step:
        return 0.0
    longest = 0.0
    for stmt in walk_stmts(loop.body):
        if not isinstance(stmt, ir.Assign) or not isinstance(stmt.target, ir.ArrayRef) or not stmt.target.indices:
            continue
        for node in walk_stmts(loop.body):
            for ref in (n for n in walk(node) if isinstance(n, ir.ArrayRef) and n.name == stmt.target.name):
                if ref is stmt.target:
                    continue
                d = _distance(stmt.target, ref, loop.index)
                if d is None or d * step <= 0:
                    continue
                path = _chain_to(loop.body, ref, stmt.target, hierarchy, clock_cycle)
                if path is not None:
                    longest = max(longest, (hierarchy.forward_fp_s + path) / abs(d * step))
    return longest


def carried_between_entries(inner: ir.Do, enclosing: ir.Stmt) -> bool:
    """True when a value an innermost loop keeps updating is read by a later iteration of its enclosing loop: an
    element the loop assigns while its own index does not move it (``table[i][j] = max(table[i][j], ...)`` over
    k) that the enclosing loop's body reads at a constant distance in that loop's index (``table[i][j - 1]`` at
    the next j), or that the loop's own first iteration reads so (``w[(i - k) - 1]`` at k = 0 is w[i - 1]). The
    chain of one entry then starts where the previous entry's ended: entries do not overlap. A read that
    comes later in the entry (a forward substitution's x[j] at j = i - 1, its last) leaves them overlapping.
    Nussinov's split loop at N = 150, -O2: a cmp + cmov chain of 2 cycles an iteration, 49 iterations an entry;
    llvm-mca over several entries (which sees no dependence through memory) put it at 1.7 cycles."""
    if not isinstance(enclosing, ir.Do) or not enclosing.index:
        return False
    targets = [s.target for s in walk_stmts(inner.body) if isinstance(s, ir.Assign)
               and isinstance(s.target, ir.ArrayRef) and s.target.indices
               and not any(isinstance(n, ir.Var) and n.name == inner.index for n in walk(s.target))]
    # read by the entry's first iteration: Livermore loop 6's ``w[i] += b[k][i] * w[(i - k) - 1]`` reads at
    # k = 0 the w[i - 1] the previous entry ended with, so its chain cannot start before that one ends
    first = _sym(inner.lo) if inner.index and inner.lo is not None else None
    at_first = {sympy.Symbol(inner.index): first} if first is not None else None
    for target in targets:
        if any(_behind(target, ref, enclosing.index) for ref in _refs_to(enclosing.body, target.name)):
            return True
        if at_first and any(_behind(target, ref, enclosing.index, at_first)
                            for ref in _refs_to(inner.body, target.name)):
            return True
    return False


def _refs_to(body: list[ir.Stmt], name: str) -> Iterator[ir.ArrayRef]:
    """Every reference to the array `name` in the statements of `body`, nested ones included."""
    for node in walk_stmts(body):
        yield from (n for n in walk(node) if isinstance(n, ir.ArrayRef) and n.name == name)


def _behind(target: ir.ArrayRef, ref: ir.ArrayRef, index: str, at: dict[sympy.Symbol, sympy.Expr] | None = None
            ) -> bool:
    """Whether `ref` reads what `target` wrote a constant number of iterations of `index` earlier."""
    d = _distance(target, ref, index, at)
    return d is not None and d > 0


def restarts_each_entry(inner: ir.Do, enclosing: ir.Stmt) -> bool:
    """True when every scalar the innermost loop updates from itself (``dist += e * e``) is set afresh before
    each entry by its enclosing loop's body, from a value that does not read it (``dist = 0``), and no element
    the loop keeps updating is read back by a later entry (``carried_between_entries``): the chain of one entry
    does not wait for the previous entry's, so entries overlap as far as the core's window lets them. False
    where the loop updates no scalar from itself (nothing to say)."""
    if not isinstance(enclosing, ir.Do) or carried_between_entries(inner, enclosing):
        return False
    updated = {s.target.name for s in walk_stmts(inner.body) if isinstance(s, ir.Assign)
               and isinstance(s.target, ir.Var) and _path_ops(s.value, s.target.name) is not None}
    if not updated:
        return False
    before = []
    for stmt in enclosing.body:
        if any(s is inner for s in walk_stmts([stmt])):
            break
        before.append(stmt)
    fresh = {s.target.name for s in walk_stmts(before) if isinstance(s, ir.Assign) and isinstance(s.target, ir.Var)
             and _path_ops(s.value, s.target.name) is None}
    return updated <= fresh


def _distance(target: ir.ArrayRef, ref: ir.ArrayRef, index: str,
              at: dict[sympy.Symbol, sympy.Expr] | None = None) -> int | None:
    """d when ``ref`` at iteration k reads what ``target`` wrote at iteration k - d (subscripts equal but for
    d times the index's coefficient, a constant in every subscript); None otherwise. ``at``: values given to
    other names in ``ref``'s subscripts (an inner loop's index at its first iteration)."""
    if len(target.indices) != len(ref.indices):
        return None
    i = sympy.Symbol(index)
    found = None
    for t_sub, r_sub in zip(target.indices, ref.indices):
        t, r = _sym(t_sub), _sym(r_sub)
        if t is None or r is None:
            return None
        r = r.subs(at) if at else r
        coeff, diff = sympy.diff(t, i), sympy.expand(t - r)
        if not diff.is_number or not coeff.is_number:
            return None
        if coeff == 0:
            if diff != 0:
                return None
            continue
        d = diff / coeff
        if not d.is_integer or d == 0 or (found is not None and d != found):
            return None
        found = int(d)
    return found


def _sym(expr: ir.Expr) -> sympy.Expr | None:
    """An integer subscript as a sympy expression (constants, variables, + - *), None for anything else."""
    if isinstance(expr, ir.Const) and isinstance(expr.value, int):
        return sympy.Integer(expr.value)
    if isinstance(expr, ir.Var):
        return sympy.Symbol(expr.name)
    if isinstance(expr, ir.Cast):
        return _sym(expr.operand)
    if isinstance(expr, ir.UnOp) and expr.op == "neg":
        inner = _sym(expr.operand)
        return None if inner is None else -inner
    if isinstance(expr, ir.BinOp) and expr.op in ("add", "sub", "mul"):
        left, right = _sym(expr.left), _sym(expr.right)
        if left is None or right is None:
            return None
        return left + right if expr.op == "add" else left - right if expr.op == "sub" else left * right
    return None


def subscript(expr: ir.Expr) -> sympy.Expr | None:
    """An integer subscript as a sympy expression (constants, variables, + - *), None for anything else."""
    return _sym(expr)


def _constant(expr: ir.Expr) -> int:
    value = _sym(expr)
    return int(value) if value is not None and value.is_number else 0


def _chain_to(body: list[ir.Stmt], source: ir.ArrayRef, target: ir.ArrayRef, hierarchy: Hierarchy,
              clock_cycle: float) -> float | None:
    """Latency from the load of ``source`` to the value stored into ``target`` within one iteration (statements
    in source order; a scalar assigned on the way is stored and loaded again: + forwarding), None if the
    stored value does not depend on the load."""
    ready: dict[str, float] = {}
    result = None
    for stmt in walk_stmts(body):
        if not isinstance(stmt, ir.Assign):
            continue
        lat = _expr_latency(stmt.value, source, ready, hierarchy, clock_cycle)
        if stmt.target is target:
            result = lat if result is None or lat is None else max(result, lat)
        elif isinstance(stmt.target, ir.Var) and lat is not None:
            floating = stmt.target.type in ("real", "double", "complex")
            hop = lat + (hierarchy.forward_fp_s if floating else hierarchy.forward_s)
            ready[stmt.target.name] = max(ready.get(stmt.target.name, 0.0), hop)
    return result


def _expr_latency(expr: ir.Expr, source: ir.ArrayRef, ready: dict[str, float], hierarchy: Hierarchy,
                  clock_cycle: float) -> float | None:
    if expr is source or (isinstance(expr, ir.ArrayRef) and expr.name == source.name
                          and repr(expr.indices) == repr(source.indices)):
        return 0.0
    if isinstance(expr, ir.Var):
        return ready.get(expr.name)
    inputs = [_expr_latency(c, source, ready, hierarchy, clock_cycle) for _, c in expr.children()
              if isinstance(c, ir.Expr)]
    known = [x for x in inputs if x is not None]
    if not known:
        return None
    own = 0.0
    if isinstance(expr, ir.BinOp) and expr.op in _BINOP:
        own = _latency(f"{_BINOP[expr.op]}.{expr.type}", hierarchy) or 3 * clock_cycle
    return max(known) + own


def _latency(key: str, hierarchy: Hierarchy) -> float:
    cls = op_class(key)
    return hierarchy.ops[cls][0] if cls is not None and cls in hierarchy.ops else 0.0


def guessed_figures(body: list[ir.Stmt], layout: Layout, hierarchy: Hierarchy, price) -> list[str]:
    """What this model would take without a measured figure, as text for a warning (never silently): the
    operations of one iteration that neither a calibrated class nor the machine prices (``throughput_seconds``
    counts them 0 s), and the operations on a loop-carried chain whose class has no calibrated latency
    (``chain_seconds`` counts them 0 s, ``element_chain_seconds`` and ``recurrence_seconds`` 3 cycles).
    Sorted, each key once; empty when every figure used was measured."""
    ops = iteration_ops(body, layout)
    ops.update({"loop_iter": 1})
    out = [f"{key} (no price: 0 s)" for key in sorted(ops)
           if not (op_class(key) is not None and op_class(key) in hierarchy.ops) and price(key) is None]
    chained: set[str] = set()
    for stmt in walk_stmts(body):
        if not isinstance(stmt, ir.Assign):
            continue
        leaf = stmt.target.name if isinstance(stmt.target, ir.Var) else stmt.target
        path = _path_ops(stmt.value, leaf) or []
        chained.update(key for key in path if op_class(key) not in hierarchy.ops)
    out += [f"{key} on a loop-carried chain (no calibrated latency: 0 s on a scalar's chain, 3 cycles on an "
            f"element's)" for key in sorted(chained)]
    return out


def core_seconds(body: list[ir.Stmt], layout: Layout, hierarchy: Hierarchy, price, in_memory: bool
                 ) -> tuple[float, float]:
    """(throughput bound, latency bound) per iteration of a loop body, in seconds."""
    ops = iteration_ops(body, layout)
    ops.update({"loop_iter": 1})
    return throughput_seconds(ops, hierarchy, price), chain_seconds(body, hierarchy, in_memory)
