"""sad.common.exprparse: the restricted expression parser used for machine files, params files and -D values."""
from pathlib import Path

import pytest
import sympy

from sad.common.exprparse import MAX_LENGTH, ExprError, parse_expr

NPART, P, x, y = sympy.symbols("NPART P x y")


def test_params_value_is_exact():
    expr = parse_expr("0.93 + 12/NPART")
    assert expr == sympy.Rational(93, 100) + 12 / NPART
    assert expr.subs(NPART, 4) == sympy.Rational(393, 100)


def test_max_log2():
    expr = parse_expr("max(1, log2(P))")
    assert expr.free_symbols == {P}
    assert sympy.simplify(expr.subs(P, 8)) == 3   # log(8)/log(2) stays unevaluated until simplified
    assert float(expr.subs(P, 1000)) == pytest.approx(9.965784284662087)
    assert expr.subs(P, 1) == 1


def test_dotted_name():
    expr = parse_expr("MATMUL.N*2")
    (sym,) = expr.free_symbols
    assert sym.name == "MATMUL.N"
    assert expr == 2 * sympy.Symbol("MATMUL.N")
    assert parse_expr("MATMUL.N + LOOP.K.M - MATMUL.N") == sympy.Symbol("LOOP.K.M")


@pytest.mark.parametrize("text, value", [
    ("0.5", sympy.Rational(1, 2)),
    ("0.1 + 0.2", sympy.Rational(3, 10)),
    ("1e-3", sympy.Rational(1, 1000)),
    ("1.5e3", sympy.Integer(1500)),
    ("2**10", sympy.Integer(1024)),
    ("7 // 2", sympy.Integer(3)),
    ("7 % 3", sympy.Integer(1)),
    ("-(3 - 5)", sympy.Integer(2)),
    ("+4", sympy.Integer(4)),
    ("ceil(7/2) + floor(7/2)", sympy.Integer(7)),
    ("abs(-3) * sqrt(16)", sympy.Integer(12)),
    ("log10(1000) + log(8, 2)", sympy.Integer(6)),
    ("min(3, 2, 5)", sympy.Integer(2)),
    ("exp(0)", sympy.Integer(1)),
    ("123456789012345678901234567890", sympy.Integer(123456789012345678901234567890)),
])
def test_numbers_are_exact(text, value):
    result = parse_expr(text)
    assert result == value
    assert not result.has(sympy.Float)


def test_sympy_names_are_plain_symbols():
    # sympify would turn these into Euler's number, the imaginary unit, pi and a function
    for name in ("E", "I", "pi", "S", "Symbol"):
        assert parse_expr(name) == sympy.Symbol(name)


def test_names_restriction_and_column():
    assert parse_expr("a + b", names={"a", "b"}) == sympy.Symbol("a") + sympy.Symbol("b")
    with pytest.raises(ExprError) as info:
        parse_expr("a + b", names={"a"})
    assert "unknown name 'b'" in str(info.value)
    assert info.value.col == 4


def test_extra_functions():
    assert parse_expr("twice(x)", functions={"twice": lambda a: 2 * a}) == 2 * x


@pytest.mark.parametrize("text, piece", [
    ("__import__('os')", "__import__"),
    ("().__class__", "__class__"),
    ("a.b()", "a.b"),
    ("lambda: 1", "lambda"),
    ("x.__class__", "__class__"),
    ("(1).real", "attribute"),
    ("'abc'", "str"),
    ("a < b", "comparison"),
    ("a and b", "boolean"),
    ("max(a, key=b)", "keyword"),
    ("x[0]", "subscript"),
    ("a if b else c", "conditional"),
    ("[1, 2]", "list"),
    ("open('f')", "open"),
    ("eval('1')", "eval"),
    ("getattr(x, 'y')", "getattr"),
    ("sqrt", "sqrt"),
    ("max()", "max"),
    ("1/0", "division by zero"),
    ("9**9**9", "exponent too large"),
    ("1e999999", "out of range"),
    ("True", "bool"),
    ("3j", "complex"),
    ("a +", "syntax error"),
    ("", "empty"),
    ("a\x00b", "character"),
    ("x := 1", "syntax error"),
])
def test_rejected(text, piece):
    with pytest.raises(ExprError) as info:
        parse_expr(text)
    assert piece in str(info.value)


def test_rejected_call_does_not_run(tmp_path: Path):
    target = tmp_path / "pwned"
    with pytest.raises(ExprError):
        parse_expr(f"__import__('os').system('touch {target}')")
    assert not target.exists()


def test_too_long():
    with pytest.raises(ExprError, match="longer than"):
        parse_expr("1+" * MAX_LENGTH + "1")


def test_column_points_at_offending_piece():
    with pytest.raises(ExprError) as info:
        parse_expr("1 + foo(2)")
    assert info.value.col == 4
    with pytest.raises(ExprError) as info:
        parse_expr("LONG.DOTTED.NAME + y.__x__")
    assert info.value.col == 19
