"""Argument helpers shared by every `sad` subcommand: one way to parse a command line.

Data flow: argv → (subcommand, its options and FILEs in any order, the program's COMMAND after `--`) →
an argparse Namespace for the command module's run function. Also the one reading of `-D NAME[=VALUE]`
(a compiler's convention: no value means 1) and of size lists (`NAME=V1,V2`, `NAME=V[,NAME=V]`), so that
every command refuses the same mistakes with the same words.

Commands that run the user's program (`profile`, `check-counts`, `validate`, and later ones) declare it with
`takes_command(parser)`; their argv is cut at the first `--`, the part before is parsed with argparse's
intermixed parsing (options before, between and after FILEs), the part after is COMMAND. Everything else is
argparse's own behaviour, `-h`/`--help` included.
"""
from __future__ import annotations

import argparse
import difflib
import re
from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # sympy costs half a second to import: only where a command needs it
    import sympy

_TAKES_COMMAND = "_sad_takes_command"
_DASH_VALUES = "_sad_dash_values"
_COMMAND_OPTIONAL = "_sad_command_optional"
_NAME = re.compile(r"[A-Za-z_]\w*")


def takes_command(parser: argparse.ArgumentParser, example: str = "'./prog < input'", required: bool = True) -> None:
    """Mark a subcommand as taking `-- COMMAND` (the program to run, one shell string after `--`); with
    required=False the command may be left out (`sad tune` runs the program only to validate its choice)."""
    parser.set_defaults(**{_TAKES_COMMAND: example, _COMMAND_OPTIONAL: not required})
    parser.usage = (parser.format_usage().replace("usage: ", "", 1).rstrip()
                    + (" -- COMMAND" if required else " [-- COMMAND]"))


def dash_values(parser: argparse.ArgumentParser, *options: str) -> None:
    """Options whose value may begin with '-' (`--flags -O2`, as users type compiler flags): the next word
    is taken as the value even though argparse would read it as an option."""
    parser.set_defaults(**{_DASH_VALUES: tuple(options)})


def _attach_dash_values(argv: list[str], options: Sequence[str]) -> list[str]:
    out: list[str] = []
    k = 0
    while k < len(argv):
        word = argv[k]
        if word in options and k + 1 < len(argv) and argv[k + 1] != "--":
            out.append(f"{word}={argv[k + 1]}")
            k += 2
            continue
        out.append(word)
        k += 1
    return out


def exit_status(files: Iterable[str], failed: Iterable[str]) -> int:
    """2 when a FILE does not exist (the command line is wrong), 1 when a file had errors, else 0."""
    import os
    if any(not os.path.exists(f) for f in files):
        return 2
    return 1 if list(failed) else 0


def positive_int(text: str) -> int:
    """argparse type: an integer ≥ 1 (`--top -1` or `--runs 0` make no sense)."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"'{text}' is not an integer") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"{value}: must be at least 1")
    return value


def split_command(argv: Sequence[str]) -> tuple[list[str], list[str] | None]:
    """argv cut at the first `--`: (the options and FILEs, the COMMAND words or None without `--`)."""
    argv = list(argv)
    if "--" not in argv:
        return argv, None
    cut = argv.index("--")
    return argv[:cut], argv[cut + 1:]


def _subparsers(parser: argparse.ArgumentParser) -> argparse._SubParsersAction:
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            return action
    raise TypeError("parser has no subcommands")


def parse_command_line(parser: argparse.ArgumentParser, argv: Sequence[str]) -> argparse.Namespace:
    """Parse `sad SUBCOMMAND ...` with options anywhere; exits like argparse on errors and for --help."""
    argv = list(argv)
    sub = _subparsers(parser)
    if not argv or argv[0].startswith("-"):
        return parser.parse_args(argv)  # --version, --help, or nothing: argparse's own messages
    name = argv[0]
    if name not in sub.choices:
        close = difflib.get_close_matches(name, list(sub.choices), n=1)
        parser.error(f"unknown command '{name}'" + (f"; did you mean '{close[0]}'?" if close else "")
                     + f" (commands: {', '.join(sub.choices)})")
    subparser = sub.choices[name]
    example = subparser.get_default(_TAKES_COMMAND)
    head, command = split_command(argv[1:]) if example else (argv[1:], None)
    head = _attach_dash_values(head, subparser.get_default(_DASH_VALUES) or ())
    args = subparser.parse_intermixed_args(head)
    args.subcommand = name
    if isinstance(getattr(args, "files", None), list):
        from sad.analysis.inputs import expand_sources
        args.files = expand_sources(args.files)  # a directory stands for the sources under it
    if example:
        text = " ".join(command or []).strip()
        optional = subparser.get_default(_COMMAND_OPTIONAL)
        if not text and not optional and not ("-h" in head or "--help" in head):
            subparser.error(f"no COMMAND: give the program to run after --, e.g. -- {example}")
        args.command = text
    return args


# ------------------------------------------------------------------------------------------ -D and sizes
class ArgumentError(ValueError):
    """A value on the command line that cannot be used; the message names the option and the text."""


def parse_define(text: str, option: str = "-D") -> tuple[str, str, sympy.Expr]:
    """`NAME=VALUE` → (NAME, VALUE, parsed); `NAME` alone means 1, as for a compiler's -D."""
    from sad.analysis.bindings import BindingError
    from sad.analysis.bindings import parse_define as parse_binding
    try:
        return parse_binding(text)
    except BindingError as exc:
        message = str(exc)
        raise ArgumentError(option + message[2:] if message.startswith("-D") else message) from None


def parse_defines(texts: Iterable[str], option: str = "-D") -> tuple[dict[str, str], dict[str, sympy.Expr]]:
    """Every -D: the raw text (for preprocessors and compilers) and the parsed values (for parameters)."""
    raw: dict[str, str] = {}
    values: dict[str, sympy.Expr] = {}
    for text in texts:
        name, value, parsed = parse_define(text, option)
        raw[name] = value
        values[name] = parsed
    return raw, values


def parse_size_list(text: str, option: str = "--sizes") -> tuple[str, list[str]]:
    """`NAME=V1,V2,...` → (NAME, [V1, V2, ...]); every value must be a number or an expression."""
    name, sep, rest = text.partition("=")
    name = name.strip()
    values = [v.strip() for v in rest.split(",")]
    if not sep or not _NAME.fullmatch(name) or not rest.strip():
        raise ArgumentError(f"{option} {text}: expected NAME=V1,V2,...")
    for value in values:
        if not value:
            raise ArgumentError(f"{option} {text}: an empty value in the list")
        if not parse_define(f"{name}={value}", option)[2].is_number:
            raise ArgumentError(f"{option} {text}: '{value}' is not a number")
    return name, values


def parse_size_point(text: str, option: str = "--size") -> dict[str, tuple[str, sympy.Expr]]:
    """`A=1,B=2` → {A: ('1', 1), B: ('2', 2)}."""
    point = {}
    for part in text.split(","):
        if "=" not in part:
            raise ArgumentError(f"{option} {text}: expected NAME=VALUE[,NAME=VALUE]")
        name, raw, value = parse_define(part, option)
        point[name] = (raw, value)
    return point


_PLACEHOLDER = re.compile(r"\{([A-Za-z_]\w*)\}")


def check_placeholders(command: str, known: Iterable[str], option: str = "COMMAND") -> None:
    """Refuse `{NAME}` placeholders that nothing will fill in (before anything is compiled)."""
    known = set(known)
    unknown = sorted({m for m in _PLACEHOLDER.findall(command) if m not in known})
    if unknown:
        hints = [difflib.get_close_matches(u, sorted(known), n=1) for u in unknown]
        detail = ", ".join("{" + u + "}" + (f" (did you mean {{{h[0]}}}?)" if h else "")
                           for u, h in zip(unknown, hints))
        raise ArgumentError(f"{option}: unknown placeholder {detail}; known: "
                            + ", ".join("{" + k + "}" for k in sorted(known)))


def did_you_mean(name: str, candidates: Iterable[str]) -> str | None:
    """The candidate that `name` most likely meant: same name ignoring case first, else a close spelling."""
    candidates = sorted(set(candidates))
    for c in candidates:
        if c.lower() == name.lower():
            return c
    close = difflib.get_close_matches(name, candidates, n=1, cutoff=0.75)
    return close[0] if close else None


def add_generic_data(parser: argparse.ArgumentParser) -> None:
    """--no-generic-data: tests of floating-point data stay named probabilities instead of being decided by
    the generic-data assumption (sad.analysis.genericdata)."""
    parser.add_argument("--no-generic-data", dest="generic_data", action="store_false",
                        help="keep tests of floating-point data (X.EQ.ZERO, ABS(X).LT.SAFMIN) as probabilities; "
                        "by default data are taken as generic: equal to no other value, of ordinary magnitude")
