#!/usr/bin/env python3
"""Check the hand-derived line counts in expected.yaml against a real execution.

For every program in expected.yaml: compile it with `gcc -std=c99 -Wall -Werror -O0 --coverage`, run it on its
sample input (NAME.in, or the file named by `input:`), read the line counts with gcov (sad.measure.gcov)
and compare them with the counts in expected.yaml evaluated at the sample parameters. Programs with a `stdin:`
template and a `checks:` list are also run at each extra parameter set (the template is filled in with
str.format) and their symbolic counts compared again there.

What is compared (see the conventions at the top of expected.yaml and README.md):
  - a plain statement line with a count: gcov's count must equal it;
  - a loop header line (`header: for` / `header: while`): our count is the number of ENTRIES of the loop and
    `trips` the total number of body iterations over all entries; gcov counts the header line once per
    evaluation of the loop condition, i.e. entries + trips for a loop left through its condition (none of
    the corpus loops is left by break or return), so gcov must equal count + trips;
  - on a header whose entries are not derivable, `exact_count` (any parameter set) or `measured_count`
    (sample only) replaces `count`, and `exact` / `measured` give the trips;
  - `derived:` parameters are evaluated in order from the params (and the other derived ones) first;
  - a line with `count: null` (unresolved) and a `measured:` value: gcov must equal `measured` at the sample
    input (for a header, `measured` is the trips value). `exact:`, where given, is a closed form that a
    static analysis cannot derive but that holds; it is checked like a count at every parameter set;
  - every line gcov reports as executable must appear in expected.yaml, except lines that hold only braces,
    `else`, a `case ...:`/`default:` or goto label or a function's declarator (gcov gives these the count of
    the code it attributes to them; they are not statements).

Usage: verify_counts.py [-v] [-k] [NAME.c ...]       exit status 0 when everything matches, 1 otherwise.
"""
from __future__ import annotations

import argparse
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import sympy
import yaml
from sympy.parsing.sympy_parser import parse_expr

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parents[1]))  # this checkout's sad, not an installed one
from sad.measure.gcov import source_line_counts  # noqa: E402

# Source lines gcov may mark executable that are not statements of ours.
TRIVIAL = [
    re.compile(r"^[{}\s;]*$"),                                 # braces only
    re.compile(r"^}?\s*else\s*{?\s*$"),                        # else
    re.compile(r"^(case\b.*|default\s*):\s*$"),                # switch labels
    re.compile(r"^[A-Za-z_]\w*:\s*;?\s*$"),                      # goto labels
    re.compile(r"^[A-Za-z_][\w\s\*]*\b[A-Za-z_]\w*\s*\(.*\)\s*{?\s*$"),  # function declarator (col 0 only)
]


def is_trivial(text: str) -> bool:
    stripped = text.strip()
    for k, pat in enumerate(TRIVIAL):
        if k == 4:
            if text[:1].isspace() or not pat.match(stripped) or stripped.endswith(";"):
                continue
            return True
        if pat.match(stripped):
            return True
    return False


def bind(params: dict, derived: dict) -> dict:
    """Parameter values plus the derived (indirect) parameters, each evaluated in order from the others."""
    values = {k: sympy.sympify(v) for k, v in params.items()}
    for name, expr in (derived or {}).items():
        symbols = {k: sympy.Symbol(k) for k in values}
        values[name] = parse_expr(str(expr), local_dict=symbols).subs(
            {symbols[k]: v for k, v in values.items()})
    return values


def evaluate(expr: str, params: dict) -> int:
    symbols = {name: sympy.Symbol(name) for name in params}
    value = parse_expr(str(expr), local_dict=symbols).subs({symbols[k]: v for k, v in params.items()})
    value = sympy.nsimplify(sympy.simplify(value))
    if not value.is_integer:
        raise ValueError(f"count {expr!r} is not an integer at {params}: {value}")
    return int(value)


def gcov_counts(workdir: Path, src: Path, stdin_text: str, extra_flags: list[str]) -> dict[int, int]:
    for f in workdir.glob("*.gcda"):
        f.unlink()
    exe = workdir / src.stem
    if not exe.exists():
        cmd = ["gcc", "-std=c99", "-Wall", "-Werror", "-O0", "--coverage", "-o", str(exe), str(src)]
        subprocess.run(cmd + extra_flags + ["-lm"], check=True, cwd=workdir)
    run = subprocess.run([str(exe)], input=stdin_text, text=True, capture_output=True, cwd=workdir)
    if run.returncode != 0:
        raise RuntimeError(f"{src.name} exited with {run.returncode}: {run.stderr.strip()}")
    gcda = [p for p in workdir.glob("*.gcda") if src.stem in p.name]
    if not gcda:
        raise RuntimeError(f"no .gcda file for {src.name}")
    counts, _ = source_line_counts(gcda[0].name, src.name, workdir)
    return counts, run.stdout


def check_program(name: str, spec: dict, verbose: bool, keep: bool) -> list[str]:
    errors: list[str] = []
    src = HERE / name
    source_lines = src.read_text().splitlines()
    params = dict(spec.get("params") or {})
    input_file = HERE / spec.get("input", Path(name).with_suffix(".in").name)
    stdin_text = input_file.read_text()
    template = spec.get("stdin")
    if template is not None and "input" not in spec and template.format(**params) != stdin_text:
        errors.append(f"{name}: stdin template {template!r} at params {params} does not reproduce {input_file.name}")
    lines = {int(k): v for k, v in (spec.get("lines") or {}).items()}
    for ln in lines:
        if not 1 <= ln <= len(source_lines):
            errors.append(f"{name}:{ln}: line number out of range")
    workdir = Path(tempfile.mkdtemp(prefix="sad_verify_"))
    try:
        runs = [(params, stdin_text, True)]
        for extra in spec.get("checks") or []:
            p = dict(params)
            p.update(extra)
            runs.append((p, template.format(**p), False))
        for raw, text, is_sample in runs:
            p = bind(raw, spec.get("derived"))
            try:
                got, _ = gcov_counts(workdir, src, text, spec.get("cflags", []))
            except (RuntimeError, subprocess.CalledProcessError) as exc:
                errors.append(f"{name}: {exc}")
                break
            tag = "sample" if is_sample else "check " + ", ".join(f"{k}={v}" for k, v in raw.items())
            compared = 0
            for ln, entry in sorted(lines.items()):
                entry = entry or {}
                if ln not in got:
                    errors.append(f"{name}:{ln}: gcov reports no executable code on this line "
                                  f"({source_lines[ln - 1].strip()!r})")
                    continue
                try:
                    want = expected_gcov(entry, p, is_sample)
                except Exception as exc:  # noqa: BLE001 - report any evaluation problem as a mismatch
                    errors.append(f"{name}:{ln}: cannot evaluate expected count: {exc}")
                    continue
                if want is None:
                    continue
                compared += 1
                if got[ln] != want:
                    errors.append(f"{name}:{ln}: [{tag}] gcov {got[ln]} != expected {want} "
                                  f"({describe(entry)})  | {source_lines[ln - 1].strip()}")
                elif verbose:
                    print(f"  ok {name}:{ln}: [{tag}] {got[ln]}")
            if is_sample:
                for ln in sorted(got):
                    if ln not in lines and not is_trivial(source_lines[ln - 1]):
                        errors.append(f"{name}:{ln}: gcov counts {got[ln]} on a line missing from expected.yaml"
                                      f"  | {source_lines[ln - 1].strip()}")
            if verbose:
                print(f"{name} [{tag}]: {compared} lines compared")
    finally:
        if keep:
            print(f"kept {workdir}")
        else:
            shutil.rmtree(workdir, ignore_errors=True)
    return errors


def describe(entry: dict) -> str:
    return ", ".join(f"{k}={v}" for k, v in entry.items())


def expected_gcov(entry: dict, params: dict, is_sample: bool):
    """The count gcov should report for this line, or None when it cannot be predicted at these params."""
    header = entry.get("header")
    count = entry.get("count")
    exact = entry.get("exact")
    measured = entry.get("measured")
    if header:
        # entries: count, else exact_count, else measured_count (sample only); trips: trips, exact, measured
        if count is not None:
            entries = evaluate(count, params)
        elif entry.get("exact_count") is not None:
            entries = evaluate(entry["exact_count"], params)
        elif entry.get("measured_count") is not None and is_sample:
            entries = int(entry["measured_count"])
        else:
            return None
        trips = entry.get("trips")
        if trips is not None:
            return entries + evaluate(trips, params)
        if exact is not None:
            return entries + evaluate(exact, params)
        if measured is not None and is_sample:
            return entries + int(measured)
        return None
    if count is not None:
        return evaluate(count, params)
    if exact is not None:
        return evaluate(exact, params)
    if measured is not None and is_sample:
        return int(measured)
    return None


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("programs", nargs="*", help="restrict to these programs (file names as in expected.yaml)")
    ap.add_argument("-v", "--verbose", action="store_true")
    ap.add_argument("-k", "--keep", action="store_true", help="keep the build directories")
    args = ap.parse_args(argv)
    for tool in ("gcc", "gcov"):
        if shutil.which(tool) is None:
            print(f"verify_counts: {tool} not found", file=sys.stderr)
            return 2
    expected = yaml.safe_load((HERE / "expected.yaml").read_text())
    names = args.programs or sorted(expected)
    errors: list[str] = []
    for name in names:
        if name not in expected:
            errors.append(f"{name}: not in expected.yaml")
            continue
        errs = check_program(name, expected[name], args.verbose, args.keep)
        status = "ok" if not errs else f"{len(errs)} mismatch(es)"
        print(f"{name}: {status}")
        errors += errs
    for e in errors:
        print(e, file=sys.stderr)
    missing = sorted(p.name for p in HERE.glob("*.c") if p.name not in expected)
    if missing and not args.programs:
        print(f"note: no expected counts for {', '.join(missing)}", file=sys.stderr)
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
