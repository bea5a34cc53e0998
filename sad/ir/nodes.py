"""The intermediate representation: the contract between frontends and everything after them.

Data flow: frontends (Fortran 77 via fparser, C via pycparser) produce a `Program` of these nodes; the
control-flow pass, the SAD builder and the cost counter consume it and know nothing of the source language.

Conventions every frontend follows:
- Names: Fortran names upper case; C names as written. A call names its callee as written in the source; the
  call graph resolves across languages (Fortran `MATMUL` ↔ C `matmul_`).
- Types are the strings in `TYPES`. Fortran DOUBLE PRECISION and C double/long double are "double"; C int,
  short, long, char are "integer"; DOUBLE COMPLEX and C _Complex are "complex".
- Operators (BinOp.op / UnOp.op) are the strings in `BINARY_OPS` / `UNARY_OPS`. C `pow(x, y)` and Fortran
  `x**y` are both BinOp("pow"); other math functions are `FuncCall(intrinsic=True)` with the Fortran generic
  name upper case (C `sqrt`, `sqrtf`, Fortran `DSQRT` → "SQRT"; `fabs`/`DABS` → "ABS").
- Every statement carries `loc` (the user's original file and line, never preprocessed text) and its label
  (Fortran statement label or C label) as a string, or None.
- Structured control flow stays structured (Do, While, If); unstructured flow is Goto / ComputedGoto /
  ArithmeticIf / AssignedGoto to labels in the same procedure. C `break`, `continue` and `switch` are lowered
  by the C frontend to Goto / ComputedGoto and labelled Continue statements it invents (labels starting
  with "."), so later passes see one mechanism.
- Statement functions are inlined by the Fortran frontend; ENTRY points become procedures of their own.
"""
from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from typing import Any

TYPES = ("integer", "real", "double", "complex", "logical", "character", "pointer", "void", "unknown")

ARITH_OPS = ("add", "sub", "mul", "div", "pow", "mod")
COMPARE_OPS = ("eq", "ne", "lt", "le", "gt", "ge")
LOGICAL_OPS = ("and", "or", "eqv", "neqv")
BIT_OPS = ("band", "bor", "bxor", "shl", "shr")
BINARY_OPS = ARITH_OPS + COMPARE_OPS + LOGICAL_OPS + BIT_OPS + ("concat",)
UNARY_OPS = ("neg", "not", "bnot", "addr")


@dataclass(frozen=True)
class Loc:
    file: str
    line: int
    col: int = 0

    def __str__(self) -> str:
        return f"{self.file}:{self.line}" + (f":{self.col}" if self.col else "")


# ----------------------------------------------------------------------------------------------- expressions
@dataclass
class Expr:
    type: str = field(default="unknown", kw_only=True)


@dataclass
class Const(Expr):
    value: int | float | complex | bool | str


@dataclass
class Var(Expr):
    """A scalar variable (or a whole array / pointer when used as an actual argument)."""
    name: str


@dataclass
class ArrayRef(Expr):
    """An element reference A(I,J) / a[i][j] / *p (indices [] for a plain dereference). Counts as memory."""
    name: str
    indices: list[Expr]


@dataclass
class Member(Expr):
    """C struct member base.field or base->field (arrow=True, a memory reference)."""
    base: Expr
    field_name: str
    arrow: bool = False


@dataclass
class BinOp(Expr):
    op: str
    left: Expr
    right: Expr


@dataclass
class UnOp(Expr):
    op: str
    operand: Expr


@dataclass
class Cast(Expr):
    """An explicit or implicit type conversion to `type`."""
    operand: Expr


@dataclass
class FuncCall(Expr):
    """A function reference inside an expression: an intrinsic (by generic name) or a user function."""
    name: str
    args: list[Expr]
    intrinsic: bool = False
    indirect: bool = False  # C call through a function pointer


@dataclass
class Ternary(Expr):
    """C `c ? a : b` where the frontend could not lower it to an If statement."""
    cond: Expr
    then: Expr
    orelse: Expr


@dataclass
class Substring(Expr):
    """Fortran character substring C(I:J)."""
    base: Expr
    lo: Expr | None
    hi: Expr | None


# ------------------------------------------------------------------------------------------------ statements
@dataclass
class Stmt:
    loc: Loc = field(kw_only=True)
    label: str | None = field(default=None, kw_only=True)


@dataclass
class Assign(Stmt):
    target: Expr
    value: Expr


@dataclass
class CallStmt(Stmt):
    name: str
    args: list[Expr]
    indirect: bool = False  # through a function pointer: its cost is unresolved
    alt_returns: list[str] = field(default_factory=list)  # F77 alternate-return labels (*10, *20)


@dataclass
class Do(Stmt):
    """A counted loop: index = lo, hi, step (step None means 1). C canonical for-loops lower to this with
    hi the last value reached inclusive (i < n → hi = n - 1)."""
    index: str
    lo: Expr
    hi: Expr
    step: Expr | None
    body: list[Stmt]


@dataclass
class While(Stmt):
    """A loop with an unknown trip count: DO WHILE, C while/do-while, non-canonical C for (already lowered:
    the init before it, the increment at the end of body). test_at_end for do-while."""
    cond: Expr | None  # None: an infinite loop left by goto/break/return
    body: list[Stmt]
    test_at_end: bool = False


@dataclass
class IfArm:
    cond: Expr
    body: list[Stmt]
    loc: Loc | None = None


@dataclass
class If(Stmt):
    """Block IF / ELSE IF / ELSE, logical IF (one arm with one statement), C if/else."""
    arms: list[IfArm]
    orelse: list[Stmt] | None = None
    logical: bool = False  # Fortran one-line logical IF


@dataclass
class Goto(Stmt):
    target: str


@dataclass
class ComputedGoto(Stmt):
    """Fortran GOTO (l1, l2, ...), K and lowered C switch: jump to targets[k-1] (Fortran) or by case values
    (C: `cases[i]` is the constant list of targets[i]); `default` None falls through to the next statement."""
    targets: list[str]
    selector: Expr
    default: str | None = None
    cases: list[list[Expr]] | None = None


@dataclass
class ArithmeticIf(Stmt):
    expr: Expr
    neg: str
    zero: str
    pos: str


@dataclass
class AssignLabel(Stmt):
    """ASSIGN 10 TO K."""
    target_label: str
    var: str


@dataclass
class AssignedGoto(Stmt):
    """GOTO K (l1, l2, ...); targets empty when the list was omitted (the pass uses the ASSIGNed labels)."""
    var: str
    targets: list[str]


@dataclass
class Return(Stmt):
    value: Expr | None = None
    alt: Expr | None = None  # F77 RETURN n


@dataclass
class Stop(Stmt):
    """STOP, C exit()/abort()."""
    code: Expr | None = None


@dataclass
class Pause(Stmt):
    pass


@dataclass
class Continue(Stmt):
    """No-op (CONTINUE, an empty C statement, a C label target)."""
    pass


@dataclass
class IO(Stmt):
    """READ/WRITE/PRINT/OPEN/CLOSE/REWIND/INQUIRE/BACKSPACE/ENDFILE, C printf/scanf family.
    `items` are transferred values; for reads `targets` are the variables/elements assigned from input
    (each becomes an unresolved value). err/end labels are branches."""
    kind: str
    items: list[Expr] = field(default_factory=list)
    targets: list[Expr] = field(default_factory=list)
    end_label: str | None = None
    err_label: str | None = None


@dataclass
class Message(Stmt):
    """A message-passing call (MPI_*, PVM, PICL) kept as its own kind so that it can be costed by the
    communication and programming-model levels. kind is the primitive (send, recv, bcast, reduce, barrier,
    ...), library "MPI"/"PVM"/"PICL"; count/datatype/peer as the frontend could identify them."""
    kind: str
    library: str
    name: str
    args: list[Expr]
    count: Expr | None = None
    datatype: str | None = None


@dataclass
class Unsupported(Stmt):
    """A construct the frontend could not lower: becomes a warning and an unresolved cost parameter."""
    text: str


# ------------------------------------------------------------------------------------------ declarations
@dataclass
class Variable:
    name: str
    type: str
    dims: list[tuple[Expr | None, Expr | None]] | None = None  # per dimension (lo, hi); None hi = *
    storage: str = "local"  # local | formal | common | parameter | global | static | function
    common_block: str | None = None
    value: Expr | None = None  # PARAMETER / const / enum / #define value
    data: list[Expr] | None = None  # DATA / initializer values (scalars: one)
    loc: Loc | None = None


@dataclass
class Procedure:
    name: str
    kind: str  # program | subroutine | function | blockdata | entry
    formals: list[str]
    body: list[Stmt]
    loc: Loc
    language: str  # fortran | c
    result_type: str | None = None
    variables: dict[str, Variable] = field(default_factory=dict)
    commons: dict[str, list[str]] = field(default_factory=dict)
    end_line: int | None = None


@dataclass
class Diagnostic:
    loc: Loc
    severity: str  # error | warning | note
    message: str

    def __str__(self) -> str:
        return f"{self.loc}: {self.severity}: {self.message}"


@dataclass
class Program:
    procedures: list[Procedure] = field(default_factory=list)
    diagnostics: list[Diagnostic] = field(default_factory=list)
    files: list[str] = field(default_factory=list)
    globals: dict[str, Variable] = field(default_factory=dict)  # C file-scope variables, enum constants

    def procedure(self, name: str) -> Procedure | None:
        for proc in self.procedures:
            if proc.name == name:
                return proc
        return None


# ------------------------------------------------------------------------------------------ JSON dumping
def to_jsonable(node: Any) -> Any:
    """Plain data for `sad ir`: every node becomes a dict with its class under "node"."""
    if dataclasses.is_dataclass(node) and not isinstance(node, type):
        out: dict[str, Any] = {"node": type(node).__name__}
        for f in dataclasses.fields(node):
            value = getattr(node, f.name)
            if f.name == "loc" and isinstance(value, Loc):
                out["loc"] = {"file": value.file, "line": value.line, "col": value.col}
            else:
                out[f.name] = to_jsonable(value)
        return out
    if isinstance(node, dict):
        return {str(k): to_jsonable(v) for k, v in node.items()}
    if isinstance(node, (list, tuple)):
        return [to_jsonable(v) for v in node]
    if isinstance(node, complex):
        return {"re": node.real, "im": node.imag}
    return node


def walk_stmts(stmts: list[Stmt]):
    """Every statement in a list, depth first, bodies included."""
    for stmt in stmts:
        yield stmt
        for body in child_bodies(stmt):
            yield from walk_stmts(body)


def child_bodies(stmt: Stmt) -> list[list[Stmt]]:
    """The nested statement lists of a compound statement, in source order."""
    if isinstance(stmt, (Do, While)):
        return [stmt.body]
    if isinstance(stmt, If):
        bodies = [arm.body for arm in stmt.arms]
        if stmt.orelse is not None:
            bodies.append(stmt.orelse)
        return bodies
    return []


def expr_children(expr: Expr) -> list[Expr]:
    """The operand expressions of an expression node, in order."""
    if isinstance(expr, BinOp):
        return [expr.left, expr.right]
    if isinstance(expr, (UnOp, Cast)):
        return [expr.operand]
    if isinstance(expr, FuncCall):
        return list(expr.args)
    if isinstance(expr, ArrayRef):
        return list(expr.indices)
    if isinstance(expr, Ternary):
        return [expr.cond, expr.then, expr.orelse]
    if isinstance(expr, Member):
        return [expr.base]
    if isinstance(expr, Substring):
        return [e for e in (expr.base, expr.lo, expr.hi) if e is not None]
    return []
