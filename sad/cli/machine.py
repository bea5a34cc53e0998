"""Commands about machines: `sad calibrate` (measure this machine) and `sad validate` (measured vs predicted).

Data flow: CLI arguments → sad.machine.calibrate (microbenchmarks → machine database) or sad.measure.validate
(compile, run, time, predict → table and plot). Registered through sad.cli.main.COMMAND_MODULES.
"""
from __future__ import annotations

import argparse
import shlex
import sys
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING

from sad.cli.args import dash_values, positive_int, takes_command

if TYPE_CHECKING:
    from sad.machine.calibrate import Calibration
    from sad.predict.chainshare import Fit


def register(sub, add_common) -> None:
    """Register `sad calibrate` and `sad validate` with the command-line parser."""
    cal = sub.add_parser("calibrate", help="measure this machine with microbenchmarks; write a machine database",
                         description="Generate, compile and run a microbenchmark for every atomic operation "
                         "and write a machine database (YAML) with the measured figures and their provenance.")
    cal.add_argument("--compiler", choices=("gcc", "gfortran"), default="gcc",
                     help="compiler of the microbenchmarks (default gcc)")
    cal.add_argument("--flags", default="-O0", help='compiler flags, one string (default "-O0")')
    cal.add_argument("--quick", action="store_true", help="short runs, fewer repeats (less stable figures)")
    cal.add_argument("-o", "--output", required=True, metavar="FILE", help="machine database to write")
    cal.add_argument("--force", action="store_true", help="overwrite FILE if it exists")
    cal.add_argument("--mpi", action="store_true",
                     help="also measure the communication and programming-model levels with the real MPI "
                          "(ping-pong and collectives under mpirun --oversubscribe on 2 and 4 processes)")
    dash_values(cal, "--flags")
    cal.set_defaults(func=cmd_calibrate)

    val = sub.add_parser("validate", help="compile, run and time a program at several sizes; compare with "
                         "the prediction", description="Compile FILE..., run COMMAND at each size (median of "
                         "several runs), predict each size with the machine database, print measured, predicted "
                         "and error, and plot both against the size (PNG, SVG or PDF by the suffix of --plot).")
    val.add_argument("files", nargs="+", metavar="FILE", help="the sources of the program (one program)")
    _validate_options(val, required=True)
    takes_command(val, "'./md1 < input_{NPART}.in'")
    dash_values(val, "--flags")
    val.set_defaults(func=cmd_validate)


def cmd_calibrate(args) -> int:
    """`sad calibrate`: measure this machine and write a machine database, with the overlap of a loop's core and
    its chain through memory fitted on it too (``chain_share_step``)."""
    from sad.machine.calibrate import main_calibrate
    flags = shlex.split(args.flags)
    return main_calibrate(args.compiler, flags, args.quick, Path(args.output), args.force, mpi=args.mpi,
                          finish=partial(chain_share_step, 3 if args.quick else 5))


def chain_share_step(runs: int, cal: Calibration) -> None:
    """The share of a loop's core and chain through memory and of its column walks' lines behind that chain
    (sad.predict.chainshare), fitted with the figures just measured and added to the hierarchy section
    (``cal.finished``). It needs the prediction's own pricing of a program's loops, which the machine layer cannot
    call: hence a step the calibration runs at its end, while its host-speed sentinel still runs (the loops are
    timed between its samples). The shares are the core's, not the level's: at every level the probe is compiled
    at -O0, where every loop keeps its variables in memory, and priced with this calibration's figures as a -O0
    build (``_probe_calibration``); at -O2 they serve the chains gcc keeps in memory (a sum in a stack slot across
    a call, an element it cannot keep in a register for fear of aliasing). Where they cannot be measured (no gcc
    or llvm-mca) nothing is written and a warning says why: the loops they concern then take the default shares,
    with a warning of their own. A share timed on a host slowed through every try is written marked UNRELIABLE, with
    a warning (``_slowed_shares``)."""
    import shutil
    import subprocess
    import tempfile

    from sad.machine.calibrate import render_yaml
    from sad.machine.hierarchy import pinned_cpu
    from sad.machine.model import MachineError
    from sad.predict import chainshare
    from sad.predict.overlap import CHAIN_SHARE, WALK_SHARE

    def warn_walks(why: str) -> None:
        cal.warnings.append(f"hierarchy.walk_share not measured: {why}; such loops' column walks wait "
                            f"{WALK_SHARE:g} times their lines into L1")

    def warn(why: str) -> None:
        cal.warnings.append(f"hierarchy.chain_share not measured: {why}; loops whose iterations are linked "
                            f"through memory take the share {CHAIN_SHARE}")
        warn_walks(why)

    gcc = shutil.which("gcc")
    if gcc is None:
        return warn("no gcc")
    try:
        with tempfile.TemporaryDirectory(prefix="sad-chainshare-") as tmp:
            machine = Path(tmp) / "calibrating.yaml"
            machine.write_text(render_yaml(_probe_calibration(cal), "calibrating"), encoding="utf-8")
            found = chainshare.measure(str(machine), gcc, pinned_cpu(), runs, cal.guard)
    except (OSError, subprocess.SubprocessError, MachineError) as exc:
        return warn(str(exc))
    if found is None:
        return warn("too few of its loops were priced from their compiled code (llvm-mca missing?)")
    cal.warnings.extend(_slowed_shares(found))
    if found.walk_share is None:
        warn_walks("too few of its column walks were priced from their compiled code")
    cal.finished.extend(chainshare.yaml_lines(found))
    print(f"chain share   {found.share:g} of the shorter of core and index chain through memory "
          f"(measured / model {found.ratio:.3g}, deviation {found.deviation:.3f} over {found.loops} loops)",
          file=sys.stderr)
    if found.walk_share is not None:
        print(f"walk share    {found.walk_share:g} of a column walk's lines into L1 behind such a chain (deviation "
              f"{found.walk_deviation:.3f} over {found.walk_loops} walks)", file=sys.stderr)


def _probe_calibration(cal: Calibration) -> Calibration:
    """The calibration as a -O0 build's: its figures, its flags' -O level replaced by -O0 (the level the probe
    of sad.predict.chainshare is compiled at and priced as)."""
    import copy
    probe = copy.copy(cal)
    probe.flags = [flag for flag in cal.flags if not flag.startswith("-O")] + ["-O0"]
    return probe


def _slowed_shares(found: Fit) -> list[str]:
    """Warnings for the shares timed while the host stayed slowed through the retries: kept, marked UNRELIABLE in
    the file (sad.predict.chainshare.yaml_lines), as the calibration keeps its other figures. Fitted on each
    loop's fastest run, they hold better than a constant from another host (on the Zen 3 VM the chain's share
    came out 0.05 at x1.26, 0-0.25 on a quiet host; the walks' 1 while memory traffic slowed them, where 1 is
    also the default)."""
    from sad.machine import hostspeed
    out = []
    for name, ratio in (("chain_share", found.host_ratio), ("walk_share", found.walk_host_ratio)):
        if ratio > hostspeed.SLOW and (name == "chain_share" or found.walk_share is not None):
            out.append(f"hierarchy.{name} UNRELIABLE: its loops were timed while the host ran x{ratio:.2f} slower "
                       "than its fastest, after the retries (fitted on each loop's fastest run; recalibrate on a "
                       "quieter host)")
    return out


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
    val.add_argument("-I", dest="include", action="append", default=[], metavar="DIR",
                     help="add DIR to the #include / INCLUDE search path of the analysis and the compile")
    val.add_argument("--runs", type=positive_int, default=5, help="timed runs per size (the median is used)")
    val.add_argument("--plot", metavar="FILE", help="plot file, .png .svg or .pdf (default: the first FILE's "
                     "stem + _validate.png); never replaced without --force")
    val.add_argument("--force", action="store_true", help="replace an existing plot file")


def cmd_validate(args) -> int:
    """Arguments are checked here, before anything is compiled; sad.measure.validate does the study."""
    import sys

    from sad.cli.args import ArgumentError, check_placeholders, parse_defines, parse_size_list
    from sad.measure.validate import main_validate
    try:
        name, _ = parse_size_list(args.sizes)
        parse_defines(args.defines)
        check_placeholders(args.command, [name, "exe"])
    except ArgumentError as exc:
        print(f"sad validate: error: {exc}", file=sys.stderr)
        return 2
    return main_validate(args)
