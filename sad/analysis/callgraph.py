"""The call graph: which procedure calls which, the order to build SADs in, and which calls recurse.

Data flow: IR program → networkx DiGraph over linkage names (sad.analysis.values.resolve_name, so Fortran MATMUL and
C matmul_ are one node) → the SAD builder builds callees before callers and turns every call inside a cycle
into an unresolved call cost instead of expanding it forever.
"""
from __future__ import annotations

import networkx as nx

from sad import ir
from sad.analysis.values import resolve_name


def callees(proc: ir.Procedure) -> list[str]:
    """Names called by a procedure (statements and function references), in source order."""
    names: list[str] = []
    for stmt in proc.body:
        for call in ir.calls_in(stmt):
            if not call.indirect and not (isinstance(call, ir.FuncCall) and call.intrinsic):
                names.append(call.name)
    return names


def build_call_graph(program: ir.Program) -> nx.DiGraph:
    """The call graph: a node per procedure, an edge per caller-callee pair."""
    graph = nx.DiGraph()
    for proc in program.procedures:
        graph.add_node(resolve_name(proc.name), name=proc.name)
    for proc in program.procedures:
        for name in callees(proc):
            graph.add_edge(resolve_name(proc.name), resolve_name(name))
    return graph


Components = list[frozenset[str]]


def components(graph: nx.DiGraph) -> Components:
    """The strongly connected components of the call graph (a routine alone when it is on no cycle): asked
    once per program, then given to recursive_edges, recursive_cycles and build_order."""
    return [frozenset(members) for members in nx.strongly_connected_components(graph)]


def recursive_edges(graph: nx.DiGraph, sccs: Components | None = None) -> set[tuple[str, str]]:
    """Calls that stay inside a strongly connected component (including a routine calling itself)."""
    component = {node: i for i, members in enumerate(sccs or components(graph)) for node in members}
    return {(u, v) for u, v in graph.edges if component[u] == component[v]}


def recursive_cycles(graph: nx.DiGraph, sccs: Components | None = None) -> dict[str, frozenset[str]]:
    """For each routine on a cycle of calls, the members of its cycle (itself alone when it calls itself)."""
    cycles: dict[str, frozenset[str]] = {}
    for members in sccs or components(graph):
        if len(members) > 1 or any(graph.has_edge(n, n) for n in members):
            for name in members:
                cycles[name] = members
    return cycles


def build_order(graph: nx.DiGraph, sccs: Components | None = None) -> list[str]:
    """Callees before callers; members of a cycle in name order (their mutual calls are not expanded)."""
    condensed = nx.condensation(graph, scc=sccs or components(graph))
    order: list[str] = []
    for scc in reversed(list(nx.lexicographical_topological_sort(
            condensed, key=lambda n: min(condensed.nodes[n]["members"])))):
        order.extend(sorted(condensed.nodes[scc]["members"]))
    return order


def mains(program: ir.Program) -> list[ir.Procedure]:
    """The main program(s): Fortran PROGRAM units and C's main."""
    return [p for p in program.procedures if p.kind == "program" or (p.language == "c" and p.name == "main")]


def roots(program: ir.Program, graph: nx.DiGraph) -> list[ir.Procedure]:
    """Where execution starts: the main program(s); for a library, every routine nobody calls."""
    if mains(program):
        return mains(program)
    return [p for p in program.procedures
            if p.kind not in ("blockdata",) and graph.in_degree(resolve_name(p.name)) == 0]
