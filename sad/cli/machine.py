"""Commands about machines: `sad calibrate` (measure this machine) and `sad validate` (measured vs predicted).

Data flow: CLI arguments → sad.machine.calibrate (microbenchmarks → machine database) or sad.measure.validate (compile, run,
time, predict → table and plot). Registered through sad.cli.main.COMMAND_MODULES.
"""
from __future__ import annotations

import argparse
import shlex
from pathlib import Path


def register(sub, add_common) -> None:
    cal = sub.add_parser("calibrate", help="measure this machine with microbenchmarks; write a machine database",
                         description="Generate, compile and run a microbenchmark for every atomic operation "
                         "and write a machine database (YAML) with the measured figures and their provenance.")
    cal.add_argument("--compiler", choices=("gcc", "gfortran"), default="gcc",
                     help="compiler of the microbenchmarks (default gcc)")
    cal.add_argument("--flags", default="-O0", help='compiler flags, one string (default "-O0")')
    cal.add_argument("--quick", action="store_true", help="short runs, fewer repeats (less stable figures)")
    cal.add_argument("-o", "--output", required=True, metavar="FILE", help="machine database to write")
    cal.add_argument("--force", action="store_true", help="overwrite FILE if it exists")
    cal.set_defaults(func=cmd_calibrate)

    val = sub.add_parser("validate", help="compile, run and time a program at several sizes; compare with "
                         "the prediction", description="Compile FILE, run COMMAND at each size (median of "
                         "several runs), predict each size with the machine database, print measured, predicted "
                         "and error, and plot both against the size (PNG).",
                         usage="sad validate FILE --machine M --sizes NAME=V1,V2,... [options] -- COMMAND")
    _validate_options(val)
    # FILE, the options after it and `-- COMMAND` are taken apart in cmd_validate (argparse cannot put
    # options between two positionals when the second one follows `--`)
    val.add_argument("rest", nargs=argparse.REMAINDER, metavar="FILE ... -- COMMAND",
                     help="the source, then after -- how to run the program (one shell string); ./STEM or {exe} "
                     "is the compiled program, {NAME} the size")
    val.set_defaults(func=cmd_validate)


def cmd_calibrate(args) -> int:
    from sad.machine.calibrate import main_calibrate
    return main_calibrate(args.compiler, shlex.split(args.flags), args.quick, Path(args.output), args.force)


def _validate_options(val: argparse.ArgumentParser, required: bool = False) -> None:
    val.add_argument("--machine", "-m", required=required, metavar="NAME|PATH")
    val.add_argument("--flags", default="-O0", help='compiler flags, one string (default "-O0")')
    val.add_argument("--sizes", required=required, metavar="NAME=V1,V2,...",
                     help="the size parameter and its values; NAME is bound for the prediction and "
                     "substituted for {NAME} in COMMAND")
    val.add_argument("--params", metavar="FILE",
                     help="values of unresolved parameters (a params file, as written by sad params/profile); "
                     "those still open are profiled with gcov at each size")
    val.add_argument("-D", dest="defines", action="append", default=[], metavar="NAME=VALUE",
                     help="bind a parameter for the prediction (repeatable)")
    val.add_argument("--runs", type=int, default=5, help="timed runs per size (the median is used)")
    val.add_argument("--plot", metavar="PNG", help="plot file (default: FILE stem + _validate.png)")


def cmd_validate(args) -> int:
    from sad.measure.validate import main_validate
    rest = list(args.rest)
    command = rest[rest.index("--") + 1:] if "--" in rest else []
    head = rest[:rest.index("--")] if "--" in rest else rest
    again = argparse.ArgumentParser(prog="sad validate")
    _validate_options(again)
    again.add_argument("file", metavar="FILE")
    for action in again._actions:             # what came before FILE was parsed already: keep it
        if action.dest in vars(args) and action.dest not in ("help", "file"):
            action.default = getattr(args, action.dest)
    parsed = again.parse_args(head)
    for needed in ("machine", "sizes"):
        if getattr(parsed, needed) is None:
            again.error(f"the following argument is required: --{needed}")
    parsed.command = command
    return main_validate(parsed)
