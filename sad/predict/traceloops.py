"""The innermost loops of a rank's trace priced as `sad analyze` prices them, at the trip counts the rank runs.

Data flow: the program's IR and a machine calibrated on a host (a ``hierarchy`` section) → ``LoopModel``: the
program's innermost loops (sad.predict.sourceloops), each compiled with the machine's compile command when that
works (the MPI compiler's include directories searched, for mpif.h) → for a loop the tracer (sad.predict.trace)
reaches, with the trips of its nest at that rank: sad.predict.loopcost's price per iteration (the in-core part
from the compiled code or the calibrated operation classes, the data part from the memory hierarchy, composed by
the same rule, and the first touch of the arrays it is the first to touch), which replaces the operation prices
of the loop's trips and body.

Why: the tracer otherwise prices every statement with the machine's operation figures alone, the cost of each
operation as if it were free of the loads, stores and loop-carried chains around it. On the host file of a
2-core EPYC (gcc -O0), CG-Tree's q = A p loop was priced 2.3 ns per iteration that way and 4.27 ns by the loop
model; built with mpif77 -O0 it took 4.4 ns (233 ms of CPU time at np 1 against 121 ms traced, 225 ms by
`sad annotate`). A machine without a hierarchy (a bundled target such as ncube2) keeps the operation figures.
"""
from __future__ import annotations

import math
import shutil
import subprocess
from collections.abc import Callable
from functools import lru_cache
from pathlib import Path

import sympy

from sad import ir
from sad.analysis.bindings import bind, evaluate
from sad.analysis.counting import evaluate_sums
from sad.predict import compiled as cc
from sad.predict.sourceloops import SourceLoop, resolved_path, source_loops

NESTS = 16
"""Distinct trip counts of one loop's nest priced by the loop model (each a few milliseconds of sympy); the
entries beyond take the latest one's price (its footprints differ little from theirs)."""


@lru_cache(maxsize=4)
def mpi_include_dirs(fortran: bool) -> tuple[str, ...]:
    """The include directories of this host's MPI compiler wrapper (mpif.h, mpi.h), () without one."""
    wrapper = shutil.which("mpif77" if fortran else "mpicc")
    if wrapper is None:
        return ()
    try:
        out = subprocess.run([wrapper, "--showme:incdirs"], capture_output=True, text=True, timeout=30)
    except (OSError, subprocess.SubprocessError):
        return ()
    return tuple(d for d in out.stdout.split() if Path(d).is_dir()) if out.returncode == 0 else ()


class LoopModel:
    """Per-iteration prices of the program's innermost loops on a calibrated machine (see the module)."""

    def __init__(self, program: ir.Program, machine, include_dirs: tuple[str, ...] = ()) -> None:
        self.machine = machine
        self.hierarchy = getattr(machine, "hierarchy", None)
        models = getattr(machine, "models", None) or {}
        self.spec = models.get("compile")
        self.include_dirs = tuple(include_dirs)
        self.loops: dict[int, SourceLoop] = {}
        if self.hierarchy is not None:
            self.loops = {id(sl.nest[-1]): sl for sl in source_loops(program) if isinstance(sl.nest[-1], ir.Do)}
        self.compiling = bool(self.spec) and cc.available() is None
        self.files: dict[str, cc.CompiledFile | str] = {}
        self.formulas: dict[tuple, sympy.Expr | None] = {}
        self.nests: dict[int, list[tuple]] = {}  # per loop: the nests priced, in order
        self.sources: dict[str, int] = {}  # how the loops reached were priced: "compiled code" / "operation classes"

    def __bool__(self) -> bool:
        return bool(self.loops)

    def price(self, stmt: ir.Do, trips: dict[int, int], known: Callable[[], dict[str, float]]) -> float | None:
        """Seconds per iteration of the innermost loop ``stmt`` with the trips per entry of its nest (by id of
        each loop; a loop not given counts 1), ``known`` giving the scalars known at the rank for a price that
        names them; None when the loop is not one the model prices or its price stays symbolic. The first
        touch of the arrays the loop is the first to touch (paid once per run) is spread over the iterations
        of its nest, as `sad analyze` spreads it over the loop's iterations: a nest entered once per run (an
        initialization) pays it once."""
        loop = self.loops.get(id(stmt))
        if loop is None:
            return None
        nest = tuple(int(trips.get(id(lp), 1)) for lp in loop.nest)
        key = (id(stmt), nest)
        if key not in self.formulas:
            seen = self.nests.setdefault(id(stmt), [])
            if len(seen) < NESTS:
                seen.append(key)
                self.formulas[key] = self._formula(loop, nest)
            else:  # the trips differ at every entry (a triangular nest): the latest nest priced stands for them
                self.formulas[key] = self.formulas[seen[-1]]
        formula = self.formulas[key]
        if formula is None:
            return None
        names = sorted(str(s) for s in formula.free_symbols)
        if not names:
            return float(formula)
        values = known()
        if any(n not in values for n in names):
            return None
        bound = evaluate(bind(formula, {n: _number(values[n]) for n in names}))
        return bound

    def _formula(self, loop: SourceLoop, nest: tuple[int, ...]) -> sympy.Expr | None:
        """The loop's seconds per iteration, the first touch spread over its nest's iterations included."""
        from sad.predict import loopcost  # llvm-mca's wrapper and the reuse model: imported when a loop needs them
        assert self.hierarchy is not None  # no loops without one
        by_line = {(resolved_path(lp.loc.file), lp.loc.line): sympy.Integer(n) for lp, n in zip(loop.nest, nest)}
        cf = self._compiled(loop) if self.compiling else None
        # the trips of one traced nest, not a mean over entries: priced at them alone
        priced = loopcost.price_loop(loop, by_line, self.hierarchy, self.machine, self.spec, cf, {}, spread=False)
        if priced is None:
            return None
        self.sources[priced.source] = self.sources.get(priced.source, 0) + 1
        formula = sympy.sympify(priced.seconds + priced.touch_s / max(math.prod(nest), 1))
        if formula.has(sympy.Sum):
            formula = evaluate_sums(formula)
        return formula

    def _compiled(self, loop: SourceLoop) -> cc.CompiledFile | str:
        file = resolved_path(loop.file)
        if file not in self.files:
            fortran = Path(file).suffix in cc.FORTRAN_SUFFIXES
            dirs = self.include_dirs + (str(Path(file).parent),) + mpi_include_dirs(fortran)
            self.files[file] = cc.compiled_file(Path(file), str(self.spec), dirs)
        return self.files[file]


def _number(value: float) -> sympy.Expr:
    return sympy.Integer(int(value)) if float(value).is_integer() else sympy.Float(value)
