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

import networkx as nx
import sympy

END = -1  # the node after the last statement: reaching it is falling through the region


@dataclass
class Decision:
    """A two-way decision at a node: `symbol` is the probability of the edge to `on_true`."""
    symbol: sympy.Symbol
    on_true: object  # node index or ("esc", label)
    on_false: object


@dataclass
class RegionGraph:
    size: int
    edges: dict[int, list[tuple[object, sympy.Expr]]] = field(default_factory=dict)  # node → (target, w)
    labels: dict[str, int] = field(default_factory=dict)
    decisions: dict[int, Decision] = field(default_factory=dict)
    error_labels: set[str] = field(default_factory=set)  # labels of code that ends the program

    def add_edge(self, node: int, target: object, weight: sympy.Expr) -> None:
        if weight == 0:
            return
        self.edges.setdefault(node, []).append((target, weight))

    def successor(self, node: int) -> int:
        return node + 1 if node + 1 < self.size else END


@dataclass
class LoopInfo:
    header: int
    nodes: set[int]
    decision: Decision | None


@dataclass
class Solution:
    freq: dict[int, sympy.Expr]
    fallthrough: sympy.Expr
    escapes: dict[str, sympy.Expr]
    loops: list[LoopInfo]
    subs: dict[sympy.Symbol, sympy.Expr] = field(default_factory=dict)  # decision P → X form


def to_networkx(region: RegionGraph) -> nx.DiGraph:
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
    if region.size == 0:
        return []
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


def _dominates(dom: dict, a: int, b: int) -> bool:
    while True:
        if b == a:
            return True
        parent = dom.get(b)
        if parent is None or parent == b:
            return False
        b = parent


def _reaching(graph: nx.DiGraph, start: int, header: int) -> set[int]:
    seen = {start}
    stack = [start]
    while stack:
        node = stack.pop()
        if node == header:
            continue
        for pred in graph.predecessors(node):
            if pred not in seen:
                seen.add(pred)
                stack.append(pred)
    return seen | {header}


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


def solve(region: RegionGraph, loop_symbol: Callable[[LoopInfo], sympy.Symbol | None]) -> Solution:
    """Expected executions of each node per entry into the region (entry at node 0)."""
    loops = find_loops(region)
    subs = {}
    for loop in loops:
        x = loop_symbol(loop)
        if x is None or loop.decision is None:
            continue
        stays_on_true = not _leaves(loop.decision.on_true, loop.nodes)
        # X = back-edge traversals per entry: the staying probability is X/(1+X).
        subs[loop.decision.symbol] = x / (1 + x) if stays_on_true else 1 / (1 + x)
    weights = {n: [(t, sympy.sympify(w).subs(subs)) for t, w in out] for n, out in region.edges.items()}
    freq = _frequencies(region, weights, simplify=bool(subs))
    fallthrough = sympy.Integer(0)
    escapes: dict[str, sympy.Expr] = {}
    for node, out in weights.items():
        for target, weight in out:
            flow = freq.get(node, 0) * weight
            if target == END:
                fallthrough += flow
            elif isinstance(target, tuple):
                escapes[target[1]] = escapes.get(target[1], 0) + flow
    if region.size == 0:
        fallthrough = sympy.Integer(1)
    return Solution(freq, tidy(fallthrough), {k: tidy(v) for k, v in escapes.items()}, loops, subs)


def _frequencies(region: RegionGraph, weights: dict, simplify: bool) -> dict[int, sympy.Expr]:
    """Where a loop's decision became X/(1+X), flows out of the loop need cancelling (1 - X/(1+X) times
    1+X is 1); elsewhere sympy's own folding of sums keeps them small and simplifying costs time."""
    if region.size == 0:
        return {}
    graph = to_networkx(region)
    graph.remove_node(END)
    inflow: dict[int, sympy.Expr] = {0: sympy.Integer(1)}
    freq: dict[int, sympy.Expr] = {}
    condensed = nx.condensation(graph)
    for scc_id in nx.topological_sort(condensed):
        members = sorted(condensed.nodes[scc_id]["members"])
        cyclic = len(members) > 1 or graph.has_edge(members[0], members[0])
        if cyclic:
            freq.update(_solve_scc(members, weights, inflow))
        else:
            flow = sympy.sympify(inflow.get(members[0], sympy.Integer(0)))
            freq[members[0]] = tidy(flow) if simplify else flow
        for node in members:
            for target, weight in weights.get(node, []):
                if isinstance(target, int) and target != END and target not in members:
                    inflow[target] = inflow.get(target, 0) + freq[node] * weight
    return freq


def _solve_scc(members: list[int], weights: dict, inflow: dict) -> dict[int, sympy.Expr]:
    """f_v = inflow_v + Σ_{u in SCC} f_u w(u, v): expected visits of an absorbing Markov chain."""
    index = {node: i for i, node in enumerate(members)}
    n = len(members)
    matrix = sympy.eye(n)
    rhs = sympy.Matrix([inflow.get(node, 0) for node in members])
    for u in members:
        for target, weight in weights.get(u, []):
            if isinstance(target, int) and target in index:
                matrix[index[target], index[u]] -= weight
    try:
        solution = matrix.LUsolve(rhs)
    except (ValueError, ZeroDivisionError, sympy.matrices.common.NonInvertibleMatrixError):
        # A loop nothing can leave: it runs forever by the model; report it as never reached.
        return {node: sympy.Integer(0) for node in members}
    return {node: tidy(solution[index[node]]) for node in members}


def tidy(expr: sympy.Expr) -> sympy.Expr:
    expr = sympy.sympify(expr)
    if expr.is_Number or expr.is_Symbol:
        return expr
    if expr.has(sympy.Max, sympy.floor, sympy.Sum, sympy.Min):
        return expr
    return sympy.factor(sympy.cancel(expr))
