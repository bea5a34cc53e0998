"""The control-flow pass on hand-built IR: GOTO loops become named counts, unstructured regions are solved
as expected visit counts of a Markov chain, and the results equal hand derivations."""
from __future__ import annotations

import sympy

from sad import ir
from sad.analysis.description import line_counts
from sad.analysis.pipeline import analyze_program

F = "t.f"


def loc(n: int) -> ir.Loc:
    return ir.Loc(F, n)


def ivar(name: str) -> ir.Var:
    return ir.Var(name, type="integer")


def const(v: int) -> ir.Const:
    return ir.Const(v, type="integer")


def cond(op: str, a, b) -> ir.BinOp:
    return ir.BinOp(op, a, b, type="logical")


def program(body: list[ir.Stmt]) -> dict[int, sympy.Expr]:
    proc = ir.Procedure("MAIN", "program", [], body, loc(1), "fortran")
    analysis = analyze_program(ir.Program([proc]))
    return {line: count for (_, line), count in line_counts(analysis.counts).items()}, analysis


def sym(name: str) -> sympy.Symbol:
    return sympy.Symbol(name, nonnegative=True)


def test_while_form_goto_loop_gets_one_named_count():
    # 22 IF (J .NE. 0) THEN ; J = J - 1 ; GOTO 22 ; ENDIF
    body = [
        ir.IO("read", targets=[ivar("J")], loc=loc(2)),
        ir.If([ir.IfArm(cond("ne", ivar("J"), const(0)), [
            ir.Assign(ivar("J"), ir.BinOp("sub", ivar("J"), const(1), type="integer"), loc=loc(4)),
            ir.Goto("22", loc=loc(5))])], None, loc=loc(3), label="22"),
        ir.Stop(loc=loc(7)),
    ]
    counts, analysis = program(body)
    x = sym("X_MAIN_L22")
    assert counts[3] == x + 1          # the test runs once more than the body
    assert counts[4] == x and counts[5] == x
    assert counts[7] == 1              # after the loop: once per entry
    assert analysis.table.get("X_MAIN_L22").kind == "loop_count"
    assert analysis.table.get("P_MAIN_L22") is None  # the decision's probability became X


def test_repeat_until_goto_loop_counts_back_edges():
    # 10 CONTINUE ; K = K + 1 ; IF (K .LT. N) GOTO 10
    body = [
        ir.Continue(loc=loc(2), label="10"),
        ir.Assign(ivar("K"), ir.BinOp("add", ivar("K"), const(1), type="integer"), loc=loc(3)),
        ir.If([ir.IfArm(cond("lt", ivar("K"), ivar("N")), [ir.Goto("10", loc=loc(4))])], None, logical=True,
              loc=loc(4)),
        ir.Stop(loc=loc(5)),
    ]
    counts, _ = program(body)
    x = sym("X_MAIN_L10")
    assert counts[2] == x + 1 and counts[3] == x + 1 and counts[5] == 1


def test_arithmetic_if_cycle_without_loop_structure_is_a_markov_chain():
    # 10 IF (K) 20, 30, 30      20 K = K + 1 ; GOTO 30      30 IF (K .GT. 5) GOTO 40 ; GOTO 10     40 STOP
    body = [
        ir.ArithmeticIf(ivar("K"), "20", "30", "30", loc=loc(2), label="10"),
        ir.Assign(ivar("K"), ir.BinOp("add", ivar("K"), const(1), type="integer"), loc=loc(3), label="20"),
        ir.Goto("30", loc=loc(4)),
        ir.If([ir.IfArm(cond("gt", ivar("K"), const(5)), [ir.Goto("40", loc=loc(5))])], None, logical=True,
              loc=loc(5), label="30"),
        ir.Goto("10", loc=loc(6)),
        ir.Stop(loc=loc(7), label="40"),
    ]
    counts, _ = program(body)
    # Node 30 decides the loop: leaving with q = 1 - p30 per visit, the header (10) runs 1 + X times,
    # the arithmetic IF sends a fraction a of its visits to 20.
    x, a = sym("X_MAIN_L10"), sym("P_MAIN_L10")
    assert sympy.simplify(counts[2] - (x + 1)) == 0
    assert sympy.simplify(counts[3] - a * (x + 1)) == 0
    assert sympy.simplify(counts[5] - (x + 1)) == 0
    assert counts[7] == 1


def test_computed_goto_arms_share_the_rest_and_fall_through():
    # GOTO (10, 20, 10), K  (out of range falls through) ; N = 1 ; 10 N = 2 ; 20 STOP
    body = [
        ir.ComputedGoto(["10", "20", "10"], ivar("K"), loc=loc(2)),
        ir.Assign(ivar("N"), const(1), loc=loc(3)),
        ir.Assign(ivar("N"), const(2), loc=loc(4), label="10"),
        ir.Stop(loc=loc(5), label="20"),
    ]
    counts, analysis = program(body)
    p1, p2 = sym("P_MAIN_CGOTO1_1"), sym("P_MAIN_CGOTO1_2")
    assert counts[3] == 1 - p1 - p2                 # fell through
    assert sympy.expand(counts[4] - (1 - p2)) == 0   # via label 10 twice listed, or after line 3
    assert counts[5] == 1


def test_index_dependent_bounds_and_constant_conditions():
    # PARAMETER (N=4); DO I = 1, N; DO J = 1, I; IF (N .GT. 2) X = X + 1  → 10 times, no parameter
    decls = {"N": ir.Variable("N", "integer", storage="parameter", value=const(4))}
    body = [
        ir.Do("I", const(1), ivar("N"), None, [
            ir.Do("J", const(1), ivar("I"), None, [
                ir.If([ir.IfArm(cond("gt", ivar("N"), const(2)), [
                    ir.Assign(ir.Var("X", type="real"), ir.Const(1.0, type="real"), loc=loc(4))])], None,
                      logical=True, loc=loc(4))], loc=loc(3))], loc=loc(2)),
    ]
    proc = ir.Procedure("MAIN", "program", [], body, loc(1), "fortran", variables=decls)
    analysis = analyze_program(ir.Program([proc]))
    counts = {line: c for (_, line), c in line_counts(analysis.counts).items()}
    assert counts[4] == 10 and counts[3] == 4 and counts[2] == 1
    assert [p.name for p in analysis.table if p.cls == "unresolved"] == []


def test_tidy_shortcuts_give_what_cancel_and_factor_give():
    from sad.analysis.cfg import tidy
    a, n = sympy.Symbol("AXPY.A"), sympy.Symbol("AXPY.N", integer=True)
    zero, empty = (sympy.Piecewise((1, sympy.Eq(a, 0)), (0, True)), sympy.Piecewise((1, n <= 0), (0, True)))
    # AXPY's fall-through past `IF (N .LE. 0) RETURN` and `IF (A .EQ. 0) RETURN`, plus both RETURNs: 1
    flows = (1 - zero) * (1 - empty) + (1 - empty) * zero + empty
    left = (1 - zero) * (1 - empty)
    for expr in (flows, left, 1 - sympy.Symbol("P_X_IF1"), 1 - sympy.Symbol("a"), 2 - 2 * sympy.Symbol("P")):
        assert tidy(expr) == sympy.factor(sympy.cancel(expr))
        assert str(tidy(expr)) == str(sympy.factor(sympy.cancel(expr)))
    assert tidy(flows) == 1


def test_tidy_leaves_monomials_and_one_plus_a_product_as_cancel_and_factor_do():
    import random

    from sad.analysis.cfg import _monomial, _one_plus_product, tidy
    symbols = [*sympy.symbols("P_a P_b X_c X_d N"), sympy.Symbol("n", integer=True),
               sympy.Symbol("p", positive=True), sympy.Symbol("q", nonnegative=True)]
    rng = random.Random(2)
    shortcut = 0
    for _ in range(150):
        picked = rng.sample(symbols, rng.randint(1, 4))
        product = sympy.Mul(*picked)
        powers = sympy.Mul(*[s ** rng.choice([1, 2, 3]) for s in picked])
        coeff = rng.choice([1, -1, 2, -13, sympy.Rational(3, 2)])
        for expr in (coeff * powers, 1 - product, 1 + product, 2 - product, 1 - 2 * product, 1 - powers):
            tidy.cache_clear()
            shortcut += _monomial(expr) or _one_plus_product(expr)
            assert sympy.srepr(tidy(expr)) == sympy.srepr(sympy.factor(sympy.cancel(expr))), expr
    assert shortcut > 300
    assert not _one_plus_product(1 - sympy.Symbol("x") ** 2)   # (1 - x)(1 + x): factor changes it
