"""Running a function on known arguments: the result of ILAENV('DGETRF', ...), DLAMCH('S'), LSAME, IPARMQ,
where every argument is a known scalar.

Data flow: the value backtracer (sad.analysis.values) asks here for a user function's result at a reference
whose actual arguments are all known numbers, logicals or character strings, when the result is no single
formula of the arguments. The function's IR is executed here, statement by statement, on exact values
(integers, rationals for REAL and DOUBLE PRECISION, Python floats only from LOG, LOG10, EXP and SQRT, strings for
CHARACTER with Fortran's blank padding, substrings, ICHAR and CHAR); the functions it references are run
the same way. The result is exact where the run finishes; where it meets something it does not follow (an
array, an I/O statement, a subroutine call, a value never set, a division by zero, more than STEPS
statements) it stops and says why (`Unevaluated`), and the backtracer keeps the reference unresolved.

An argument may also be UNKNOWN (a caller's formal, ILAENV(1, 'DORMQR', SIDE // TRANS, M, N, K, -1) in
library mode): arithmetic on it gives UNKNOWN, and the run stops where a decision, a loop bound, a subscript
or a substring needs it. A run that finishes took every decision independently of the unknown arguments, so
its trace is exact for all their values, and so is its result where that is not UNKNOWN (ILAENV's block size
for a routine's name does not depend on the sizes).
"""
from __future__ import annotations

import math
from collections import Counter
from fractions import Fraction
from typing import Any

import sympy

from sad import ir
from sad.ir.languages import resolve_name, result_variable

STEPS = 100_000  # statements one evaluation may run (ILAENV's upper-casing loop and IF chains: a few hundred)


class _Unknown:
    """The value of an argument the run is not given (see the module docstring)."""

    def __repr__(self) -> str:
        return "UNKNOWN"


UNKNOWN = _Unknown()
Value = int | Fraction | float | bool | str | _Unknown

# (RADIX, DIGITS, MINEXPONENT, MAXEXPONENT) of gfortran's REAL and DOUBLE PRECISION (IEEE 754)
_MODEL = {"real": (2, 24, -125, 128), "double": (2, 53, -1021, 1024)}


class Unevaluated(Exception):
    """The run met something it does not follow: the reason."""


class _Jump(Exception):
    def __init__(self, label: str) -> None:
        super().__init__(label)
        self.label = label


class _Returned(Exception):
    pass


class Trace:
    """What a run did at its decisions: how often each IF and computed GOTO ran, each IF arm was taken, each
    computed GOTO went to each label (by statement identity), and the routines it ran."""

    def __init__(self) -> None:
        self.executed: Counter[int] = Counter()
        self.taken: Counter[int] = Counter()
        self.jumps: Counter[tuple[int, str]] = Counter()
        self.routines: set[str] = set()


class Evaluator:
    """Runs the functions of one program on known arguments (recording a Trace where given)."""

    def __init__(self, procs: dict[str, ir.Procedure], trace: Trace | None = None) -> None:
        self.procs = procs
        self.steps = 0
        self.trace = trace

    def call(self, name: str, args: list[Value]) -> Value:
        """The result of function `name` on `args` (by position); Unevaluated where the run stops."""
        proc = self.procs.get(resolve_name(name))
        if proc is None or proc.kind != "function":
            raise Unevaluated(f"{name} is not a function of the analyzed files")
        if len(args) != len(proc.formals):
            raise Unevaluated(f"{name} takes {len(proc.formals)} arguments, given {len(args)}")
        if self.trace is not None:
            self.trace.routines.add(resolve_name(proc.name))
        frame: dict[str, Value] = {}
        for formal, value in zip(proc.formals, args):
            decl = proc.variables.get(formal)
            if decl is not None and decl.dims:
                raise Unevaluated(f"{name}'s argument {formal} is an array")
            frame[formal] = _fit(value, decl)
        _Run(self, proc, frame).body()
        result = frame.get(result_variable(proc.name, proc.variables))
        if result is None:
            raise Unevaluated(f"{name} returns no value")
        return result


class _Run:
    """One activation of a function."""

    def __init__(self, evaluator: Evaluator, proc: ir.Procedure, frame: dict[str, Value]) -> None:
        self.ev = evaluator
        self.proc = proc
        self.frame = frame

    def body(self) -> None:
        try:
            self.stmts(self.proc.body)
        except _Returned:
            pass
        except _Jump as jump:
            raise Unevaluated(f"jump to label {jump.label} not followed") from None

    def stmts(self, stmts: list[ir.Stmt]) -> None:
        labels = {s.label: k for k, s in enumerate(stmts) if s.label is not None}
        k = 0
        while k < len(stmts):
            try:
                self.stmt(stmts[k])
                k += 1
            except _Jump as jump:
                if jump.label not in labels:
                    raise
                k = labels[jump.label]

    def stmt(self, stmt: ir.Stmt) -> None:
        self.ev.steps += 1
        if self.ev.steps > STEPS:
            raise Unevaluated(f"more than {STEPS} statements")
        if isinstance(stmt, ir.Assign):
            self.assign(stmt)
        elif isinstance(stmt, ir.If):
            trace = self.ev.trace
            if trace is not None:
                trace.executed[id(stmt)] += 1
            for arm in stmt.arms:
                if self.truth(arm.cond):
                    if trace is not None:
                        trace.taken[id(arm)] += 1
                    self.stmts(arm.body)
                    return
            if stmt.orelse is not None:
                self.stmts(stmt.orelse)
        elif isinstance(stmt, ir.Do):
            self.do(stmt)
        elif isinstance(stmt, ir.Goto):
            raise _Jump(stmt.target)
        elif isinstance(stmt, ir.ComputedGoto) and stmt.cases is None:
            k = self.expr(stmt.selector)
            if k is UNKNOWN:
                raise Unevaluated("a computed GOTO on an argument not known")
            label = stmt.targets[k - 1] if isinstance(k, int) and 1 <= k <= len(stmt.targets) else stmt.default
            if self.ev.trace is not None:
                self.ev.trace.executed[id(stmt)] += 1
                self.ev.trace.jumps[(id(stmt), label or "")] += 1
            if label is not None:
                raise _Jump(label)
        elif isinstance(stmt, ir.Return):
            if stmt.value is not None or stmt.alt is not None:
                raise Unevaluated("RETURN with a value")
            raise _Returned
        elif not isinstance(stmt, ir.Continue):
            raise Unevaluated(f"{type(stmt).__name__} statement at line {stmt.loc.line if stmt.loc else '?'}")

    def do(self, stmt: ir.Do) -> None:
        lo, hi = _integer(self.expr(stmt.lo)), _integer(self.expr(stmt.hi))
        step = _integer(self.expr(stmt.step)) if stmt.step is not None else 1
        if step == 0:
            raise Unevaluated("a DO loop's step is zero")
        trips = max(0, (hi - lo + step) // step)
        i = lo
        for _ in range(trips):
            self.frame[stmt.index] = i
            self.stmts(stmt.body)
            i += step
        self.frame[stmt.index] = i

    def assign(self, stmt: ir.Assign) -> None:
        target, value = stmt.target, self.expr(stmt.value)
        if isinstance(target, ir.Var):
            self.frame[target.name] = _fit(value, self.proc.variables.get(target.name))
        elif isinstance(target, ir.Substring) and isinstance(target.base, ir.Var) and isinstance(value, str):
            name = target.base.name
            decl = self.proc.variables.get(name)
            text = self.frame.get(name)
            if not isinstance(text, str):
                raise Unevaluated(f"substring of {name} before {name} is set")
            lo = self.expr(target.lo) if target.lo is not None else 1
            hi = self.expr(target.hi) if target.hi is not None else len(text)
            if not (isinstance(lo, int) and isinstance(hi, int)):
                raise Unevaluated("a substring's bounds are not integers")
            text = text.ljust(hi)
            piece = value[:hi - lo + 1].ljust(hi - lo + 1)
            self.frame[name] = _fit(text[:lo - 1] + piece + text[hi:], decl)
        else:
            raise Unevaluated("an assignment to an array element")

    def truth(self, node: ir.Expr) -> bool:
        value = self.expr(node)
        if value is UNKNOWN:
            raise Unevaluated("a condition on an argument not known")
        if not isinstance(value, bool):
            raise Unevaluated("a condition that is no LOGICAL value")
        return value

    # ------------------------------------------------------------------ expressions
    def expr(self, node: ir.Expr) -> Value:
        if isinstance(node, ir.Const):
            return _constant(node)
        if isinstance(node, ir.Var):
            return self.var(node.name)
        if isinstance(node, ir.Cast):
            return _convert(self.expr(node.operand), node.type)
        if isinstance(node, ir.UnOp):
            value = self.expr(node.operand)
            if isinstance(value, _Unknown):
                return UNKNOWN
            if node.op == "neg" and not isinstance(value, (bool, str)):
                return -value
            if node.op == "not" and isinstance(value, bool):
                return not value
            raise Unevaluated(f"operator {node.op}")
        if isinstance(node, ir.BinOp):
            return self.binop(node)
        if isinstance(node, ir.Substring):
            text = self.expr(node.base)
            if not isinstance(text, str):
                raise Unevaluated("a substring of no string")
            lo = self.expr(node.lo) if node.lo is not None else 1
            hi = self.expr(node.hi) if node.hi is not None else len(text)
            if not (isinstance(lo, int) and isinstance(hi, int)):
                raise Unevaluated("a substring's bounds are not integers")
            return text.ljust(hi)[lo - 1:hi]
        if isinstance(node, ir.FuncCall):
            args = [self.expr(a) for a in node.args]
            if node.intrinsic:
                if any(a is UNKNOWN for a in args):
                    return UNKNOWN  # intrinsics are pure: their result is as unknown as an argument
                return _intrinsic(node.name, args, [a.type for a in node.args])
            return self.ev.call(node.name, args)
        raise Unevaluated(f"a {type(node).__name__} expression")

    def var(self, name: str) -> Value:
        if name in self.frame:
            return self.frame[name]
        decl = self.proc.variables.get(name)
        if decl is not None and decl.dims is None and decl.storage in ("parameter", "const") and decl.value is not None:
            value = _fit(self.expr(decl.value), decl)
            self.frame[name] = value
            return value
        if decl is not None and decl.dims is None and decl.data:
            return _fit(self.expr(decl.data[0]), decl)
        raise Unevaluated(f"{name} is used before it is set")

    def binop(self, node: ir.BinOp) -> Value:
        op = node.op
        left = self.expr(node.left)
        if op in ("and", "or") and isinstance(left, bool) and left == (op == "or"):
            return left
        right = self.expr(node.right)
        if left is UNKNOWN or right is UNKNOWN:
            return UNKNOWN
        if op in ("and", "or", "eqv", "neqv"):
            if not (isinstance(left, bool) and isinstance(right, bool)):
                raise Unevaluated(f"{op} of no LOGICAL values")
            return {"and": left and right, "or": left or right, "eqv": left == right, "neqv": left != right}[op]
        if op == "concat":
            if not (isinstance(left, str) and isinstance(right, str)):
                raise Unevaluated("// of no strings")
            return left + right
        if isinstance(left, str) or isinstance(right, str):
            if not (isinstance(left, str) and isinstance(right, str)) or op not in _ORDER:
                raise Unevaluated(f"{op} of strings")
            width = max(len(left), len(right))
            return _ORDER[op](left.ljust(width), right.ljust(width))
        if isinstance(left, bool) or isinstance(right, bool):
            raise Unevaluated(f"{op} of LOGICAL values")
        if op in _ORDER:
            return _ORDER[op](left, right)
        return _arithmetic(op, left, right, node.type)


_ORDER = {"eq": lambda a, b: a == b, "ne": lambda a, b: a != b, "lt": lambda a, b: a < b,
          "le": lambda a, b: a <= b, "gt": lambda a, b: a > b, "ge": lambda a, b: a >= b}


def _arithmetic(op: str, a, b, kind: str) -> Value:
    try:
        if op == "add":
            return a + b
        if op == "sub":
            return a - b
        if op == "mul":
            return a * b
        if op == "div":
            if isinstance(a, int) and isinstance(b, int):
                return int(Fraction(a, b))   # truncation toward zero
            return Fraction(a) / Fraction(b) if not isinstance(a, float) and not isinstance(b, float) else a / b
        if op == "pow":
            if isinstance(b, int) and not isinstance(a, float):
                return Fraction(a) ** b if b < 0 or isinstance(a, Fraction) else a ** b
            return float(a) ** float(b)
    except (ZeroDivisionError, OverflowError):
        raise Unevaluated("a division by zero or an overflow") from None
    raise Unevaluated(f"operator {op}")


def _constant(node: ir.Const) -> Value:
    value = node.value
    if isinstance(value, bool):
        return value
    if isinstance(value, int):
        return value
    if isinstance(value, float):
        return Fraction(repr(value))
    if isinstance(value, str):
        return value
    raise Unevaluated("a complex constant")


def _convert(value: Value, kind: str) -> Value:
    if value is UNKNOWN:
        return value
    if kind == "integer" and isinstance(value, (Fraction, float)):
        return int(value)  # truncation toward zero
    if kind in ("real", "double") and isinstance(value, int) and not isinstance(value, bool):
        return Fraction(value)
    return value


def _fit(value: Value, decl: ir.Variable | None) -> Value:
    """A value stored in a variable of its declared type: converted, a string cut or padded to its length."""
    if decl is None or value is UNKNOWN:
        return value
    if decl.type == "character":
        if not isinstance(value, str):
            raise Unevaluated(f"a non-character value stored in {decl.name}")
        return value[:decl.length].ljust(decl.length) if decl.length is not None else value
    return _convert(value, decl.type)


def _model(name: str, kind: str) -> Value:
    if kind not in _MODEL:
        raise Unevaluated(f"{name} of a {kind} value")
    radix, digits, emin, emax = _MODEL[kind]
    base = Fraction(radix)
    values: dict[str, Value] = {
        "EPSILON": base / base ** digits, "TINY": base ** emin / base, "HUGE": (1 - 1 / base ** digits) * base ** emax,
        "RADIX": radix, "DIGITS": digits, "MINEXPONENT": emin, "MAXEXPONENT": emax}
    return values[name]


def _intrinsic(name: str, args: list[Value], kinds: list[str]) -> Value:
    if name in ("EPSILON", "TINY", "HUGE", "RADIX", "DIGITS", "MINEXPONENT", "MAXEXPONENT"):
        return _model(name, kinds[0])
    if name == "ICHAR" and isinstance(args[0], str):
        return ord(args[0][:1] or " ")
    if name == "CHAR" and isinstance(args[0], int):
        return chr(args[0])
    if name == "LEN" and isinstance(args[0], str):
        return len(args[0])
    if name == "LEN_TRIM" and isinstance(args[0], str):
        return len(args[0].rstrip(" "))
    return _numeric(name, [_number(a, name) for a in args])


def _integer(value: Value) -> int:
    if value is UNKNOWN:
        raise Unevaluated("a DO loop's bounds depend on an argument not known")
    if not isinstance(value, int) or isinstance(value, bool):
        raise Unevaluated("a DO loop's bounds are not integers")
    return value


def _number(value: Value, name: str) -> Any:
    if isinstance(value, (str, bool)):
        raise Unevaluated(f"{name} of a string or LOGICAL value")
    return value


def _numeric(name: str, args: list[Any]) -> Value:
    if name in ("MAX", "MAX0", "AMAX1", "DMAX1", "MIN", "MIN0", "AMIN1", "DMIN1"):
        return (max if name.startswith(("MAX", "AMAX", "DMAX")) else min)(args)
    if name in ("ABS", "IABS", "DABS"):
        return abs(args[0])
    if name == "MOD" and len(args) == 2 and args[1] != 0:
        a, b = args
        return a - int(Fraction(a) / Fraction(b)) * b
    if name in ("INT", "IFIX", "IDINT"):
        return int(args[0])
    if name in ("NINT", "IDNINT"):
        x = args[0]
        return int(math.floor(x + Fraction(1, 2))) if x >= 0 else -int(math.floor(-x + Fraction(1, 2)))
    if name in ("REAL", "DBLE", "FLOAT", "SNGL"):
        return args[0] if isinstance(args[0], float) else Fraction(args[0])
    if name in ("SIGN", "ISIGN", "DSIGN") and len(args) == 2:
        return abs(args[0]) if args[1] >= 0 else -abs(args[0])
    if name in ("LOG", "ALOG", "DLOG") and args[0] > 0:
        return math.log(args[0])
    if name in ("SQRT", "DSQRT") and args[0] >= 0:
        return math.sqrt(args[0])
    if name in ("LOG10", "ALOG10", "DLOG10") and args[0] > 0:
        return math.log10(args[0])
    if name in ("EXP", "DEXP"):
        try:
            return math.exp(args[0])
        except OverflowError:
            raise Unevaluated(f"{name} overflows") from None
    raise Unevaluated(f"intrinsic {name}")


def reachable(procs: dict[str, ir.Procedure], proc: ir.Procedure) -> set[str]:
    """The linkage names of a function and of the functions it may reference, transitively: what a run of it
    may run."""
    seen: set[str] = set()
    todo = [proc]
    while todo:
        current = todo.pop()
        key = resolve_name(current.name)
        if key in seen:
            continue
        seen.add(key)
        for stmt in ir.walk_stmts(current.body):
            for expr in ir.own_exprs(stmt):
                for node in ir.walk(expr):
                    if isinstance(node, ir.FuncCall) and not node.intrinsic:
                        callee = procs.get(resolve_name(node.name))
                        if callee is not None:
                            todo.append(callee)
    return seen


def frequency(param, proc: ir.Procedure, trace: Trace) -> sympy.Expr | None:
    """The value a run gives a branch probability of `proc` (sad.analysis.naming's P_<proc>_<place>[_<k>]):
    the share of its decision's executions that took its arm (an IF arm on the parameter's line) or went to
    its target (a computed GOTO's k-th); 0 for a decision the run never reached. None for other decisions."""
    rest = param.name[len(f"P_{param.procedure}_"):].split("_")
    for stmt in ir.walk_stmts(proc.body):
        if isinstance(stmt, ir.If):
            for arm in stmt.arms:
                where = arm.loc or stmt.loc
                if where is not None and where.line == param.line and where.file == param.file:
                    runs = trace.executed[id(stmt)]
                    return sympy.Rational(trace.taken[id(arm)], runs) if runs else sympy.Integer(0)
        elif isinstance(stmt, ir.ComputedGoto) and stmt.loc is not None and stmt.loc.line == param.line \
                and stmt.loc.file == param.file and len(rest) == 2 and rest[1].isdigit() \
                and 1 <= int(rest[1]) <= len(stmt.targets):
            runs = trace.executed[id(stmt)]
            label = stmt.targets[int(rest[1]) - 1]
            return sympy.Rational(trace.jumps[(id(stmt), label)], runs) if runs else sympy.Integer(0)
    return None


def to_sympy(value: Value) -> sympy.Basic:
    """An evaluated result as the backtracer's value: a number, a truth value, a character code."""
    from sad.analysis import characters
    if isinstance(value, bool):
        return sympy.true if value else sympy.false
    if isinstance(value, str):
        return characters.code(value)
    if isinstance(value, Fraction):
        return sympy.Rational(value.numerator, value.denominator)
    if isinstance(value, float):
        return sympy.Float(value)
    return sympy.Integer(value)


def function_class(procs: dict[str, ir.Procedure], proc: ir.Procedure) -> type:
    """A sympy function named as `proc` (an INTEGER function) that stays a reference while an argument is a
    formula and becomes the function's result, run here, once all are known numbers."""
    def run(cls, *args):
        known_args = known(list(args), proc)
        if known_args is None:  # the result may still not depend on the arguments not known
            known_args = partly_known(list(args), proc)
        if known_args is None:
            return None
        try:
            result = Evaluator(procs).call(proc.name, known_args)
        except Unevaluated:
            return None
        return None if result is UNKNOWN else to_sympy(result)
    characters_at = [i for i, f in enumerate(proc.formals)
                     if (d := proc.variables.get(f)) is not None and d.type == "character"]

    def shown(self, printer) -> str:
        """The reference as written: a known string argument in quotes ('DGETRF'), not as its code."""
        from sad.analysis import characters
        args = [characters.shown(a) if i in characters_at else printer._print(a) for i, a in enumerate(self.args)]
        return f"{proc.name}({', '.join(args)})"
    # not a number where the run cannot finish (an intrinsic it does not have, an I/O statement, an array):
    # a reference stays, and sympy's Max compares no "number" it cannot evaluate ("MSTA1(7/2, 200) is not
    # comparable" ended `sad analyze` of specfun's CJYVB with its arguments bound, before LOG10); the report
    # names it (is_user_function)
    return type(proc.name, (sympy.Function,), {"eval": classmethod(run), "is_integer": True, "is_number": False,
                                               "is_user_function": True, "_sympystr": shown})


def known(values: list[sympy.Basic], proc: ir.Procedure) -> list[Value] | None:
    """Argument values (sympy) as a run of `proc` takes them, where all are known scalars; None otherwise."""
    args = []
    for value, formal in zip(values, proc.formals):
        if free_symbols(value):
            return None
        arg = from_sympy(value, proc.variables.get(formal))
        if arg is None:
            return None
        args.append(arg)
    return args


def partly_known(values: list[sympy.Basic], proc: ir.Procedure) -> list[Value] | None:
    """Argument values as a run of `proc` takes them, UNKNOWN for those that are formulas; None where none is
    known (nothing to run on) or one is neither a known scalar nor a formula."""
    args: list[Value] = []
    for value, formal in zip(values, proc.formals):
        if free_symbols(value):
            args.append(UNKNOWN)
            continue
        arg = from_sympy(value, proc.variables.get(formal))
        if arg is None:
            return None
        args.append(arg)
    if len(args) != len(proc.formals) or all(a is UNKNOWN for a in args):
        return None
    return args


def free_symbols(value: sympy.Basic) -> set:
    """The symbols of a value (none in a known one)."""
    return value.free_symbols if isinstance(value, sympy.Basic) else set()


def from_sympy(value: sympy.Basic, decl: ir.Variable | None) -> Value | None:
    """A known argument as the evaluator takes it (a character formal gets the string of its code); None
    where it is no known number."""
    from sad.analysis import characters
    if value is sympy.true or value is sympy.false:
        return value is sympy.true
    if decl is not None and decl.type == "character":
        return characters.text_of(int(value)) if isinstance(value, sympy.Integer) else None
    if isinstance(value, sympy.Integer):
        return int(value) if decl is None or decl.type == "integer" else Fraction(int(value))
    if isinstance(value, sympy.Rational):
        return Fraction(int(value.p), int(value.q))
    return None
