"""Control flow of one statement list (a region): its graph, its loops, and how often each node runs.

Data flow: the SAD builder turns each statement list of the IR into a `RegionGraph` — one node per
statement, edges weighted by the fraction of a node's executions that take them (1, a branch probability,
or what a nested region lets out), plus escapes to labels outside the list. This module finds the loops
GOTOs build (natural loops: back edges to a dominating header, networkx dominators), names each loop's count
X where a single two-way decision controls it, and solves for the expected executions of every node per
entry into the region: topological propagation where the graph is acyclic, a linear system over each
strongly connected component elsewhere — expected visit counts of a Markov chain, which also covers
unstructured regions with no loop structure (arithmetic IF and computed GOTO spaghetti).
"""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from functools import lru_cache

import networkx as nx
import sympy
from sympy.matrices.exceptions import NonInvertibleMatrixError

from sad.analysis.products import EXPANSION_LIMIT, expanded_terms, larger_than

END = -1  # the node after the last statement: reaching it is falling through the region


@dataclass
class Decision:
    """A two-way decision at a node: `symbol` is the probability of the edge to `on_true`."""
    symbol: sympy.Symbol
    on_true: object  # node index or ("esc", label)
    on_false: object


@dataclass
class RegionGraph:
    """The control-flow graph of one statement list: weighted out-edges per node, labels, decisions."""
    size: int
    edges: dict[int, list[tuple[object, sympy.Expr]]] = field(default_factory=dict)  # node → (target, w)
    labels: dict[str, int] = field(default_factory=dict)
    decisions: dict[int, Decision] = field(default_factory=dict)
    error_labels: set[str] = field(default_factory=set)  # labels of code that ends the program
    stmts: list = field(default_factory=list)  # the statement list itself (what runs before a node)

    def add_edge(self, node: int, target: object, weight: sympy.Expr) -> None:
        """Add an edge from `node` to `target` taken with `weight` (zero-weight edges are dropped)."""
        if weight == 0:
            return
        self.edges.setdefault(node, []).append((target, weight))

    def successor(self, node: int) -> int:
        """The node after `node` in statement order, or END after the last one."""
        return node + 1 if node + 1 < self.size else END


@dataclass
class LoopInfo:
    """A loop found in a region graph: its header node, its nodes and its deciding branch."""
    header: int
    nodes: set[int]
    decision: Decision | None


@dataclass
class Solution:
    """Node frequencies of a solved region graph, with its fall-through, escapes and loops."""
    freq: dict[int, sympy.Expr]
    fallthrough: sympy.Expr
    escapes: dict[str, sympy.Expr]
    loops: list[LoopInfo]
    subs: dict[sympy.Symbol, sympy.Expr] = field(default_factory=dict)  # decision P → X form


def to_networkx(region: RegionGraph) -> nx.DiGraph:
    """The region graph as a networkx DiGraph (END is the exit node)."""
    graph = nx.DiGraph()
    graph.add_nodes_from(range(region.size))
    graph.add_node(END)
    for node, out in region.edges.items():
        for target, _ in out:
            if not isinstance(target, tuple):
                graph.add_edge(node, target)
    return graph


def find_loops(region: RegionGraph) -> list[LoopInfo]:
    """Natural loops: for each header h, the nodes that reach a back edge u→h (h dominates u) without
    passing h. Loops with the same header are merged, as a GOTO loop with two backward jumps is one loop."""
    if region.size == 0 or not _jumps_back(region):
        return []  # every edge goes forward: no cycle (most regions: a DO body without GOTOs)
    graph = to_networkx(region)
    reachable = nx.descendants(graph, 0) | {0}
    dom = nx.immediate_dominators(graph.subgraph(reachable), 0)
    headers: dict[int, set[int]] = {}
    for u, h in graph.edges:
        if u in reachable and h in reachable and _dominates(dom, h, u):
            body = headers.setdefault(h, {h})
            body |= _reaching(graph, u, h)
    loops = []
    for h in sorted(headers):
        loops.append(LoopInfo(h, headers[h], _controlling_decision(region, headers[h])))
    return loops


def _jumps_back(region: RegionGraph) -> bool:
    """Whether some edge goes to the same or an earlier statement (the only way to close a cycle)."""
    return any(isinstance(t, int) and t != END and t <= n for n, out in region.edges.items() for t, _ in out)


def _dominates(dom: dict, a: int, b: int) -> bool:
    while True:
        if b == a:
            return True
        parent = dom.get(b)
        if parent is None or parent == b:
            return False
        b = parent


def _reaching(graph: nx.DiGraph, start: int, header: int) -> set[int]:
    """The nodes that reach `start` without passing `header` (the body of a loop closed by start → header)."""
    return _reach(start, lambda node: () if node == header else graph.predecessors(node)) | {header}


def _controlling_decision(region: RegionGraph, nodes: set[int]) -> Decision | None:
    """The loop's count is named X when exactly one node lets control out and it does so by a two-way
    decision whose other edge stays in."""
    exits = [n for n in nodes if any(_leaves(t, nodes) for t, _ in region.edges.get(n, []))]
    if len(exits) != 1 or exits[0] not in region.decisions:
        return None
    decision = region.decisions[exits[0]]
    out_true, out_false = _leaves(decision.on_true, nodes), _leaves(decision.on_false, nodes)
    return decision if out_true != out_false else None


def _leaves(target: object, nodes: set[int]) -> bool:
    return isinstance(target, tuple) or target not in nodes


def solve(region: RegionGraph, loop_symbol: Callable[[LoopInfo], sympy.Symbol | None],
          visit_symbol: Callable[[list[int]], list[sympy.Symbol]] | None = None) -> Solution:
    """Expected executions of each node per entry into the region (entry at node 0).

    Loops are solved by their structure, not by a symbolic linear system: a loop's header runs 1 + X
    times per entry into the loop (X its named count), the rest of its body follows by propagation over
    the body with the back edges removed, and what leaves the loop is split among its exits in the
    proportions the body gives (all of it when there is one exit target). The work is linear in the
    size of the region. Only irreducible cycles (jumps into the middle of a loop) need a linear solve; a
    small one is solved exactly, a larger one gets a named visit count per statement (`visit_symbol`, given
    the cycle's statements at once).
    """
    loops = find_loops(region)
    subs = {}
    for loop in loops:
        x = loop_symbol(loop)
        if x is None or loop.decision is None:
            continue
        stays_on_true = not _leaves(loop.decision.on_true, loop.nodes)
        # X = back-edge traversals per entry: the staying probability is X/(1+X).
        subs[loop.decision.symbol] = x / (1 + x) if stays_on_true else 1 / (1 + x)
    weights = {n: [(t, _bind(w, subs)) for t, w in out] for n, out in region.edges.items()}
    if region.size == 0:
        return Solution({}, sympy.Integer(1), {}, loops, subs)
    top = LoopInfo(0, _reachable(region), None)
    solver = _LevelSolver(weights, loops, loop_symbol, visit_symbol)
    rel, exits = solver.level(top, is_loop=False)
    simplify = bool(subs)
    freq = {n: (tidy_small(f) if simplify else f) for n, f in rel.items()}
    fallthrough = tidy_small(exits.pop(END, sympy.Integer(0)))
    escapes = {t[1]: tidy_small(f) for t, f in exits.items() if isinstance(t, tuple)}
    return Solution(freq, fallthrough, escapes, loops, subs)


def _reachable(region: RegionGraph) -> set[int]:
    """The statements reachable from the region's entry (node 0)."""
    return _reach(0, lambda node: [t for t, _ in region.edges.get(node, []) if isinstance(t, int) and t != END])


def _reach(start, successors: Callable) -> set:
    """Everything reachable from `start` (itself included), following `successors`."""
    seen = {start}
    stack = [start]
    while stack:
        for target in successors(stack.pop()):
            if target not in seen:
                seen.add(target)
                stack.append(target)
    return seen


def _bind(weight, subs: dict) -> sympy.Expr:
    weight = sympy.sympify(weight)
    return weight.subs(subs) if subs and not weight.free_symbols.isdisjoint(subs) else weight


_IRREDUCIBLE_LIMIT = 8  # units of an irreducible cycle solved exactly; beyond, named visit counts


class _LevelSolver:
    """Frequencies of one loop level: the loop's own nodes plus its child loops collapsed to units."""

    def __init__(self, weights: dict, loops: list[LoopInfo], loop_symbol, visit_symbol) -> None:
        self.weights = weights
        self.loops = loops
        self.loop_symbol = loop_symbol
        self.visit_symbol = visit_symbol

    def children(self, parent: LoopInfo, is_loop: bool) -> list[LoopInfo]:
        inner = [lp for lp in self.loops if lp.nodes < parent.nodes or (not is_loop and lp.nodes <= parent.nodes)]
        return [lp for lp in inner if not any(lp.nodes < other.nodes for other in inner)]

    def level(self, loop: LoopInfo, is_loop: bool) -> tuple[dict[int, sympy.Expr], dict[object, sympy.Expr]]:
        """(node → executions, exit target → flow), both per entry into `loop` (at its header)."""
        children = self.children(loop, is_loop)
        unit_of: dict[int, object] = {n: n for n in loop.nodes}
        solved: dict[object, tuple[dict, dict]] = {}
        for child in children:
            loop_unit = ("loop", child.header)
            for n in child.nodes:
                unit_of[n] = loop_unit
            solved[loop_unit] = self.level(child, is_loop=True)
        out: dict[object, dict[object, sympy.Expr]] = {}  # unit → target (unit or exit) → weight per entry
        for unit in set(unit_of.values()):
            targets = solved[unit][1].items() if unit in solved else \
                [(t, w) for t, w in self.weights.get(unit, [])]
            edges: dict[object, sympy.Expr] = {}
            for target, weight in targets:
                if is_loop and target == loop.header:
                    continue  # a back edge: its traffic is the loop's X
                key = unit_of.get(target, target) if isinstance(target, int) and target in loop.nodes else \
                    ("exit", target)
                edges[key] = edges.get(key, 0) + weight
            out[unit] = edges
        entry = unit_of[loop.header]
        counts = self._propagate(out, entry)
        rel: dict[int, sympy.Expr] = {}
        exits: dict[object, sympy.Expr] = {}
        for unit, count in counts.items():
            if isinstance(unit, tuple) and unit[0] == "exit":
                exits[unit[1]] = exits.get(unit[1], 0) + count
            elif unit in solved:
                for n, f in solved[unit][0].items():
                    rel[n] = _mul(count, f)
            else:
                assert isinstance(unit, int)           # a node of this level (not a child loop, not an exit)
                rel[unit] = count
        if not is_loop:
            return rel, exits
        x = self.loop_symbol(loop)
        if x is None:
            return rel, exits
        rel = {n: _mul(1 + x, f) for n, f in rel.items()}
        return rel, _split_exits(exits)

    def _propagate(self, out: dict, entry: object) -> dict[object, sympy.Expr]:
        """Entries into each unit (and flow into each exit) per entry at `entry`."""
        order = _acyclic_order(out, entry)
        if order is not None:  # most levels: straight-line code and IF blocks, no networkx graph needed
            return _propagate_in_order(out, entry, order)
        graph = nx.DiGraph()
        graph.add_node(entry)
        for unit, edges in out.items():
            graph.add_node(unit)
            for target in edges:
                graph.add_edge(unit, target)
        reach = nx.descendants(graph, entry) | {entry}
        graph = graph.subgraph(reach)
        inflow: dict[object, sympy.Expr] = {entry: sympy.Integer(1)}
        counts: dict[object, sympy.Expr] = {}
        condensed = nx.condensation(graph)
        for scc_id in nx.topological_sort(condensed):
            members = sorted(condensed.nodes[scc_id]["members"], key=str)
            cyclic = len(members) > 1 or graph.has_edge(members[0], members[0])
            if cyclic:
                solved, named = self._irreducible(members, out, inflow)
                counts.update(solved)
                if named:
                    _leave(members, out, counts, inflow)
                    continue
            else:
                counts[members[0]] = inflow.get(members[0], sympy.Integer(0))
            for unit in members:
                for target, weight in out.get(unit, {}).items():
                    if target not in members:
                        inflow[target] = inflow.get(target, 0) + _mul(counts[unit], weight)
        return counts

    def _irreducible(self, members: list, out: dict, inflow: dict) -> tuple[dict[object, sympy.Expr], bool]:
        """A cycle entered at more than one place (no loop header dominates it): expected visits of an
        absorbing Markov chain when it is small; named visit counts per unit when it is not (then True)."""
        if len(members) <= _IRREDUCIBLE_LIMIT or self.visit_symbol is None:
            solution = _markov(members, out, inflow)
            if solution is not None:
                return solution, False
        total_in = sympy.Add(*[inflow.get(u, 0) for u in members])
        visits = self.visit_symbol([_first_node(u) for u in members])
        return {u: _mul(total_in, x) for u, x in zip(members, visits)}, True


def _leave(members: list, out: dict, counts: dict, inflow: dict) -> None:
    """What enters a cycle of named visit counts leaves it once, split among its exits in the proportions
    the counts give (all of it when there is one exit target), as a loop's exits: the named counts of its
    statements are independent, so their own products would not add up to the flow that entered."""
    exits: dict[object, sympy.Expr] = {}
    for unit in members:
        for target, weight in out.get(unit, {}).items():
            if target not in members:
                exits[target] = exits.get(target, 0) + _mul(counts[unit], weight)
    total_in = sympy.Add(*[inflow.get(u, 0) for u in members])
    for target, share in _split_exits(exits).items():
        inflow[target] = inflow.get(target, 0) + _mul(total_in, share)


def _acyclic_order(out: dict, entry: object) -> list | None:
    """The units reachable from `entry` in a topological order (Kahn's algorithm), or None when they
    hold a cycle. The counts are exact sums, so any topological order gives the same expressions as the
    condensation's."""
    reach = _reach(entry, lambda unit: out.get(unit, {}))
    indegree = dict.fromkeys(reach, 0)
    for unit in reach:
        for target in out.get(unit, {}):
            indegree[target] += 1
    ready = [unit for unit in reach if indegree[unit] == 0]
    order = []
    while ready:
        unit = ready.pop()
        order.append(unit)
        for target in out.get(unit, {}):
            indegree[target] -= 1
            if indegree[target] == 0:
                ready.append(target)
    return order if len(order) == len(reach) else None


def _propagate_in_order(out: dict, entry: object, order: list) -> dict[object, sympy.Expr]:
    """Entries into each unit of an acyclic level, its units taken in topological `order`."""
    inflow: dict[object, sympy.Expr] = {entry: sympy.Integer(1)}
    counts: dict[object, sympy.Expr] = {}
    for unit in order:
        counts[unit] = inflow.get(unit, sympy.Integer(0))
        for target, weight in out.get(unit, {}).items():
            inflow[target] = inflow.get(target, 0) + _mul(counts[unit], weight)
    return counts


def _first_node(unit: object) -> int:
    """A child loop's header, or the node itself."""
    node = unit[1] if isinstance(unit, tuple) else unit
    assert isinstance(node, int)
    return node


def _markov(members: list, out: dict, inflow: dict) -> dict[object, sympy.Expr] | None:
    """f_v = inflow_v + Σ_{u in SCC} f_u w(u, v)."""
    index = {unit: i for i, unit in enumerate(members)}
    matrix = sympy.eye(len(members))
    rhs = sympy.Matrix([inflow.get(unit, 0) for unit in members])
    for u in members:
        for target, weight in out.get(u, {}).items():
            if target in index:
                matrix[index[target], index[u]] -= weight
    try:
        solution = matrix.LUsolve(rhs)
    except (ValueError, ZeroDivisionError, NonInvertibleMatrixError):
        return None  # a cycle nothing leaves: the caller names its visits
    return {unit: tidy_small(solution[index[unit]]) for unit in members}


def _split_exits(exits: dict[object, sympy.Expr]) -> dict[object, sympy.Expr]:
    """Each entry into a loop leaves it once: the exits' flows are the body's proportions."""
    if not exits:
        return {}
    if len(exits) == 1:
        return {target: sympy.Integer(1) for target in exits}
    total = sympy.Add(*exits.values())
    *first, last = sorted(exits, key=str)
    split = {target: tidy_small(exits[target] / total) for target in first}
    split[last] = 1 - sympy.Add(*split.values())  # written so that the parts visibly add up to one
    return split


def _mul(a, b) -> sympy.Expr:
    if a == 1:
        return b
    if b == 1:
        return a
    return a * b


_TIDY_OPS = 120  # beyond this size, factor/cancel cost more than they save
# Nor beyond this many terms multiplied out: cancel and factor multiply a count out, and factoring a
# polynomial of a few hundred terms in a dozen symbols took seconds (the corpus and the generated codebase
# need at most 39 terms).
_TIDY_TERMS = EXPANSION_LIMIT // 4


@lru_cache(maxsize=4096)
def tidy_small(expr: sympy.Expr) -> sympy.Expr:
    """tidy() for small expressions only (large ones are returned as they are: factoring is slow).
    Memoized, like tidy: a routine asks for the same few forms again and again (md1.f: 177 calls, 32
    distinct expressions), and cancel/factor are the costly part of building a routine."""
    expr = sympy.sympify(expr)
    if expr.is_Atom or larger_than(expr, _TIDY_NODES) or sympy.count_ops(expr) > _TIDY_OPS:
        return expr
    return tidy(expr)


# count_ops walks the whole expression: a node count that stops at this many nodes sends the large ones
# back first (the visits of a 1 600-line ODE solver's statements were 4 000-node expressions, and
# count_ops on them was most of a minute).
_TIDY_NODES = 2 * _TIDY_OPS


@lru_cache(maxsize=4096)
def tidy(expr: sympy.Expr) -> sympy.Expr:
    """A simpler equal form of a count (cancelled and factored); Max, Min, floor and sums left alone."""
    expr = sympy.sympify(expr)
    if expr.is_Number or expr.is_Symbol:
        return expr
    if expr.has(sympy.Max, sympy.floor, sympy.Sum, sympy.Min):
        return expr
    if _monomial(expr) or _one_plus_product(expr):
        return expr  # 1 - P, X*Y*P, 1 - P*X*Y: what cancel and factor return, without their 10 ms
    if expanded_terms(expr, _TIDY_TERMS) > _TIDY_TERMS:
        return expr  # expand, cancel and factor would all multiply it out
    if expr.has(sympy.Piecewise):
        # the fall-through of a routine with RETURNs under exact conditions, (1 - [A = 0])(1 - [N <= 0])
        # + ...: cancel and factor take tens of milliseconds to find the constant that expanding shows
        constant = sympy.expand(expr)
        if constant.is_Number:
            return constant
    if _polynomial(expr):
        # cancel multiplies a product out and factor then finds its factors again (SLAHQR's products of ten
        # (1 - P) took 70 ms each): on the polynomial as written, factor factors each factor instead, and
        # the product of their canonical factors (primitive, the leading coefficient positive) is the same
        return sympy.factor(expr)
    return sympy.factor(sympy.cancel(expr))


def _polynomial(expr: sympy.Expr) -> bool:
    """Whether expr is a polynomial with rational coefficients written with +, × and powers of natural
    exponents, in symbols of distinct names (factor orders its generators by name): cancel leaves the same
    polynomial, so that factor gives the same answer on it as on expr."""
    symbols: set[sympy.Symbol] = set()
    stack = [expr]
    while stack:
        node = stack.pop()
        if node.is_Symbol:
            symbols.add(node)
        elif node.is_Add or node.is_Mul:
            stack.extend(node.args)
        elif node.is_Pow and node.exp.is_Integer and node.exp >= 0:
            stack.append(node.base)
        elif not node.is_Rational:
            return False
    return len({s.name for s in symbols}) == len(symbols)


def _monomial(expr: sympy.Expr) -> bool:
    """Whether expr is a rational number times powers of symbols (positive integer exponents): cancel and
    factor leave it as it is."""
    return bool(expr.is_Mul and all(_symbol_power(f) for f in expr.args[1:])
                and (expr.args[0].is_Rational or _symbol_power(expr.args[0])))


def _symbol_power(factor: sympy.Basic) -> bool:
    return bool(factor.is_Symbol or (factor.is_Pow and factor.base.is_Symbol and factor.exp.is_Integer
                                     and factor.exp.is_positive))


def _one_plus_product(expr: sympy.Expr) -> bool:
    """Whether expr is 1 ± a product of distinct symbols (a loop body's share 1 - P*X*Y): linear in each
    symbol with a constant term, so irreducible, and factor returns it as it is."""
    if not expr.is_Add or len(expr.args) != 2 or expr.args[0] is not sympy.S.One:
        return False
    term = expr.args[1]
    factors = term.args[1:] if term.is_Mul and term.args[0] is sympy.S.NegativeOne else \
        (term.args if term.is_Mul else (term,))
    return all(f.is_Symbol for f in factors)
