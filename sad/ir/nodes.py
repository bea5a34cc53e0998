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

Every node declares its child fields once, in `_fields` (the fields that hold nodes, lists of nodes or
mappings of nodes, in source order); `Node.children()` is derived from them, and so are the walks and the
visitor of `sad.ir.walk`. `_bodies` names the fields that hold nested statement lists.
"""
from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any, ClassVar

TYPES = ("integer", "real", "double", "complex", "logical", "character", "pointer", "void", "unknown")

ARITH_OPS = ("add", "sub", "mul", "div", "pow", "mod")
COMPARE_OPS = ("eq", "ne", "lt", "le", "gt", "ge")
LOGICAL_OPS = ("and", "or", "eqv", "neqv")
BIT_OPS = ("band", "bor", "bxor", "shl", "shr")
BINARY_OPS = ARITH_OPS + COMPARE_OPS + LOGICAL_OPS + BIT_OPS + ("concat",)
UNARY_OPS = ("neg", "not", "bnot", "addr")


class Node:
    """Base of every IR node. `_fields`: the child fields, declared once per class (pycparser's
    `c_ast.Node.children()` is the model); everything else a node holds is a plain attribute."""
    _fields: ClassVar[tuple[str, ...]] = ()
    _bodies: ClassVar[tuple[str, ...]] = ()

    def children(self) -> list[tuple[str, Node]]:
        """(name, child) pairs in declaration order; lists, tuples and mappings are flattened with their
        positions (``indices[1]``, ``dims[0][1]``, ``variables[N]``), absent (None) children left out."""
        out: list[tuple[str, Node]] = []
        for name in self._fields:
            out.extend(_flatten(name, getattr(self, name)))
        return out

    def child_nodes(self) -> list[Node]:
        """The children of `children()` without their names: what the walks need, without formatting a
        name per element of every list they pass."""
        out: list[Node] = []
        for name in self._fields:
            _collect(getattr(self, name), out)
        return out


def _collect(value: Any, out: list[Node]) -> None:
    if isinstance(value, Node):
        out.append(value)
    elif isinstance(value, (list, tuple)):
        for item in value:
            _collect(item, out)
    elif isinstance(value, dict):
        for item in value.values():
            _collect(item, out)


def _flatten(name: str, value: Any) -> Iterator[tuple[str, Node]]:
    if isinstance(value, Node):
        yield name, value
    elif isinstance(value, (list, tuple)):
        for i, item in enumerate(value):
            yield from _flatten(f"{name}[{i}]", item)
    elif isinstance(value, dict):
        for key, item in value.items():
            yield from _flatten(f"{name}[{key}]", item)


@dataclass(frozen=True)
class Loc:
    """A source location: file and line."""
    file: str
    line: int
    col: int = 0

    def __str__(self) -> str:
        if not self.line:  # the file as a whole (missing, empty, binary)
            return self.file
        return f"{self.file}:{self.line}" + (f":{self.col}" if self.col else "")


# ----------------------------------------------------------------------------------------------- expressions
@dataclass
class Expr(Node):
    """`type` is one of TYPES. `source_type` is the frontend's own type of the expression (the C frontend's
    CType), for the frontend's use while lowering only: not compared, not printed, not serialized."""
    type: str = field(default="unknown", kw_only=True)
    source_type: Any = field(default=None, kw_only=True, compare=False, repr=False,
                             metadata={"serialize": False})


@dataclass
class Const(Expr):
    """A literal constant."""
    value: int | float | complex | bool | str


@dataclass
class Var(Expr):
    """A scalar variable (or a whole array / pointer when used as an actual argument)."""
    name: str


@dataclass
class ArrayRef(Expr):
    """An element reference A(I,J) / a[i][j] / *p (indices [] for a plain dereference). Counts as memory."""
    _fields = ("indices",)
    name: str
    indices: list[Expr]


@dataclass
class Member(Expr):
    """C struct member base.field or base->field (arrow=True, a memory reference)."""
    _fields = ("base",)
    base: Expr
    field_name: str
    arrow: bool = False


@dataclass
class BinOp(Expr):
    """A binary operation (op names the operation: add, mul, lt, and, ...)."""
    _fields = ("left", "right")
    op: str
    left: Expr
    right: Expr


@dataclass
class UnOp(Expr):
    """A unary operation (neg, not, bnot, addr, ...)."""
    _fields = ("operand",)
    op: str
    operand: Expr


@dataclass
class Cast(Expr):
    """An explicit or implicit type conversion to `type`."""
    _fields = ("operand",)
    operand: Expr


@dataclass
class FuncCall(Expr):
    """A function reference inside an expression: an intrinsic (by generic name) or a user function."""
    _fields = ("args",)
    name: str
    args: list[Expr]
    intrinsic: bool = False
    indirect: bool = False  # C call through a function pointer


@dataclass
class Ternary(Expr):
    """C `c ? a : b` where the frontend could not lower it to an If statement."""
    _fields = ("cond", "then", "orelse")
    cond: Expr
    then: Expr
    orelse: Expr


@dataclass
class Substring(Expr):
    """Fortran character substring C(I:J)."""
    _fields = ("base", "lo", "hi")
    base: Expr
    lo: Expr | None
    hi: Expr | None


# ------------------------------------------------------------------------------------------------ statements
@dataclass
class Stmt(Node):
    """Base class of statements: every statement has a location and an optional label."""
    loc: Loc = field(kw_only=True)
    label: str | None = field(default=None, kw_only=True)


@dataclass
class Assign(Stmt):
    """An assignment of a value to a variable, array element or member."""
    _fields = ("target", "value")
    target: Expr
    value: Expr


@dataclass
class CallStmt(Stmt):
    """A subroutine call (or a C function call whose value is discarded)."""
    _fields = ("args",)
    name: str
    args: list[Expr]
    indirect: bool = False  # through a function pointer: its cost is unresolved
    alt_returns: list[str] = field(default_factory=list)  # F77 alternate-return labels (*10, *20)


@dataclass
class Do(Stmt):
    """A counted loop: index = lo, hi, step (step None means 1). C canonical for-loops lower to this with
    hi the last value reached inclusive (i < n → hi = n - 1)."""
    _fields = ("lo", "hi", "step", "body")
    _bodies = ("body",)
    index: str
    lo: Expr
    hi: Expr
    step: Expr | None
    body: list[Stmt]


@dataclass
class While(Stmt):
    """A loop with an unknown trip count: DO WHILE, C while/do-while, non-canonical C for (already lowered:
    the init before it, the increment at the end of body). test_at_end for do-while."""
    _fields = ("cond", "body")
    _bodies = ("body",)
    cond: Expr | None  # None: an infinite loop left by goto/break/return
    body: list[Stmt]
    test_at_end: bool = False


@dataclass
class IfArm(Node):
    """One arm of an If: a condition (None for ELSE) and its statements."""
    _fields = ("cond", "body")
    _bodies = ("body",)
    cond: Expr
    body: list[Stmt]
    loc: Loc | None = None


@dataclass
class If(Stmt):
    """Block IF / ELSE IF / ELSE, logical IF (one arm with one statement), C if/else."""
    _fields = ("arms", "orelse")
    _bodies = ("arms", "orelse")
    arms: list[IfArm]
    orelse: list[Stmt] | None = None
    logical: bool = False  # Fortran one-line logical IF
    select: list[str] | None = None  # lowered from C's `c ? a : b`: what a and b are (constant,
    # variable or other), which decides the compiler's layout of the arms (sad.measure.gcov.else_first)


@dataclass
class Goto(Stmt):
    """A jump to a label."""
    target: str


@dataclass
class ComputedGoto(Stmt):
    """Fortran GOTO (l1, l2, ...), K and lowered C switch: jump to targets[k-1] (Fortran) or by case values
    (C: `cases[i]` is the constant list of targets[i]); `default` None falls through to the next statement."""
    _fields = ("selector", "cases")
    targets: list[str]
    selector: Expr
    default: str | None = None
    cases: list[list[Expr]] | None = None


@dataclass
class ArithmeticIf(Stmt):
    """Fortran's arithmetic IF: a jump to one of three labels by the sign of an expression."""
    _fields = ("expr",)
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
    """A return from the procedure, with a function value or an alternate-return index."""
    _fields = ("value", "alt")
    value: Expr | None = None
    alt: Expr | None = None  # F77 RETURN n


@dataclass
class Stop(Stmt):
    """STOP, C exit()/abort()."""
    _fields = ("code",)
    code: Expr | None = None


@dataclass
class Pause(Stmt):
    """Fortran's PAUSE statement."""
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
    _fields = ("items", "targets")
    kind: str
    items: list[Expr] = field(default_factory=list)
    targets: list[Expr] = field(default_factory=list)
    end_label: str | None = None
    err_label: str | None = None


@dataclass
class Message(Stmt):
    """A message-passing call (MPI_*, PVM, PICL) kept as its own kind so that it can be costed by the
    communication and programming-model levels. kind is the primitive (send, recv, sendrecv, bcast, reduce,
    barrier, ...; sad.ir.msgcalls), library "MPI"/"PVM"; count, datatype, partner and communicator from the
    argument positions of sad.ir.msgcalls."""
    _fields = ("args", "count", "partner", "source", "result")
    kind: str
    library: str
    name: str
    args: list[Expr]
    count: Expr | None = None
    datatype: str | None = None
    type_name: str | None = None  # the datatype argument as written (MPI_DOUBLE_PRECISION, REAL8, a variable)
    partner: Expr | None = None  # destination, source, root or (PVM mcast) the number of tasks
    partner_role: str = ""  # dest | source | root | tasks
    source: Expr | None = None  # sendrecv: the source beside the destination
    comm: str | None = None  # the communicator argument's name (None: the library's world)
    result: Expr | None = None  # where a C call's return value goes (pvm_joingroup, pvm_gsize, pvm_spawn)
    problem: str | None = None  # a call the frontend could not read (wrong number of arguments)
    request_group: int | None = None  # isend/irecv and the wait that completes them (sad.analysis.spmd)


@dataclass
class Unsupported(Stmt):
    """A construct the frontend could not lower: becomes a warning and an unresolved cost parameter."""
    text: str


# ------------------------------------------------------------------------------------------ declarations
@dataclass
class Variable(Node):
    """A declared variable: type, dimensions, storage, COMMON block, and constant value or initial data."""
    _fields = ("dims", "value", "data")
    name: str
    type: str
    dims: list[tuple[Expr | None, Expr | None]] | None = None  # per dimension (lo, hi); None hi = *
    storage: str = "local"  # local | formal | common | parameter | global | static | function
    common_block: str | None = None
    value: Expr | None = None  # PARAMETER / const / enum / #define value
    data: list[Expr] | None = None  # DATA / initializer values (scalars: one)
    loc: Loc | None = None
    length: int | None = None  # a CHARACTER variable's declared length (None: *(*), an expression, unknown)
    # bytes of one element (of the scalar, the array's or what the pointer points to) where the type alone
    # does not say: C's integer kinds, char 1 to long 8, all "integer" in the IR; None: the type's size
    elem_bytes: int | None = None


@dataclass
class Procedure(Node):
    """A program, subroutine or function: formals, body, variables and source extent."""
    _fields = ("body", "variables")
    _bodies = ("body",)
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
    """A message for the user at a source location, with its severity."""
    loc: Loc
    severity: str  # error | warning | note
    message: str

    def __str__(self) -> str:
        return f"{self.loc}: {self.severity}: {self.message}"


@dataclass
class Program(Node):
    """A whole program: its procedures and global variables, with the frontends' diagnostics."""
    _fields = ("procedures", "globals")
    procedures: list[Procedure] = field(default_factory=list)
    diagnostics: list[Diagnostic] = field(default_factory=list)
    files: list[str] = field(default_factory=list)
    globals: dict[str, Variable] = field(default_factory=dict)  # C file-scope variables, enum constants

    def procedure(self, name: str) -> Procedure | None:
        """The procedure called `name`, or None."""
        for proc in self.procedures:
            if proc.name == name:
                return proc
        return None
