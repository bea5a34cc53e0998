"""The command line: `sad analyze`, `sad ir`.

Data flow: arguments → pipeline (frontends, SAD) → mapper (machine) → report. Diagnostics go to stderr in
compiler form (file:line: severity: message). Exit status: 0 success; 1 when a source file had errors (the
others are still analyzed and reported); 2 when the command cannot run at all (bad -D, broken machine file,
no usable input); 3 when the analysis itself failed (a defect of sad: no time is printed).
"""
from __future__ import annotations

import argparse
import contextlib
import importlib
import os
import sys
from typing import NoReturn, TextIO

from sad import __version__, ir
from sad.cli import verbosity
from sad.cli.args import add_generic_data, exit_status, parse_command_line, positive_int

# Further commands live in modules of their own; each has register(subparsers, add_common_arguments) and
# sets `func` on its parser (see sad/cli/main.py's own analyze and ir for the pattern).
COMMAND_MODULES: list[str] = ["sad.cli.machine", "sad.cli.profile", "sad.cli.check", "sad.cli.whatif",
                              "sad.cli.info", "sad.cli.annotate", "sad.cli.timeline"]


def _common(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("files", nargs="+", metavar="FILE", help="Fortran 77 (.f .for .F) or C (.c) source")
    parser.add_argument("-I", dest="include", action="append", default=[], metavar="DIR",
                        help="add DIR to the INCLUDE / #include search path")
    parser.add_argument("-D", dest="defines", action="append", default=[], metavar="NAME=VALUE",
                        help="bind a parameter (also a preprocessor macro for .F and C files)")


def create_parser() -> argparse.ArgumentParser:
    """The `sad` argument parser with every command registered."""
    parser = argparse.ArgumentParser(prog="sad", description="Static performance analysis of Fortran 77 "
                                     "and C: symbolic application description and predicted time.")
    parser.add_argument("--version", action="version", version=f"sad {__version__}")
    sub = parser.add_subparsers(dest="command", required=True)
    analyze = sub.add_parser("analyze", help="SAD, parameters and predicted time on a machine")
    _common(analyze)
    analyze.add_argument("--machine", "-m", required=True, metavar="NAME|PATH",
                         help="machine database: a bundled name (sparc2) or a YAML file")
    analyze.add_argument("--format", choices=("text", "json"), default="text")
    analyze.add_argument("--top", type=positive_int, default=10, help="how many dominant blocks to show")
    analyze.add_argument("--params", metavar="FILE", help="bind the values of a params file (-D wins)")
    add_generic_data(analyze)
    analyze.add_argument("--explain", action="store_true",
                         help="for the dominant innermost loops, which bound limits them (core, latency chain, "
                              "cache level and bytes per iteration); needs a machine calibrated on this host")
    analyze.set_defaults(func=cmd_analyze)
    ir_cmd = sub.add_parser("ir", help="dump the intermediate representation as JSON")
    _common(ir_cmd)
    ir_cmd.set_defaults(func=cmd_ir)
    for module in COMMAND_MODULES:
        importlib.import_module(module).register(sub, _common)
    for command in sub.choices.values():  # the same --quiet / --verbose on every command
        verbosity.add_arguments(command)
    return parser


make_parser = create_parser  # the earlier name, still used by callers written before the run/main split


def run(argv: list[str], stdout: TextIO | None = None, stderr: TextIO | None = None) -> int:
    """Run one `sad` command in this process and return its exit status (argparse's usage errors included).

    The commands print reports to sys.stdout and diagnostics to sys.stderr; with streams given they are
    redirected there for the duration of the call (tests and embedding callers capture output this way
    instead of starting a subprocess). Output of child processes (compilers, the user's program) is not
    affected: those are captured by the commands themselves.
    """
    with contextlib.ExitStack() as stack:
        if stdout is not None:
            stack.enter_context(contextlib.redirect_stdout(stdout))
        if stderr is not None:
            stack.enter_context(contextlib.redirect_stderr(stderr))
        try:
            lead, rest = verbosity.split_global(list(argv))
            args = parse_command_line(create_parser(), rest[:1] + lead + rest[1:] if rest else lead)
            with verbosity.applied(args):
                return args.func(args)
        except SystemExit as exc:        # --help, --version, usage errors (also of a command's own parser)
            return exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 2)
        except BrokenPipeError:
            return 0


def main(argv: list[str] | None = None) -> int:
    """Run the command line (sys.argv when argv is None) on the process's streams; return the exit status."""
    return run(sys.argv[1:] if argv is None else argv)


# Commands that leave nothing for the interpreter to do at exit: no worker processes or threads, no atexit
# hooks of their own, every file they write closed before they return.
FAST_EXIT_COMMANDS = frozenset({"analyze", "ir", "params"})


def console() -> NoReturn:
    """The process's entry point (the `sad` console script, `python -m sad`): run main() and exit with its
    status.

    After one of FAST_EXIT_COMMANDS, the process ends with os._exit once the output is flushed. A normal
    interpreter exit first frees every object, and after an analysis that is hundreds of thousands of
    sympy objects: about 0.25 s of a 3 s `sad analyze`, spent on memory the OS takes back anyway. Nothing
    else is skipped: standard streams and logging handlers are flushed here, and the process must have no
    thread but the main one and no multiprocessing child (whose atexit hook joins it), else the normal
    exit runs. When a flush fails (a closed pipe, a full disk), the interpreter's own exit handles
    it as it always has. The garbage collector's thresholds and sympy's cache size are the ones for an
    analysis process (sad.common.collector, sad.common.symcache). main() and run() do neither: tests and
    embedding callers call them."""
    from sad.common import collector, symcache
    collector.tune()
    symcache.use()
    argv = sys.argv[1:]
    try:
        code = main(argv)
        if isinstance(code, int) and argv[:1] and argv[0] in FAST_EXIT_COMMANDS and _nothing_left_at_exit():
            if "logging" in sys.modules:
                sys.modules["logging"].shutdown()
            sys.stdout.flush()
            sys.stderr.flush()
            os._exit(code)
        sys.stdout.flush()
    except OSError as exc:
        code = _output_failed(exc)
    sys.exit(code)


def _output_failed(exc: OSError) -> int:
    """The exit status after writing the report failed (a full disk, `> /dev/full`, a reader that went away).

    A closed pipe is the reader's choice (`sad analyze ... | head`): status 0 as run() gives, no message.
    Anything else is the user's problem to see: one line naming the cause, status 1, no traceback. stdout is
    pointed at /dev/null so that the interpreter's own flush at exit does not fail a second time."""
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, sys.stdout.fileno())
    os.close(devnull)
    if isinstance(exc, BrokenPipeError):
        return 0
    where = exc.filename if exc.filename else "standard output"
    print(f"sad: error: cannot write {where}: {exc.strerror or exc}", file=sys.stderr)
    return 1


def _nothing_left_at_exit() -> bool:
    """No thread but this one and no multiprocessing child (whose atexit hook would join it)."""
    import threading
    mp = sys.modules.get("multiprocessing")
    return threading.active_count() == 1 and (mp is None or not mp.active_children())


def _defines(args) -> tuple[dict[str, str], dict] | None:
    from sad.cli.args import ArgumentError, parse_defines
    try:
        return parse_defines(args.defines)
    except ArgumentError as exc:
        print(f"sad: error: {exc}", file=sys.stderr)
        return None


def cmd_ir(args) -> int:
    """`sad ir`: the IR of the given files as JSON on stdout."""
    from sad.analysis.pipeline import load_program
    from sad.cli.common import print_diagnostics
    parsed = _defines(args)
    if parsed is None:
        return 2
    raw, _ = parsed
    program, failed = load_program(args.files, args.include, raw)
    print_diagnostics(program.diagnostics)
    sys.stdout.write(ir.jsonio.dumps(program))
    sys.stdout.write("\n")
    return exit_status(args.files, failed)


def cmd_analyze(args) -> int:
    """`sad analyze`: SAD, parameters and predicted time as text or JSON on stdout."""
    from sad.machine.model import MachineError, load_machine
    from sad.predict.job import Options, run
    from sad.predict.report import to_json, to_text

    parsed = _defines(args)
    if parsed is None:
        return 2
    raw, defined = parsed
    from sad.cli.common import check_params, load_params, print_diagnostics, respell_binding
    binding = load_params(getattr(args, "params", None), defined)
    if binding is None:
        return 2
    values = binding.values
    try:
        machine = load_machine(args.machine)
    except MachineError as exc:
        print(str(exc), file=sys.stderr)
        return 2
    result = run(args.files, Options(args.include, raw, values, args.generic_data), machine)
    analysis = result.analysis
    print_diagnostics(analysis.diagnostics)
    if not analysis.program.procedures:
        print("sad: error: no file could be analyzed", file=sys.stderr)
        return exit_status(args.files, args.files)
    if analysis.internal_errors:
        # An incomplete SAD must not look like a prediction: no time, and a status of its own.
        print(f"sad: error: no prediction: {', '.join(analysis.internal_errors)} could not be analyzed "
              "(errors above)", file=sys.stderr)
        return 3
    binding, defined = respell_binding(binding, defined, analysis)  # -D n=100 binds a Fortran N
    values = binding.values
    _warn_unknown_bindings(defined, analysis, args.files, args.include, raw)
    if not check_params(binding, analysis, defined, raw):
        return 2
    from sad.cli.common import overflow_message
    too_large = overflow_message(result.prediction.time_value, values, raw)
    if too_large:
        print(too_large, file=sys.stderr)
        return 2
    for key in result.prediction.missing_ops:
        if key.startswith("msg."):
            print(f"sad: warning: machine {machine.name} cannot price the message primitive '{key[4:]}': its cost "
                  f"is the unresolved parameter T_{key.replace('.', '_')} (seconds per call)", file=sys.stderr)
    if result.prediction.excluded:
        from sad.predict.mapper import excluded_text
        print(f"sad: warning: {excluded_text(result.prediction.excluded)}: nothing prices them on {machine.name} "
              f"(give their seconds with -D NAME=VALUE or --params FILE)", file=sys.stderr)
    origins = {name: ("-D" if name in defined else "params") for name in values}
    simulated = _simulated(analysis.program, machine, values, result.prediction)
    if args.format == "json":
        sys.stdout.write(to_json(analysis, result.prediction, machine, values, result.op_parameters, origins,
                                 simulated))
    else:
        sys.stdout.write(to_text(analysis, result.prediction, machine, values, result.op_parameters, args.top,
                                 origins, simulated))
        if args.explain and simulated is not None and simulated.result is not None:
            from sad.predict.report import simulated_explained
            sys.stdout.write("\n" + simulated_explained(simulated))
        if args.explain and analysis.generic_decisions:
            from sad.predict.report import generic_list
            sys.stdout.write("\n" + generic_list(analysis))
        if args.explain:
            from sad.predict.loopcost import explain
            sys.stdout.write("\n" + explain(result.loops, result.prediction, values, machine.hierarchy,
                                             args.top))
    return exit_status(args.files, analysis.failed_files)


def _simulated(program, machine, values: dict, prediction):
    """An SPMD program with NPROCS bound: its ranks simulated together (sad.predict.simulated), the tracer's
    notes as warnings; a warning naming the cause when they could not be (the per-rank formula then prices)."""
    from sad.predict.simulated import simulate_bound
    simulated = simulate_bound(program, machine, values, prediction.startup)
    if simulated is None:
        return None
    for note in simulated.notes:
        print(f"sad: warning: {note}", file=sys.stderr)
    if simulated.failure:
        instead = ("the traced ranks each priced alone" if simulated.alone is not None and prediction.time_value is None
                   else "the per-rank formula (each rank priced alone, no waits)")
        print(f"sad: warning: NPROCS = {simulated.nprocs}: the ranks are not simulated together "
              f"({simulated.failure}); the time is {instead}", file=sys.stderr)
    return simulated


def _warn_unknown_bindings(values: dict, analysis, files: list[str], include: list[str], raw: dict[str, str]
                           ) -> None:
    """A warning for each -D name that is no parameter of the analysis, unless the preprocessor read it as a
    macro (``-D N=60`` for an ``#ifndef N`` default did what the user meant; cpp asked only for such names)."""
    from sad.analysis.pipeline import macros_read
    from sad.cli.args import did_you_mean
    known = {p.name for p in analysis.table}
    unresolved = sorted(p.name for p in analysis.table.unresolved())
    unknown = sorted(name for name in values if name not in known)
    macros = macros_read(files, include, raw, set(unknown)) if unknown else set()
    for name in unknown:
        if name in macros:
            continue
        guess = did_you_mean(name, known)
        if guess:
            hint = f"; did you mean {guess}?"
        else:
            shown = ", ".join(unresolved[:8]) + (", …" if len(unresolved) > 8 else "")
            hint = f" (unresolved: {shown})" if unresolved else ""
        print(f"sad: warning: -D {name}: no parameter of that name in the analysis{hint}", file=sys.stderr)


if __name__ == "__main__":
    console()
