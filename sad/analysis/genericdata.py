"""Generic data: how tests of floating-point data go for data in general, where no value is known.

Data flow: the value backtracer (sad.analysis.values) asks here when a comparison has a floating-point side
it cannot trace (data the run computes: an array element, a norm, a function's result), and the call
expander (sad.analysis.calls) when a callee's test on a floating formal argument meets a call that passes
such data. The side stands for a `datum`, a symbol per distinct expression, and the comparison is decided
by the model below, or left undecided (None: the branch keeps its named probability).

The model (documented in the README, switched off by --no-generic-data; a value the user binds for the
branch's probability, e.g. from `sad profile --no-generic-data`, wins):
- generic data equals no other value: `X.EQ.ZERO`, `DA.EQ.ONE`, `A(I,J).NE.ZERO`, `X.EQ.Y` are false
  (true for .NE.), a value equals itself (`X.NE.X`, the NaN test, is false);
- generic data has an ordinary magnitude: strictly between RADIX**(MINEXPONENT/4) and RADIX**(MAXEXPONENT/4)
  of its kind (2**-255 .. 2**256 in double precision, 2**-31 .. 2**32 in single), a quarter of the exponent
  range either side, so that the underflow and overflow thresholds of scaling code (DLAMCH('S'), SAFMIN,
  SMLNUM = SAFMIN/EPS, SQRT(SAFMIN)/EPS and their inverses) lie beyond it, while EPS, 1/EPS and ordinary
  tolerances do not: `ABS(BETA).LT.SAFMIN` is false, `ANRM.GT.BIGNUM` false;
- its sign is unknown, but ABS and SQRT of data are not negative: `X.LT.SAFMIN` stays undecided (X may be
  negative), `ABS(X).GT.ZERO` is true; so is a variable whose every assignment is ABS or SQRT of data
  (DNRM2's `AX = ABS(X(IX))`, then `AX < TSML` with TSML = 2**-511: false);
- an order between two data values (a pivot or maximum search: `ABS(A(I,J)).GT.AMAX`) and any integer computed
  from data (IDAMAX's pivot index) are not decided: they stay probabilities.
A datum whose value is known (a literal passed by the caller, `CALL DSCAL(N, ONE, ...)`) is no datum: it is
evaluated exactly, before this model is asked.
"""
from __future__ import annotations

from functools import lru_cache

import sympy

from sad import ir
from sad.analysis.freesymbols import free_symbols

# (RADIX, MINEXPONENT, MAXEXPONENT) of gfortran's REAL and DOUBLE PRECISION (IEEE 754 binary32, binary64)
_KINDS = {"real": (2, -125, 128), "double": (2, -1021, 1024), "complex": (2, -125, 128)}
_PREFIX = "datum:"

RELATIONS = {"eq": sympy.Eq, "ne": sympy.Ne, "lt": sympy.Lt, "le": sympy.Le, "gt": sympy.Gt, "ge": sympy.Ge}


def floating(kind: str | None) -> bool:
    """Whether an IR type is a floating-point one (the only data this model decides on)."""
    return kind in _KINDS


def datum(node: ir.Expr, where: str = "") -> sympy.Expr:
    """The symbol of an untraced floating-point expression: one per distinct expression (X and X are the
    same datum; X and Y are not; `where` tells apart the same expression of a callee at different calls),
    ABS and SQRT of data as non-negative data."""
    if isinstance(node, ir.FuncCall) and nonnegative(node):
        return sympy.Abs(datum(node.args[0], where))
    return sympy.Symbol(_PREFIX + where + repr(node), real=True)


def nonnegative(node: ir.Expr | None) -> bool:
    """Whether an expression is ABS or SQRT of something: never negative, whatever its argument."""
    return isinstance(node, ir.FuncCall) and node.intrinsic and len(node.args) == 1 \
        and node.name in ("ABS", "DABS", "SQRT", "DSQRT")


def formal_datum(name: str) -> sympy.Symbol:
    """The datum a floating formal argument stands for at a call that passes data."""
    return sympy.Symbol(_PREFIX + name, real=True)


def is_datum(symbol: sympy.Basic) -> bool:
    """Whether a symbol stands for generic data."""
    return isinstance(symbol, sympy.Symbol) and symbol.name.startswith(_PREFIX)


def _has_datum(expr: sympy.Basic) -> bool:
    # the memoized free symbols: DLAED6's sides are rational functions of 12 000 characters, asked again
    # for every test that follows one of its values
    return any(is_datum(s) for s in free_symbols(expr))


def _band(kind: str) -> tuple[sympy.Expr, sympy.Expr]:
    """The ordinary magnitudes of a kind: (smallest, largest)."""
    radix, emin, emax = _KINDS.get(kind, _KINDS["double"])
    return sympy.Integer(radix) ** sympy.Rational(emin, 4), sympy.Integer(radix) ** sympy.Rational(emax, 4)


class Either(sympy.Function):
    """Data, or one of the constants after it that the program may have left in the same place (a caller's
    `SCALE = ZERO` before a loop of calls that pass SCALE on): a comparison is decided only where each
    gives the same answer."""


@lru_cache(maxsize=8192)
def decide(op: str, left: sympy.Expr, right: sympy.Expr, kind: str) -> sympy.Basic | None:
    """A comparison `left op right` (op: eq ne lt le gt ge) with data among its sides, decided for generic
    data of `kind`: sympy.true or sympy.false, or a condition on known values where a side is a choice
    (Piecewise) between data and known values (what DLARFG leaves in TAU: ZERO where N <= 1, else data);
    None where the model leaves it open.

    A function of its arguments alone (expressions are immutable), remembered: the same comparison comes
    back for every arm and every path that reaches it, and its sides may be large (DLAED6's secular
    equation: an `expand` of 12 000 characters each time)."""
    left, right = sympy.sympify(left), sympy.sympify(right)
    if _undefined(left) or _undefined(right):
        return None
    either = next(iter(left.atoms(Either) | right.atoms(Either)), None)
    if either is not None:
        answers = {decide(op, left.xreplace({either: choice}), right.xreplace({either: choice}), kind)
                   if _has_datum(choice) else _compared(op, left.xreplace({either: choice}),
                                                        right.xreplace({either: choice}), kind)
                   for choice in either.args}
        return answers.pop() if len(answers) == 1 else None
    for side, other, flipped in ((left, right, False), (right, left, True)):
        if isinstance(side, sympy.Piecewise) and _has_datum(side):
            return _decide_pieces(op, side, other, flipped, kind)
    if not (_has_datum(left) or _has_datum(right)):
        return None
    if op in ("eq", "ne"):
        same = sympy.expand(left - right) == 0
        return sympy.true if same == (op == "eq") else sympy.false
    # an order: data against a number beyond the ordinary magnitudes
    if _has_datum(left) and _has_datum(right):
        return None
    flip = {"lt": "gt", "le": "ge", "gt": "lt", "ge": "le"}
    data, number, op = (left, right, op) if _has_datum(left) else (right, left, flip[op])
    if not number.is_Number and not (number.is_number and number.is_real):
        return None
    if not _ordinary(data):
        return None
    small, big = _band(kind)
    above = op in ("gt", "ge")  # is data > number (or >=) asked?
    if abs(number) >= big:   # |data| < big: data is below a large positive number, above a large negative one
        return sympy.true if above == (number < 0) else sympy.false
    if abs(number) <= small:  # |data| > small and data != 0: on the number's side as data's sign says
        if not data.is_nonnegative:
            return None
        return sympy.true if above else sympy.false
    return None


def _undefined(value: sympy.Basic) -> bool:
    """Whether a side has no value to compare: a constant the program may have stored, put in for the data,
    divides by zero (DBDSQR's callee tests on a quotient of what may be ZERO: 1/0 is zoo, 0/0 nan, and
    sympy refuses to order either)."""
    return value.has(sympy.nan, sympy.zoo)


def plain_datum(value: sympy.Basic | None) -> bool:
    """Whether a value is one datum or its absolute value (what an untraced variable or element stands for)."""
    if isinstance(value, sympy.Abs):
        value = value.args[0]
    return value is not None and is_datum(value)


def with_constants(value: sympy.Expr, constants: frozenset) -> sympy.Expr:
    """A side's data (its datums) as Either that datum or one of `constants`, the values the program may
    have stored where the side reads (sad.analysis.storedconstants): ABS(TAU) with TAU = ZERO stored is
    ABS(Either(TAU, 0))."""
    if not constants:
        return value
    return value.xreplace({d: Either(d, *sorted(constants)) for d in value.free_symbols if is_datum(d)})


def _compared(op: str, left: sympy.Expr, right: sympy.Expr, kind: str) -> sympy.Basic | None:
    """`decide` where data are among the sides, the relation's value where both are numbers (None where one
    is undefined)."""
    if _undefined(left) or _undefined(right):
        return None
    if _has_datum(left) or _has_datum(right):
        return decide(op, left, right, kind)
    value = RELATIONS[op](left, right)
    return value if value in (sympy.true, sympy.false) else None


def decide_jointly(op: str, relations: list[tuple[str, sympy.Expr, sympy.Expr, str]]) -> sympy.Basic | None:
    """Two comparisons joined by `op` (and, or), each of one datum (or its absolute value) with a number,
    the same datum in both: decided where the values generic data take (|X| within the ordinary
    magnitudes, X not 0) all satisfy the join (true) or none does (false). `X > 0 .AND. X < 2**-969` is false:
    a positive datum is above 2**-255. None where the join depends on the datum's value or sign."""
    relations = [(rel_op, sympy.sympify(left), sympy.sympify(right), kind) for rel_op, left, right, kind in relations]
    data = {s for _, left, right, _ in relations for s in (left.free_symbols | right.free_symbols) if is_datum(s)}
    if len(data) != 1:
        return None
    datum_symbol = data.pop()
    t = sympy.Symbol("t", real=True)
    small, big = _band(relations[0][3])
    values = sympy.Union(sympy.Interval.open(-big, -small), sympy.Interval.open(small, big))
    joined = []
    for rel_op, left, right, _kind in relations:
        left, right = left.xreplace({datum_symbol: t}), right.xreplace({datum_symbol: t})
        if (left.free_symbols | right.free_symbols) - {t} or not (left.has(t) or right.has(t)):
            return None  # a side with other unknowns, or no datum in this comparison
        joined.append(RELATIONS[rel_op](left, right))
    condition = sympy.And(*joined) if op == "and" else sympy.Or(*joined)
    if condition in (sympy.true, sympy.false):
        return condition
    try:
        held = condition.as_set().intersect(values)
    except (NotImplementedError, TypeError, ValueError):
        return None
    if held is sympy.S.EmptySet:
        return sympy.false
    if values.is_subset(held):
        return sympy.true
    return None


def _ordinary(expr: sympy.Basic) -> bool:
    """Data of ordinary magnitude: a datum, its absolute value, the largest or least of such."""
    if is_datum(expr):
        return True
    if isinstance(expr, (sympy.Abs, sympy.Max, sympy.Min)):
        return all(_ordinary(a) for a in expr.args)
    return False


def _decide_pieces(op: str, choice: sympy.Piecewise, other: sympy.Expr, flipped: bool, kind: str
                   ) -> sympy.Basic | None:
    """A comparison with a choice of values: where each piece's condition holds (and no earlier one's), the
    comparison of that piece, decided for generic data or evaluated on known values."""
    result, none_before = [], sympy.true
    for value, cond in choice.args:
        left, right = (other, value) if flipped else (value, other)
        if _has_datum(value) or _has_datum(other):
            decided = decide(op, left, right, kind)
        else:
            decided = RELATIONS[op](left, right)
        if decided is None:
            return None
        result.append(sympy.And(none_before, cond, decided))
        none_before = sympy.And(none_before, sympy.Not(cond))
    return sympy.Or(*result)


def _operator(rel: sympy.Basic) -> str | None:
    return {sympy.Eq: "eq", sympy.Ne: "ne", sympy.StrictLessThan: "lt", sympy.LessThan: "le",
            sympy.StrictGreaterThan: "gt", sympy.GreaterThan: "ge"}.get(type(rel))


def decide_relations(expr: sympy.Basic, data: dict[sympy.Symbol, str], values: dict | None = None
                     ) -> dict[sympy.Basic, sympy.Basic]:
    """The relations of `expr` on the floating formals in `data` (symbol → kind, bound to data at a call)
    that generic data decide, each with its value (the formals as they appear in the callee's counts).
    `values`: formals whose data the call knows in part (a choice of data and known values)."""
    marks = data_marks(data, values)
    found = {}
    for rel in expr.atoms(sympy.core.relational.Relational):
        value = decide_relation(rel, data, marks)
        if value is not None:
            found[rel] = value
    return found


def data_marks(data: dict[sympy.Symbol, str], values: dict | None = None) -> dict[sympy.Symbol, sympy.Expr]:
    """What each floating formal in `data` stands for at the call: data, or the choice `values` gives it."""
    return {s: (values or {}).get(s, formal_datum(s.name)) for s in data}


def decide_relation(rel: sympy.Basic, data: dict[sympy.Symbol, str], marks: dict[sympy.Symbol, sympy.Expr]
                    ) -> sympy.Basic | None:
    """One relation of a callee's on its formals, with the floating ones in `data` standing for `marks`
    (data_marks), decided for generic data; None where it is on none of them or stays open."""
    symbols = rel.free_symbols & data.keys()
    op = _operator(rel)
    if not symbols or op is None:
        return None
    kind = data[sorted(symbols, key=lambda s: s.name)[0]]
    bound = rel.xreplace(marks)
    if bound in (sympy.true, sympy.false):
        return bound  # sympy decided it once the marks went in (AMOS's ZUOIK: an internal error)
    if not isinstance(bound, sympy.core.relational.Relational):
        return None
    return decide(op, bound.lhs, bound.rhs, kind)


def decide_formals(cond: sympy.Basic, data: dict[sympy.Symbol, str], values: dict | None = None
                   ) -> tuple[sympy.Basic, list[tuple[sympy.Basic, bool | None]]] | None:
    """A callee's condition on its formal arguments (sympy), with the floating formals in `data` (symbol →
    kind) bound to data at a call (`values`: those it knows in part): its relations on those formals decided
    for generic data. The condition that remains (true, false, or one on the other formals, which the call
    binds) and the relations decided with their values (None: a condition), or None where a relation on
    data stays open."""
    if not data:
        return None
    decided = {}
    for rel in cond.atoms(sympy.core.relational.Relational):
        if rel.free_symbols & data.keys():
            found = decide_relations(rel, data, values)
            if rel not in found:
                return None
            decided[rel] = found[rel]
    result = cond.xreplace(decided)
    if result.free_symbols & data.keys() or _has_datum(result):
        return None
    return result, [(rel, None if value not in (sympy.true, sympy.false) else value is sympy.true)
                    for rel, value in decided.items()]


_OPERATORS = {"eq": ".EQ.", "ne": ".NE.", "lt": ".LT.", "le": ".LE.", "gt": ".GT.", "ge": ".GE.", "add": "+",
              "sub": "-", "mul": "*", "div": "/", "pow": "**", "and": ".AND.", "or": ".OR."}
_C_OPERATORS = {"eq": " == ", "ne": " != ", "lt": " < ", "le": " <= ", "gt": " > ", "ge": " >= ", "add": " + ",
                "sub": " - ", "mul": " * ", "div": " / ", "and": " && ", "or": " || "}


def shown(node: ir.Expr, language: str = "fortran") -> str:
    """An expression as the source's language writes it, for the notes (`ABS(BETA).LT.SAFMIN`,
    `rsq == 0.0`)."""
    c = language == "c"
    operators = _C_OPERATORS if c else _OPERATORS
    if isinstance(node, ir.Var):
        return node.name
    if isinstance(node, ir.Const):
        return repr(node.value) if isinstance(node.value, str) else str(node.value)
    if isinstance(node, ir.ArrayRef) and c:
        return node.name + "".join(f"[{shown(a, language)}]" for a in node.indices)
    if isinstance(node, (ir.ArrayRef, ir.FuncCall)):
        args = node.indices if isinstance(node, ir.ArrayRef) else node.args
        return f"{node.name}({', '.join(shown(a, language) for a in args) if c else ','.join(shown(a) for a in args)})"
    if isinstance(node, ir.BinOp) and node.op in operators:
        text = f"{shown(node.left, language)}{operators[node.op]}{shown(node.right, language)}"
        return text if node.op in RELATIONS else f"({text})"
    if isinstance(node, ir.UnOp) and node.op == "neg":
        return f"-{shown(node.operand, language)}"
    if isinstance(node, ir.Cast):
        return shown(node.operand, language)
    return "..."
