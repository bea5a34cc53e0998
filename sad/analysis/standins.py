"""Loop-invariant choices in a DO loop's bounds stood in for by symbols while the loop is summed.

Data flow: called by the builder (sad.analysis.builder) for a DO loop whose sum over its index failed. A
blocked loop's step is often a variable chosen in several places (LAPACK's DGETRI: `NB = ILAENV(...)`,
then `NB = LWORK / LDWORK` where the workspace is short), so its value is a Piecewise of the routine's
formals, and so are the bounds computed from it (`NN = ((N-1)/NB)*NB + 1`). Summed over the index, every
count of the body holds that Piecewise: building a Sum folds its summand's Piecewise into one, and
simplifying the folded conditions (Relational.equals) probes them with every symbol at 0, where `LWORK/N` is
0/0 and a Min of it raises ("The argument 'nan' is not comparable"): an artefact of the probe, not of the
program, which never divides by N = 0 there. The loop was then left with a named trip count and its index
dropped, so the block sizes in its body (JB) had no value.

Here each such variable of the bounds that nothing in the body changes is a plain integer symbol while the
body is built and summed, as an unknown block size is (DGETRF's NB = ILAENV(...)), and its value is put back
into the sums afterwards without folding them again: the counts are the same functions of the formals,
exact where a call binds them (a driver's LWORK makes NB a number).

Where the counts with the values put back would be too large for a call to bind (DGEQRF's blocked loop: 3.1
million nodes, NB and NX each a Piecewise of ILAENV's results and LWORK/N), and the values are functions
of the routine's formals alone, the stand-ins stay in the counts and their values are kept in the build
context (BuildContext.standins): each call binds them with the formals (sad.analysis.calls), to numbers
where the actual arguments are numbers, else to the caller's formals under a name of that call's own, passed
on to the caller's callers. A routine analyzed as a root (library mode) has them as named values
(pipeline.root_counts), with a note.
"""
from __future__ import annotations

from collections.abc import Callable, Iterable

import sympy

from sad import ir
from sad.analysis import whileloops
from sad.analysis.buildstate import BuildContext
from sad.analysis.description import Event
from sad.analysis.freesymbols import free_symbols
from sad.analysis.params import Parameter
from sad.analysis.sharedreplace import SharedReplace
from sad.analysis.values import resolve_name
from sad.common.formulatext import written_sizes


def candidates(stmt: ir.Do, proc: ir.Procedure, writes: Callable[[str, int], bool] | None = None
               ) -> list[ir.Var]:
    """The scalar variables of the loop's bounds and step that nothing in its body changes (a call passing
    one where `writes` says the callee leaves it alone does not), one node per name, in name order."""
    found: dict[str, ir.Var] = {}
    for expr in (stmt.lo, stmt.hi, stmt.step):
        for node in ir.walk(expr) if expr is not None else ():
            if isinstance(node, ir.Var) and node.name != stmt.index:
                found.setdefault(node.name, node)
    return [found[name] for name in sorted(found) if whileloops.untouched(stmt.body, {name}, proc, writes)]


def symbol(name: str, proc: str, place: str) -> sympy.Symbol:
    """The stand-in of variable `name` in the loop at `place`: an integer symbol that names no parameter
    (it never leaves the loop's build)."""
    return sympy.Symbol(f"_{name}_{proc}_{place}", integer=True)


def bindable(values: Iterable[sympy.Expr], formals: tuple[sympy.Symbol, ...]) -> bool:
    """Whether every value is a function of the routine's formals alone, the same at every execution of the
    loop, so that a call's actual arguments make it a number (sad.analysis.calls.CallExpander.bound_standins)."""
    return all(free_symbols(value) <= set(formals) for value in values)


def written_size(exprs: list[sympy.Expr], values: dict[sympy.Symbol, sympy.Expr]) -> int:
    """The tree size (sad.analysis.products.tree_size) the expressions would have with each stand-in
    replaced by its value, without building them."""
    weight = written_sizes(list(values.values()))
    size = written_sizes(exprs, {s: weight[v] for s, v in values.items()})
    return sum(size[e] for e in exprs)


def put_back(expr: sympy.Expr, values: dict[sympy.Symbol, sympy.Expr],
             memo: dict[sympy.Basic, sympy.Basic]) -> sympy.Expr:
    """`expr` with each stand-in replaced by its value; a Sum is rebuilt as it stands, its summand not folded
    again (folding is what failed with the values in it)."""
    def walk(e: sympy.Basic) -> sympy.Basic:
        if e in values:
            return values[e]
        if not e.args or not free_symbols(e) & values.keys():
            return e
        done = memo.get(e)
        if done is None:
            args = [walk(a) for a in e.args]
            done = memo[e] = unfolded_sum(args[0], args[1:]) if isinstance(e, sympy.Sum) else e.func(*args)
        return done

    return walk(expr)


def unfolded_sum(summand: sympy.Expr, limits: list[sympy.Basic]) -> sympy.Sum:
    """sympy.Sum(summand, *limits) without the Piecewise folding of its constructor (AddWithLimits.__new__
    less _common_new): the same kind of object, its summand as given; sympy folds it where a binding
    rebuilds it with numbers."""
    obj = sympy.Expr.__new__(sympy.Sum)
    obj._args = (summand, *limits)
    obj.is_commutative = summand.is_commutative
    return obj


def named(ctx: BuildContext, proc: ir.Procedure, counts: dict[Event, sympy.Expr]) -> dict[Event, sympy.Expr]:
    """A root's counts with the stand-ins it keeps (no call binds its formals) as named values, each with a
    note of the value it stands for (valued at a reference point as a size is)."""
    values = ctx.standins.get(resolve_name(proc.name))
    present = set().union(*(free_symbols(c) for c in counts.values())) & values.keys() if values else set()
    if not values or not present:
        return counts
    names = {}
    for symbol in sorted(present, key=lambda s: s.name):
        name = symbol.name.lstrip("_")
        if ctx.table.get(name) is None:
            shown = str(values[symbol])
            ctx.note(proc.loc, f"{proc.name}: {name} is a parameter: it stands for a value chosen in several "
                               f"places ({shown[:100]}{' ...' if len(shown) > 100 else ''}), which a call "
                               f"binds where its arguments are known")
        names[symbol] = ctx.table.add(Parameter(name, "unresolved", "value", proc.loc.file, proc.loc.line,
                                                proc.name, description="a loop bound chosen in several places"),
                                      sympy.Symbol(name, integer=True))
    named_in = SharedReplace(names)  # one rule for all the counts: their shared parts renamed once
    return {event: named_in(count) for event, count in counts.items()}
