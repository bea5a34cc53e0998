"""The IR package: the contract between the frontends and every analysis after them.

Layer 1 of the data flow (frontends → **IR** → analysis → machine → prediction → reports). ``nodes`` declares
the statement and expression nodes (each with its child fields) and the program container; ``walk`` is the
one way to traverse them (``NodeVisitor``, ``walk``, ``walk_stmts``); ``jsonio`` writes the IR as JSON and
reads it back; ``ops`` is the operation and type vocabulary shared by the cost counter and the machine
database. ``from sad import ir`` gives all of these directly.
"""
from sad.ir.jsonio import IRFormatError, from_jsonable, to_jsonable  # noqa: F401
from sad.ir.nodes import *
from sad.ir.nodes import Node  # noqa: F401
from sad.ir.walk import (  # noqa: F401
    NodeVisitor,
    calls_in,
    child_bodies,
    expr_children,
    jump_targets,
    jumps_out,
    own_exprs,
    path_to,
    substitute,
    walk,
    walk_stmts,
)
