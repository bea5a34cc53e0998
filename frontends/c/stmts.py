"""C statements and function bodies → IR statements and Procedures.

Data flow: `unit` hands each user FuncDef to `StmtLowerer.function`; statements are lowered here, expressions
by `exprs.ExprLowerer`, declarations by `decls.DeclLowerer`, canonical for-loops recognised by `loops`.

Lowering conventions (see also sad.ir):
- canonical for → Do(index, lo, hi, step) with hi inclusive (i < n → n - 1, i > n → n + 1; step None for
  +1); other for → init statements + While(cond, body + increment); while → While; do-while → While(
  test_at_end=True); `do { } while (0)` → its body. A constant-true condition is None (infinite loop).
- break / continue → Goto to invented labels ".brkN" / ".contN", placed on Continue statements after the loop
  / at the end of its body (before the increment); only emitted when used.
- switch → ComputedGoto(targets, selector, default, cases) then the body with a labelled Continue at each
  case (".swN.caseK", ".swN.default") so fall-through is ordinary sequence; default is ".swN.end" (a Continue
  after the body) when there is no `default:`.
- a C label → a Continue carrying the label, before the labelled statement; goto → Goto.
- in statement context `x = c ? a : b`, `c ? f() : g()`, `return c ? a : b` and conditions of `if` using
  && / || lower to nested If statements (the other arm is duplicated when it is small and has no labels;
  otherwise the condition stays BinOp("and"/"or")). Loop conditions keep && / || as BinOps.
- exit()/abort() → Stop; stdio → IO; MPI_* → Message (see `library`).
"""
from __future__ import annotations

import copy
from collections.abc import Callable

from pycparser import c_ast

from sad import ir

from . import consteval, loops
from . import typesys as ts
from .context import JumpFrame, ProcState, Symbol, UnitContext, ctype_of, set_ctype
from .decls import DeclLowerer
from .exprs import Effects, ExprLowerer, c_text
from .mathlib import POW_NAMES, intrinsic_name
from .switchchain import as_if_chain

Thunk = Callable[[], list[ir.Stmt]]
_DUP_LIMIT = 60  # AST nodes an arm may have to be duplicated by && / || lowering


def _dup_ok(node: c_ast.Node | None) -> bool:
    if node is None:
        return True
    for count, n in enumerate(loops.walk(node), start=1):
        if count > _DUP_LIMIT or isinstance(n, (c_ast.Label, c_ast.Case, c_ast.Default)):
            return False
    return True


def _selected(stmts: list[ir.Stmt], select: c_ast.TernaryOp) -> list[ir.Stmt]:
    """Mark the If a `c ? a : b` became (one test, one arm and an else) as a select, with what its operands
    are: compilers lay its arms out in an order of their own, which the gcov reader must know."""
    last = stmts[-1] if stmts else None
    if isinstance(last, ir.If) and len(last.arms) == 1 and last.orelse is not None:
        last.select = [_operand_kind(select.iftrue), _operand_kind(select.iffalse)]
    return stmts


def _operand_kind(node: c_ast.Node) -> str:
    """constant (a literal, negated or cast: folded to a constant), variable (a plain name; a cast name is a
    conversion, not a variable) or other."""
    inner = node
    while isinstance(inner, c_ast.Cast) or (isinstance(inner, c_ast.UnaryOp) and inner.op in ("-", "+")):
        inner = inner.expr
    if isinstance(inner, c_ast.Constant):
        return "constant"
    return "variable" if isinstance(node, c_ast.ID) else "other"


class StmtLowerer:
    """Lowers C function definitions and statements to IR procedures and statement lists."""
    def __init__(self, ctx: UnitContext) -> None:
        self.ctx = ctx
        self.ex = ExprLowerer(ctx)
        self.decls = DeclLowerer(ctx, self.ex)
        self.body: c_ast.Node | None = None      # the function being lowered (its fixed names asked lazily)
        self._fixed: dict[str, c_ast.Node] | None = None

    # ---------------------------------------------------------------------------------------- functions
    def function(self, fd: c_ast.FuncDef) -> ir.Procedure:
        """Lower a function definition to an IR procedure (formals, body, variables, end line)."""
        ctx = self.ctx
        decl = fd.decl
        name = decl.name
        ftype = ctx.types.convert(decl.type)
        if not isinstance(ftype, ts.Func):
            ftype = ts.Func(ts.INT, [])
        ctx.symbols.add_global(Symbol(name, ftype, kind="func", user=True, defined=True))
        loc = ctx.loc_of(fd)
        ctx.loc = loc
        ctx.proc = ProcState(name, ftype.ret)
        self.body, self._fixed = fd.body, None
        ctx.symbols.push()
        ctx.types.push()
        formals: list[str] = []
        try:
            params = decl.type.args.params if isinstance(decl.type, c_ast.FuncDecl) and decl.type.args else []
            knr = {d.name: d for d in (fd.param_decls or []) if isinstance(d, c_ast.Decl)}
            for p in params:
                if isinstance(p, c_ast.ID):  # K&R identifier list
                    d = knr.get(p.name) or c_ast.Decl(p.name, [], [], [], [], c_ast.TypeDecl(
                        p.name, [], None, c_ast.IdentifierType(["int"])), None, None, coord=p.coord)
                    p = d
                if isinstance(p, c_ast.Decl):
                    f = self.decls.formal(p)
                    if f is not None:
                        formals.append(f)
            body = self.block(fd.body)
            variables = ctx.proc.variables
        finally:
            ctx.types.pop()
            ctx.symbols.pop()
            ctx.proc = None
        rtype = ts.ir_type(ftype.ret)
        kind = "program" if name == "main" else ("subroutine" if rtype == "void" else "function")
        return ir.Procedure(name, kind, formals, body, loc, "c", result_type=rtype, variables=variables,
                            end_line=self.end_line(fd, loc))

    @staticmethod
    def end_line(fd: c_ast.FuncDef, loc: ir.Loc) -> int:
        """The last source line of the function's body in its own file."""
        last = loc.line
        for n in loops.walk(fd.body):
            coord = getattr(n, "coord", None)
            if coord is not None and coord.file == loc.file and coord.line and coord.line > last:
                last = coord.line
        return last

    # --------------------------------------------------------------------------------------- statements
    def block(self, node: c_ast.Node | None) -> list[ir.Stmt]:
        """The IR statements of a (possibly absent) statement or compound."""
        out: list[ir.Stmt] = []
        if node is not None:
            self.stmt(node, out)
        return out

    def stmt(self, node: c_ast.Node, out: list[ir.Stmt]) -> None:
        """Lower one C statement into `out`, located at its own line."""
        saved = self.ctx.loc
        self.ctx.loc = self.ctx.loc_of(node)
        try:
            method = getattr(self, "_" + type(node).__name__, None)
            if method is not None:
                method(node, out)
            else:
                self.expression_statement(node, out)
        finally:
            self.ctx.loc = saved

    def _Compound(self, node: c_ast.Compound, out: list[ir.Stmt]) -> None:
        self.ctx.symbols.push()
        self.ctx.types.push()
        try:
            for item in node.block_items or []:
                self.stmt(item, out)
        finally:
            self.ctx.types.pop()
            self.ctx.symbols.pop()

    def _Decl(self, node: c_ast.Decl, out: list[ir.Stmt]) -> None:
        out.extend(self.decls.declaration(node, file_scope=False))

    def _DeclList(self, node: c_ast.DeclList, out: list[ir.Stmt]) -> None:
        for d in node.decls or []:
            self.stmt(d, out)

    def _Typedef(self, node: c_ast.Typedef, out: list[ir.Stmt]) -> None:
        self.decls.typedef(node)

    def _EmptyStatement(self, node: c_ast.EmptyStatement, out: list[ir.Stmt]) -> None:
        out.append(ir.Continue(loc=self.ctx.loc))

    def _Pragma(self, node: c_ast.Node, out: list[ir.Stmt]) -> None:
        return

    _StaticAssert = _Pragma

    def _Label(self, node: c_ast.Label, out: list[ir.Stmt]) -> None:
        out.append(ir.Continue(loc=self.ctx.loc, label=node.name))
        if node.stmt is not None:
            self.stmt(node.stmt, out)

    def _Goto(self, node: c_ast.Goto, out: list[ir.Stmt]) -> None:
        out.append(ir.Goto(node.name, loc=self.ctx.loc))

    def _Return(self, node: c_ast.Return, out: list[ir.Stmt]) -> None:
        if isinstance(node.expr, c_ast.TernaryOp):
            t = node.expr
            out.extend(_selected(self.branch(
                t.cond,
                lambda: self.block(c_ast.Return(t.iftrue, coord=node.coord)),
                lambda: self.block(c_ast.Return(t.iffalse, coord=node.coord)),
                _dup_ok(t.iftrue), _dup_ok(t.iffalse)), t))
            return
        fx = Effects()
        value = None
        if node.expr is not None:
            value = self.ex.rvalue(node.expr, fx)
            assert self.ctx.proc is not None
            value = self.ex.convert(value, self.ctx.proc.result)
        out.extend(fx.pre)
        out.append(ir.Return(value, loc=self.ctx.loc))

    def _Break(self, node: c_ast.Break, out: list[ir.Stmt]) -> None:
        frames = self.ctx.proc.jumps if self.ctx.proc else []
        if not frames:
            self.ctx.diag(node, "error", "'break' outside a loop or switch")
            return
        frame = frames[-1]
        frame.brk_used = True
        out.append(ir.Goto(frame.brk, loc=self.ctx.loc))

    def _Continue(self, node: c_ast.Continue, out: list[ir.Stmt]) -> None:
        frames = [f for f in (self.ctx.proc.jumps if self.ctx.proc else []) if f.kind == "loop"]
        if not frames:
            self.ctx.diag(node, "error", "'continue' outside a loop")
            return
        frame = frames[-1]
        frame.cont_used = True
        assert frame.cont is not None
        out.append(ir.Goto(frame.cont, loc=self.ctx.loc))

    # ------------------------------------------------------------------------------ expression statements
    def expression_statement(self, node: c_ast.Node, out: list[ir.Stmt]) -> None:
        """Lower an expression used as a statement (ternaries and comma lists become branches/sequences)."""
        if isinstance(node, c_ast.TernaryOp):
            out.extend(_selected(self.branch(node.cond, lambda: self.block(node.iftrue),
                                             lambda: self.block(node.iffalse), _dup_ok(node.iftrue),
                                             _dup_ok(node.iffalse)), node))
            return
        if isinstance(node, c_ast.Assignment) and isinstance(node.rvalue, c_ast.TernaryOp):
            t = node.rvalue
            out.extend(_selected(self.branch(
                t.cond,
                lambda: self.block(c_ast.Assignment(node.op, node.lvalue, t.iftrue, coord=node.coord)),
                lambda: self.block(c_ast.Assignment(node.op, node.lvalue, t.iffalse, coord=node.coord)),
                _dup_ok(t.iftrue), _dup_ok(t.iffalse)), t))
            return
        if isinstance(node, c_ast.Cast) and isinstance(node.expr, c_ast.TernaryOp):
            self.expression_statement(node.expr, out)
            return
        if isinstance(node, c_ast.ExprList):
            for e in node.exprs or []:
                self.stmt(e, out)
            return
        out.extend(self.ex.statement(node))

    # ------------------------------------------------------------------------------------------ branches
    def _If(self, node: c_ast.If, out: list[ir.Stmt]) -> None:
        else_t: Thunk | None = (lambda: self.block(node.iffalse)) if node.iffalse is not None else None
        out.extend(self.branch(node.cond, lambda: self.block(node.iftrue), else_t,
                               _dup_ok(node.iftrue), _dup_ok(node.iffalse)))

    def branch(self, cond: c_ast.Node, then_t: Thunk, else_t: Thunk | None, dup_then: bool,
               dup_else: bool) -> list[ir.Stmt]:
        """`if (cond) then else else`, splitting && and || into nested Ifs where the duplicated arm allows."""
        loc = self.ctx.loc_of(cond) if getattr(cond, "coord", None) else self.ctx.loc
        if isinstance(cond, c_ast.BinaryOp) and cond.op == "&&" and (else_t is None or dup_else):
            right = cond.right
            inner: Thunk = lambda: self.branch(right, then_t, else_t, dup_then, dup_else)
            return self.branch(cond.left, inner, else_t, dup_then and dup_else, dup_else)
        if isinstance(cond, c_ast.BinaryOp) and cond.op == "||" and dup_then:
            right = cond.right
            inner_else: Thunk = lambda: self.branch(right, then_t, else_t, dup_then, dup_else)
            return self.branch(cond.left, then_t, inner_else, dup_then, dup_then and dup_else)
        if isinstance(cond, c_ast.UnaryOp) and cond.op == "!" and isinstance(cond.expr, c_ast.BinaryOp) \
                and cond.expr.op in ("&&", "||"):
            return self.branch(cond.expr, else_t or (lambda: []), then_t, dup_else, dup_then)
        fx = Effects()
        saved = self.ctx.loc
        self.ctx.loc = loc
        try:
            c = self.ex.condition(cond, fx)
        finally:
            self.ctx.loc = saved
        then = then_t()
        orelse = else_t() if else_t is not None else None
        if fx.post:
            then = copy.deepcopy(fx.post) + then
            orelse = copy.deepcopy(fx.post) + (orelse or [])
        arms = [ir.IfArm(c, then, loc)]
        # `else if` continues the chain; an else that is a select (`else x = c ? a : b;`) stays an If of its
        # own: merged, its test of data would make the chain's tests of loop indices probabilities too
        if orelse is not None and len(orelse) == 1 and isinstance(orelse[0], ir.If) \
                and orelse[0].label is None and not orelse[0].logical and orelse[0].select is None:
            nested = orelse[0]
            arms.extend(nested.arms)
            orelse = nested.orelse
        return fx.pre + [ir.If(arms, orelse, loc=self.ctx.loc)]

    def _Switch(self, node: c_ast.Switch, out: list[ir.Stmt]) -> None:
        assert self.ctx.proc is not None
        fx = Effects()
        selector = self.ex.rvalue(node.cond, fx)
        n = self.ctx.proc.new_id()
        frame = JumpFrame("switch", brk=f".sw{n}.end")
        frame.sw_id = n  # type: ignore[attr-defined]
        self.ctx.proc.jumps.append(frame)
        try:
            body = self.block(node.stmt)
        finally:
            self.ctx.proc.jumps.pop()
        loc = self.ctx.loc
        if not (fx.pre or fx.post or any(True for _ in ir.calls_in(selector))):
            # (a selector with effects or calls would be evaluated once per arm of an if chain)
            pre, tested = self._switch_value(node, selector, n)
            chain = as_if_chain(tested, frame, body, loc)
            if chain is not None:
                out.extend(pre + [chain])
                return
        out.extend(fx.pre + fx.post)
        out.append(ir.ComputedGoto(frame.targets, selector, default=frame.default or frame.brk,
                                   cases=frame.cases, loc=loc))
        out.extend(body)
        if frame.default is None or frame.brk_used:
            out.append(ir.Continue(loc=loc, label=frame.brk))

    def _switch_value(self, node: c_ast.Switch, selector: ir.Expr, n: int) -> tuple[list[ir.Stmt], ir.Expr]:
        """(statements to run first, the selector an if chain tests): the lowered ``selector`` where the switch
        names a variable or constant, else a hidden variable set once before the chain, so that each arm's test
        does not compute it again."""
        pre: list[ir.Stmt] = []
        if isinstance(node.cond, (c_ast.ID, c_ast.Constant)):
            return pre, selector
        coord = node.coord
        hidden = f"__sw{n}_value"
        int_type = c_ast.TypeDecl(hidden, [], None, c_ast.IdentifierType(["long"]), coord=coord)
        self.stmt(c_ast.Decl(hidden, [], [], [], [], int_type, None, None, coord=coord), pre)
        self.stmt(c_ast.Assignment("=", c_ast.ID(hidden, coord=coord), node.cond, coord=coord), pre)
        return pre, self.ex.rvalue(c_ast.ID(hidden, coord=coord), Effects())

    def _switch_frame(self, node: c_ast.Node) -> JumpFrame | None:
        for frame in reversed(self.ctx.proc.jumps if self.ctx.proc else []):
            if frame.kind == "switch":
                return frame
        self.ctx.diag(node, "error", "case label outside a switch")
        return None

    def _Case(self, node: c_ast.Case, out: list[ir.Stmt]) -> None:
        frame = self._switch_frame(node)
        if frame is not None:
            fx = Effects()
            value = self.ex.rvalue(node.expr, fx)
            value = consteval.fold(value, self.ctx.const_lookup) or value
            last = out[-1] if out else None
            if isinstance(last, ir.Continue) and last.label in frame.targets:
                frame.cases[frame.targets.index(last.label)].append(value)
            else:
                frame.case_count += 1
                label = f".sw{frame.sw_id}.case{frame.case_count}"  # type: ignore[attr-defined]
                frame.targets.append(label)
                frame.cases.append([value])
                out.append(ir.Continue(loc=self.ctx.loc, label=label))
        for s in node.stmts or []:
            self.stmt(s, out)

    def _Default(self, node: c_ast.Default, out: list[ir.Stmt]) -> None:
        frame = self._switch_frame(node)
        if frame is not None:
            label = f".sw{frame.sw_id}.default"  # type: ignore[attr-defined]
            frame.default = label
            out.append(ir.Continue(loc=self.ctx.loc, label=label))
        for s in node.stmts or []:
            self.stmt(s, out)

    # --------------------------------------------------------------------------------------------- loops
    def loop_body(self, body: c_ast.Node | None) -> tuple[list[ir.Stmt], JumpFrame]:
        """Lower a loop body with its own break/continue labels; returns the statements and that jump frame."""
        assert self.ctx.proc is not None
        n = self.ctx.proc.new_id()
        frame = JumpFrame("loop", brk=f".brk{n}", cont=f".cont{n}")
        self.ctx.proc.jumps.append(frame)
        try:
            stmts = self.block(body)
        finally:
            self.ctx.proc.jumps.pop()
        return stmts, frame

    def _loop_cond(self, cond: c_ast.Node | None, fx: Effects) -> ir.Expr | None:
        if cond is None:
            return None
        c = self.ex.condition(cond, fx)
        if isinstance(c, ir.Const) and c.value:
            return None
        return c

    def _While(self, node: c_ast.While, out: list[ir.Stmt]) -> None:
        self._lower_while(node.cond, node.stmt, None, out)

    def _lower_while(self, cond_node, stmt_node, next_node, out: list[ir.Stmt]) -> None:
        """`while (cond) stmt`, and a for loop that is not counted (`next` runs after the body and the
        `continue` target): the condition's side effects before the loop, after the test, and again
        at the end of each trip."""
        loc = self.ctx.loc
        fx = Effects()
        cond = self._loop_cond(cond_node, fx)
        body, frame = self.loop_body(stmt_node)
        body = copy.deepcopy(fx.post) + body
        if frame.cont_used:
            body.append(ir.Continue(loc=loc, label=frame.cont))
        if next_node is not None:
            self.stmt(next_node, body)
        body.extend(copy.deepcopy(fx.pre))
        out.extend(fx.pre)
        out.append(ir.While(cond, body, loc=loc))
        out.extend(fx.post)
        if frame.brk_used:
            out.append(ir.Continue(loc=loc, label=frame.brk))

    def _DoWhile(self, node: c_ast.DoWhile, out: list[ir.Stmt]) -> None:
        loc = self.ctx.loc
        body, frame = self.loop_body(node.stmt)
        if frame.cont_used:
            body.append(ir.Continue(loc=loc, label=frame.cont))
        fx = Effects()
        saved = self.ctx.loc
        self.ctx.loc = self.ctx.loc_of(node.cond)
        try:
            c = self.ex.condition(node.cond, fx) if node.cond is not None else None
        finally:
            self.ctx.loc = saved
        if isinstance(c, ir.Const) and not c.value and fx.empty:
            out.extend(body)  # do { ... } while (0)
        else:
            c, fx = _tested_before(c, fx)
            body.extend(fx.pre + fx.post)
            cond = None if isinstance(c, ir.Const) and c.value else c
            out.append(ir.While(cond, body, test_at_end=True, loc=loc))
        if frame.brk_used:
            out.append(ir.Continue(loc=loc, label=frame.brk))

    def _For(self, node: c_ast.For, out: list[ir.Stmt]) -> None:
        self.ctx.symbols.push()
        self.ctx.types.push()
        try:
            shape = loops.match_for(node)
            if shape is not None and self._do_loop(node, shape, out):
                return
            if shape is not None and self._pointer_loop(node, shape, out):
                return
            geometric = loops.match_geometric(node) if shape is None else None
            if geometric is not None and self._geometric_loop(node, geometric, out):
                return
            self._while_for(node, out)
        finally:
            self.ctx.types.pop()
            self.ctx.symbols.pop()

    def _pure(self, node: c_ast.Node | None) -> bool:
        """No assignments, ++/-- or calls other than math intrinsics (a bound evaluated once is the same)."""
        for n in loops.walk(node):
            if isinstance(n, c_ast.FuncCall):
                name = n.name.name if isinstance(n.name, c_ast.ID) else None
                if name is None or name in self.ctx.defined_functions or \
                        not (name in POW_NAMES or intrinsic_name(name) is not None):
                    return False
            elif isinstance(n, c_ast.Assignment) or (isinstance(n, c_ast.UnaryOp)
                                                     and n.op in ("++", "--", "p++", "p--")):
                return False
        return True

    def _integer_index(self, index: str, decl: c_ast.Decl | None) -> bool:
        """Whether a for loop's index (declared in the for, or before it) is of an integer type."""
        if decl is None:
            sym = self.ctx.symbols.get(index)
            return sym is not None and ts.is_integer(sym.ctype)
        return ts.is_integer(self.ctx.types.convert(decl.type))

    def _signed_index(self, index: str, decl: c_ast.Decl | None) -> bool:
        """Whether a for loop's index is of a signed integer type (its arithmetic does not wrap)."""
        ctype = self.ctx.types.convert(decl.type) if decl is not None else getattr(
            self.ctx.symbols.get(index), "ctype", None)
        return ts.is_integer(ctype) and not getattr(ctype, "unsigned", True)

    def _do_loop(self, node: c_ast.For, shape: loops.ForShape, out: list[ir.Stmt]) -> bool:
        """Lower a syntactically canonical loop to Do if the semantic checks pass; False to fall back."""
        written = loops.written_names([node.stmt] + list(shape.other_next))
        if shape.index in written:
            return False
        if (loops.names_in(shape.bound) | loops.names_in(shape.step)) & written:
            return False
        if not self._pure(shape.bound) or not self._pure(shape.step):
            return False
        if not self._integer_index(shape.index, shape.index_decl):
            return False
        if shape.shifted and not self._signed_index(shape.index, shape.index_decl):
            return False   # `i - 1 < n` at an unsigned i = 0 wraps: not `i < n + 1`
        # the bound must be an integer expression
        probe = self.ex.lower_silent(shape.bound)
        if probe.type != "integer":
            return False
        loc = self.ctx.loc
        pre: list[ir.Stmt] = []
        for item in shape.other_init:
            self.stmt(item, pre)
        if shape.index_decl is not None:
            d = copy.copy(shape.index_decl)
            d.init = None
            self.stmt(d, pre)
        fx = Effects()
        lo = self.ex.convert(self.ex.rvalue(shape.lo, fx), ts.INT)
        bfx = Effects()
        bound = self.ex.rvalue(shape.bound, bfx)
        if shape.step_const is not None:
            step: ir.Expr | None = None if shape.step_const == 1 else ir.Const(shape.step_const, type="integer")
        else:
            s = self.ex.rvalue(shape.step, bfx)
            step = s if shape.sign > 0 else set_ctype(ir.UnOp("neg", s), ctype_of(s))
        if not bfx.empty:
            return False
        if shape.cmp == "<" or (shape.cmp == "!=" and shape.sign > 0):
            hi = consteval.offset(bound, -1)
        elif shape.cmp == ">" or (shape.cmp == "!=" and shape.sign < 0):
            hi = consteval.offset(bound, 1)
        else:
            hi = bound
        body, frame = self.loop_body(node.stmt)
        if frame.cont_used:
            body.append(ir.Continue(loc=loc, label=frame.cont))
        for item in shape.other_next:
            body.extend(self.ex.statement(item))
        out.extend(pre + fx.pre + fx.post)
        out.append(ir.Do(shape.index, lo, hi, step, body, loc=loc))
        if frame.brk_used:
            out.append(ir.Continue(loc=loc, label=frame.brk))
        return True

    def _pointer_loop(self, node: c_ast.For, shape: loops.ForShape, out: list[ir.Stmt]) -> bool:
        """A for loop that walks a pointer over one array by a constant step, ``for (p = a; p < a + n; p++)``,
        ``for (p = &x[1], e = &x[n]; p != e; ++p)``: lowered to a counted loop over a hidden offset k from the
        start's offset to the bound's, with p = a + k at the top of each trip (and past the last one after
        it) and the body's ``*p``, ``p[e]``, ``*(p + e)`` read as ``a[k]``, ``a[k + e]``, so that its counts are
        exact and its references are the array's (a while loop would leave a named count and no stream).
        False to fall back: another base or an offset the body changes, a step that is no constant, an
        index of another type."""
        index, hidden = shape.index, f"__{shape.index}_offset"
        sym = self.ctx.symbols.get(index) if shape.index_decl is None else None
        if shape.index_decl is not None or sym is None or not isinstance(sym.ctype, ts.Pointer) \
                or shape.step_const is None or shape.bound is None:
            return False
        own = {it.lvalue.name: it.rvalue for it in shape.other_init
               if isinstance(it, c_ast.Assignment) and it.op == "=" and isinstance(it.lvalue, c_ast.ID)}
        ends = {**self.fixed, **own}
        start, stop = self._base_offset(shape.lo, self.fixed), self._base_offset(shape.bound, ends)
        if start is None or stop is None or not c_text(start[0]) == c_text(stop[0]) != "?":   # one base, printable
            return False
        written = loops.written_names([node.stmt] + list(shape.other_next))   # `*p = x` writes no p: asked apart
        if _moves(index, [node.stmt] + list(shape.other_next)) or \
                (loops.names_in(start[0]) | loops.names_in(start[1]) | loops.names_in(stop[1])) & (written | {index}):
            return False
        base, coord = start[0], node.coord
        at = c_ast.Assignment("=", c_ast.ID(index, coord=coord), c_ast.BinaryOp(
            "+", copy.deepcopy(base), c_ast.ID(hidden, coord=coord), coord=coord), coord=coord)
        decl = c_ast.Decl(hidden, [], [], [], [], c_ast.TypeDecl(hidden, [], None, c_ast.IdentifierType(["long"]),
                                                                  coord=coord), start[1], None, coord=coord)
        step = c_ast.Assignment("+=", c_ast.ID(hidden, coord=coord), c_ast.Constant("int", str(shape.step_const),
                                                                                    coord=coord), coord=coord)
        body = c_ast.Compound([copy.deepcopy(at), _dereferenced(copy.deepcopy(node.stmt), index, base, hidden)],
                              coord=node.stmt.coord)
        counted = c_ast.For(c_ast.DeclList([decl], coord=coord),
                            c_ast.BinaryOp(shape.cmp, c_ast.ID(hidden, coord=coord), stop[1], coord=coord),
                            step, body, coord=coord)
        offsets = loops.match_for(counted)
        if offsets is None:
            return False
        for item in shape.other_init:
            self.stmt(item, out)
        lowered: list[ir.Stmt] = []
        if not self._do_loop(counted, offsets, lowered):
            return False
        out.extend(lowered)
        out.extend(self.ex.statement(at))     # the pointer past the last trip, as the for leaves it
        return True

    @property
    def fixed(self) -> dict[str, c_ast.Node]:
        """The function's names set once where declared (``_fixed_names``), found at the first pointer walk."""
        if self._fixed is None:
            self._fixed = _fixed_names(self.body)
        return self._fixed

    def _base_offset(self, node: c_ast.Node | None, names: dict[str, c_ast.Node]
                     ) -> tuple[c_ast.Node, c_ast.Node] | None:
        """(array or pointer, integer offset) of a pointer expression: ``a``, ``a + e``, ``e + a``, ``&a[e]``, or a
        name ``names`` gives one of those for (the for's own init, a pointer the function sets once where it
        declares it: ``double *end = a + N;``); None otherwise."""
        zero = c_ast.Constant("int", "0", coord=node.coord if node is not None else None)
        if isinstance(node, c_ast.ID) and node.name in names:
            return self._base_offset(names[node.name], {})
        if isinstance(node, c_ast.UnaryOp) and node.op == "&" and isinstance(node.expr, c_ast.ArrayRef):
            return (node.expr.name, node.expr.subscript) if self._pointer(node.expr.name) else None
        if isinstance(node, c_ast.BinaryOp) and node.op in ("+", "-"):
            ahead, behind = (node.left, node.right) if self._pointer(node.left) else (node.right, node.left)
            if self._pointer(behind) or (node.op == "-" and ahead is not node.left):
                return None
            inner = self._base_offset(ahead, {})
            if inner is None:
                return None
            return inner[0], c_ast.BinaryOp(node.op, inner[1], behind, coord=node.coord)
        return (node, zero) if isinstance(node, (c_ast.ID, c_ast.ArrayRef)) and self._pointer(node) else None

    def _pointer(self, node: c_ast.Node) -> bool:
        return ts.is_pointerish(ctype_of(self.ex.lower_silent(node)))

    def _geometric_loop(self, node: c_ast.For, shape: loops.GeometricShape, out: list[ir.Stmt]) -> bool:
        """A for loop whose index doubles (or halves) from a constant to a constant bound, lowered to a counted
        loop over a hidden index k with the index set to start << k (start >> k) at the top of each trip: its
        body's counts are summed over the values the index takes (an FFT's stages of NP/len blocks of len/2
        butterflies), which a while loop would leave as a named count and a named value. False to fall back
        (bounds not constant, the index changed in the body, a sequence that does not end)."""
        written = loops.written_names([node.stmt])
        if shape.index in written or (loops.names_in(shape.bound) | loops.names_in(shape.lo)) & written:
            return False
        if not self._integer_index(shape.index, shape.index_decl):
            return False
        lo, bound = (consteval.fold(self.ex.lower_silent(n), self.ctx.const_lookup) for n in (shape.lo, shape.bound))
        if lo is None or bound is None or not isinstance(lo.value, int) or not isinstance(bound.value, int):
            return False
        trips = _geometric_trips(lo.value, bound.value, shape)
        if trips is None:
            return False
        coord = node.coord
        hidden = f"__{shape.index}_stage"
        int_type = c_ast.TypeDecl(hidden, [], None, c_ast.IdentifierType(["int"]), coord=coord)
        pre: list[ir.Stmt] = []
        self.stmt(c_ast.Decl(hidden, [], [], [], [], int_type, None, None, coord=coord), pre)
        self.stmt(node.init, pre)
        power = c_ast.ID(hidden, coord=coord) if shape.shift == 1 else \
            c_ast.BinaryOp("*", c_ast.Constant("int", str(shape.shift), coord=coord), c_ast.ID(hidden, coord=coord))
        value = c_ast.BinaryOp("<<" if shape.growing else ">>", c_ast.Constant("int", str(lo.value), coord=coord),
                               power, coord=coord)
        body, frame = self.loop_body(node.stmt)
        if frame.cont_used:
            body.append(ir.Continue(loc=self.ctx.loc, label=frame.cont))
        body = self.ex.statement(c_ast.Assignment("=", c_ast.ID(shape.index, coord=coord), value, coord=coord)) \
            + body + self.ex.statement(shape.update)
        out.extend(pre)
        out.append(ir.Do(hidden, self.ex.const(0, ts.INT), self.ex.const(trips - 1, ts.INT), None, body,
                         loc=self.ctx.loc))
        if frame.brk_used:
            out.append(ir.Continue(loc=self.ctx.loc, label=frame.brk))
        return True

    def _while_for(self, node: c_ast.For, out: list[ir.Stmt]) -> None:
        if node.init is not None:
            self.stmt(node.init, out)
        self._lower_while(node.cond, node.stmt, node.next, out)


_GEOMETRIC_LIMIT = 64   # trips of a doubling loop of 64-bit integers at most


def _tested_before(cond: ir.Expr | None, fx: Effects) -> tuple[ir.Expr | None, Effects]:
    """A do-while's test and its side effects with the effects that follow the test (``i++ < n``) made to
    precede it: a test at the end of the body has no place after it, and the body ran them before the test,
    which then read the new value (``do ... while (i++ < N - 1)`` ran N - 1 trips, not N). An update
    v = v ± e of an integer variable is moved before the test and the test reads v ∓ e instead (v < B
    becomes v < B + e, the form a counted while loop has); other effects stay after the test, where they were."""
    if cond is None or not fx.post:
        return cond, fx
    moved, kept = [], []
    for stmt in fx.post:
        update = _integer_update(stmt)
        if update is None:
            kept.append(stmt)
            continue
        name, op, amount = update
        back = ir.BinOp("sub" if op == "add" else "add", ir.Var(name, type="integer"), amount, type="integer")
        cond = _normalized(ir.substitute(cond, {name: back}))
        moved.append(stmt)
    return cond, Effects(fx.pre + moved, kept)


def _integer_update(stmt: ir.Stmt) -> tuple[str, str, ir.Expr] | None:
    """(v, add|sub, e) for v = v + e or v = v - e of an integer variable, e free of v."""
    if not isinstance(stmt, ir.Assign) or not isinstance(stmt.target, ir.Var) or stmt.target.type != "integer":
        return None
    v, value = stmt.target.name, stmt.value
    if isinstance(value, ir.BinOp) and value.op in ("add", "sub") and isinstance(value.left, ir.Var) \
            and value.left.name == v and not any(isinstance(n, ir.Var) and n.name == v for n in ir.walk(value.right)):
        return v, value.op, value.right
    return None


_COMPARISONS = ("lt", "le", "gt", "ge", "eq", "ne")


def _normalized(cond: ir.Expr) -> ir.Expr:
    """``(v - e) < B`` as ``v < B + e`` (either side, + or -): the variable alone on one side."""
    if not isinstance(cond, ir.BinOp) or cond.op not in _COMPARISONS:
        return cond
    left, right = cond.left, cond.right
    if isinstance(left, ir.BinOp) and left.op in ("add", "sub") and isinstance(left.left, ir.Var):
        other = "sub" if left.op == "add" else "add"
        return ir.BinOp(cond.op, left.left, ir.BinOp(other, right, left.right, type=right.type), type=cond.type)
    if isinstance(right, ir.BinOp) and right.op in ("add", "sub") and isinstance(right.left, ir.Var):
        other = "sub" if right.op == "add" else "add"
        return ir.BinOp(cond.op, ir.BinOp(other, left, right.right, type=left.type), right.left, type=cond.type)
    return cond


def _fixed_names(body: c_ast.Node | None) -> dict[str, c_ast.Node]:
    """Names a function body declares once with an initializer and never assigns, increments or takes the
    address of, and whose initializer reads no name the body changes: their value is the initializer's
    wherever they are read (``double *end = a + N;``)."""
    if body is None:
        return {}
    decls: dict[str, list[c_ast.Decl]] = {}
    for n in loops.walk(body):
        if isinstance(n, c_ast.Decl) and n.name:
            decls.setdefault(n.name, []).append(n)
    changed = {t.name for n in loops.walk(body) for t in [loops.changed_by(n)] if isinstance(t, c_ast.ID)}
    return {name: found[0].init for name, found in decls.items()
            if len(found) == 1 and found[0].init is not None and not isinstance(found[0].init, c_ast.InitList)
            and name not in changed and not loops.names_in(found[0].init) & changed}


def _moves(name: str, nodes: list[c_ast.Node | None]) -> bool:
    """Whether the statements assign, increment or take the address of the variable itself."""
    return any(isinstance(t := loops.changed_by(n), c_ast.ID) and t.name == name
               for root in nodes for n in loops.walk(root))


def _dereferenced(node: c_ast.Node, pointer: str, base: c_ast.Node, offset: str) -> c_ast.Node:
    """``node`` with ``*p``, ``p[e]`` and ``*(p + e)`` of the pointer replaced by ``base[offset]`` and
    ``base[offset + e]`` (other uses of p keep reading p, which the loop sets at the top of each trip)."""
    def element(extra: c_ast.Node | None, coord) -> c_ast.ArrayRef:
        at: c_ast.Node = c_ast.ID(offset, coord=coord)
        if extra is not None:
            at = c_ast.BinaryOp("+", at, extra, coord=coord)
        return c_ast.ArrayRef(copy.deepcopy(base), at, coord=coord)

    def replaced(n: c_ast.Node) -> c_ast.Node | None:
        if isinstance(n, c_ast.UnaryOp) and n.op == "*":
            inner = n.expr
            if isinstance(inner, c_ast.ID) and inner.name == pointer:
                return element(None, n.coord)
            if isinstance(inner, c_ast.BinaryOp) and inner.op == "+":
                if isinstance(inner.left, c_ast.ID) and inner.left.name == pointer:
                    return element(inner.right, n.coord)
                if isinstance(inner.right, c_ast.ID) and inner.right.name == pointer:
                    return element(inner.left, n.coord)
        if isinstance(n, c_ast.ArrayRef) and isinstance(n.name, c_ast.ID) and n.name.name == pointer:
            return element(n.subscript, n.coord)
        return None

    def visit(n: c_ast.Node) -> c_ast.Node:
        new = replaced(n)
        if isinstance(new, c_ast.ArrayRef):
            new.subscript = visit(new.subscript)   # the subscript of p[e] may itself dereference p
            return new
        for name in n.__slots__:
            if name in ("coord", "__weakref__"):
                continue
            child = getattr(n, name, None)
            if isinstance(child, c_ast.Node):
                setattr(n, name, visit(child))
            elif isinstance(child, list):
                setattr(n, name, [visit(c) if isinstance(c, c_ast.Node) else c for c in child])
        return n

    return visit(node)


def _geometric_trips(lo: int, bound: int, shape: loops.GeometricShape) -> int | None:
    """The trips of a doubling (halving) loop from `lo` while `index cmp bound`, run as C runs it; None where
    the index would not move (a start of 0 doubled, a negative one halved) or the loop would not end."""
    if (shape.growing and lo < 1) or (not shape.growing and lo < 0):
        return None
    test = {"<": int.__lt__, "<=": int.__le__, ">": int.__gt__, ">=": int.__ge__}[shape.cmp]
    value, trips = lo, 0
    while test(value, bound):
        trips += 1
        if trips > _GEOMETRIC_LIMIT:
            return None
        value = value << shape.shift if shape.growing else value >> shape.shift
    return trips
