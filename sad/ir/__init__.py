"""The IR package: the contract between the frontends and every analysis after them.

Layer 1 of the data flow (frontends → **IR** → analysis → machine → prediction → reports). ``nodes`` declares
the statement and expression nodes and the program container; ``ops`` is the operation and type vocabulary
shared by the cost counter and the machine database. ``from sad import ir`` gives the node classes directly.
"""
from sad.ir.nodes import *  # noqa: F401,F403  (the node classes are the package's public names)
from sad.ir.nodes import to_jsonable, walk_stmts, child_bodies, expr_children  # noqa: F401
