"""One parsed program unit to IR procedures (the unit itself plus one per ENTRY).

Data flow: frontends.fortran.parse gives `Unit`s of parsed statements → here the header fixes kind, name and
formals; specification statements fill the Scope (frontends.fortran.decls); statement function definitions are
recorded for inlining; executable statements go through frontends.fortran.stmts; the Scope becomes
Procedure.variables / .commons.
"""
from __future__ import annotations

import copy
from typing import Any

from sad.ir import Const, Diagnostic, Expr, Loc, Procedure, Variable

from .constants import calls_intrinsic, parameter_value
from .decls import declare, type_of_spec
from .exprs import ExprBuilder, items_of, name_of, tname
from .exprs import Unsupported as UnsupportedExpr
from .modules import ModuleTable
from .parse import HEADER_HINT, SPEC_HINT, Unit
from .stmts import StmtBuilder
from .symbols import Scope, StatementFunction

MAIN_NAME = "MAIN"
BLOCKDATA_NAME = "BLOCKDATA"


def lower_unit(unit: Unit, diags: list[Diagnostic], modules: ModuleTable | None = None) -> list[Procedure]:
    """Lower one program unit (and its ENTRY points) to IR procedures; a MODULE gives none, its
    declarations go to `modules` for the units that USE it or that it CONTAINS."""
    scope = Scope()
    first = unit.items[0] if unit.items else unit.end
    assert first is not None
    header = HEADER_HINT.match(first.stmt.text) if first.kind == "bad" else None
    if header is not None and not header.group(1).upper().startswith("PROGRAM"):
        # a SUBROUTINE or FUNCTION whose header does not parse (its error is reported) is no main program:
        # taken for one, it would shadow the program's own main in another file
        diags.append(Diagnostic(first.stmt.loc, "note", "this program unit is not analyzed: its header did not "
                                                        "parse; calls to it are priced as unknown routines"))
        return []
    kind, name, formals, result_spec = _header(first.node if first.kind == "header" else None)
    proc_loc = first.stmt.loc
    scope.unit_name, scope.formals = name, formals
    modules = modules or ModuleTable(proc_loc.file, [], {})
    modules.inherit(unit, scope, proc_loc, diags)
    for formal in formals:
        scope.symbol(formal, proc_loc).storage = "formal"
    if kind == "function":
        scope.function_name = name
        scope.result_name = _result_name(first.node)
        scope.symbol(name, proc_loc).storage = "function"
    builder = StmtBuilder(scope, diags)
    items = unit.items[1:] if first.kind == "header" else unit.items
    in_exec = False
    for parsed in items:
        stmt, node = parsed.stmt, parsed.node
        if parsed.kind == "bad":
            if in_exec or not SPEC_HINT.match(stmt.text):  # keep an executable statement's place in the flow
                in_exec = True
                builder.bad(stmt.loc, stmt.label, stmt.text)
            continue
        if parsed.kind == "header":
            diags.append(Diagnostic(stmt.loc, "error", "program unit header inside a program unit"))
            continue
        if parsed.kind == "spec" and tname(node) == "Use_Stmt":
            modules.use(node, scope, stmt.loc, diags)
            continue
        if parsed.kind == "spec" and tname(node) not in ("Entry_Stmt", "Format_Stmt"):
            declare(node, scope, stmt.loc, diags)
            continue
        if not in_exec and _statement_function(node, scope, stmt.loc, diags):
            continue
        if kind == "module":
            diags.append(Diagnostic(stmt.loc, "error", f"executable statement in module {name}"))
            continue
        if not in_exec:
            _result_type(scope, name, result_spec, proc_loc)
        if tname(node) not in ("Entry_Stmt", "Format_Stmt"):
            in_exec = True
        builder.add(node, stmt.loc, stmt.label, stmt.text)
    _result_type(scope, name, result_spec, proc_loc)
    modules.host(unit, scope, kind == "module")
    _host_variables(scope, name, diags)
    if kind == "module":
        modules.define(name, scope)
        return []
    end_loc = unit.end.stmt.loc if unit.end else (unit.items[-1].stmt.loc if unit.items else proc_loc)
    body = builder.finish(end_loc)
    variables = _variables(scope, diags)
    result_type = scope.type_of(name) if kind == "function" else None
    name = modules.linkage(unit, name)
    modules.signatures[name] = [variables[f].type if f in variables else scope.type_of(f) for f in formals]
    if result_type is not None:
        modules.result_types[name] = result_type
    proc = Procedure(name, kind, formals, body, proc_loc, "fortran", result_type=result_type,
                     variables=variables, commons={k: list(v) for k, v in scope.commons.items()},
                     end_line=end_loc.line if unit.end else None)
    procs = [proc]
    for entry in builder.entries:
        procs.append(_entry_procedure(proc, entry, scope))
    return procs


def _host_variables(scope: Scope, name: str, diags: list[Diagnostic]) -> None:
    """An internal procedure that uses its host's variables: host association of variables is not modelled
    (each is taken as a local of its own), and the user is told which."""
    used = sorted(n for n in scope.host_locals if n in scope.symbols and scope.symbols[n].type is None
                  and scope.symbols[n].storage == "local")
    if used:
        loc = next(s.loc for n, s in scope.symbols.items() if n in used and s.loc is not None)
        diags.append(Diagnostic(loc, "warning", f"{name} uses {', '.join(used)} of its host: host association of "
                                                f"variables is not modelled, each is taken as a variable of {name}"))


def _result_name(node: Any) -> str | None:
    """The variable a FUNCTION's `RESULT(Y)` suffix names, or None."""
    suffix = node.items[3] if len(node.items) > 3 else None
    return name_of(suffix.items[0]) if suffix is not None and suffix.items[0] is not None else None


def _result_type(scope: Scope, name: str, result_spec: Any, loc: Loc) -> None:
    """A function's type from its header (`REAL(WP) FUNCTION F`), once its kind parameters are declared:
    after the specification part, where the header's WP may come from a USE."""
    sym = scope.symbols.get(name)
    if result_spec is not None and sym is not None and sym.storage == "function" and sym.type is None:
        sym.type = type_of_spec(result_spec, scope, loc)


def _header(node: Any) -> tuple[str, str, list[str], Any]:
    """(kind, name, formals, result type spec) of a unit header; a headerless unit is the main program."""
    if node is None:
        return "program", MAIN_NAME, [], None
    kind = tname(node)
    if kind == "Program_Stmt":
        return "program", name_of(node.items[1]), [], None
    if kind == "Module_Stmt":
        return "module", name_of(node.items[1]), [], None
    if kind == "Block_Data_Stmt":
        return "blockdata", name_of(node.items[0]) if node.items[0] is not None else BLOCKDATA_NAME, [], None
    formals = [name_of(a) for a in items_of(node.items[2]) if str(a).strip() != "*"]
    if kind == "Function_Stmt":
        spec = None
        prefix = node.items[0]
        if prefix is not None:
            from fparser.two.utils import walk
            found = [n for n in walk(prefix) if tname(n) == "Intrinsic_Type_Spec"]
            spec = found[0] if found else (prefix if tname(prefix) == "Intrinsic_Type_Spec" else None)
        return "function", name_of(node.items[1]), formals, spec
    return "subroutine", name_of(node.items[1]), formals, None


def _statement_function(node: Any, scope: Scope, loc: Loc, diags: list[Diagnostic]) -> bool:
    """Record `F(X, Y) = expr` before the first executable statement as a statement function."""
    kind = tname(node)
    if kind == "Stmt_Function_Stmt":
        name, args, body = name_of(node.items[0]), items_of(node.items[1]), node.items[2]
    elif kind == "Assignment_Stmt" and tname(node.items[0]) == "Part_Ref":
        lhs = node.items[0]
        name, args, body = name_of(lhs.items[0]), items_of(lhs.items[1]), node.items[2]
        if scope.is_array(name) or not all(tname(a) == "Name" for a in args):
            return False
    else:
        return False
    formals = [name_of(a) for a in args]
    bound = {f: scope.type_of(f) for f in formals}
    try:
        expr = ExprBuilder(scope, loc, bound).expr(body)
    except UnsupportedExpr as exc:
        diags.append(Diagnostic(loc, "warning", f"statement function {name} not understood: {exc}"))
        return False
    scope.stmt_functions[name] = StatementFunction(name, formals, expr)
    return True


def _variables(scope: Scope, diags: list[Diagnostic]) -> dict[str, Variable]:
    out: dict[str, Variable] = {}
    pending = list(scope.symbols.items())
    while pending:  # converting bounds may declare further names (implicitly typed): take them too
        for name, sym in pending:
            _add_variable(out, name, sym, scope, diags)
        pending = [(n, s) for n, s in scope.symbols.items() if n not in out and n not in scope.stmt_functions
                   and not (s.intrinsic and s.dims is None)]
    return out


def _add_variable(out: dict[str, Variable], name: str, sym: Any, scope: Scope, diags: list[Diagnostic]) -> None:
    if name in scope.stmt_functions or (sym.intrinsic and sym.dims is None):
        return
    loc = sym.loc or Loc("", 0)
    eb = ExprBuilder(scope, loc)
    dims = None
    if sym.dims is not None:
        dims = [(_bound(eb, lo, default=Const(1, type="integer"), diags=diags, loc=loc),
                 _bound(eb, hi, default=None, diags=diags, loc=loc)) for lo, hi in sym.dims]
    value = _bound(eb, sym.value, default=None, diags=diags, loc=loc) if sym.value is not None else None
    if sym.storage == "parameter" and value is not None and calls_intrinsic(value):
        value = parameter_value(scope, name, loc) or value  # what the compiler evaluates (CEILING, HUGE, ...)
    out[name] = scope.variable(sym, dims, value)
    if out[name].type == "unknown" and sym.storage != "function" and not sym.external:  # EXTERNAL: a subroutine
        diags.append(Diagnostic(loc, "error", f"{name} has no IMPLICIT type"))


def _bound(eb: ExprBuilder, node: Any, default: Expr | None, diags: list[Diagnostic],
           loc: Loc) -> Expr | None:
    if node is None:
        return default
    if isinstance(node, Expr):
        return node
    try:
        return eb.expr(node)
    except UnsupportedExpr as exc:
        diags.append(Diagnostic(loc, "warning", f"declaration not understood: {exc}"))
        return default


def _entry_procedure(host: Procedure, entry: Any, scope: Scope) -> Procedure:
    """An ENTRY point: its own procedure whose body is the host's statements from the ENTRY on."""
    variables = copy.deepcopy(host.variables)
    for name in entry.formals:
        if name in variables:
            variables[name].storage = "formal"
    result_type = scope.type_of(entry.name) if host.kind == "function" else None
    return Procedure(entry.name, "entry", list(entry.formals), copy.deepcopy(host.body[entry.index:]),
                     entry.loc, "fortran", result_type=result_type, variables=variables,
                     commons=copy.deepcopy(host.commons), end_line=host.end_line)
