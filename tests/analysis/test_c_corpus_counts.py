"""Exact symbolic counts for every C kernel against hand-derived closed forms (corpus/c/expected.yaml,
checked against gcov by corpus/c/verify_counts.py), and the C/Fortran twins agreeing in structure."""
from __future__ import annotations

import functools

import pytest
import sympy

from sad.analysis.counting import evaluate_sums
from tests.corpus_expectations import ROOT, counts_by_line, is_error_exit, iterations_by_line, load_expected

CDIR = ROOT / "corpus" / "c"
EXPECTED = load_expected(CDIR / "expected.yaml")


_POINTS: dict[int, list[dict]] = {}


def points(spec: dict) -> list[dict]:
    """The sample values, then each extra check point, with derived values computed from them."""
    if id(spec) not in _POINTS:
        _POINTS[id(spec)] = _points(spec)
    return _POINTS[id(spec)]


def _points(spec: dict) -> list[dict]:
    result = []
    for extra in [{}] + list(spec.get("checks", [])):
        point = {k: sympy.nsimplify(v) for k, v in {**spec["params"], **extra}.items()}
        for name, text in (spec.get("derived") or {}).items():
            point[name] = sympy.sympify(text, locals={k: sympy.Symbol(k) for k in point}).subs(
                {sympy.Symbol(k): v for k, v in point.items()})
        result.append(point)
    return result


def expect(text: str, point: dict) -> sympy.Expr:
    return _expected_at(text, _key(point))


def ours_at(expr: sympy.Expr, point: dict) -> sympy.Expr:
    return _ours_at(expr, _key(point))


def _key(point: dict) -> tuple:
    """A check point as a hashable key (its values are sympy numbers)."""
    return tuple(sorted(point.items()))


# Each formula is evaluated once per point: many lines share one count (a block's), and md1.c's 140 checked
# lines at 5 points are 120 distinct evaluations of ours and 115 of the expectations, not 1420 of each.
@functools.cache
def _expected_at(text: str, point: tuple) -> sympy.Expr:
    return _parsed(text, tuple(k for k, _ in point)).subs({sympy.Symbol(k): v for k, v in point})


@functools.cache
def _parsed(text: str, names: tuple[str, ...]) -> sympy.Expr:
    """An expected formula parsed once (it is evaluated at every check point)."""
    return sympy.sympify(text, locals={k: sympy.Symbol(k) for k in names})


@functools.cache
def _ours_at(expr: sympy.Expr, point: tuple) -> sympy.Expr:
    values = dict(point)
    value = expr.xreplace({s: values[s.name] for s in expr.free_symbols if s.name in values})
    return evaluate_sums(value) if value.has(sympy.Sum) else value


def programs() -> list:
    """The programs of expected.yaml. Both tests of a program read one analysis (counts_by_line), so they run in
    one worker (tests/conftest.py): md1.c's in test_twins's, which reads it too, the others in this file's."""
    return [pytest.param(p, marks=[pytest.mark.xdist_group("md1_analyses"), pytest.mark.heavy] if p == "md1.c"
                         else [pytest.mark.xdist_group(__name__)]) for p in sorted(EXPECTED)]


@pytest.mark.parametrize("program", programs())
def test_c_counts_match_hand_derivation(program):
    spec = EXPECTED[program]
    source = CDIR / program
    ours, analysis = counts_by_line(source)
    trips = iterations_by_line(analysis, source)
    derived = set(spec.get("derived") or {})
    checked = 0
    for line, entry in spec["lines"].items():
        for field, table in (("count", ours), ("trips", trips)):
            text = entry.get(field)
            if text is None:
                continue
            assert line in table, f"{program}:{line}: no {field} derived"
            uses_derived = bool(derived & {s.name for s in sympy.sympify(text).free_symbols})
            for point in points(spec):
                got, want = ours_at(table[line], point), expect(text, point)
                got, want = sympy.N(got), sympy.N(want)
                if uses_derived and got.free_symbols:
                    # md1.c: the expectation resolves the cell-list choice by hand; sad leaves it a
                    # named parameter, which is what it must then be.
                    assert any(s.name.startswith(("P_", "X_")) or s.name in derived for s in got.free_symbols)
                    continue
                assert not got.free_symbols, f"{program}:{line} {field}: {table[line]} unbound {got.free_symbols}"
                assert abs(float(got) - float(want)) <= 1e-9 * max(1.0, abs(float(want))), \
                    f"{program}:{line} {field}: SAD {table[line]} = {got}, expected {text} = {want} at {point}"
            checked += 1
    assert checked > 0


@pytest.mark.parametrize("program", programs())
def test_c_unresolved_lines_carry_a_parameter_or_are_error_exits(program):
    spec = EXPECTED[program]
    ours, _ = counts_by_line(CDIR / program)
    for line, entry in spec["lines"].items():
        if entry.get("count") is not None or "unresolved" not in entry:
            continue
        if line not in ours:
            continue  # e.g. a label-only line
        names = {s.name for s in ours[line].free_symbols}
        exact_here = _exact_everywhere(ours[line], entry, spec)
        assert is_error_exit(ours[line], entry) or exact_here or \
            any(n.startswith(("X_", "P_", "C_")) for n in names), \
            f"{program}:{line}: {ours[line]} should depend on an unresolved parameter ({entry['unresolved']})"


def _exact_everywhere(ours: sympy.Expr, entry: dict, spec: dict) -> bool:
    """A line the hand derivation calls unresolved for a static SAD, where sad found the exact count after
    all (a branch on the loop index, summed exactly): it must then equal the derivation's `exact` form at
    every point, or the measured count at the sample."""
    exact = entry.get("exact_count") if entry.get("header") else entry.get("exact")
    measured = entry.get("measured_count") if entry.get("header") else entry.get("measured")
    checked = False
    for n, point in enumerate(points(spec)):
        value = ours_at(ours, point)
        if value.free_symbols:
            return False
        if exact is not None and "fibonacci" not in exact:
            assert abs(float(value) - float(expect(exact, point))) < 1e-9, (ours, exact, point)
            checked = True
        elif n == 0 and measured is not None:
            assert float(value) == float(measured), (ours, measured)
            checked = True
    return checked
