"""The whole job in one call: source files, options and a machine → the analysis, its blocks, the prediction.

Data flow: sad.analysis.pipeline.analyze (frontends → IR → SAD, with the bindings as overrides) →
Analysis.blocks (sad.analysis.description.group_blocks) → sad.predict.mapper.predict on the machine with the
same bindings. `sad analyze`, `sad validate` and the benchmarks call `run` (or `predict_analysis` when they
hold an Analysis already, e.g. to profile it first) instead of wiring the stages themselves; reports
(sad.predict.report) render the `Result`.
"""
from __future__ import annotations

from dataclasses import dataclass, field

import sympy

from sad.analysis import standins
from sad.analysis.bindings import bind
from sad.analysis.description import Analysis, Block
from sad.analysis.params import Parameter
from sad.analysis.pipeline import analyze
from sad.analysis.spelling import respelled
from sad.machine.model import Machine
from sad.predict.mapper import Prediction, missing_op_parameters, predict


@dataclass
class Options:
    """What a run needs besides the files and the machine."""
    include_dirs: list[str] = field(default_factory=list)
    defines: dict[str, str] = field(default_factory=dict)  # preprocessor macros as written (-D NAME=TEXT)
    bindings: dict[str, sympy.Expr] = field(default_factory=dict)  # parameter values (-D, --params)
    generic_data: bool = True  # tests of data decided by the generic-data assumption (sad.analysis.genericdata)


@dataclass
class Result:
    """The analysis of the program, its prediction on the machine and the bindings both used."""
    analysis: Analysis
    prediction: Prediction
    machine: Machine
    bindings: dict[str, sympy.Expr]
    loops: list = field(default_factory=list)   # sad.predict.loopcost.LoopPrice of the loops priced from code

    @property
    def blocks(self) -> list[Block]:
        """The SAD's blocks (computed once by the analysis)."""
        return self.analysis.blocks

    @property
    def op_parameters(self) -> list[Parameter]:
        """The operations the machine does not price, as unresolved parameters T_<op>."""
        return missing_op_parameters(self.prediction.missing_ops, self.machine)


def run(files: list[str], options: Options, machine: Machine) -> Result:
    """Analyze the files as one program and predict its time on the machine (the bindings respelled as the
    analysis names them: a Fortran name in any case, sad.analysis.spelling; the Result holds them so)."""
    analysis = analyze(files, options.include_dirs, options.defines, overrides=options.bindings,
                       generic_data=options.generic_data)
    return predict_analysis(analysis, machine, respelled(options.bindings, analysis.program, analysis.table))


def decided_choices(analysis: Analysis, bindings: dict[str, sympy.Expr]) -> dict[str, sympy.Expr]:
    """The bindings with the value of every named choice they decide: a blocked loop's block size that a
    routine analyzed alone keeps as a named value (sad.analysis.standins.named), a function of the
    routine's formals, is a number once those are bound."""
    out = dict(bindings)
    for name, choice in standins.choices(analysis.table).items():
        value = bind(choice, bindings) if name not in out else None
        if value is not None and value.is_number:
            out[name] = value
    return out


def predict_analysis(analysis: Analysis, machine: Machine, bindings: dict[str, sympy.Expr]) -> Result:
    """The prediction of an analysis already made (its bindings may have grown since, e.g. by profiling).
    On a machine calibrated on this host, innermost loops are priced from the compiled code
    (sad.predict.loopcost); elsewhere every block keeps the per-operation price."""
    bindings = decided_choices(analysis, bindings)
    overrides: dict = {}
    loops: list = []
    coverage = None
    if getattr(machine, "hierarchy", None) is not None:   # only a calibrated machine prices loops from code:
        from sad.predict.loopcost import LoopCoverage, price_loops  # it and llvm-mca's wrapper: 20 ms of imports
        coverage = LoopCoverage()
        overrides, loops = price_loops(analysis, analysis.blocks, machine, bindings, coverage)
        known = {str(d) for d in analysis.diagnostics}
        analysis.diagnostics.extend(d for d in coverage.warnings if str(d) not in known)
    prediction = predict(analysis.blocks, machine, bindings, overrides)
    prediction.loop_coverage = coverage if coverage is not None and coverage.total else None
    return Result(analysis, prediction, machine, dict(bindings), loops)
