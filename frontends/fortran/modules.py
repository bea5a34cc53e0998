"""Fortran 90 modules: what a MODULE declares, and what USE and host association make visible.

Data flow: frontends.fortran.lower records each MODULE unit's Scope here (`define`) and each host's Scope
(a module or a procedure followed by CONTAINS); a USE statement (`use`) and a contained procedure (`inherit`)
copy the visible names into the unit's Scope before its own declarations: named constants with their values
folded (frontends.fortran.constants), so that the unit needs nothing else of the module; module variables as
members of a storage block named after the module (a module's variables are static and shared by every unit
that uses it, as a named COMMON block's are).

A module USEd but not defined earlier in the same file is looked for, as a compiler looks for its .mod file,
in the directory of the file and the -I directories: first a file named after the module (la_constants.f90),
then any free-form file there that defines it; only its MODULE units are read. The intrinsic modules
(ISO_FORTRAN_ENV, IEEE_ARITHMETIC, ...) are not modelled: a warning says so.
"""
from __future__ import annotations

import copy
import os
import re
from typing import Any

from sad.ir import Diagnostic, Loc
from sad.ir.languages import FREE_FORM_SUFFIXES

from .constants import parameter_value
from .exprs import items_of, name_of, tname
from .symbols import Scope

MODULE_BLOCK = "MODULE "  # prefix of the storage block of a module's variables (no COMMON name has a blank)


class ModuleTable:
    """The modules and hosts of one file's units, and the modules found for it in other files."""

    def __init__(self, path: str, include_dirs: list[str], defines: dict[str, str],
                 loading: frozenset[str] = frozenset()) -> None:
        self.path = path
        self.include_dirs = include_dirs
        self.defines = defines
        self.loading = loading | {os.path.abspath(path)}  # files being read for modules: no cycles
        self.modules: dict[str, Scope] = {}
        self.hosts: dict[int, tuple[Scope, bool]] = {}  # id(parse.Unit) → (its Scope, is a module)
        self.names: dict[int, str] = {}  # id(parse.Unit) → the name its procedure links by
        self.children: dict[int, dict[str, str]] = {}  # id(host unit) → its procedures' names → linkage
        self.procedures: dict[str, dict[str, str]] = {}  # module → its procedures' names → linkage
        self.result_types: dict[str, str] = {}  # linkage name of a function → its type
        self.signatures: dict[str, list[str]] = {}  # linkage name of a procedure → its arguments' types
        self.generics: dict[str, dict[str, list[str]]] = {}  # module → generic name → specific names

    def contain(self, units: list[Any]) -> None:
        """Name the procedures of a file's units: a module procedure links as MODULE_MP_NAME and an internal
        one as HOST_IP_NAME (a compiler's names are alike: __la_xisnan_MOD_disnan), so that neither is
        taken for an external routine of the same name (LAPACK has both DISNAN in disnan.f and in the
        module LA_XISNAN); the units that may call them know them by their own names."""
        for unit in units:  # a host comes before the procedures it contains
            first = unit.items[0] if unit.items else None
            if first is None or first.kind != "header" or tname(first.node) == "Program_Stmt" \
                    or tname(first.node) == "Block_Data_Stmt":
                continue
            name = name_of(first.node.items[1])
            if tname(first.node) == "Module_Stmt" and unit.generics:
                self.generics[name] = unit.generics
            host = unit.host
            if host is None or id(host) not in self.names:
                self.names[id(unit)] = name
                continue
            module = tname(host.items[0].node) == "Module_Stmt"
            link = f"{self.names[id(host)]}_{'MP' if module else 'IP'}_{name}"
            self.names[id(unit)] = link
            self.children.setdefault(id(host), {})[name] = link
            if module:
                self.procedures.setdefault(self.names[id(host)], {})[name] = link

    def linkage(self, unit: Any, name: str) -> str:
        """The name the procedure of `unit` links by."""
        return self.names.get(id(unit), name)

    # ------------------------------------------------------------------ recording
    def define(self, name: str, scope: Scope) -> None:
        """Record a MODULE's declarations."""
        self.modules[name] = scope

    def host(self, unit: Any, scope: Scope, module: bool) -> None:
        """Record the Scope of a unit other units may be contained in."""
        self.hosts[id(unit)] = (scope, module)

    # ------------------------------------------------------------------ making names visible
    def inherit(self, unit: Any, scope: Scope, loc: Loc, diags: list[Diagnostic]) -> None:
        """Host association: a contained procedure sees its host's names."""
        scope.linkage.update(self.children.get(id(unit), {}))
        found = self.hosts.get(id(unit.host)) if unit.host is not None else None
        if found is None:
            return
        host, module = found
        for name, link in host.linkage.items():
            scope.linkage.setdefault(name, link)
        if module:
            for name in self.generics.get(host.unit_name, {}):
                scope.generics[name] = self._specifics(host.unit_name, name)
        if module:
            _import(host, host.unit_name, scope, {n: n for n in host.symbols}, loc, diags)
            return
        # the host's constants, and its COMMON and module variables (storage every routine names alike)
        names = {n: n for n, s in host.symbols.items() if s.storage in ("parameter", "common")}
        _import(host, host.unit_name, scope, names, loc, diags)
        scope.host_locals = frozenset(n for n, s in host.symbols.items() if s.storage in ("local", "formal"))

    def use(self, node: Any, scope: Scope, loc: Loc, diags: list[Diagnostic]) -> None:
        """A USE statement: the module's public names (or those of its ONLY list, renamed) into `scope`."""
        nature, name = node.items[0], name_of(node.items[2])
        if nature is not None and str(nature).upper().endswith("INTRINSIC") or name in _INTRINSIC_MODULES:
            diags.append(Diagnostic(loc, "warning", f"intrinsic module {name} is not modelled: the names it "
                                                    f"gives are unknown to the analysis"))
            return
        module = self.find(name, loc, diags)
        if module is None:
            return
        only = str(node.items[3]).upper().replace(" ", "").endswith("ONLY:")
        renames = {}
        for item in items_of(node.items[4]):
            if tname(item) == "Rename":
                renames[name_of(item.items[1])] = name_of(item.items[2])
            else:
                renames[name_of(item)] = name_of(item)
        procedures = self.procedures.get(name, {})
        generics = self.generics.get(name, {})
        if not only:
            renamed = set(renames.values())
            renames.update({n: n for n in [*module.symbols, *procedures, *generics] if n not in renamed})
        for mine, theirs in renames.items():
            if theirs in generics:
                scope.generics[mine] = self._specifics(name, theirs)
            elif theirs in procedures:
                scope.linkage[mine] = procedures[theirs]
                sym = scope.symbol(mine, loc)
                sym.storage, sym.type = "function", self.result_types.get(procedures[theirs], sym.type)
        missing = sorted(theirs for theirs in renames.values() if theirs not in module.symbols
                         and theirs not in procedures and theirs not in generics)
        if missing:
            diags.append(Diagnostic(loc, "error", f"module {name} has no {', '.join(missing)}"))
        _import(module, name, scope, {mine: theirs for mine, theirs in renames.items()
                                      if theirs in module.symbols}, loc, diags)

    def _specifics(self, module: str, generic: str) -> list[tuple[str, list[str], str | None]]:
        """The specifics of a module's generic name: (linkage, argument types, result type) of each."""
        out = []
        for specific in self.generics[module][generic]:
            link = self.procedures.get(module, {}).get(specific)
            if link is not None:
                out.append((link, self.signatures.get(link, []), self.result_types.get(link)))
        return out

    # ------------------------------------------------------------------ finding modules
    def find(self, name: str, loc: Loc, diags: list[Diagnostic]) -> Scope | None:
        """The declarations of module `name`: defined earlier in this file, or in a file beside it."""
        if name in self.modules:
            return self.modules[name]
        path = self._file_defining(name)
        if path is not None:
            self._read_modules(path)
        if name not in self.modules:
            where = ", ".join([os.path.dirname(self.path) or ".", *self.include_dirs])
            diags.append(Diagnostic(loc, "error", f"module {name} not found (looked in this file and in the "
                                                  f"free-form sources of {where}): its names are unknown"))
            return None
        return self.modules[name]

    def _file_defining(self, name: str) -> str | None:
        pattern = re.compile(rf"^\s*MODULE\s+{re.escape(name)}\s*(!.*)?$", re.IGNORECASE | re.MULTILINE)
        dirs = [os.path.dirname(self.path) or ".", *self.include_dirs]
        candidates: list[str] = []
        for directory in dirs:
            try:
                names = sorted(os.listdir(directory))
            except OSError:
                continue
            files = [os.path.join(directory, n) for n in names if os.path.splitext(n)[1] in FREE_FORM_SUFFIXES]
            candidates += sorted(files, key=lambda f: os.path.splitext(os.path.basename(f))[0].upper() != name)
        for path in candidates:
            if os.path.abspath(path) in self.loading:
                continue
            try:
                with open(path, encoding="utf-8", errors="replace") as handle:
                    if pattern.search(handle.read()):
                        return path
            except OSError:
                continue
        return None

    def _read_modules(self, path: str) -> None:
        """Lower the MODULE units of another file into this table (its other units and its own diagnostics
        are that file's business)."""
        from .lower import lower_unit
        from .parse import split_units
        from .rewrite import rewrite
        from .source import SourceReader
        reader = SourceReader(self.include_dirs, self.defines)
        stmts = reader.read(path)
        for stmt in stmts:
            stmt.text = rewrite(stmt.text)
        other = ModuleTable(path, self.include_dirs, self.defines, self.loading)
        other.modules, other.procedures, other.generics = self.modules, self.procedures, self.generics
        other.result_types, other.signatures = self.result_types, self.signatures
        scratch: list[Diagnostic] = []
        units = split_units(stmts, scratch)
        other.contain(units)
        for unit in units:  # the modules, and their procedures for their types
            if _in_module(unit):
                lower_unit(unit, scratch, other)


def _in_module(unit: Any) -> bool:
    """Whether a unit is a MODULE or one of its procedures."""
    while unit.host is not None:
        unit = unit.host
    return bool(unit.items) and re.match(r"^\s*MODULE\b", unit.items[0].stmt.text, re.IGNORECASE) is not None


_INTRINSIC_MODULES = {"ISO_FORTRAN_ENV", "ISO_C_BINDING", "IEEE_ARITHMETIC", "IEEE_EXCEPTIONS",
                      "IEEE_FEATURES"}


def _import(source: Scope, module: str, scope: Scope, names: dict[str, str], loc: Loc,
            diags: list[Diagnostic]) -> None:
    """Copy `names` (local name → name in `source`) into `scope`: constants with their folded values,
    variables as members of the module's storage block."""
    for mine, theirs in names.items():
        sym = source.symbols[theirs]
        if sym.storage == "function" or mine in scope.symbols and scope.symbols[mine].storage == "formal":
            continue
        new = copy.copy(sym)
        new.name, new.loc = mine, loc
        new.type = source.type_of(theirs)
        if sym.storage == "parameter":
            value = parameter_value(source, theirs, loc)
            new.value = value
            if value is None:
                diags.append(Diagnostic(loc, "warning", f"the value of {theirs} of {module} is not a constant sad "
                                                        f"evaluates: {mine} is unknown here"))
        elif sym.storage in ("local", "common"):
            block = sym.common_block if sym.storage == "common" and sym.common_block else MODULE_BLOCK + module
            new.storage, new.common_block = "common", block
            members = scope.commons.setdefault(block, [])
            if mine not in members:
                members.append(mine)
        scope.symbols[mine] = new

