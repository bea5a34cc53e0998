"""The Fortran 77 frontend: IR produced for each construct (sources written to tmp_path)."""
from __future__ import annotations

import shutil
import subprocess

import pytest

from sad.frontends.fortran import load
from sad.ir import (
    IO,
    ArithmeticIf,
    ArrayRef,
    Assign,
    AssignedGoto,
    AssignLabel,
    BinOp,
    CallStmt,
    Cast,
    ComputedGoto,
    Const,
    Continue,
    Do,
    FuncCall,
    Goto,
    If,
    Message,
    Pause,
    Return,
    Stop,
    Substring,
    UnOp,
    Unsupported,
    Var,
    While,
    walk_stmts,
)


def src(text: str) -> str:
    """Sources in this file are written flush left with '|' standing for column 1."""
    return "\n".join(line.split("|", 1)[1] if "|" in line else line for line in text.strip("\n").splitlines()) + "\n"


def load_src(tmp_path, text, name="t.f", include_dirs=None, defines=None, raw=False):
    path = tmp_path / name
    path.write_text(text if raw else src(text))
    return load(str(path), include_dirs or [], defines or {})


def errors(prog):
    return [d for d in prog.diagnostics if d.severity == "error"]


def gfortran_ok(tmp_path, text, name="g.f"):
    if shutil.which("gfortran") is None:
        pytest.skip("no gfortran")
    path = tmp_path / name
    path.write_text(src(text))
    res = subprocess.run(["gfortran", "-std=legacy", "-c", "-o", str(tmp_path / "g.o"), str(path)],
                         capture_output=True, text=True)
    assert res.returncode == 0, res.stderr


# ---------------------------------------------------------------------------------------------- DO loops
SHARED = """
|      SUBROUTINE S(A, N)
|      DIMENSION A(N, N)
|      DO 10 I = 1, N
|      DO 10 J = 1, N
|   10 A(I, J) = 0.
|      X = 1.
|      END
"""


def test_shared_label_nest_is_rebuilt(tmp_path):
    gfortran_ok(tmp_path, SHARED)
    prog = load_src(tmp_path, SHARED)
    assert not errors(prog)
    body = prog.procedures[0].body
    assert [type(s).__name__ for s in body] == ["Do", "Assign"]
    outer = body[0]
    assert outer.index == "I" and outer.label is None and outer.loc.line == 3
    assert len(outer.body) == 1 and isinstance(outer.body[0], Do)
    inner = outer.body[0]
    assert inner.index == "J" and inner.loc.line == 4
    assert len(inner.body) == 1
    term = inner.body[0]
    assert isinstance(term, Assign) and term.label == "10" and term.loc.line == 5
    assert isinstance(term.target, ArrayRef) and term.target.type == "real"
    assert body[1].loc.line == 6


def test_three_level_nest_with_continue_and_separate_labels(tmp_path):
    prog = load_src(tmp_path, """
|      PROGRAM P
|      REAL A(10,10,10)
|      DO 20 K = 1, 10
|         DO 10 J = 1, 10
|            DO 10 I = 1, 10
|               A(I,J,K) = 1.0
|   10    CONTINUE
|         A(1,1,K) = 2.0
|   20 CONTINUE
|      DO I = 1, 3
|         A(I,1,1) = 0.0
|      END DO
|      END
""")
    assert not errors(prog)
    body = prog.procedures[0].body
    assert len(body) == 2
    k = body[0]
    assert [type(s).__name__ for s in k.body] == ["Do", "Assign", "Continue"]
    assert k.body[2].label == "20"
    j = k.body[0]
    assert len(j.body) == 1 and j.body[0].index == "I"
    i = j.body[0]
    assert [type(s).__name__ for s in i.body] == ["Assign", "Continue"]
    assert i.body[1].label == "10"
    assert isinstance(body[1], Do) and len(body[1].body) == 1


def test_negative_step_and_do_while(tmp_path):
    prog = load_src(tmp_path, """
|      SUBROUTINE S(N)
|      DO 20 I = N, 1, -1
|         X = I
|   20 CONTINUE
|      DO 30 I = 10, 1, -2
|   30 CONTINUE
|      DO WHILE (X .GT. 0.)
|         X = X - 1.
|      END DO
|      END
""")
    assert not errors(prog)
    d1, d2, w = prog.procedures[0].body
    assert isinstance(d1, Do) and d1.lo == Var("N", type="integer") and d1.hi == Const(1, type="integer")
    assert d1.step == Const(-1, type="integer")
    assert d2.step == Const(-2, type="integer")
    assert isinstance(w, While) and isinstance(w.cond, BinOp) and w.cond.op == "gt"
    assert isinstance(w.body[0], Assign)
    assert isinstance(d1.body[0].value, Cast) and d1.body[0].value.type == "real"


def test_unterminated_do_is_an_error_not_a_crash(tmp_path):
    prog = load_src(tmp_path, """
|      SUBROUTINE S
|      DO 10 I = 1, 5
|      X = 1.
|      END
""")
    errs = errors(prog)
    assert errs and errs[0].loc.line == 2
    assert isinstance(prog.procedures[0].body[0], Do)


# ------------------------------------------------------------------------------------- unstructured flow
UNSTRUCT = """
|      SUBROUTINE S(X, K)
|      INTEGER K, L
|      ASSIGN 10 TO L
|      IF (X) 10, 20, 30
|   10 GO TO (20, 30, 40), K
|   20 GO TO L, (10, 40)
|   30 GOTO L
|   40 PAUSE
|      PAUSE 'WAIT'
|      IF (X .GT. 1.) ASSIGN 30 TO L
|      IF (X .GT. 2.) GO TO L
|      GO TO 10
|      END
"""


def test_arith_if_computed_goto_assign_pause(tmp_path):
    gfortran_ok(tmp_path, UNSTRUCT)
    prog = load_src(tmp_path, UNSTRUCT)
    assert not errors(prog)
    body = prog.procedures[0].body
    assert body[0] == AssignLabel("10", "L", loc=body[0].loc)
    ai = body[1]
    assert isinstance(ai, ArithmeticIf) and (ai.neg, ai.zero, ai.pos) == ("10", "20", "30")
    assert ai.expr == Var("X", type="real")
    cg = body[2]
    assert isinstance(cg, ComputedGoto) and cg.targets == ["20", "30", "40"] and cg.label == "10"
    assert cg.selector == Var("K", type="integer") and cg.default is None
    ag = body[3]
    assert isinstance(ag, AssignedGoto) and ag.var == "L" and ag.targets == ["10", "40"] and ag.label == "20"
    assert isinstance(body[4], AssignedGoto) and body[4].targets == [] and body[4].label == "30"
    assert isinstance(body[5], Pause) and body[5].label == "40"
    assert isinstance(body[6], Pause)
    li = body[7]
    assert isinstance(li, If) and li.logical and isinstance(li.arms[0].body[0], AssignLabel)
    assert isinstance(body[8].arms[0].body[0], AssignedGoto)
    assert isinstance(body[9], Goto) and body[9].target == "10"


def test_hollerith(tmp_path):
    text = """
|      SUBROUTINE S
|      INTEGER IH(2)
|      DATA IH /4HAB,D, 2HX'/
|      CALL OUT(5HHELLO, 3)
|      WRITE (6, 100)
|  100 FORMAT (1X, 11HHOLLERITH A, I5)
|      END
"""
    gfortran_ok(tmp_path, text)
    prog = load_src(tmp_path, text)
    assert not errors(prog)
    proc = prog.procedures[0]
    assert proc.variables["IH"].data == [Const("AB,D", type="character"), Const("X'", type="character")]
    call = proc.body[0]
    assert isinstance(call, CallStmt) and call.args[0] == Const("HELLO", type="character")
    assert isinstance(proc.body[1], IO) and proc.body[1].kind == "write"
    assert len(proc.body) == 2  # FORMAT produces nothing executable


def test_alternate_return(tmp_path):
    text = """
|      SUBROUTINE S(A, *, *)
|      IF (A .LT. 0.) RETURN 1
|      IF (A .EQ. 0.) RETURN 2
|      RETURN
|      END
|      SUBROUTINE T
|      CALL S(1.0, *10, *20)
|   10 CONTINUE
|   20 RETURN
|      END
"""
    gfortran_ok(tmp_path, text)
    prog = load_src(tmp_path, text)
    assert not errors(prog)
    s, t = prog.procedures
    assert s.formals == ["A"]
    assert s.body[0].arms[0].body[0] == Return(alt=Const(1, type="integer"), loc=s.body[0].loc)
    assert isinstance(s.body[2], Return) and s.body[2].alt is None
    call = t.body[0]
    assert call.args == [Const(1.0, type="real")] and call.alt_returns == ["10", "20"]


# ------------------------------------------------------------------------------------- block IF, IO, STOP
def test_block_if_logical_if_io_stop(tmp_path):
    text = """
|      PROGRAM P
|      REAL A(100)
|      CHARACTER*8 NAME
|      OPEN (UNIT=7, FILE='in.dat', STATUS='OLD', ERR=90)
|      READ (7, *, END=80, ERR=90) N, (A(I), I = 1, N), NAME(1:4)
|      IF (N .GT. 10) THEN
|         PRINT *, 'big'
|      ELSE IF (N .GT. 5 .AND. .NOT. (A(1) .EQ. 0.)) THEN
|         WRITE (6, *) A(1) // 'x'
|      ELSE
|         REWIND 7
|      END IF
|      IF (N .EQ. 0) STOP 1
|   80 CLOSE (7)
|   90 STOP
|      END
"""
    prog = load_src(tmp_path, text)
    assert not errors(prog)
    body = prog.procedures[0].body
    op, rd, blk, lif, cl, st = body
    assert op.kind == "open" and op.err_label == "90"
    assert rd.kind == "read" and rd.end_label == "80" and rd.err_label == "90"
    assert rd.targets[0] == Var("N", type="integer")
    assert rd.targets[1] == ArrayRef("A", [Var("I", type="integer")], type="real")
    assert isinstance(rd.targets[2], Substring) and rd.targets[2].base == Var("NAME", type="character")
    assert isinstance(blk, If) and not blk.logical and len(blk.arms) == 2
    assert blk.arms[0].body[0].kind == "print"
    cond = blk.arms[1].cond
    assert cond.op == "and" and cond.type == "logical" and isinstance(cond.right, UnOp)
    assert cond.right.op == "not"
    assert blk.arms[1].body[0].items[0].op == "concat"
    assert blk.orelse[0].kind == "rewind"
    assert lif.logical and lif.arms[0].body[0] == Stop(Const(1, type="integer"), loc=lif.loc)
    assert cl.kind == "close" and cl.label == "80"
    assert isinstance(st, Stop) and st.code is None and st.label == "90"


def test_labelled_end_if_becomes_continue_after_the_if(tmp_path):
    prog = load_src(tmp_path, """
|      SUBROUTINE S(X)
|      IF (X .GT. 0.) THEN
|         GOTO 50
|   50 END IF
|      END
""")
    assert not errors(prog)
    body = prog.procedures[0].body
    assert isinstance(body[0], If) and isinstance(body[1], Continue) and body[1].label == "50"


# ------------------------------------------------------------------------------------------ declarations
def test_implicit_typing_rules(tmp_path):
    prog = load_src(tmp_path, """
|      SUBROUTINE S(A, I)
|      IMPLICIT DOUBLE PRECISION (A-H, O-Z)
|      X = A + I
|      K = 2
|      END
|      SUBROUTINE T
|      X = 1.0
|      I = 2
|      END
|      SUBROUTINE U
|      IMPLICIT NONE
|      INTEGER N
|      N = 1
|      Y = 2.0
|      END
""")
    s, t, u = prog.procedures
    assert s.variables["X"].type == "double" and s.variables["A"].type == "double"
    assert s.variables["I"].type == "integer" and s.variables["K"].type == "integer"
    assert s.variables["A"].storage == "formal"
    val = s.body[0].value
    assert val.type == "double" and isinstance(val.right, Cast) and val.right.operand == Var("I", type="integer")
    assert t.variables["X"].type == "real" and t.variables["I"].type == "integer"
    errs = errors(prog)
    assert len(errs) == 1 and "Y" in errs[0].message and errs[0].loc.line == 14


def test_parameter_dimension_common_data_save_external(tmp_path):
    text = """
|      SUBROUTINE S(B, M)
|      PARAMETER (N = 100, PI = 3.14159265D0)
|      DOUBLE PRECISION X(N), Y, Z(0:N, *)
|      INTEGER IV(3)
|      DIMENSION B(M)
|      COMMON /GRID/ X, Y
|      COMMON W(10), V
|      EQUIVALENCE (IV(1), KK)
|      DATA IV /3*7/, T /2.5/
|      SAVE T
|      EXTERNAL F
|      INTRINSIC SIN
|      Y = F(Y) + SIN(Y)
|      END
"""
    prog = load_src(tmp_path, text)
    assert not errors(prog)
    p = prog.procedures[0]
    v = p.variables
    assert v["N"].storage == "parameter" and v["N"].value == Const(100, type="integer")
    assert v["PI"].value == Const(3.14159265, type="double") and v["PI"].type == "real"
    assert v["X"].type == "double" and v["X"].dims == [(Const(1, type="integer"), Var("N", type="integer"))]
    assert v["X"].storage == "common" and v["X"].common_block == "GRID"
    assert v["Z"].dims[0] == (Const(0, type="integer"), Var("N", type="integer"))
    assert v["Z"].dims[1] == (Const(1, type="integer"), None)
    assert v["B"].storage == "formal" and v["B"].dims == [(Const(1, type="integer"), Var("M", type="integer"))]
    assert v["W"].common_block == "//" and v["W"].dims is not None
    assert p.commons == {"GRID": ["X", "Y"], "//": ["W", "V"]}
    assert v["IV"].data == [Const(7, type="integer")] * 3
    assert v["T"].data == [Const(2.5, type="real")] and v["T"].storage == "static"
    assert "SIN" not in v
    value = p.body[0].value
    assert value.left == Cast(FuncCall("F", [Var("Y", type="double")], type="real"), type="double")
    assert value.right == FuncCall("SIN", [Var("Y", type="double")], intrinsic=True, type="double")


def test_statement_function_inlined(tmp_path):
    text = """
|      SUBROUTINE S(A, N)
|      DIMENSION A(N)
|      SQ(X) = X*X
|      HYP(X, Y) = SQRT(SQ(X) + SQ(Y))
|      DO 10 I = 1, N
|         A(I) = HYP(A(I), 2.0)
|   10 CONTINUE
|      END
"""
    gfortran_ok(tmp_path, text)
    prog = load_src(tmp_path, text)
    assert not errors(prog)
    p = prog.procedures[0]
    assert "SQ" not in p.variables and "HYP" not in p.variables and "X" not in p.variables
    value = p.body[0].body[0].value
    assert isinstance(value, FuncCall) and value.name == "SQRT" and value.intrinsic
    arg = value.args[0]
    ai = ArrayRef("A", [Var("I", type="integer")], type="real")
    assert arg == BinOp("add", BinOp("mul", ai, ai, type="real"),
                        BinOp("mul", Const(2.0, type="real"), Const(2.0, type="real"), type="real"), type="real")
    assert not any(isinstance(s, (Assign, Unsupported)) and s.loc.line in (3, 4)
                   for s in walk_stmts(p.body))


def test_intrinsics_by_specific_and_generic_name(tmp_path):
    prog = load_src(tmp_path, """
|      SUBROUTINE S(D, R, I, C)
|      DOUBLE PRECISION D
|      COMPLEX C
|      D = DSQRT(D) + DABS(D) + DEXP(D) + DMOD(D, D) + DMAX1(D, D)
|      R = SQRT(R) + AMOD(R, 2.) + AMAX1(R, 1.) + FLOAT(I) + ABS(C)
|      I = MOD(I, 3) + MAX0(I, 2) + IABS(I) + NINT(R) + IFIX(R) + INT(D)
|      D = DBLE(R) + SIGN(D, -1D0) + ATAN2(D, D) + LOG10(D) + D**2 + D**R
|      C = CSQRT(C)
|      END
""")
    assert not errors(prog)
    calls = {}
    for stmt in prog.procedures[0].body:
        stack = [stmt.value]
        while stack:
            e = stack.pop()
            if isinstance(e, FuncCall):
                calls.setdefault(e.name, set()).add(e.type)
                stack.extend(e.args)
            for attr in ("left", "right", "operand"):
                if hasattr(e, attr):
                    stack.append(getattr(e, attr))
    assert all(name in calls for name in ("SQRT", "ABS", "EXP", "MOD", "MAX", "REAL", "NINT", "INT",
                                          "DBLE", "SIGN", "ATAN2", "LOG10"))
    assert calls["SQRT"] == {"double", "real", "complex"}
    assert calls["ABS"] == {"double", "integer", "real"}
    assert calls["MOD"] == {"double", "real", "integer"}
    assert calls["MAX"] == {"double", "real", "integer"}
    assert calls["INT"] == {"integer"} and calls["REAL"] == {"real"} and calls["DBLE"] == {"double"}
    pw = prog.procedures[0].body[3].value.left.right
    assert pw == BinOp("pow", Var("D", type="double"), Const(2, type="integer"), type="double")
    pw2 = prog.procedures[0].body[3].value.right
    assert pw2.op == "pow" and isinstance(pw2.right, Cast) and pw2.right.type == "double"


def test_types_of_constants_and_promotion(tmp_path):
    prog = load_src(tmp_path, """
|      SUBROUTINE S
|      COMPLEX Z
|      LOGICAL L
|      CHARACTER*4 C
|      Z = (1.0, 2.0) * 2
|      L = .TRUE. .EQV. (1 .LT. 2.5D0)
|      C = 'AB' // 'CD'
|      X = 1.5E3 + 2
|      END
""")
    assert not errors(prog)
    z, lg, c, x = prog.procedures[0].body
    assert z.value.type == "complex" and z.value.left == Const(complex(1.0, 2.0), type="complex")
    assert lg.value.op == "eqv" and lg.value.right.op == "lt"
    assert lg.value.right.left == Cast(Const(1, type="integer"), type="double")
    assert c.value == BinOp("concat", Const("AB", type="character"), Const("CD", type="character"),
                            type="character")
    assert x.value.left == Const(1500.0, type="real")


# ----------------------------------------------------------------------------------------------- units
def test_program_units_and_typed_functions(tmp_path):
    text = """
|      DOUBLE PRECISION G
|      X = F(2.0) + G(1D0)
|      CALL SUB(X)
|      END
|      REAL FUNCTION F(X)
|      F = X + 1.
|      END
|      DOUBLE PRECISION FUNCTION G(Y)
|      DOUBLE PRECISION Y
|      G = Y
|      RETURN
|      END
|      INTEGER FUNCTION K(I)
|      K = I
|      END
|      BLOCK DATA INIT
|      COMMON /C/ A
|      DATA A /1.0/
|      END
|      SUBROUTINE SUB(X)
|      END
"""
    gfortran_ok(tmp_path, text)
    prog = load_src(tmp_path, text)
    assert not errors(prog)
    kinds = [(p.name, p.kind, p.result_type, p.loc.line, p.end_line) for p in prog.procedures]
    assert kinds == [("MAIN", "program", None, 1, 4), ("F", "function", "real", 5, 7),
                     ("G", "function", "double", 8, 12), ("K", "function", "integer", 13, 15),
                     ("INIT", "blockdata", None, 16, 19), ("SUB", "subroutine", None, 20, 21)]
    main = prog.procedures[0]
    assert main.body[0].value.operand.right == FuncCall("G", [Const(1.0, type="double")], type="double")
    assert main.variables["G"].storage == "function"
    assert prog.procedure("INIT").variables["A"].data == [Const(1.0, type="real")]


def test_entry_points(tmp_path):
    text = """
|      SUBROUTINE INIT(N)
|      COMMON /CNT/ K
|      K = N
|      RETURN
|      ENTRY BUMP(M)
|      K = K + M
|      RETURN
|      END
"""
    gfortran_ok(tmp_path, text)
    prog = load_src(tmp_path, text)
    assert not errors(prog)
    host, entry = prog.procedures
    assert host.name == "INIT" and len(host.body) == 4
    assert entry.name == "BUMP" and entry.kind == "entry" and entry.formals == ["M"]
    assert entry.loc.line == 5 and entry.end_line == 8
    assert [s.loc.line for s in entry.body] == [6, 7]
    assert entry.variables["M"].storage == "formal" and entry.variables["K"].common_block == "CNT"
    assert entry.commons == {"CNT": ["K"]}


def test_message_passing_calls(tmp_path):
    prog = load_src(tmp_path, """
|      SUBROUTINE S(BUF, N)
|      INCLUDE 'mpif.h'
|      DOUBLE PRECISION BUF(N), SUM
|      INTEGER IERR, STAT(10)
|      CALL MPI_INIT(IERR)
|      CALL MPI_SEND(BUF, N, MPI_DOUBLE_PRECISION, 1, 99, MPI_COMM_WORLD,
|     &              IERR)
|      CALL MPI_RECV(BUF, N, MPI_DOUBLE_PRECISION, 0, 99, MPI_COMM_WORLD,
|     &              STAT, IERR)
|      CALL MPI_ALLREDUCE(SUM, SUM, 1, MPI_DOUBLE_PRECISION, MPI_SUM,
|     &                   MPI_COMM_WORLD, IERR)
|      CALL MPI_BARRIER(MPI_COMM_WORLD, IERR)
|      CALL PVMFPACK(REAL8, BUF, N, 1, INFO)
|      CALL PVMFSEND(ITID, 5, INFO)
|      END
""", include_dirs=[])
    init, send, recv, allr, bar, pack, psend = [s for s in prog.procedures[0].body]
    assert not errors(prog)  # sad ships a declarations-only mpif.h
    assert any(f.endswith("fortran/include/mpif.h") for f in prog.files)
    assert isinstance(send, Message) and send.kind == "send" and send.library == "MPI"
    assert send.count == Var("N", type="integer") and send.datatype == "double" and send.name == "MPI_SEND"
    assert recv.kind == "recv" and init.kind == "init" and bar.kind == "barrier"
    assert allr.kind == "allreduce" and allr.count == Const(1, type="integer") and allr.datatype == "double"
    assert pack.library == "PVM" and pack.kind == "pack" and pack.datatype == "double"
    assert psend.kind == "send" and psend.partner == Var("ITID", type="integer")
    assert send.type_name == "MPI_DOUBLE_PRECISION" and send.comm == "MPI_COMM_WORLD" and send.partner_role == "dest"


# ------------------------------------------------------------------------------------- source handling
def test_continuation_lines_and_sequence_numbers(tmp_path):
    text = ("      SUBROUTINE S(A)                                                   SEQ00010\n"
            "      REAL A(10)\n"
            "      A(1) = 1.0 +                                                      SEQ00030\n"
            "     &       2.0 *                                                      SEQ00040\n"
            "     1       A(2)\n"
            "C a comment line\n"
            "* another\n"
            "      X = 3.0                                                           99999999\n"
            "      END                                                               SEQ00090\n")
    path = tmp_path / "c.f"
    path.write_text(text)
    if shutil.which("gfortran"):
        res = subprocess.run(["gfortran", "-c", "-o", str(tmp_path / "c.o"), str(path)], capture_output=True)
        assert res.returncode == 0
    prog = load(str(path), [], {})
    assert not errors(prog), prog.diagnostics
    a, x = prog.procedures[0].body
    assert a.loc.line == 3
    assert a.value == BinOp("add", Const(1.0, type="real"),
                            BinOp("mul", Const(2.0, type="real"), ArrayRef("A", [Const(2, type="integer")],
                                                                           type="real"), type="real"),
                            type="real")
    assert x.loc.line == 8 and x.value == Const(3.0, type="real")
    assert prog.procedures[0].end_line == 9


def test_tab_format_lines(tmp_path):
    text = "\tSUBROUTINE S\n10\tX = 1.0 +\n\t1 2.0\n\tGOTO 10\n\tEND\n"
    prog = load_src(tmp_path, text, raw=True)
    assert not errors(prog)
    a, g = prog.procedures[0].body
    assert a.label == "10" and a.value.op == "add" and a.loc.line == 2
    assert isinstance(g, Goto) and g.loc.line == 4


def test_include_relative_and_with_I(tmp_path):
    inc = tmp_path / "inc"
    inc.mkdir()
    (inc / "params.h").write_text("C included\n      PARAMETER (NMAX = 50)\n      COMMON /B/ Q(NMAX)\n")
    (tmp_path / "local.h").write_text("      Y = 2.0\n")
    text = """
|      SUBROUTINE S
|      INCLUDE 'params.h'
|      Q(1) = 1.0
|      INCLUDE 'local.h'
|      END
"""
    prog = load_src(tmp_path, text, include_dirs=[str(inc)])
    assert not errors(prog)
    p = prog.procedures[0]
    assert p.variables["NMAX"].value == Const(50, type="integer")
    assert p.variables["NMAX"].loc.file.endswith("params.h") and p.variables["NMAX"].loc.line == 2
    assert p.variables["Q"].loc.line == 3
    q, y = p.body
    assert q.loc.file.endswith("t.f") and q.loc.line == 3
    assert y.loc.file.endswith("local.h") and y.loc.line == 1
    assert any(f.endswith("params.h") for f in prog.files)
    missing = load_src(tmp_path, text, name="u.f")
    errs = errors(missing)
    assert len(errs) == 1 and errs[0].loc.line == 2 and "params.h" in errs[0].message
    assert len(missing.procedures) == 1


def test_cpp_with_defines_and_line_mapping(tmp_path):
    text = """
|#define SCALE 2.0
|      SUBROUTINE S(A)
|      REAL A(NSIZE)
|#ifdef USE_FAST
|      A(1) = SCALE
|#else
|      A(1) = 0.0
|#endif
|C comment
|      A(2) = 1.0
|      END
"""
    prog = load_src(tmp_path, text, name="p.F", defines={"USE_FAST": "1", "NSIZE": "64"})
    assert not errors(prog), prog.diagnostics
    p = prog.procedures[0]
    assert p.loc.line == 2 and p.loc.file.endswith("p.F")
    a1, a2 = p.body
    assert a1.loc.line == 5 and a1.value == Const(2.0, type="real")
    assert a2.loc.line == 10
    assert p.variables["A"].dims == [(Const(1, type="integer"), Const(64, type="integer"))]
    assert p.end_line == 11
    prog2 = load_src(tmp_path, text, name="q.F", defines={"NSIZE": "8"})
    b1, _ = prog2.procedures[0].body
    assert b1.loc.line == 7 and b1.value == Const(0.0, type="real")


# --------------------------------------------------------------------------------------- error recovery
def test_syntax_error_keeps_other_units(tmp_path):
    prog = load_src(tmp_path, """
|      SUBROUTINE A
|      X = (1.0 +
|      Y = 2.0
|      END
|      SUBROUTINE B
|      Z = 3.0
|      END
""")
    errs = errors(prog)
    assert len(errs) == 1 and errs[0].loc.line == 2 and errs[0].loc.file.endswith("t.f")
    assert [p.name for p in prog.procedures] == ["A", "B"]
    a = prog.procedures[0]
    assert isinstance(a.body[0], Unsupported) and isinstance(a.body[1], Assign)
    assert isinstance(prog.procedures[1].body[0], Assign)


def test_broken_unit_header_and_missing_end(tmp_path):
    prog = load_src(tmp_path, """
|      SUBROUTINE A(
|      X = 1.0
|      END
|      SUBROUTINE B
|      Z = 3.0
""")
    errs = errors(prog)
    assert errs[0].loc.line == 1
    assert any("END" in e.message and e.loc.line == 5 for e in errs)
    assert "B" in [p.name for p in prog.procedures]


def test_unsupported_statement_is_a_warning(tmp_path):
    prog = load_src(tmp_path, """
|      SUBROUTINE A(X)
|      REAL X(10)
|      X(1:2) = 0.0
|      END
""")
    assert not errors(prog)
    warns = [d for d in prog.diagnostics if d.severity == "warning"]
    assert warns and warns[0].loc.line == 3
    assert isinstance(prog.procedures[0].body[0], Unsupported)


def test_missing_file(tmp_path):
    prog = load(str(tmp_path / "nope.f"), [], {})
    assert errors(prog) and not prog.procedures


def test_blanks_left_out_in_fixed_form(tmp_path):
    text = """
|      INTEGERFUNCTIONK(I)
|      REAL*8X
|      LOGICALL
|      EXTERNALF
|      X=F(1.0)
|      IF(X.GT.0)GOTO10
|      DO10J=1,I
|   10 CONTINUE
|      K=I
|      RETURN
|      END
"""
    gfortran_ok(tmp_path, text)
    prog = load_src(tmp_path, text)
    assert not errors(prog), prog.diagnostics
    k = prog.procedures[0]
    assert k.name == "K" and k.result_type == "integer" and k.formals == ["I"]
    assert k.variables["X"].type == "double" and k.variables["L"].type == "logical"
    assert k.variables["F"].storage == "function"
    assert isinstance(k.body[1], If) and k.body[1].arms[0].body[0] == Goto("10", loc=k.body[1].loc)
    assert isinstance(k.body[2], Do) and k.body[2].index == "J" and k.body[2].body[0].label == "10"


def test_labelled_do_while_and_nested_blocks(tmp_path):
    prog = load_src(tmp_path, """
|      SUBROUTINE S(N)
|      I = 0
|      DO 10 WHILE (I .LT. N)
|         I = I + 1
|         IF (I .EQ. 3) THEN
|            DO J = 1, I
|               IF (J .EQ. 2) GOTO 10
|            END DO
|         ELSE IF (I .EQ. 4) THEN
|            CALL MPI_COMM_RANK(MPI_COMM_WORLD, IR, IERR)
|         END IF
|   10 CONTINUE
|      END
""")
    assert not errors(prog)
    loop = prog.procedures[0].body[1]
    assert isinstance(loop, While) and loop.loc.line == 3
    assert [type(s).__name__ for s in loop.body] == ["Assign", "If", "Continue"]
    blk = loop.body[1]
    inner = blk.arms[0].body[0]
    assert isinstance(inner, Do) and isinstance(inner.body[0], If) and inner.body[0].logical
    msg = blk.arms[1].body[0]
    assert isinstance(msg, Message) and msg.kind == "comm_rank" and msg.library == "MPI"
    assert loop.body[2].label == "10"
