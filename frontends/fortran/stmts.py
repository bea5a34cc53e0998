"""Executable statements to IR statements, and the flat statement sequence to nested structure.

Data flow: frontends.fortran.lower feeds each executable statement (fparser2 node + its Loc and label) to
`StmtBuilder.add`. Simple statements become IR nodes at once; DO / DO WHILE / block IF open a frame, END DO /
ELSE IF / ELSE / END IF and labelled DO terminal statements close frames. SELECT CASE is a block IF whose arms
are the CASE statements' tests of the selector (`CASE (1:3, 7)` is `1 <= N .AND. N <= 3 .OR. N == 7`) and whose
ELSE is CASE DEFAULT, wherever it stands among the cases: the cases of a SELECT are disjoint, so their order
does not change which arm runs. fparser2 gives shared-label DO nests
flat (`DO 10 I` / `DO 10 J` / `10 CONTINUE`); here the labelled terminal statement becomes the last statement of
the innermost loop's body, keeps its label, and closes every open loop that names it.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from sad.ir import (
    IO,
    ArithmeticIf,
    ArrayRef,
    Assign,
    AssignedGoto,
    AssignLabel,
    CallStmt,
    ComputedGoto,
    Const,
    Continue,
    Diagnostic,
    Do,
    Expr,
    Goto,
    If,
    IfArm,
    Loc,
    Pause,
    Return,
    Stmt,
    Stop,
    Substring,
    Unsupported,
    Var,
    While,
)

from . import rewrite
from .exprs import ExprBuilder, convert, items_of, name_of, tname
from .exprs import Unsupported as UnsupportedExpr
from .messages import message_for
from .symbols import Scope

IO_KINDS = {"Read_Stmt": "read", "Write_Stmt": "write", "Print_Stmt": "print", "Open_Stmt": "open",
            "Close_Stmt": "close", "Rewind_Stmt": "rewind", "Backspace_Stmt": "backspace",
            "Endfile_Stmt": "endfile", "Inquire_Stmt": "inquire"}


@dataclass
class Frame:
    """An open DO loop or block IF whose body is still being filled."""
    kind: str  # do | if | select
    node: Stmt
    body: list[Stmt]
    label: str | None = None  # DO terminal label
    loc: Loc | None = None
    exit_label: str | None = None  # invented label after the loop, where an EXIT jumps
    cycle_label: str | None = None  # invented label at the end of the body, where a CYCLE jumps
    selector: Expr | None = None  # SELECT CASE: the value the CASE statements test
    default: list[Stmt] | None = None  # SELECT CASE: the body of CASE DEFAULT, once seen


@dataclass
class EntryPoint:
    """An ENTRY statement: its name, formals, and where its code starts in the body."""
    name: str
    formals: list[str]
    loc: Loc
    index: int  # position in the top-level body where the entry's code starts


@dataclass
class StmtBuilder:
    """Builds a procedure's nested statement lists from its flat list of executable statements."""
    scope: Scope
    diags: list[Diagnostic]
    body: list[Stmt] = field(default_factory=list)
    stack: list[Frame] = field(default_factory=list)
    entries: list[EntryPoint] = field(default_factory=list)
    jumps: int = 0  # invented EXIT/CYCLE labels so far
    selects: int = 0  # SELECT CASE selectors held in an invented variable so far

    # ------------------------------------------------------------------ structure
    def current(self) -> list[Stmt]:
        """The statement list new statements go to: the innermost open DO/IF body, else the procedure's."""
        return self.stack[-1].body if self.stack else self.body

    def append(self, stmt: Stmt) -> None:
        """Append a statement to the current body and close the DO loops its label terminates."""
        self.current().append(stmt)
        if stmt.label is not None:
            self.close_label(stmt.label, stmt.loc)

    def close_label(self, label: str, loc: Loc) -> None:
        """Close every DO loop ending at `label` (shared terminals included); unclosed inner blocks are errors."""
        if not any(f.kind == "do" and f.label == label for f in self.stack):
            return
        while self.stack and not (self.stack[-1].kind == "do" and self.stack[-1].label == label):
            frame = self.stack.pop()
            self.error(frame.loc or loc, f"{self.describe(frame)} not closed before DO terminal label {label}")
        while self.stack and self.stack[-1].kind == "do" and self.stack[-1].label == label:
            self.closed(self.stack.pop(), loc)

    def open(self, kind: str, node: Stmt, body: list[Stmt], label: str | None = None) -> None:
        """Append a DO or block IF node and open a frame whose `body` receives the following statements."""
        self.current().append(node)
        self.stack.append(Frame(kind, node, body, label, node.loc))

    def finish(self, end_loc: Loc) -> list[Stmt]:
        """The procedure's statements at END; blocks still open are reported as errors."""
        while self.stack:
            frame = self.stack.pop()
            self.error(frame.loc or end_loc, f"{self.describe(frame)} is not closed before END")
        return self.body

    @staticmethod
    def describe(frame: Frame) -> str:
        """How an open frame is named in error messages ("block IF", "DO loop with terminal label 10")."""
        if frame.kind == "if":
            return "block IF"
        if frame.kind == "select":
            return "SELECT CASE"
        return f"DO loop with terminal label {frame.label}" if frame.label else "DO loop"

    def error(self, loc: Loc, msg: str) -> None:
        """Record an error diagnostic at `loc`."""
        self.diags.append(Diagnostic(loc, "error", msg))

    def unsupported(self, text: str, loc: Loc, label: str | None, msg: str, severity: str = "warning") -> Stmt:
        """An Unsupported statement for `text`, with a diagnostic of `severity` saying why."""
        self.diags.append(Diagnostic(loc, severity, msg))
        return Unsupported(" ".join(text.split()), loc=loc, label=label)

    # ------------------------------------------------------------------ one statement
    def add(self, node: Any, loc: Loc, label: str | None, text: str) -> None:
        """Lower one executable statement (or block delimiter) at `loc`."""
        kind = tname(node)
        try:
            if kind in ("Label_Do_Stmt", "Nonlabel_Do_Stmt"):
                return self.do(node, loc, label)
            if kind == "If_Then_Stmt":
                node_ = If([IfArm(self.cond(node.items[0], loc), [], loc)], loc=loc, label=label)
                return self.open("if", node_, node_.arms[0].body)
            if kind in ("Else_If_Stmt", "Else_Stmt", "End_If_Stmt"):
                return self.if_part(kind, node, loc, label)
            if kind == "Select_Case_Stmt":
                return self.select(node, loc, label)
            if kind in ("Case_Stmt", "End_Select_Stmt"):
                return self.case_part(kind, node, loc, label)
            if kind == "End_Do_Stmt":
                return self.end_do(loc, label)
            if kind == "Entry_Stmt":
                return self.entry(node, loc)
            if kind == "Format_Stmt":
                return None
            stmt = self.action(node, loc, label, text)
        except UnsupportedExpr as exc:
            stmt = self.unsupported(text, loc, label, f"unsupported: {exc}")
        if stmt is not None:
            self.append(stmt)
        return None

    def bad(self, loc: Loc, label: str | None, text: str) -> None:
        """A statement fparser rejected (already reported as an error): keep its place in the flow."""
        self.append(Unsupported(" ".join(text.split()), loc=loc, label=label))

    def cond(self, node: Any, loc: Loc) -> Expr:
        """Lower a condition expression at `loc`."""
        return ExprBuilder(self.scope, loc).expr(node)

    def do(self, node: Any, loc: Loc, label: str | None) -> None:
        """Open a DO loop (counted, DO WHILE or endless) for a DO statement, labelled or block form."""
        term = str(node.items[1]) if tname(node) == "Label_Do_Stmt" else None
        control = node.items[2] if term is not None else node.items[1]
        eb = ExprBuilder(self.scope, loc)
        if control is None:
            loop: Stmt = While(None, [], loc=loc, label=label)
        elif control.items[0] is not None:
            loop = While(eb.expr(control.items[0]), [], loc=loc, label=label)
        else:
            var, bounds = control.items[1]
            index = name_of(var)
            self.scope.note_reference(index, loc)
            ty = self.scope.type_of(index)
            lo, hi = (convert(eb.expr(b), ty) for b in bounds[:2])
            step = convert(eb.expr(bounds[2]), ty) if len(bounds) > 2 and bounds[2] is not None else None
            loop = Do(index, lo, hi, step, [], loc=loc, label=label)
        self.open("do", loop, loop.body, term)  # type: ignore[attr-defined]

    def if_part(self, kind: str, node: Any, loc: Loc, label: str | None) -> None:
        """Handle ELSE IF / ELSE / END IF: start a new arm of, or close, the innermost block IF."""
        while self.stack and self.stack[-1].kind != "if":
            frame = self.stack.pop()
            self.error(frame.loc or loc, f"{self.describe(frame)} not closed before {kind[:-5].upper()}")
        if not self.stack:
            self.error(loc, f"{kind[:-5].upper().replace('_', ' ')} without a block IF")
            return
        frame = self.stack[-1]
        if_node: If = frame.node  # type: ignore[assignment]
        if kind == "Else_If_Stmt":
            arm = IfArm(self.cond(node.items[0], loc), [], loc)
            if_node.arms.append(arm)
            frame.body = arm.body
        elif kind == "Else_Stmt":
            if_node.orelse = []
            frame.body = if_node.orelse
        else:
            self.stack.pop()
            if label is not None:  # a branch to a labelled END IF lands after the construct
                self.append(Continue(loc=loc, label=label))

    def select(self, node: Any, loc: Loc, label: str | None) -> None:
        """Open a SELECT CASE: a block IF with no arm yet; statements before its first CASE are errors."""
        selector = ExprBuilder(self.scope, loc).expr(node.items[0])
        if not isinstance(selector, (Var, Const)):  # evaluated once, as the program does, not once per CASE
            self.selects += 1
            name = f"_SELECT{self.selects}"  # a leading _ is no Fortran name: no clash
            sym = self.scope.symbol(name, loc)
            sym.type = selector.type
            self.append(Assign(Var(name, type=selector.type), selector, loc=loc, label=label))
            selector, label = Var(name, type=selector.type), None
        if_node = If([], loc=loc, label=label)
        self.current().append(if_node)
        self.stack.append(Frame("select", if_node, [], loc=loc, selector=selector))

    def case_part(self, kind: str, node: Any, loc: Loc, label: str | None) -> None:
        """Handle CASE / CASE DEFAULT / END SELECT: start an arm of, or close, the innermost SELECT CASE."""
        while self.stack and self.stack[-1].kind != "select":
            frame = self.stack.pop()
            self.error(frame.loc or loc, f"{self.describe(frame)} not closed before "
                                         f"{'CASE' if kind == 'Case_Stmt' else 'END SELECT'}")
        if not self.stack:
            self.error(loc, f"{'CASE' if kind == 'Case_Stmt' else 'END SELECT'} without a SELECT CASE")
            return
        frame = self.stack[-1]
        if_node: If = frame.node  # type: ignore[assignment]
        if kind == "Case_Stmt":
            values = node.items[0].items[0]
            if values is None:  # CASE DEFAULT
                frame.default = []
                frame.body = frame.default
                return
            # the first test runs each time the SELECT is entered: its line is the SELECT's, as an IF's is
            where = loc if if_node.arms else (frame.loc or loc)
            arm = IfArm(self.case_test(frame.selector, values, loc), [], where)  # type: ignore[arg-type]
            if_node.arms.append(arm)
            frame.body = arm.body
            return
        self.stack.pop()
        if frame.default is not None and not if_node.arms:  # only CASE DEFAULT: it always runs
            if_node.arms.append(IfArm(Const(True, type="logical"), frame.default, frame.loc or loc))
        elif frame.default is not None:
            if_node.orelse = frame.default
        if label is not None:  # a branch to a labelled END SELECT lands after the construct
            self.append(Continue(loc=loc, label=label))

    def case_test(self, selector: Expr, values: Any, loc: Loc) -> Expr:
        """The condition of one CASE: an .OR. of its values and ranges (`lo:`, `:hi`, `lo:hi`) against the
        selector; a LOGICAL selector is tested with .EQV., as the standard defines it."""
        eb = ExprBuilder(self.scope, loc)
        equal = ".EQV." if selector.type == "logical" else "=="
        tests: list[Expr] = []
        for item in items_of(values):
            if tname(item) != "Case_Value_Range":
                tests.append(eb.binop(equal, selector, eb.expr(item)))
                continue
            low, high = item.items
            bounds = [eb.binop("<=", eb.expr(low), selector)] if low is not None else []
            bounds += [eb.binop("<=", selector, eb.expr(high))] if high is not None else []
            tests.append(bounds[0] if len(bounds) == 1 else eb.binop(".AND.", bounds[0], bounds[1]))
        test = tests[0]
        for other in tests[1:]:
            test = eb.binop(".OR.", test, other)
        return test

    def end_do(self, loc: Loc, label: str | None) -> None:
        """Handle END DO: close the innermost block DO (or act as a labelled DO's terminal statement)."""
        if label is not None and any(f.kind == "do" and f.label == label for f in self.stack):
            self.append(Continue(loc=loc, label=label))
            return
        if not self.stack or self.stack[-1].kind != "do" or self.stack[-1].label is not None:
            self.error(loc, "END DO without a matching DO")
            return
        if label is not None:
            self.current().append(Continue(loc=loc, label=label))
        self.closed(self.stack.pop(), loc)

    def closed(self, frame: Frame, loc: Loc) -> None:
        """A DO loop ends: place the targets its CYCLE and EXIT statements jump to, as the C frontend
        does for continue and break."""
        if frame.cycle_label is not None:
            frame.body.append(Continue(loc=frame.loc or loc, label=frame.cycle_label))
        if frame.exit_label is not None:
            self.current().append(Continue(loc=frame.loc or loc, label=frame.exit_label))

    def loop_jump(self, node: Any, loc: Loc, label: str | None, text: str) -> Stmt:
        """EXIT and CYCLE: a jump out of the innermost DO loop or to the end of its body."""
        frame = next((f for f in reversed(self.stack) if f.kind == "do"), None)
        if node.items[1] is not None or frame is None:
            why = "a construct name" if frame is not None else "no enclosing DO loop"
            return self.unsupported(text, loc, label, f"unsupported: {node.items[0]} with {why}",
                                    "warning" if frame is not None else "error")
        self.jumps += 1
        if node.items[0].upper() == "EXIT":
            frame.exit_label = frame.exit_label or f".exit{self.jumps}"
            return Goto(frame.exit_label, loc=loc, label=label)
        if frame.label is not None and sum(f.label == frame.label for f in self.stack) == 1:
            return Goto(frame.label, loc=loc, label=label)  # the terminal statement ends the iteration
        frame.cycle_label = frame.cycle_label or f".cycle{self.jumps}"
        return Goto(frame.cycle_label, loc=loc, label=label)

    def entry(self, node: Any, loc: Loc) -> None:
        """Record an ENTRY point (its formals become formal storage) at the current statement position."""
        formals = [name_of(a) for a in items_of(node.items[1]) if str(a).strip() != "*"]
        for name in formals:
            sym = self.scope.symbol(name, loc)
            if sym.storage == "local":
                sym.storage = "formal"
        if self.stack:
            self.error(loc, "ENTRY inside a DO loop or block IF")
        self.entries.append(EntryPoint(name_of(node.items[0]), formals, loc, len(self.body)))

    # ------------------------------------------------------------------ action statements
    def action(self, node: Any, loc: Loc, label: str | None, text: str) -> Stmt | None:
        """Lower an executable statement that opens no block to its IR statement (None when it produces none)."""
        kind = tname(node)
        eb = ExprBuilder(self.scope, loc)
        if kind == "Assignment_Stmt":
            target = eb.expr(node.items[0])
            return Assign(target, convert(eb.expr(node.items[2]), target.type), loc=loc, label=label)
        if kind == "Call_Stmt":
            return self.call(node, eb, loc, label)
        if kind == "Goto_Stmt":
            return Goto(str(node.items[0]), loc=loc, label=label)
        if kind == "Computed_Goto_Stmt":
            return ComputedGoto([str(x) for x in items_of(node.items[0])], eb.expr(node.items[1]),
                                loc=loc, label=label)
        if kind == "Arithmetic_If_Stmt":
            return ArithmeticIf(eb.expr(node.items[0]), str(node.items[1]), str(node.items[2]),
                                str(node.items[3]), loc=loc, label=label)
        if kind == "If_Stmt":
            inner = self.action(node.items[1], loc, None, str(node.items[1]))
            if inner is None:
                inner = Continue(loc=loc)
            return If([IfArm(eb.expr(node.items[0]), [inner], loc)], loc=loc, label=label, logical=True)
        if kind == "Continue_Stmt":
            return Continue(loc=loc, label=label)
        if kind in ("Exit_Stmt", "Cycle_Stmt"):
            return self.loop_jump(node, loc, label, text)
        if kind == "Return_Stmt":
            alt = eb.expr(node.items[0]) if node.items[0] is not None else None
            return Return(alt=alt, loc=loc, label=label)
        if kind == "Stop_Stmt":
            return Stop(self.stop_code(node, eb), loc=loc, label=label)
        if kind in IO_KINDS:
            return self.io(IO_KINDS[kind], node, eb, loc, label)
        if kind == "Format_Stmt":
            return None
        if kind in ("Data_Stmt",):
            from .decls import declare
            declare(node, self.scope, loc, self.diags)
            return None
        return self.unsupported(text, loc, label, f"unsupported statement: {_short(text)}")

    def stop_code(self, node: Any, eb: ExprBuilder) -> Expr | None:
        """The code of a STOP or PAUSE statement as a constant or expression, or None without one."""
        code = node.items[1] if len(node.items) > 1 else None
        if code is None:
            return None
        if tname(code) == "Stop_Code":
            text = str(code).strip()
            return Const(int(text), type="integer") if text.isdigit() else Const(text, type="character")
        return eb.expr(code)

    def call(self, node: Any, eb: ExprBuilder, loc: Loc, label: str | None) -> Stmt:
        """Lower a CALL, including the markers the rewriter uses for PAUSE, ASSIGN and assigned GOTO."""
        name = name_of(node.items[0])
        raw = items_of(node.items[1])
        if name == rewrite.MARK_PAUSE:
            return Pause(loc=loc, label=label)
        if name == rewrite.MARK_ASSIGN:
            var = name_of(raw[1])
            self.scope.note_reference(var, loc)
            return AssignLabel(str(int(str(raw[0]))), var, loc=loc, label=label)
        if name == rewrite.MARK_AGOTO:
            var = name_of(raw[0])
            self.scope.note_reference(var, loc)
            return AssignedGoto(var, [str(int(str(x))) for x in raw[1:]], loc=loc, label=label)
        args: list[Expr] = []
        alt: list[str] = []
        for item in raw:
            if tname(item) == "Alt_Return_Spec":
                alt.append(str(item.items[0]))
            else:
                args.extend(eb.args(item))
        msg = message_for(name, args, loc, label)
        if msg is not None:
            return msg
        link = eb.specific(name, args)[0] if name in self.scope.generics else self.scope.linkage.get(name, name)
        return CallStmt(link, args, alt_returns=alt, loc=loc, label=label)

    def io(self, kind: str, node: Any, eb: ExprBuilder, loc: Loc, label: str | None) -> Stmt:
        """An IO statement of `kind` with its END=/ERR= labels and transferred items."""
        specs, item_nodes = _io_parts(kind, node)
        stmt = IO(kind, loc=loc, label=label)
        for spec in specs:
            key = str(spec.items[0]).upper() if len(spec.items) == 2 and isinstance(spec.items[0], str) else ""
            if key == "END":
                stmt.end_label = str(spec.items[1])
            elif key == "ERR":
                stmt.err_label = str(spec.items[1])
        for item in item_nodes:
            stmt.items.extend(self.io_items(item, eb))
        if kind == "read":
            stmt.targets = [e for e in stmt.items if isinstance(e, (Var, ArrayRef, Substring))]
        return stmt

    def io_items(self, node: Any, eb: ExprBuilder) -> list[Expr]:
        """The expressions an I/O list item transfers (implied DO lists flattened)."""
        if tname(node) == "Io_Implied_Do":
            control = node.items[1]
            self.scope.note_reference(name_of(control.items[0]), eb.loc)
            out: list[Expr] = []
            for inner in items_of(node.items[0]):
                out.extend(self.io_items(inner, eb))
            return out
        return [eb.expr(node)]


def _io_parts(kind: str, node: Any) -> tuple[list[Any], list[Any]]:
    """(control specs, transferred items) of an fparser2 I/O statement."""
    name = tname(node)
    if name == "Read_Stmt":
        return items_of(node.items[0]), items_of(node.items[2])
    if name == "Write_Stmt":
        return items_of(node.items[0]), items_of(node.items[1])
    if name == "Print_Stmt":
        return [], items_of(node.items[1])
    if name in ("Open_Stmt", "Close_Stmt"):
        return items_of(node.items[1]), []
    if name == "Inquire_Stmt":
        return items_of(node.items[0]), []
    return items_of(node.items[1]) if len(node.items) > 1 else [], []


def _short(text: str) -> str:
    text = " ".join(text.split())
    return text if len(text) <= 60 else text[:57] + "..."
