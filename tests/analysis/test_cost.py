"""Cost vectors: operations by kind and type, and memory references told apart by stride, checked on
statements whose counts are derived by hand."""
from __future__ import annotations

import pytest
import sympy

from sad import ir
from sad.analysis.cost import Layout, is_strided, statement_cost
from sad.analysis.description import group_blocks
from sad.analysis.pipeline import analyze
from sad.predict.mapper import operation_totals
from tests.corpus_expectations import ROOT


def d(name: str) -> ir.Var:
    return ir.Var(name, type="integer")


def elem(name: str, *subs) -> ir.ArrayRef:
    return ir.ArrayRef(name, list(subs), type="double")


@pytest.mark.parametrize("ref, fastest, strided", [
    (elem("A", d("I"), d("J")), "first", False),      # A(I,J), I innermost, column-major: unit stride
    (elem("A", d("J"), d("I")), "first", True),       # A(J,I): I walks columns
    (elem("a", d("J"), d("I")), "last", False),       # a[j][i], row-major: unit stride
    (elem("a", d("I"), d("J")), "last", True),
    (elem("A", ir.BinOp("add", d("I"), d("K"), type="integer")), "first", False),   # A(I+K)
    (elem("A", ir.BinOp("mul", ir.Const(2, type="integer"), d("I"), type="integer")), "first", True),
    (elem("A", d("K")), "first", False),              # invariant in the inner loop
    # r[k-i-1]: stride -1 walks consecutive elements backwards, unit stride (README: "step other than ±1")
    (elem("r", ir.BinOp("sub", ir.BinOp("sub", d("K"), d("I"), type="integer"), ir.Const(1, type="integer"),
                        type="integer")), "last", False),
    (elem("r", ir.UnOp("neg", d("I"), type="integer")), "last", False),                     # r[-i]
    (elem("r", ir.BinOp("sub", d("K"), ir.BinOp("mul", ir.Const(2, type="integer"), d("I"), type="integer"),
                        type="integer")), "last", True),                                      # r[k-2*i]
])
def test_stride_classification(ref, fastest, strided):
    assert is_strided(ref, Layout("I", fastest)) is strided


def test_statement_cost_by_kind_and_type():
    # Y(I) = Y(I) + 2.0*X(I)*Z(J,I) in DO I: one strided load, two unit loads, one unit store
    stmt = ir.Assign(elem("Y", d("I")),
                     ir.BinOp("add", elem("Y", d("I")),
                              ir.BinOp("mul", ir.BinOp("mul", ir.Const(2.0, type="double"), elem("X", d("I")),
                                                       type="double"), elem("Z", d("J"), d("I")), type="double"),
                              type="double"), loc=ir.Loc("t.f", 1))
    cost = statement_cost(stmt, Layout("I", "first")).ops
    assert dict(cost) == {"load.double": 2, "load_strided.double": 1, "store.double": 1, "index": 5,
                          "add.double": 1, "mul.double": 2, "assign.double": 1}


# Per innermost-loop trip of c[i][j] += a[i][k]*b[k][j] (row-major) in each loop order, by hand:
# the innermost index in a slower dimension makes that matrix's reference strided.
ORDERS = {"ijk": (1, 0), "ikj": (0, 0), "jik": (1, 0), "jki": (2, 1), "kij": (0, 0), "kji": (2, 1)}


@pytest.mark.parametrize("order", sorted(ORDERS))
def test_six_matmul_orders_differ_only_in_strides(order):
    analysis = analyze([str(ROOT / "corpus" / "c" / f"matmul_{order}.c")])
    ops = operation_totals(group_blocks(analysis.counts))
    t = sympy.Symbol("t")

    def cubic(key):
        expr = ops.get(key, sympy.Integer(0))
        expr = sympy.expand(expr.xreplace({sympy.Max(0, s): t for s in expr.free_symbols}))
        return sympy.Poly(expr, t).coeff_monomial(t ** 3) if expr.has(t) else 0

    loads, stores = ORDERS[order]
    assert cubic("load_strided.double") == loads
    assert cubic("store_strided.double") == stores
    assert cubic("load.double") + cubic("load_strided.double") == 3
    assert cubic("mul.double") == 1 and cubic("add.double") == 1


def _blocks_of(tmp_path, name: str, text: str):
    path = tmp_path / name
    path.write_text(text)
    return group_blocks(analyze([str(path)]).counts)


def test_ternary_min_is_a_select_not_a_branch(tmp_path):
    blocks = _blocks_of(tmp_path, "tmin.c", """#include <stdio.h>
int main(void) {
    double a[100], m = 1e30, s = 0; int i;
    for (i = 0; i < 100; i++) a[i] = 100 - i;
    for (i = 0; i < 100; i++) m = (a[i] < m) ? a[i] : m;
    for (i = 0; i < 100; i++) s = s + (a[i] < m ? a[i] : m);
    printf("%g\\n", m + s);
    return 0;
}
""")
    ops = operation_totals(blocks)
    # statement ternary (lowered to an IF with two arms) and expression ternary: 100 selects each; counted
    # loops have no branch, so none is left
    assert ops["select"] == 200
    assert "branch" not in ops
    # the expression ternary evaluates both arms (one indexed load each trip, plus the a[i] of the test)
    line6 = [b for b in blocks if b.first_line == 6 and b.kind == "code"]
    assert dict(line6[0].cost) == {"compare.double": 1, "index": 2, "load.double": 2, "select": 1,
                                   "add.double": 1, "assign.double": 1}


def test_min_max_if_is_a_select_and_a_call_keeps_the_branch(tmp_path):
    blocks = _blocks_of(tmp_path, "mm.f", """      PROGRAM MM
      DOUBLE PRECISION A(50), XMAX, F
      INTEGER I
      XMAX = 0.0D0
      DO 10 I = 1, 50
         A(I) = DBLE(I)
         IF (A(I) .GT. XMAX) XMAX = A(I)
         IF (A(I) .GT. 3.0D0) XMAX = F(A(I))
   10 CONTINUE
      PRINT *, XMAX
      END
      DOUBLE PRECISION FUNCTION F(X)
      DOUBLE PRECISION X
      F = X
      END
""")
    conds = {b.first_line: dict(b.cost) for b in blocks if b.kind == "branch"}
    assert conds[7] == {"compare.double": 1, "index": 1, "load.double": 1, "select": 1}
    assert conds[8] == {"compare.double": 1, "index": 1, "load.double": 1, "branch": 1}


def _power(k, ktype="integer") -> ir.Assign:
    return ir.Assign(ir.Var("Y", type="double"),
                     ir.BinOp("pow", ir.Var("X", type="double"), ir.Const(k, type=ktype), type="double"),
                     loc=ir.Loc("t.f", 1))


@pytest.mark.parametrize("k, expected", [
    # X**k with an INTEGER literal is the compiler's chain of multiplications (binary method, by hand)
    (2, {"mul.double": 1}), (3, {"mul.double": 2}), (4, {"mul.double": 2}), (5, {"mul.double": 3}),
    (8, {"mul.double": 3}), (1, {}), (-2, {"mul.double": 1, "div.double": 1}),
])
def test_integer_literal_power_is_multiplications(k, expected):
    cost = statement_cost(_power(k), None).ops
    assert {key: n for key, n in cost.items() if key != "assign.double"} == expected


@pytest.mark.parametrize("stmt", [_power(2.0, "double"), _power(0), _power(1000)])
def test_other_powers_stay_a_pow(stmt):
    # a REAL exponent (C's pow(x, 2.0) at -O0 calls libm), X**0 and a huge exponent are one pow
    assert statement_cost(stmt, None).ops["pow.double"] == 1
