"""`sad annotate FILE... -m MACHINE`: the source with the predicted count and time of every line, as text or
as an HTML page (`-o report.html`), the static counterpart of gcov's and gcovr's annotated listings.

Data flow: arguments → sad.predict.job.run (analysis and prediction, the -D and --params values bound) →
sad.predict.annotate (lines, counts, seconds) → one handler per output format (sad.predict.annotate_text,
sad.predict.annotate_html) → stdout or -o FILE. Registered through sad.cli.main.COMMAND_MODULES.
"""
from __future__ import annotations

import sys
from pathlib import Path


def register(sub, add_common) -> None:
    """Register `sad annotate` with the command-line parser."""
    p = sub.add_parser("annotate", help="the source with the predicted count and time of every line (text, HTML)",
                       description="Analyze the FILEs as one program, predict its time on the machine and print "
                       "each source line with its execution count, its predicted time and its share of the "
                       "total, as gcov and gcovr show measured counts. Lines that never run are marked #####.")
    add_common(p)
    p.add_argument("--machine", "-m", required=True, metavar="NAME|PATH", help="machine database")
    p.add_argument("--params", metavar="FILE", help="bind the values of a params file (-D wins)")
    p.add_argument("--format", choices=tuple(HANDLERS), default=None,
                   help="text or html (default: html when -o ends in .html or .htm, else text)")
    p.add_argument("-o", "--output", metavar="FILE", help="write to FILE (not over an existing one unless --force)")
    p.add_argument("--force", action="store_true", help="replace an existing -o FILE")
    p.set_defaults(func=cmd_annotate)


def _text(annotation) -> str:
    from sad.predict import annotate_text
    return annotate_text.render(annotation)


def _html(annotation) -> str:
    from sad.predict import annotate_html
    return annotate_html.render(annotation)


HANDLERS = {"text": _text, "html": _html}  # one handler per output format, as gcovr has


def cmd_annotate(args) -> int:
    """`sad annotate`: the annotated source on stdout or in -o FILE."""
    from sad.cli.args import ArgumentError, exit_status, parse_defines
    from sad.cli.common import check_params, load_params, print_diagnostics
    from sad.machine.model import MachineError, load_machine
    from sad.predict.annotate import annotate
    from sad.predict.job import Options, run
    fmt = args.format or ("html" if (args.output or "").lower().endswith((".html", ".htm")) else "text")
    if args.output and Path(args.output).exists() and not args.force:
        print(f"sad: error: {args.output} exists; use --force to replace it", file=sys.stderr)
        return 2
    try:
        raw, defined = parse_defines(args.defines)
    except ArgumentError as exc:
        print(f"sad: error: {exc}", file=sys.stderr)
        return 2
    binding = load_params(args.params, defined)
    if binding is None:
        return 2
    try:
        machine = load_machine(args.machine)
    except MachineError as exc:
        print(str(exc), file=sys.stderr)
        return 2
    result = run(args.files, Options(args.include, raw, binding.values), machine)
    print_diagnostics(result.analysis.diagnostics)
    if not result.analysis.program.procedures:
        print("sad: error: no file could be analyzed", file=sys.stderr)
        return exit_status(args.files, args.files)
    if not check_params(binding, result.analysis, defined, raw):
        return 2
    text = HANDLERS[fmt](annotate(result))
    if args.output:
        Path(args.output).write_text(text, encoding="utf-8")
    else:
        sys.stdout.write(text)
    return exit_status(args.files, result.analysis.failed_files)
