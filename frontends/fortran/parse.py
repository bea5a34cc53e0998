"""Parse each logical statement with fparser2's grammar classes and group statements into program units.

Data flow: rewritten `Logical` statements (frontends.fortran.source + rewrite) → one fparser2 (f2003 std) parse
per statement → `Parsed` items → `Unit`s split at END statements → frontends.fortran.lower builds IR procedures.

Each statement is parsed on its own (fparser2 statement classes accept a statement string): a statement that
fparser rejects becomes an error at its own line in the user's file and never takes its neighbours or its unit
down, and block structure (DO nests sharing a label, IF blocks) is rebuilt by us in frontends.fortran.stmts.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from sad.ir import Diagnostic

from . import memo
from .rewrite import split_top_level
from .source import Logical

_END = re.compile(r"^\s*END\s*(?:(?:PROGRAM|SUBROUTINE|FUNCTION|MODULE|BLOCK\s*DATA)\b\s*[A-Za-z0-9_]*)?\s*$",
                  re.IGNORECASE)

HEADER_CLASSES = ("Program_Stmt", "Subroutine_Stmt", "Function_Stmt", "Block_Data_Stmt", "Module_Stmt")
SPEC_CLASSES = ("Implicit_Stmt", "Parameter_Stmt", "Type_Declaration_Stmt", "Dimension_Stmt", "Common_Stmt",
                "Data_Stmt", "Equivalence_Stmt", "Save_Stmt", "External_Stmt", "Intrinsic_Stmt", "Entry_Stmt",
                "Format_Stmt", "Volatile_Stmt", "Use_Stmt", "Access_Stmt", "Intent_Stmt")
EXEC_CLASSES = ("If_Then_Stmt", "Else_If_Stmt", "Else_Stmt", "End_If_Stmt", "End_Do_Stmt", "Label_Do_Stmt",
                "Nonlabel_Do_Stmt", "Select_Case_Stmt", "Case_Stmt", "End_Select_Stmt", "Action_Stmt")
HEADER_HINT = re.compile(r"^\s*(?:(?:RECURSIVE|PURE|IMPURE|ELEMENTAL)\s*)*(PROGRAM|SUBROUTINE|BLOCK\s*DATA|"
                         r"MODULE(?!\s*PROCEDURE\b)|.*?\bFUNCTION\b)", re.IGNORECASE)
SPEC_HINT = re.compile(r"^\s*(IMPLICIT|PARAMETER|INTEGER|REAL|DOUBLE|COMPLEX|LOGICAL|CHARACTER|BYTE|DIMENSION|"
                        r"COMMON|DATA|EQUIVALENCE|SAVE|EXTERNAL|INTRINSIC|ENTRY|FORMAT|VOLATILE|USE\b|PUBLIC|"
                        r"PRIVATE|INTENT)", re.IGNORECASE)
# Fortran 90 CONTAINS: the module procedures of a module, the internal procedures of a procedure follow it
_CONTAINS = re.compile(r"^\s*CONTAINS\s*$", re.IGNORECASE)
# F90 interface blocks declare external procedures: nothing to analyze, and their END SUBROUTINE must not
# end the unit they sit in.
_INTERFACE = re.compile(r"^\s*(ABSTRACT\s+)?INTERFACE\b", re.IGNORECASE)
_END_INTERFACE = re.compile(r"^\s*END\s*INTERFACE\b", re.IGNORECASE)
_GENERIC = re.compile(r"^\s*INTERFACE\s+([A-Za-z]\w*)\s*$", re.IGNORECASE)
_MODULE_PROCEDURE = re.compile(r"^\s*(?:MODULE\s+)?PROCEDURE\s*(?:::)?\s*([\w\s,]+)$", re.IGNORECASE)
# A local array may carry the name of an F90 intrinsic (SCALE, SPREAD, SUM): fparser, parsing one statement
# without the declarations, then insists on the intrinsic's arguments. Such a statement is parsed again with
# the name spelled with this suffix, which name_of removes.
ARRAY_MARK = "_SAD_ARRAY_"
_INTRINSIC_ARGS = re.compile(r"Intrinsic '(\w+)' expects")

_CLASSES: dict[str, Any] = {}

# Words a statement's text must contain for these classes to match it: each class's fparser matcher begins by
# comparing the text's first characters (after END or ELSE for the compound ones) with them, case aside.
# A class is not tried on a text without its words. The result is the same (the class would have failed),
# but a failed fparser attempt costs about 40 µs (its NoMatchError and message), and every assignment used
# to fail seven executable classes before Action_Stmt: a quarter of md1.f's parse.
_NEEDS: dict[str, tuple[str, ...]] = {
    "Program_Stmt": ("PROGRAM",), "Subroutine_Stmt": ("SUBROUTINE",), "Function_Stmt": ("FUNCTION",),
    "Block_Data_Stmt": ("BLOCK", "DATA"),
    "Implicit_Stmt": ("IMPLICIT",), "Parameter_Stmt": ("PARAMETER",), "Dimension_Stmt": ("DIMENSION",),
    "Common_Stmt": ("COMMON",), "Data_Stmt": ("DATA",), "Equivalence_Stmt": ("EQUIVALENCE",),
    "Save_Stmt": ("SAVE",), "External_Stmt": ("EXTERNAL",), "Intrinsic_Stmt": ("INTRINSIC",),
    "Entry_Stmt": ("ENTRY",), "Format_Stmt": ("FORMAT",), "Volatile_Stmt": ("VOLATILE",),
    "Module_Stmt": ("MODULE",), "Use_Stmt": ("USE",), "Intent_Stmt": ("INTENT",),
    "If_Then_Stmt": ("IF", "THEN"), "Else_If_Stmt": ("ELSE", "IF"), "Else_Stmt": ("ELSE",),
    "End_If_Stmt": ("END", "IF"), "End_Do_Stmt": ("END", "DO"), "Label_Do_Stmt": ("DO",),
    "Nonlabel_Do_Stmt": ("DO",), "Select_Case_Stmt": ("SELECT", "CASE"), "Case_Stmt": ("CASE",),
    "End_Select_Stmt": ("END", "SELECT"),
}


@dataclass
class Parsed:
    """One logical statement with its fparser node and its role in the unit."""
    stmt: Logical
    node: Any  # the fparser2 node, None for END and for statements fparser rejected
    kind: str  # header | spec | exec | end | bad


@dataclass
class Unit:
    """The statements of one program unit (up to and including its END)."""
    items: list[Parsed] = field(default_factory=list)
    end: Parsed | None = None
    host: Unit | None = None  # the module or procedure whose CONTAINS this procedure follows
    # generic interfaces of a module (`INTERFACE LA_ISNAN` / `MODULE PROCEDURE SISNAN, DISNAN`): their
    # specific procedures by generic name
    generics: dict[str, list[str]] = field(default_factory=dict)


def classes() -> dict[str, Any]:
    """fparser's statement classes by name, created once (fparser's factory is slow), with the rule memo."""
    if not _CLASSES:
        from fparser.two.parser import ParserFactory
        ParserFactory().create(std="f2003")
        from fparser.two import Fortran2003
        memo.install()
        for name in HEADER_CLASSES + SPEC_CLASSES + EXEC_CLASSES:
            _CLASSES[name] = getattr(Fortran2003, name)
    return _CLASSES


def _try(names: tuple[str, ...], text: str) -> tuple[Any, str] | None:
    table = classes()
    upper = text.upper()
    for name in names:
        if not all(word in upper for word in _NEEDS.get(name, ())):
            continue
        try:
            node = table[name](text)
        except Exception:  # NoMatchError and fparser's internal errors alike: not this class
            continue
        if node is not None:
            return node, name
    return None


def parse_statement(stmt: Logical, respaced: bool = False) -> Parsed:
    """Parse one logical line with fparser, trying header, specification and executable classes."""
    text = stmt.text.strip()
    if _END.match(text):
        return Parsed(stmt, None, "end")
    order: list[tuple[tuple[str, ...], str]] = []
    if HEADER_HINT.match(text):
        order.append((HEADER_CLASSES, "header"))
    if SPEC_HINT.match(text):
        order.append((SPEC_CLASSES, "spec"))
    order.append((EXEC_CLASSES, "exec"))
    if not SPEC_HINT.match(text):
        order.append((SPEC_CLASSES, "spec"))
    for names, kind in order:
        found = _try(names, text)
        if found is not None:
            return Parsed(stmt, found[0], kind)
    clash = _intrinsic_clash(text)
    if clash is not None:
        renamed = re.sub(rf"\b{clash}\b(?=\s*\()", clash + ARRAY_MARK, text, flags=re.IGNORECASE)
        found = _try(EXEC_CLASSES, renamed)
        if found is not None:
            return Parsed(stmt, found[0], "exec")
    spaced = respace(text)
    if spaced != text and not respaced:
        return parse_statement(Logical(spaced, stmt.label, stmt.loc), respaced=True)
    return Parsed(stmt, None, "bad")


_TYPE_PREFIX = re.compile(r"^\s*((?:DOUBLE\s*PRECISION|DOUBLE\s*COMPLEX|INTEGER|REAL|COMPLEX|LOGICAL|CHARACTER)"
                          r"(?:\s*\*\s*(?:\d+|\(\s*\*\s*\)))?)\s*(FUNCTION(?=\s*[A-Z]))?\s*(\S.*)$", re.IGNORECASE)
_KEYWORD_PREFIX = re.compile(r"^\s*(FUNCTION|EXTERNAL|INTRINSIC|ENTRY|PROGRAM)\s*([A-Z].*)$", re.IGNORECASE)
# A procedure prefix glued to what follows (`recursive` on one line, `*subroutine f(x)` on its continuation).
_PROCEDURE_PREFIX = re.compile(r"^\s*(RECURSIVE|PURE|ELEMENTAL)\s*(?=[A-Z])", re.IGNORECASE)


def _intrinsic_clash(text: str) -> str | None:
    """The intrinsic name fparser rejects an executable statement for (SCALE(I) = ..., DO WHILE (INDEX(I)
    .GT. 0): an array of that name)."""
    from fparser.two.utils import FparserException
    table = classes()
    for name in EXEC_CLASSES:
        try:
            table[name](text)
        except FparserException as exc:
            m = _INTRINSIC_ARGS.search(str(exc))
            if m:
                return m.group(1)
        except Exception:  # fparser's other failures: not this case
            continue
    return None


def respace(text: str) -> str:
    """Insert the blanks fixed form lets a programmer leave out after a leading keyword (REAL*8X, LOGICALL,
    RECURSIVESUBROUTINE F(X))."""
    m = _PROCEDURE_PREFIX.match(text)
    if m:
        return f"{m.group(1).upper()} {respace(text[m.end():])}"
    m = _TYPE_PREFIX.match(text)
    if m:
        kind = re.sub(r"\s+", "", m.group(1)).upper().replace("DOUBLEPRECISION", "DOUBLE PRECISION")
        kind = kind.replace("DOUBLECOMPLEX", "DOUBLE COMPLEX")
        return f"{kind} {'FUNCTION ' if m.group(2) else ''}{m.group(3)}"
    m = _KEYWORD_PREFIX.match(text)
    if m:
        return f"{m.group(1).upper()} {m.group(2)}"
    return _parameter_names(text)


_PARAMETER = re.compile(r"^\s*PARAMETER\s*\((.*)\)\s*$", re.IGNORECASE)
_BLANKS = re.compile(r"[ \t]+")


def _parameter_names(text: str) -> str:
    """PARAMETER (ER 1 = 0.13D-1, ...): blanks are no part of a fixed-form name; fparser wants them out."""
    m = _PARAMETER.match(text)
    if not m:
        return text
    items = []
    for item in split_top_level(m.group(1)):
        name, equals, value = item.partition("=")
        if not equals:
            return text
        items.append(_BLANKS.sub("", name) + " =" + value)
    return f"PARAMETER ({', '.join(items)})"


def split_units(stmts: list[Logical], diags: list[Diagnostic]) -> list[Unit]:
    """Parse every statement and group them into program units at END (and at a header missing its END).

    After CONTAINS, each procedure up to its END is a unit of its own whose `host` is the unit that
    contains it; the host is listed before them (its declarations are theirs by host association) and an
    END met between them ends the host."""
    units: list[Unit] = []
    hosts: list[Unit] = []  # units past their CONTAINS, awaiting their own END
    current = Unit()
    interface: Logical | None = None
    generic: str | None = None
    for stmt in stmts:
        if interface is not None:
            if _END_INTERFACE.match(stmt.text):
                interface = None
            elif generic is not None:
                specifics = _MODULE_PROCEDURE.match(stmt.text)
                if specifics:
                    current.generics.setdefault(generic, []).extend(
                        name.strip().upper() for name in specifics.group(1).split(",") if name.strip())
            continue
        if _INTERFACE.match(stmt.text):
            interface = stmt
            named = _GENERIC.match(stmt.text)
            generic = named.group(1).upper() if named else None
            continue
        if _CONTAINS.match(stmt.text):
            if not current.items:
                diags.append(Diagnostic(stmt.loc, "error", "CONTAINS outside a module or procedure"))
                continue
            units.append(current)
            hosts.append(current)
            current = Unit(host=current)
            continue
        parsed = parse_statement(stmt)
        if parsed.kind == "bad":
            cut = (f" (line {', '.join(map(str, stmt.truncated))} truncated at column 72: fixed form ignores "
                   f"the text past it)" if stmt.truncated else "")
            diags.append(Diagnostic(stmt.loc, "error", f"syntax error: {_short(stmt.text)}{cut}"))
        if parsed.kind == "header" and current.items:
            diags.append(Diagnostic(stmt.loc, "error", "missing END statement before this program unit"))
            units.append(current)
            current = Unit(host=current.host)
        if parsed.kind == "end":
            if not current.items and hosts:  # the END of the unit whose CONTAINS came before
                hosts.pop().end = parsed
            else:
                current.end = parsed
                units.append(current)
            current = Unit(host=hosts[-1] if hosts else None)
            continue
        current.items.append(parsed)
    if interface is not None:
        diags.append(Diagnostic(interface.loc, "error", "INTERFACE block without END INTERFACE"))
    if current.items:
        last = current.items[-1].stmt.loc
        diags.append(Diagnostic(last, "error", "missing END statement at end of file"))
        units.append(current)
    for host in hosts:
        diags.append(Diagnostic(host.items[0].stmt.loc, "error", "missing END statement of this program unit "
                                                                 "(after its CONTAINS) at end of file"))
    return units


def _short(text: str) -> str:
    text = " ".join(text.split())
    return text if len(text) <= 60 else text[:57] + "..."
