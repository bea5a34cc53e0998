"""The IR package: the contract between the frontends and every analysis after them.

Layer 1 of the data flow (frontends → **IR** → analysis → machine → prediction → reports). ``nodes`` declares
the statement and expression nodes and the program container; ``ops`` is the operation and type vocabulary
shared by the cost counter and the machine database. ``from sad import ir`` gives the node classes directly.
"""
from sad.ir.nodes import *
from sad.ir.nodes import child_bodies, expr_children, to_jsonable, walk_stmts  # noqa: F401
