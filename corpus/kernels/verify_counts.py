#!/usr/bin/env python3
"""Check the hand-derived statement counts in expected.yaml against a real execution.

For every kernel listed in expected.yaml (or those named on the command line):
compile with ``gfortran -std=legacy -O0 --coverage``, run it with NAME.in on standard
input, collect per-line counts with gcov (sad.measure.gcov, sad's one gcov reader) and compare them with
the expected counts evaluated at the sample parameters.

What is compared on each listed line:
- ``gcov`` if the entry has one (gcov's own convention differs from ours on DO lines,
  terminal CONTINUE lines and a few others; see expected.yaml and README.md); ``"-"``
  means the line must carry no code at all;
- otherwise ``count`` (a sympy expression in the kernel's params), or, for a line marked
  ``unresolved``, its ``observed`` value.

It also checks that every line gcov instruments is listed (except PROGRAM / SUBROUTINE /
FUNCTION header lines and END lines), that resolved counts mention only declared params,
and that unresolved lines carry a valid kind.  Exit status 0 when everything agrees,
1 on any mismatch, 2 on a usage or tool error.

Usage: python3 verify_counts.py [-v] [--keep] [KERNEL.f ...]
"""

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import sympy
import yaml

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(os.path.dirname(HERE)))  # this checkout's sad, not an installed one
from sad.measure.gcov import source_line_counts  # noqa: E402

UNRESOLVED_KINDS = {"loop_count", "branch_probability"}
# lines gcov instruments that are not executable statements in our sense
HEADER_RE = re.compile(
    r"^\s*(PROGRAM\b|SUBROUTINE\b|((DOUBLE\s+PRECISION|REAL|INTEGER|LOGICAL|COMPLEX|"
    r"CHARACTER)(\*\d+)?\s+)?FUNCTION\b|END\s*$)",
    re.IGNORECASE,
)


def is_comment(line):
    return line[:1] in ("C", "c", "*", "!") or line.strip() == ""


def param_symbols(params):
    syms = {}
    for name, value in params.items():
        if isinstance(value, int):
            syms[name] = sympy.Symbol(name, integer=True, nonnegative=True)
        else:
            syms[name] = sympy.Symbol(name, real=True, positive=True)
    return syms


def evaluate(expr_text, params, syms, where):
    """Parse expr_text with the param symbols and evaluate it at the sample values."""
    expr = sympy.sympify(str(expr_text), locals=dict(syms))
    unknown = {str(s) for s in expr.free_symbols} - set(syms)
    if unknown:
        raise ValueError(f"{where}: expression {expr_text!r} uses undeclared names {sorted(unknown)}")
    value = expr.subs({syms[k]: v for k, v in params.items()})
    value = sympy.nsimplify(value) if not value.is_Integer else value
    if not value.is_number:
        raise ValueError(f"{where}: {expr_text!r} did not evaluate to a number: {value}")
    fval = float(value)
    if abs(fval - round(fval)) > 1e-9:
        raise ValueError(f"{where}: {expr_text!r} evaluates to non-integer {value}")
    return int(round(fval))


def gcov_counts(workdir, source):
    """Per-line counts of SOURCE (built in WORKDIR) read by sad's gcov reader."""
    counts, _ = source_line_counts(source, source, Path(workdir), source[:-2] + ".o")
    return counts


def compare(name, lines, source_lines, params, syms, measured, sample, verbose):
    """Compare one run's gcov counts with the expected entries.

    On the sample run every listed line is compared; on a run with alternative params
    (sample=False) lines whose value is known only for the sample input (unresolved
    lines, entries marked sample_only) are skipped."""
    errors = []
    tag = "" if sample else f" {params}"
    n_ok = 0
    for line_no, entry in sorted(lines.items()):
        where = f"{name}:{line_no}{tag}"
        if not isinstance(line_no, int) or not 1 <= line_no <= len(source_lines):
            errors.append(f"{where}: not a line of the file")
            continue
        text = source_lines[line_no - 1]
        if is_comment(text) or (len(text) > 5 and text[5] not in " 0"):
            errors.append(f"{where}: listed line is a comment or a continuation line: {text!r}")
            continue
        if not sample and (entry.get("unresolved") is not None or entry.get("sample_only")):
            continue
        try:
            if entry.get("unresolved") is not None:
                if entry["unresolved"] not in UNRESOLVED_KINDS:
                    errors.append(f"{where}: bad unresolved kind {entry['unresolved']!r}")
                if entry.get("count") is not None:
                    errors.append(f"{where}: unresolved line must have count: null")
                if "observed" not in entry:
                    errors.append(f"{where}: unresolved line without observed value")
                    continue
                expected = int(entry["observed"])
            else:
                if entry.get("count") is None:
                    errors.append(f"{where}: count missing and not marked unresolved")
                    continue
                expected = evaluate(entry["count"], params, syms, where)
            gexp = entry.get("gcov")
            if gexp is not None:
                if str(gexp).strip() == "-":
                    expected = None
                else:
                    expected = evaluate(gexp, params, syms, where)
        except (ValueError, sympy.SympifyError, TypeError) as exc:
            errors.append(f"{where}: {exc}")
            continue
        got = measured.get(line_no)
        if got != expected:
            shown = "-" if expected is None else expected
            errors.append(f"{where}: expected {shown}, gcov shows "
                          f"{'-' if got is None else got}   | {text.strip()}")
        else:
            n_ok += 1
            if verbose:
                print(f"  ok {where:22s} {'-' if got is None else got:>8}   {text.strip()}")

    for line_no in sorted(measured):
        if line_no in lines:
            continue
        text = source_lines[line_no - 1] if line_no <= len(source_lines) else ""
        if HEADER_RE.match(text[6:] if len(text) > 6 else text):
            continue
        if not sample:
            continue
        errors.append(f"{name}:{line_no}: executable line not listed in expected.yaml "
                      f"(gcov {measured[line_no]}): {text.strip()}")
    return n_ok, errors


def check_kernel(name, spec, verbose, keep):
    errors = []
    src_path = os.path.join(HERE, name)
    in_path = os.path.join(HERE, name[:-2] + ".in")
    if not os.path.exists(src_path):
        return [f"{name}: source file missing"]
    if not os.path.exists(in_path):
        return [f"{name}: sample input {os.path.basename(in_path)} missing"]
    params = spec.get("params") or {}
    syms = param_symbols(params)
    lines = spec.get("lines") or {}
    source_lines = open(src_path).read().splitlines()

    runs = [("sample", params, open(in_path).read())]
    order = spec.get("input") or []
    for alt in spec.get("alt_params") or []:
        text = " ".join(str(alt[k]) for k in order) + "\n"
        runs.append(("alt", alt, text))

    workdir = tempfile.mkdtemp(prefix="sadcov_")
    n_ok = 0
    try:
        shutil.copy(src_path, workdir)
        exe = os.path.join(workdir, "prog")
        obj = name[:-2] + ".o"
        # compile and link separately so that the notes file is NAME.gcno, next to NAME.f
        for cmd in (["gfortran", "-std=legacy", "-O0", "--coverage", "-c", name, "-o", obj],
                    ["gfortran", "--coverage", "-o", exe, obj]):
            comp = subprocess.run(cmd, cwd=workdir, capture_output=True, text=True)
            if comp.returncode != 0:
                return [f"{name}: build failed ({' '.join(cmd)}):\n{comp.stderr}"]
        for kind, values, stdin_text in runs:
            gcda = os.path.join(workdir, name[:-2] + ".gcda")
            if os.path.exists(gcda):
                os.remove(gcda)
            run = subprocess.run([exe], cwd=workdir, input=stdin_text, capture_output=True,
                                 text=True, timeout=120)
            if run.returncode != 0:
                errors.append(f"{name} {values}: run failed (rc {run.returncode}):\n"
                              f"{run.stdout}{run.stderr}")
                continue
            if "CHECKSUM" not in run.stdout:
                errors.append(f"{name} {values}: no CHECKSUM line in the output")
            measured = gcov_counts(workdir, name)
            ok, errs = compare(name, lines, source_lines, values, syms, measured,
                               sample=(kind == "sample"), verbose=verbose and kind == "sample")
            errors += errs
            if kind == "sample":
                n_ok = ok
    finally:
        if keep:
            print(f"{name}: kept {workdir}")
        else:
            shutil.rmtree(workdir, ignore_errors=True)

    status = "OK" if not errors else "FAIL"
    print(f"{name:18s} {status}  {n_ok}/{len(lines)} lines agree  params={params}"
          f"  (+{len(runs) - 1} runs with other params)")
    return errors


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("kernels", nargs="*", help="kernel sources to check (default: all)")
    ap.add_argument("-v", "--verbose", action="store_true")
    ap.add_argument("--keep", action="store_true", help="keep the build directories")
    ap.add_argument("--expected", default=os.path.join(HERE, "expected.yaml"))
    args = ap.parse_args(argv)

    for tool in ("gfortran", "gcov"):
        if shutil.which(tool) is None:
            print(f"error: {tool} not found", file=sys.stderr)
            return 2
    with open(args.expected) as f:
        expected = yaml.safe_load(f)
    names = [os.path.basename(k) for k in args.kernels] or sorted(expected)
    missing = [n for n in names if n not in expected]
    if missing:
        print(f"error: not in {args.expected}: {missing}", file=sys.stderr)
        return 2
    unlisted = sorted(set(f for f in os.listdir(HERE) if f.endswith(".f")) - set(expected))
    all_errors = []
    if unlisted and not args.kernels:
        all_errors.append(f"kernels without expected counts: {unlisted}")
    for name in names:
        all_errors += check_kernel(name, expected[name], args.verbose, args.keep)
    if all_errors:
        print("\nMISMATCHES:")
        for e in all_errors:
            print("  " + e)
        return 1
    print("\nall counts agree")
    return 0


if __name__ == "__main__":
    sys.exit(main())
