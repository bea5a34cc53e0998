"""Conditional assignments: the value a variable has at one point of its routine, through the IFs that
reassign it.

Data flow: the value backtracer (sad.analysis.values) asks here when a variable has several definitions in
one routine (`M = INT(BOXL/RCUT)` then `IF (M .GT. MMAX) M = MMAX`; `IF (USECEL) THEN NCELL = M*M*M ELSE
NCELL = 0`; C's `m = m > MMAX ? MMAX : m`, which the C frontend lowers to an if/else). This module runs the
routine's statement lists symbolically for that one variable, in source order, and gives its value before a
statement of the routine, or at the routine's end (for uses in other routines, under the backtracer's usual
assumption that the defining routine has run). An IF that assigns in some arms makes the value a
`Piecewise` of the arms' values under the arms' conditions (sympy relationals, evaluated where the IF
stands); a guard that compares the two values it chooses between is a `Min` or `Max` (`IF (M .GT. MMAX)
M = MMAX` and `IF (MMAX .LT. M) M = MMAX` are both Min(M, MMAX)).

It gives up (the caller keeps the variable unresolved) where straight-line reasoning would be wrong or
cannot decide: a use inside a loop that changes the variable (or after such a loop, with no plain
definition between them), a backward jump over an assignment of it (one that comes back over none brings
the value it left with), a jump on the way or a label jumped to from elsewhere (except a jump that brings
the value the run arrives with, and Fortran 66's ELSE, `IF (c) GO TO 40` over assignments: a choice by c,
see `_arrived`), a condition the backtracer cannot turn into a relational (an array element that is
written at run time, a function's result), a value not defined on some path. A logical value chosen in
IFs is the condition under which it is true. A condition on a named run-time value (read from input, a
formal argument, a LOGICAL argument itself) stays in the Piecewise as that named unknown: it is exact once
the value is bound.
"""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field, replace
from functools import lru_cache
from itertools import islice

import sympy

from sad import ir
from sad.analysis import extremes, failures
from sad.ir.languages import resolve_name
from sad.ir.nesting import nesting

Evaluate = Callable[[ir.Expr, ir.Stmt], "sympy.Expr | None"]
"""The backtracer's value of an expression of the routine, evaluated just before a statement."""

_JUMPS = (ir.Goto, ir.ComputedGoto, ir.AssignedGoto, ir.ArithmeticIf)
_FLOATING = ("real", "double", "complex")


class Unknown(Exception):
    """The value cannot be followed by straight-line reasoning."""


class _Found(Exception):
    """The use was reached: its value."""

    def __init__(self, value: sympy.Expr) -> None:
        super().__init__()
        self.value = value


class _Ended:
    """The path ended (RETURN, STOP): it reaches no later statement."""


ENDED = _Ended()
UNDEFINED = sympy.Symbol("__undefined__")  # before the first definition on a path
CLOBBERED = sympy.Symbol("__clobbered__")  # after a loop (or other compound statement) that changes it


@dataclass
class Run:
    """One symbolic run of a routine for one variable."""
    var: str
    definitions: dict[int, Callable[[ir.Stmt, sympy.Expr], sympy.Expr | None]]  # id(stmt) → new value
    use: ir.Stmt | None
    evaluate: Evaluate
    proc: ir.Procedure | None = None
    terminating: frozenset[str] | set[str] = frozenset()  # routines that end the program (XERBLA)
    jumps_to: dict[str, list[ir.Stmt]] = field(default_factory=dict)
    seen: int = 0
    at_exit: bool = False  # the value a function returns: every RETURN reached is the end, or not followed
    # the values at the RETURNs of top-level IFs before the end (`IF (N.LE.1) THEN; TAU = ZERO; RETURN`),
    # with their conditions, in order (at_exit only)
    exits: list[tuple[sympy.Expr, sympy.Basic]] = field(default_factory=list)

    def done(self) -> bool:
        """Every definition passed and no use to find: the value at the routine's end is known."""
        return self.use is None and self.seen == len(self.definitions)


def _passed(arg: ir.Expr, var: str) -> bool:
    """Is the variable itself (or an element of it) the argument, which the call may write? A subscript
    that reads it (`U(NL + 1)` as a receive buffer) does not change it."""
    if isinstance(arg, ir.UnOp) and arg.op == "addr":
        arg = arg.operand
    return isinstance(arg, (ir.Var, ir.ArrayRef)) and arg.name == var


def value_at(proc: ir.Procedure, definitions: dict[int, Callable[[ir.Stmt, sympy.Expr], sympy.Expr | None]],
             use: ir.Stmt | None, entry: sympy.Expr, evaluate: Evaluate, var: str = "",
             at_exit: bool = False, terminating: frozenset[str] | set[str] = frozenset()) -> sympy.Expr | None:
    """The variable's value just before `use` (a statement of `proc`), or at the end of `proc` when `use` is
    None. `definitions` maps each defining statement to the function that gives the value it stores (from
    the statement and the value before it); `entry` is the value when the routine starts (UNDEFINED when
    none reaches it). None where the run gives up (see the module docstring). `at_exit`: the value at every
    return (a function's result), so that a RETURN the run may reach before the end is not followed (it
    gives up), one in an arm never taken does not matter."""
    nested = nesting(proc)
    if var and any(_passed(arg, var) for stmt in nested.messages for arg in stmt.args):
        return None  # a broadcast or reduction changes it on some ranks: not straight-line values
    run = Run(var, definitions, use, evaluate, proc, terminating, nested.jumps_to, at_exit=at_exit)
    try:
        value = _run(proc.body, entry, run, top=True)
    except _Found as found:
        value = found.value
    except Unknown:
        return None
    if isinstance(value, _Ended):
        return None
    value = defined(value)
    if value.has(UNDEFINED, CLOBBERED):
        return None
    if run.exits:
        run.exits = [(defined(v), c) for v, c in run.exits]
        if any(v.has(UNDEFINED, CLOBBERED) for v, _ in run.exits):
            return None
        try:
            return choose([*run.exits, (value, sympy.true)])
        except Unknown:
            return None
    return value


def defined(value: sympy.Expr) -> sympy.Expr:
    """A choice without its pieces where the variable was never assigned: a standard-conforming program
    does not read an undefined variable (Fortran 77, 2.11; C's indeterminate value), so the paths that reach
    the use are those that assigned it (DGELS's TPSD, set under `IF (INFO.EQ.0 .OR. INFO.EQ.-10)` and read
    only past `IF (INFO.NE.0) RETURN`). Variables with an entry value (a formal, DATA, COMMON set
    elsewhere) never start UNDEFINED. A choice within a piece is cleared the same way, and a piece whose
    every choice is undefined is one (DGERQF's NB, set under `IF (INFO.EQ.0)` only where `K.NE.0`, and read
    past `IF (INFO.NE.0) RETURN` and `IF (K.EQ.0) RETURN`)."""
    if not isinstance(value, sympy.Piecewise) or not value.has(UNDEFINED):
        return value
    kept = [(inner, c) for inner, c in ((defined(v), c) for v, c in value.args) if inner != UNDEFINED]
    if not kept:
        return UNDEFINED
    try:
        return choose([*kept[:-1], (kept[-1][0], sympy.true)])
    except Unknown:
        return value


def _inside(stmt: ir.Stmt, run: Run) -> tuple[ir.Stmt, ...]:
    """The statements nested in `stmt`, a statement of the run's routine (walked once per routine)."""
    return nesting(run.proc).inside(stmt) if run.proc is not None else \
        tuple(inner for body in ir.child_bodies(stmt) for inner in ir.walk_stmts(body))


def _run(stmts: list[ir.Stmt], value, run: Run, top: bool = False):
    previous: ir.Stmt | None = None
    skip_to: str | None = None  # a forward GOTO taken: the statements up to its label are not run
    entering: dict[int, object] = {}  # index in stmts → the value before that statement, as run
    for k, stmt in enumerate(stmts):
        if skip_to is not None and stmt.label != skip_to:
            continue
        skip_to = None
        entering[k] = value
        if top and run.done():
            return _checked(stmts[k:], value, run) if run.at_exit else value
        if stmt is run.use:
            raise _Found(value)
        if stmt.label is not None and stmt.label in run.jumps_to:
            value = entering[k] = _arrived(stmts, k, previous, entering, run)
        if run.at_exit and top and isinstance(stmt, ir.If) and _early_return(stmt):
            for arm in stmt.arms:  # as one IF each: an arm is reached where the ones before are false
                done, value = _exit(arm, stmt, value, run)
                if done:
                    return value
            previous = stmt
            continue
        inner = _inside(stmt, run)
        defines = _assigns(stmt, run)
        holds_use = run.use is not None and any(s is run.use for s in inner)
        if id(stmt) in run.definitions:
            if holds_use:
                raise Unknown  # a DO over the variable, used in its own body
            value = run.definitions[id(stmt)](stmt, value)
            run.seen += 1
            if value is None:
                value = CLOBBERED  # a value not known (a DO index after its loop) until it is assigned again
        elif isinstance(stmt, ir.If) and (defines or holds_use):
            value = _branch(stmt, value, run)
            if isinstance(value, _Ended):
                return value
        elif isinstance(stmt, ir.If) and isinstance(value, sympy.Piecewise) and _leaves(stmt, run, run.at_exit):
            value = _narrowed(value, stmt, run)  # (a RETURN, where the value at it counts, is no such IF)
        elif run.at_exit and not defines and not holds_use and _may_return(stmt, run):
            raise Unknown  # a RETURN before the end: the result there is not the value followed to the end
        elif isinstance(stmt, ir.While) and defines and not holds_use and _never_entered(stmt, run):
            pass  # a loop whose condition is false where it starts (DLARF's scan for a zero, on generic data)
        elif defines and not holds_use and not isinstance(stmt, ir.If) and not _may_define(stmt, run):
            pass  # a loop that assigns only in arms never taken (DNRM2's sums of huge and tiny values)
        elif defines and not holds_use and isinstance(stmt, ir.Do) and _unchanged_by(stmt, value, run):
            pass  # every pass leaves the value it finds (DPOTRF's panels, each factored by a call leaving INFO 0)
        elif defines and holds_use and isinstance(stmt, ir.Do):
            # used in a loop that changes it: the value the use sees in a pass, whatever earlier passes and
            # the entry left (DTRMM's `TEMP = ALPHA` before its test in the same pass), or the entry's where
            # no pass changes it on the paths that read it (DORMQR's NI = N before its loop where LEFT, N -
            # I + 1 in each pass where not); unknown otherwise
            value = _run(stmt.body, value if _kept_from_entry(stmt, value, run) else CLOBBERED, run)
            if not isinstance(value, _Ended):
                raise Unknown  # the use not reached (a jump past it)
            return value
        elif defines:
            if holds_use:
                raise Unknown  # used in a compound statement that changes it
            # changed in a loop: unknown from here on, until a plain definition after it (a DO index
            # assigned again after its loop) gives it a value
            value = CLOBBERED
        elif holds_use:
            raise _Found(value)  # in a loop that does not change the variable
        elif isinstance(stmt, ir.Goto) and _over_failures(stmts, k, stmt, run):
            skip_to = stmt.target
        elif jumps(stmt):
            raise Unknown
        elif isinstance(stmt, ir.CallStmt) and resolve_name(stmt.name) in run.terminating:
            return ENDED  # a routine that never returns (XERBLA): the program ends here
        elif isinstance(stmt, (ir.Return, ir.Stop)):
            if run.at_exit and isinstance(stmt, ir.Return):
                if top:
                    return value
                raise Unknown
            return ENDED
        previous = stmt
    return value


def _back_unchanged(stmts: list[ir.Stmt], k: int, jumps: list[ir.Stmt], run: Run) -> bool:
    """Whether each of `jumps` comes back to stmts[k] from stmts[k:] (itself or nested) and no statement
    from stmts[k] to the last of them assigns the variable (nor holds a statement that does)."""
    last = k
    for jump in jumps:
        found = _holding(stmts, jump, lambda s: _inside(s, run), k)
        if found is None:
            return False
        last = max(last, found)
    return not any(_assigns(s, run) for s in stmts[k:last + 1])


def _arrived(stmts: list[ir.Stmt], k: int, previous: ir.Stmt | None, entering: dict[int, object], run: Run):
    """The value at stmts[k], a label that jumps arrive at, from the value the run falls through with.

    Fine are the jumps out of the statement just passed (a loop's EXIT, C's break), from inside this one (a
    DO loop's terminal label), from later statements of this list that nothing on the way back assigns
    (DLASCL's `10 CONTINUE ... IF (.NOT.DONE) GO TO 10` for its ITYPE, set before it), and from earlier
    statements that assign nothing of the variable and were entered with the value the run arrives with
    (DLATRS's `IF (TSCAL.NE.ONE) THEN; GROW = ZERO; GO TO 50` over statements that read TSCAL): each
    brings the same value. A failure return's jump (DPTTRF's `INFO = I; GO TO 30` out of its loops) is
    taken as not taken, as everywhere in the run. A jump from an earlier IF that always ends in it (`IF
    (TM.LE.BIG) GO TO 40` over `T = ONE / TM`, Fortran 66's ELSE) brings the value that IF was entered
    with, where its test holds: a choice. Any other jump (one past an IF that narrowed the value, say) gives up."""
    stmt, value = stmts[k], entering[k]
    allowed = {id(stmt)} | {id(s) for s in _inside(stmt, run)}
    if previous is not None:
        allowed |= {id(previous)} | {id(s) for s in _inside(previous, run)}
    others: list[ir.Stmt] = []
    same: list[int] = []  # the earlier statements whose jumps bring the value fallen through with
    chosen: list[tuple[int, sympy.Basic]] = []  # earlier IFs whose jumps bring the value before them
    for jump in run.jumps_to.get(stmt.label or "", []):
        if id(jump) in allowed or _failure_jump(jump, run):
            continue
        held = _holding(stmts[:k], jump, lambda s: _inside(s, run))
        if held is None or held not in entering or _assigns(stmts[held], run):
            others.append(jump)
        elif entering[held] == value:
            same.append(held)
        elif (cond := _jump_condition(stmts[held], jump, run)) is not None:
            chosen.append((held, cond))
        else:
            others.append(jump)
    if others and not _back_unchanged(stmts, k, others, run):
        raise Unknown
    if not chosen:
        return value
    if any(h < max(held for held, _ in chosen) for h in same):
        raise Unknown  # a path that left before the last test, which the choice would still ask
    merged = choose([*((entering[held], cond) for held, cond in sorted(chosen, key=lambda c: c[0])),
                     (value, sympy.true)])
    if not _small(merged):
        raise Unknown  # a chain of such ELSEs over one accumulator triples the choice at every label
    return merged


_MOST_NODES = 400


def _small(value: sympy.Basic) -> bool:
    """Whether an expression has at most _MOST_NODES nodes (counted up to one past the limit)."""
    return next(islice(sympy.preorder_traversal(value), _MOST_NODES, None), None) is None


def _assigns(stmt: ir.Stmt, run: Run) -> bool:
    """Whether a statement assigns the variable, or holds one that does."""
    return id(stmt) in run.definitions or any(id(s) in run.definitions for s in _inside(stmt, run))


def jumps(stmt: ir.Stmt) -> bool:
    """Whether a simple statement jumps: a GO TO of any kind, an arithmetic IF, I/O with ERR= or END=."""
    return isinstance(stmt, _JUMPS) or (isinstance(stmt, ir.IO) and bool(ir.jump_targets(stmt)))


def _jump_condition(stmt: ir.Stmt, jump: ir.Stmt, run: Run) -> sympy.Basic | None:
    """The condition of a one-armed IF whose arm ends in `jump` and cannot leave before it (no jump, RETURN
    or STOP on the way): the jump is taken exactly where it holds. None for any other statement, or a
    condition that cannot be told."""
    if not isinstance(stmt, ir.If) or len(stmt.arms) != 1 or stmt.orelse is not None \
            or not isinstance(jump, ir.Goto):
        return None
    body = stmt.arms[0].body
    if not body or body[-1] is not jump or any(jumps(s) or isinstance(s, (ir.Return, ir.Stop))
                                               for s in ir.walk_stmts(body[:-1])):
        return None
    try:
        return _arm_condition(stmt.arms[0], stmt, run)
    except Unknown:
        return None


def _holding(stmts: list[ir.Stmt], target: ir.Stmt, inside: Callable[[ir.Stmt], tuple[ir.Stmt, ...]],
             start: int = 0) -> int | None:
    """The index in `stmts` (from `start`) of the statement that is `target` or holds it, None where none does."""
    return next((i for i in range(start, len(stmts)) if stmts[i] is target
                 or any(s is target for s in inside(stmts[i]))), None)


def looped_back(proc: ir.Procedure) -> frozenset[int] | None:
    """The statements (by id) a backward jump may run again: for each label that a later statement of its
    list jumps back to, the statements from the label's to that jump's, and those they hold. None where a
    jump's target cannot be told (an assigned GOTO) or a jump enters a statement list from outside it."""
    nested = nesting(proc)
    if any(isinstance(s, ir.AssignedGoto) for s in nested.statements):
        return None
    found: set[int] = set()
    lists = [proc.body, *(body for stmt in nested.statements for body in ir.child_bodies(stmt))]
    for stmts in lists:
        for k, stmt in enumerate(stmts):
            if stmt.label is None or stmt.label not in nested.jumps_to:
                continue
            for jump in nested.jumps_to[stmt.label]:
                at = _holding(stmts, jump, nested.inside)
                if at is None:
                    return None
                for s in stmts[k:at + 1]:
                    found.add(id(s))
                    found.update(id(t) for t in nested.inside(s))
    return frozenset(found)


def _kept_from_entry(loop: ir.Do, value, run: Run) -> bool:
    """Whether the use in a loop that changes the variable sees the value the loop is entered with, where it
    depends on it at all: the pieces of the use's value that are the entry's are chosen under conditions
    where a whole pass leaves the variable as it found it, and those conditions read nothing the loop
    changes (nor its index): on those paths no pass changes it, on the others the pass sets it before the
    use. DORMQR's `IF (LEFT) THEN; NI = N ...` before its loop and `IF (LEFT) THEN ... ELSE; NI = N - I + 1`
    in it: the use sees N where LEFT, N - I + 1 where not. Not for a floating variable: a value computed in
    the loop is data (specfun's series terms and their sums), whose formulas decide no count, and its trials
    were a third of `sad check`'s time on scipy's specfun.f."""
    if isinstance(value, _Ended) or value.has(UNDEFINED, CLOBBERED) or not _invariant_tests(loop, run):
        return False
    decl = run.proc.variables.get(run.var) if run.proc is not None else None
    if decl is not None and decl.type in _FLOATING:
        return False
    entry = sympy.Dummy("entry")
    at_use = _trial(loop.body, entry, replace(run, seen=0, exits=[], at_exit=False))
    at_end = _trial(loop.body, entry, replace(run, use=None, seen=0, exits=[], at_exit=False))
    if at_use is None or at_end is None:
        return False
    kept = _entry_condition(at_end, entry)
    used = _entry_condition(at_use, entry)
    return kept is not None and used is not None and _implies(used, kept)


def _trial(body: list[ir.Stmt], entry: sympy.Expr, run: Run) -> sympy.Expr | None:
    """The value at the run's use in `body` (at its end where the run has none) from `entry`; None where
    it cannot be followed or the path ends."""
    try:
        value = _run(body, entry, run)
    except _Found as found:
        value = found.value
    except Unknown:
        return None
    return None if isinstance(value, _Ended) or value.has(UNDEFINED, CLOBBERED) else value


def _entry_condition(value: sympy.Expr, entry: sympy.Expr) -> sympy.Basic | None:
    """Where `value` is `entry` itself (a piece's condition and no earlier one's); None where `entry` is in
    another piece's value (a formula of it) or in a condition."""
    pieces = value.args if isinstance(value, sympy.Piecewise) else ((value, sympy.true),)
    found: list[sympy.Basic] = []
    earlier: list[sympy.Basic] = []
    for v, c in pieces:
        if c.has(entry) or (v != entry and v.has(entry)):
            return None
        if v == entry:
            found.append(sympy.And(c, *[sympy.Not(e) for e in earlier]))
        earlier.append(c)
    return sympy.Or(*found)


def _implies(a: sympy.Basic, b: sympy.Basic) -> bool:
    """Whether `a` implies `b` for every truth value of their relations (each taken as an independent
    proposition: what that cannot show is not claimed)."""
    atoms = sorted((a | b).atoms(sympy.core.relational.Relational), key=sympy.default_sort_key)
    props = {r: sympy.Symbol(f"_p{k}") for k, r in enumerate(atoms)}
    return not sympy.satisfiable(sympy.And(a, sympy.Not(b)).xreplace(props))


def _invariant_tests(loop: ir.Do, run: Run) -> bool:
    """Whether the tests of the IFs that define the variable in a loop read neither the loop's index nor
    anything its body may assign (a variable, or an argument a call may write)."""
    changed = {loop.index}
    body = _inside(loop, run)  # the loop's body, walked once per routine
    for stmt in body:
        if isinstance(stmt, ir.Assign):
            changed.add(getattr(stmt.target, "name", ""))
        elif isinstance(stmt, ir.Do):
            changed.add(stmt.index)
        elif isinstance(stmt, ir.CallStmt):
            changed |= {a.name for a in stmt.args if isinstance(a, (ir.Var, ir.ArrayRef))}
    for stmt in body:
        if isinstance(stmt, ir.If) and any(id(s) in run.definitions for s in _inside(stmt, run)):
            read = {n.name for arm in stmt.arms if arm.cond is not None for n in ir.walk(arm.cond)
                    if isinstance(n, (ir.Var, ir.ArrayRef))}
            if read & changed:
                return False
    return True


def _branch(stmt: ir.If, value, run: Run):
    """The value after an IF whose arms assign the variable (or hold the use)."""
    pieces: list[tuple[sympy.Expr, sympy.Basic]] = []
    always = False
    for arm in stmt.arms:
        try:
            cond = _arm_condition(arm, stmt, run)
        except Unknown:
            if run.use is None or not any(s is run.use for s in ir.walk_stmts(arm.body)):
                raise
            # the use is in this arm: its value is what enters the arm, whatever the test (DGEQRF's
            # `IF (I.LE.K) CALL DGEQR2(M-I+1, ...)`, whose test needs the value sought)
            return _run(arm.body, value, run)
        if cond is sympy.false:
            value = _without(value, run.evaluate(arm.cond, stmt))  # the later arms run where it is false
            continue  # never taken: what it does (a GOTO loop of scaling code) does not matter
        after = _run(arm.body, value, run)
        if not isinstance(after, _Ended):
            pieces.append((after, cond))
        if cond is sympy.true:
            always = True
            break
    if not always:
        after = _run(stmt.orelse or [], value, run)
        if not isinstance(after, _Ended):
            pieces.append((after, sympy.true))
    if not pieces:
        return ENDED
    # Arms that end the routine are not taken on the paths that reach what follows; the last arm left
    # takes every such path.
    pieces[-1] = (pieces[-1][0], sympy.true)
    return choose(pieces)


def _arm_condition(arm: ir.IfArm, stmt: ir.If, run: Run) -> sympy.Basic:
    """An arm's condition where the IF stands; false for a failure return that is not always taken (a test
    of data, or of a status an inner call leaves: taken as not taken, as the counts take it where they
    cannot decide the test, sad.analysis.failures), so that the value followed is the routine's on success;
    false also for an arm that ends the program where its test cannot be decided, as the counts assume."""
    cond = run.evaluate(arm.cond, stmt)
    if cond is not sympy.true and run.proc is not None and (
            failures.error_return(run.proc, arm.body) or (cond is None and _ends(arm.body, run) == "program")):
        return sympy.false
    if cond is None or not (is_condition(cond) or (cond.is_Symbol and arm.cond is not None
                                                    and arm.cond.type == "logical")):
        raise Unknown  # (a LOGICAL argument's symbol, `IF (UPPER)`, is a proposition each call binds)
    return cond


def _checked(rest: list[ir.Stmt], value, run: Run):
    """The value at the end, every definition passed: the argument checks after them still narrow it (DTRTI2's
    `IF (INFO.NE.0) THEN; CALL XERBLA(...); RETURN`: the routine returns only where INFO is 0). An IF's
    leading arms that end the program narrow it though a later arm only returns (DGEQR's `ELSE IF (LQUERY)
    RETURN`): the value at that RETURN is this one, on the paths where the arms before it were not taken."""
    for stmt in rest:
        if not isinstance(stmt, ir.If):
            continue
        for arm in stmt.arms:
            if not isinstance(value, sympy.Piecewise) or _ends(arm.body, run) != "program":
                break
            value = _without(value, run.evaluate(arm.cond, stmt))
    return value


def _unchanged_by(loop: ir.Do, value, run: Run) -> bool:
    """Whether one pass of a DO loop's body, run from the value the loop starts with, leaves that value: then
    each pass does, whatever its index, and so does the loop. Its tests are evaluated where they stand, so an
    arm that depends on the index makes the value a choice and fails the comparison."""
    if isinstance(value, _Ended) or not value.is_Number:
        return False  # a status, a count: a number (following formulas through every loop costs too much)
    seen = run.seen
    try:
        after = _run(loop.body, value, run)
    except Unknown:
        after = None
    if isinstance(after, _Ended) or after != value:
        run.seen = seen  # the loop is passed as one that changes the value: its definitions are not counted
        return False
    return True


def _over_failures(stmts: list[ir.Stmt], k: int, goto: ir.Goto, run: Run) -> bool:
    """Whether the statements a forward GOTO (stmts[k]) jumps over are reached only by jumps from failure
    returns (DPOTRF's `GO TO 40` over `30 INFO = INFO + J - 1`, reached from `IF (INFO.NE.0) GO TO 30`):
    arms the counts take as not taken, so that the run goes on at the GOTO's label."""
    target = next((t for t in range(k + 1, len(stmts)) if stmts[t].label == goto.target), None)
    if target is None or run.proc is None:
        return False
    for skipped in stmts[k + 1:target]:
        for inner in [skipped, *_inside(skipped, run)]:
            for jump in run.jumps_to.get(inner.label, []) if inner.label is not None else []:
                if not _failure_jump(jump, run):
                    return False
    return True


def _failure_jump(jump: ir.Stmt, run: Run) -> bool:
    """Whether a jump ends the arm of a failure return whose test is not always true: an arm the counts take
    as not taken (sad.analysis.failures)."""
    if run.proc is None:
        return False
    found = nesting(run.proc).arm_ending(jump)
    return found is not None and failures.error_return(run.proc, found[0].body) \
        and run.evaluate(found[0].cond, found[1]) is not sympy.true


def _early_return(stmt: ir.If) -> bool:
    """`IF (cond) THEN ... RETURN END IF` with no other RETURN in it, or IF ... ELSE IF ... with no ELSE whose
    every arm is one (DGEQR's `IF (INFO.NE.0) THEN; CALL XERBLA(...); RETURN; ELSE IF (LQUERY) THEN; RETURN`):
    ways out before the end."""
    return stmt.orelse is None and all(
        arm.body and isinstance(arm.body[-1], ir.Return)
        and not any(isinstance(s, (ir.Return, ir.Stop)) for s in ir.walk_stmts(arm.body[:-1])) for arm in stmt.arms)


def _exit(arm: ir.IfArm, stmt: ir.If, value, run: Run) -> tuple[bool, sympy.Expr]:
    """An early return's value, recorded with its condition: (True, the value to end with) where it is always
    taken, else (False, the value the paths that go on carry, where the condition is false)."""
    cond = _arm_condition(arm, stmt, run)
    if cond is sympy.false:
        return False, _without(value, run.evaluate(arm.cond, stmt))
    after = _run(arm.body[:-1], value, run)
    if isinstance(after, _Ended):  # the program ends on the way (XERBLA's STOP): no return through it
        if cond is sympy.true:
            raise Unknown
        return False, _without(value, cond)
    if cond is sympy.true:
        return True, after
    run.exits.append((after, cond))
    return False, _without(value, cond)


def _leaves(stmt: ir.If, run: Run, program: bool = False) -> bool:
    """Whether every arm of an IF with no ELSE ends the routine or, with `program`, the program (`IF
    (INFO.NE.0) THEN; CALL XERBLA(...); RETURN`): the paths that go on past it are those where its
    conditions are false."""
    ends = ("program",) if program else ("program", "return")
    return stmt.orelse is None and all(_ends(arm.body, run) in ends for arm in stmt.arms)


def _ends(body: list[ir.Stmt], run: Run) -> str | None:
    """'return' or 'program' where a statement list ends its routine or the program (STOP, a call of a
    routine that never returns, such as XERBLA), else None."""
    for stmt in body:
        if isinstance(stmt, ir.Stop) or (isinstance(stmt, ir.CallStmt) and resolve_name(stmt.name) in run.terminating):
            return "program"
        if isinstance(stmt, ir.Return):
            return "return"
    return None


def _narrowed(value: sympy.Piecewise, stmt: ir.If, run: Run):
    """The value past an IF whose arms all leave: each arm's condition is false there."""
    for arm in stmt.arms:
        value = _without(value, run.evaluate(arm.cond, stmt))
    return value


def _without(value, cond: sympy.Basic | None):
    """A choice (Piecewise) on the paths where `cond` is false: the pieces whose condition is `cond`, or one
    of its alternatives, are never chosen there (INFO's argument checks, -1 .. -7, after `IF (INFO.NE.0)
    RETURN`, which the backtracer reads as their conditions' Or: 0 is left); and a piece whose condition
    holds wherever `cond` is false is the choice made there, with the pieces after it (DSYTRF's NB, set
    under `IF (INFO.EQ.0)` before that guard: the choice of NB unset is not made past it)."""
    if not isinstance(value, sympy.Piecewise) or cond is None or not is_condition(cond):
        return value
    ruled = set(cond.args) if isinstance(cond, sympy.Or) else {cond}
    holding = set(_negated(cond))
    kept: list[tuple[sympy.Expr, sympy.Basic]] = []
    for v, c in value.args:
        if c in ruled:
            continue
        kept.append((v, c))
        if c in holding or (isinstance(c, sympy.And) and set(c.args) <= holding):
            break  # every path that goes on makes this choice: the later ones are never made
    if len(kept) == len(value.args) or not kept:
        return value
    return choose([*kept[:-1], (kept[-1][0], sympy.true)])


def _negated(cond: sympy.Basic) -> list[sympy.Basic]:
    """What holds where `cond` is false, conjunct by conjunct: the negation of each alternative of an Or
    (`IF (INFO.NE.0) RETURN`, INFO's argument checks: none of them holds past it), else of the whole."""
    return [sympy.Not(c) for c in cond.args] if isinstance(cond, sympy.Or) else [sympy.Not(cond)]


def _may_return(stmt: ir.Stmt, run: Run) -> bool:
    """Whether a compound statement may run a RETURN: one inside it, unless in the arms of an IF whose
    conditions are false."""
    inner = _inside(stmt, run)
    if not any(isinstance(s, ir.Return) for s in inner):
        return False
    if not isinstance(stmt, ir.If):
        return True
    for arm in stmt.arms:
        if any(isinstance(s, ir.Return) for s in ir.walk_stmts(arm.body)) \
                and run.evaluate(arm.cond, stmt) is not sympy.false:
            return True
    return stmt.orelse is not None and any(isinstance(s, ir.Return) for s in ir.walk_stmts(stmt.orelse))


def _may_define(stmt: ir.Stmt, run: Run) -> bool:
    """Whether a compound statement may assign the variable: a definition in it, unless inside the arm of an
    IF whose condition is false where the IF stands (on every pass of a loop: the condition is evaluated
    without the loop's indices, so false means false on each), or of a failure return (``_not_taken``)."""
    for body in ir.child_bodies(stmt):
        for inner in body:
            if id(inner) in run.definitions:
                return True
            if isinstance(inner, ir.If):
                # the arm's definitions first: evaluating its test (a test of data, X(J) .NE. ZERO) costs
                # far more, and most arms define nothing
                if any(_list_may_define(arm.body, run) and not _not_taken(arm, inner, run)
                       for arm in inner.arms) or _list_may_define(inner.orelse or [], run):
                    return True
            elif _may_define(inner, run):
                return True
    return False


def _not_taken(arm: ir.IfArm, stmt: ir.If, run: Run) -> bool:
    """Whether an arm is not taken where its IF stands: its test is false, or it is a failure return or ends
    the program (``_arm_condition``: DPTTRF's `INFO = I; GO TO 30` in its loops)."""
    try:
        return _arm_condition(arm, stmt, run) is sympy.false
    except Unknown:
        return False


def _list_may_define(stmts: list[ir.Stmt], run: Run) -> bool:
    return any(id(s) in run.definitions or _may_define(s, run) for s in stmts)


def _never_entered(loop: ir.While, run: Run) -> bool:
    """Whether a while loop (tested first) is known to run no trip: its condition is false at the start."""
    if loop.cond is None or loop.test_at_end:
        return False
    return run.evaluate(loop.cond, loop) is sympy.false


def is_condition(value: sympy.Basic) -> bool:
    """A relational or logical value (sympy's Symbol is also a Boolean: test the kinds that are not)."""
    return (value.is_Relational or isinstance(value, sympy.logic.boolalg.BooleanFunction)
            or value in (sympy.true, sympy.false))


def choose(pieces: list[tuple[sympy.Expr, sympy.Basic]]) -> sympy.Expr:
    """Piecewise of (value, condition) pairs, first match wins, the last condition true; a two-way choice
    that compares the two values it chooses between is their Min or Max."""
    pieces = [(v, c) for v, c in pieces if c is not sympy.false]
    kept: list[tuple[sympy.Expr, sympy.Basic]] = []
    for v, c in pieces:
        if isinstance(v, sympy.Piecewise) and kept:
            v = _past(v, {earlier for _, earlier in kept})
        kept.append((v, c))
        if c is sympy.true:
            break
    if any(isinstance(v, sympy.logic.boolalg.Boolean) and not isinstance(v, sympy.Symbol) for v, _ in kept):
        if any(v in (UNDEFINED, CLOBBERED) or isinstance(v, sympy.Dummy) for v, _ in kept):
            # a truth value set only where a test holds (DGELS's TPSD, under `IF (INFO.EQ.0)`), else the
            # value it came with (UNDEFINED, the entry's): kept as the choice it is, so that a later `IF
            # (INFO.NE.0) RETURN` can rule the other path out (_without)
            return sympy.Piecewise(*kept)
        return _logical(kept)
    if all(v == kept[0][0] for v, _ in kept):
        return kept[0][0]
    if len(kept) == 2:
        extreme = _min_max(kept[0][0], kept[0][1], kept[1][0])
        if extreme is not None:
            return extreme
    return extremes.build(sympy.Piecewise, tuple(kept))


def _logical(kept: list[tuple[sympy.Basic, sympy.Basic]]) -> sympy.Basic:
    """A choice between truth values as the condition it is (a Piecewise of them is no expression sympy
    keeps): DGELS's `TPSD = .TRUE.` then `IF (LSAME(TRANS, 'N')) TPSD = .FALSE.` is TRANS not 'N', so that
    `IF (TPSD) BROW = N` chooses BROW, the size DLANGE is called with. Unknown where a value is not a truth
    value or condition."""
    if not all(is_condition(v) for v, _ in kept):
        raise Unknown
    taken: list[sympy.Basic] = []
    earlier: list[sympy.Basic] = []
    for v, c in kept:
        taken.append(sympy.And(v, c, *[sympy.Not(e) for e in earlier]))
        earlier.append(c)
    return sympy.Or(*taken)


def _past(value: sympy.Piecewise, ruled: set[sympy.Basic]) -> sympy.Expr:
    """A choice made where the conditions `ruled` are false (the later arms of an outer choice): its pieces
    under one of them are never chosen there (DORMQR's MI, set in its loop where LEFT and before it where
    not, is the one before the loop where not LEFT)."""
    kept = [(v, c) for v, c in value.args if c not in ruled]
    if len(kept) == len(value.args) or not kept:
        return value
    return choose([*kept[:-1], (kept[-1][0], sympy.true)])


def _min_max(taken: sympy.Expr, cond: sympy.Basic, other: sympy.Expr) -> sympy.Expr | None:
    """`taken` where `cond` holds, else `other`: Min or Max when `cond` compares the two."""
    if isinstance(cond, (sympy.StrictGreaterThan, sympy.GreaterThan)):
        big, small = cond.lhs, cond.rhs
    elif isinstance(cond, (sympy.StrictLessThan, sympy.LessThan)):
        big, small = cond.rhs, cond.lhs
    else:
        return None
    if _same(big, other) and _same(small, taken):
        return extremes.minimum(taken, other)  # the smaller one is taken when the other is bigger
    if _same(big, taken) and _same(small, other):
        return extremes.maximum(taken, other)
    return None


@lru_cache(maxsize=4096)
def _same(a: sympy.Expr, b: sympy.Expr) -> bool:
    """a = b, cheaply: identical, or a polynomial difference that expands to 0. No simplify: on md1's cell
    count (floor, Min, cube roots) it took seconds per comparison, and a miss only leaves the exact Piecewise
    instead of its Min/Max form. Remembered: every use of a variable runs its routine's IFs again."""
    if a == b:
        return True
    diff = a - b
    return bool(diff.is_polynomial() and sympy.expand(diff) == 0)
