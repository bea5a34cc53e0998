"""The Fortran and C versions of md1 and of matrix multiply are one program in two languages: the SAD must
see the same loop structure, the same unresolved parameters (by kind and procedure) and the same
floating-point operation counts. The C frontend is a frontend only."""
from __future__ import annotations

import random
from collections import defaultdict

import pytest
import sympy

from sad.analysis.description import group_blocks
from sad.predict.mapper import operation_totals
from tests.corpus_expectations import ROOT, counts_by_line

# md1.c spells Fortran's MAX/MIN intrinsics as three small helpers of its own; their branches are the
# intrinsics' insides, which Fortran does not show.
C_INTRINSIC_HELPERS = {"DMAX", "IMAX", "IMIN"}
FLOPS = ("add.double", "sub.double", "mul.double", "div.double", "intrinsic.SQRT.double",
         "load.double", "store.double", "pow.double")


def sad_of(path: str):
    """The analysis (made once per process: test_c_corpus_counts reads md1.c's too) and its operation totals."""
    _, analysis = counts_by_line(ROOT / path)
    assert not analysis.errors
    return analysis, operation_totals(group_blocks(analysis.counts))


def through_helper(p) -> bool:
    """md1.c computes nprint = imax(1, nstep/10) with its helper where md1.f uses the MAX intrinsic, so the
    print-interval test is counted exactly in Fortran and stays a probability in C."""
    return "nprint" in open(p.file).read().splitlines()[p.line - 1]


def decisions(analysis, main: str) -> dict[tuple[str, str], list]:
    by = defaultdict(list)
    for p in analysis.table:
        if p.cls == "unresolved" and p.kind in ("loop_count", "branch_probability") and not through_helper(p):
            proc = "MAIN" if p.procedure.upper() == main else p.procedure.upper()
            if proc not in C_INTRINSIC_HELPERS:
                by[(proc, p.kind)].append(p)
    return {k: sorted(v, key=lambda p: p.line) for k, v in by.items()}


# md1.c's analysis is shared with test_c_corpus_counts (tests.corpus_expectations.counts_by_line): one worker
pytestmark = pytest.mark.xdist_group("md1_analyses")


@pytest.fixture(scope="module")
def md1_pair():
    return sad_of("corpus/md1/md1.f"), sad_of("corpus/c/md1.c")


@pytest.mark.heavy
def test_md1_same_unresolved_parameters_by_kind_and_procedure(md1_pair):
    (fa, _), (ca, _) = md1_pair
    fd, cd = decisions(fa, "MD1"), decisions(ca, "MAIN")
    assert {k: len(v) for k, v in fd.items()} == {k: len(v) for k, v in cd.items()}
    assert ("FORCE", "loop_count") in fd and len(fd[("FORCE", "loop_count")]) == 3   # the three chain walks
    f_values = {p.name.upper() for p in fa.table if p.cls == "unresolved" and p.kind == "value"}
    c_values = {p.name.upper() for p in ca.table if p.cls == "unresolved" and p.kind == "value"}
    assert f_values == c_values == {"NPART", "NSTEP", "RHO", "TREQ", "DT", "RCUT", "NRESC"}


def test_md1_same_floating_point_operation_counts(md1_pair):
    (fa, fops), (ca, cops) = md1_pair
    fd, cd = decisions(fa, "MD1"), decisions(ca, "MAIN")
    rng = random.Random(7)
    f_bind, c_bind = {}, {}
    for key, f_params in fd.items():
        for pf, pc in zip(f_params, cd[key]):   # paired in source order within the procedure
            value = sympy.Rational(rng.randint(1, 9), 10) if key[1] == "branch_probability" else rng.randint(1, 5)
            f_bind[pf.name], c_bind[pc.name] = value, value
    inputs = {"NPART": 864, "NSTEP": 10, "RHO": sympy.Rational(8442, 10000), "TREQ": sympy.Rational(722, 1000),
              "DT": sympy.Rational(5, 1000), "RCUT": sympy.Rational(5, 2), "NRESC": 2}  # M = 4, NCELL = 64
    for name, value in inputs.items():
        f_bind[name], c_bind[name.lower()] = value, value
    for p in ca.table:   # the print test Fortran counts exactly: at NSTEP=10, NPRINT=1, every step prints
        if p.kind == "branch_probability" and through_helper(p):
            c_bind[p.name] = 1

    def at(expr, binding):
        return sympy.N(expr.xreplace({s: binding[s.name] for s in expr.free_symbols if s.name in binding}))

    f_at = {op: at(fops[op], f_bind) for op in FLOPS}
    c_at = {op: at(cops[op], c_bind) for op in FLOPS}
    # The one difference is the language's: md1.f's RHI**3 - RLO**3 is two chains of 2 multiplications
    # (gfortran expands an INTEGER literal power), md1.c's pow(rhi, 3) - pow(rlo, 3) two libm calls.
    powers = c_at["pow.double"] - f_at["pow.double"]
    assert powers > 0  # (and md1.f's VOL ** (1.0D0/3.0D0) stays a pow: a REAL exponent)
    f_at["mul.double"] -= 2 * powers
    f_at["pow.double"] += powers
    for op in FLOPS:
        f, c = f_at[op], c_at[op]
        assert not f.free_symbols and f > 0
        assert abs(f - c) <= 1e-9 * abs(f), f"{op}: Fortran {f}, C {c}"


def test_matmul_twins_same_kernel():
    """The N^3 kernel is the same in both languages (their set-up loops differ by a few N^2 terms)."""
    (_, fops), (_, cops) = sad_of("corpus/kernels/matmul.f"), sad_of("corpus/c/matmul_ijk.c")
    t = sympy.Symbol("t")

    def cubic(expr, name):
        poly = sympy.expand(expr.xreplace({sympy.Max(0, s): t for s in expr.free_symbols if s.name == name}))
        return sympy.Poly(poly, t).coeff_monomial(t ** 3)

    for op in ("add.double", "mul.double", "loop_iter"):
        assert cubic(fops[op], "N") == cubic(cops[op], "n") > 0, op
    # Not a twin in memory traffic, and the SAD sees it: the C kernel accumulates into c[i][j] (3 element
    # loads per trip), the Fortran one into a scalar S (2 loads). Each walks one matrix across its storage
    # order in the innermost loop: Fortran A(I,K) (column-major), C b[k][j] (row-major).
    assert (cubic(fops["load.double"], "N"), cubic(cops["load.double"], "n")) == (1, 2)
    assert (cubic(fops["load_strided.double"], "N"), cubic(cops["load_strided.double"], "n")) == (1, 1)
