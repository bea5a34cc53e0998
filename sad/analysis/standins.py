"""Loop-invariant choices in a DO loop's bounds stood in for by symbols while the loop is summed.

Data flow: called by the builder (sad.analysis.builder) for a DO loop whose step is a choice or whose sum
over its index failed; its stand-ins bound by sad.analysis.calls, named by sad.analysis.pipeline. A
blocked loop's step is often a variable chosen in several places (LAPACK's DGETRI: `NB = ILAENV(...)`,
then `NB = LWORK / LDWORK` where the workspace is short), so its value is a Piecewise of the routine's
formals, and so are the bounds computed from it (`NN = ((N-1)/NB)*NB + 1`). Summed over the index, every
count of the body holds that Piecewise: building a Sum folds its summand's Piecewise into one, and
simplifying the folded conditions (Relational.equals) probes them with every symbol at 0, where `LWORK/N` is
0/0 and a Min of it raises ("The argument 'nan' is not comparable"): an artefact of the probe, not of the
program, which never divides by N = 0 there. The loop was then left with a named trip count and its index
dropped, so the block sizes in its body (JB) had no value.

Here each such variable of the bounds that nothing in the body changes is a plain integer symbol while the
body is built and summed, as an unknown block size is (DGETRF's NB = ILAENV(...)). The builder does so first
wherever a loop's step is such a choice, before summing the loop as it stands, and only where that fails
otherwise: summed with the Piecewise in its step, each of DORMQL's counts folded it (25 s for the file).

Where the values are functions of the routine's formals alone, the stand-ins stay in the counts and their
values are kept in the build context (BuildContext.standins): each call binds them with the formals
(sad.analysis.calls), to numbers where the actual arguments are numbers, else to the caller's formals under
a name of that call's own, passed on to the caller's callers. Putting the values back at every loop instead
rebuilt each choice's conditions with formulas in them (a library run of LAPACK's sample went from 6 to over
10 minutes), and DGEQRF's counts so written would have 3.1 million nodes. A routine analyzed as a root has
them put back where its counts stay small enough (`sad analyze`: a formula of the formals), else (and in
library mode) as named values, each an indirect parameter whose value is the choice it stands for, with a
note (pipeline.root_counts). Values that depend on more than the formals are put back into the loop's
counts where those stay small enough.
"""
from __future__ import annotations

from collections.abc import Callable, Iterable

import sympy

from sad import ir
from sad.analysis import whileloops
from sad.analysis.buildstate import BuildContext
from sad.analysis.counting import unfolded_sum
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


def shown(name: str) -> str:
    """A stand-in's name as reports show it: the parameter it becomes at a root (`named`)."""
    return name.lstrip("_")


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


DESCRIPTION = "a loop bound chosen in several places"


def choices(params: Iterable[Parameter]) -> dict[str, sympy.Expr]:
    """The named stand-ins among `params` (`named`) → the choice each stands for, a function of the formals."""
    return {p.name: p.value for p in params if p.description == DESCRIPTION and p.value is not None}


def named(ctx: BuildContext, proc: ir.Procedure, counts: dict[Event, sympy.Expr], put_back_within: int = 0
          ) -> dict[Event, sympy.Expr]:
    """A root's counts with the stand-ins it keeps (no call binds its formals): their values put back where
    the counts so written have at most `put_back_within` nodes (a formula of the formals alone, as `sad
    analyze` shows a routine), else named values, each an indirect parameter whose value is the choice it
    stands for (a function of the formals: a reference point values it from theirs), with a note."""
    values = ctx.standins.get(resolve_name(proc.name))
    present = set().union(*(free_symbols(c) for c in counts.values())) & values.keys() if values else set()
    if not values or not present:
        return counts
    mine = {symbol: values[symbol] for symbol in present}
    if put_back_within and written_size(list(counts.values()), mine) <= put_back_within:
        memo: dict[sympy.Basic, sympy.Basic] = {}
        return {event: put_back(count, mine, memo) for event, count in counts.items()}
    names = {}
    for symbol in sorted(present, key=lambda s: s.name):
        name = shown(symbol.name)
        if ctx.table.get(name) is None:
            text = str(values[symbol])
            ctx.note(proc.loc, f"{proc.name}: {name} is a parameter: it stands for a value chosen in several "
                               f"places ({text[:100]}{' ...' if len(text) > 100 else ''}), which a call "
                               f"binds where its arguments are known and a reference point values from "
                               f"theirs")
        names[symbol] = ctx.table.add(Parameter(name, "indirect", "value", proc.loc.file, proc.loc.line,
                                                proc.name, value=values[symbol], description=DESCRIPTION),
                                      sympy.Symbol(name, integer=True))
    named_in = SharedReplace(names)  # one rule for all the counts: their shared parts renamed once
    return {event: named_in(count) for event, count in counts.items()}
