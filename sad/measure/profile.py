"""From measured line counts to parameter values, and the line-by-line honesty check.

Data flow: an Analysis (sad.analysis.pipeline) gives, per source line, the SAD's count expression; here it is
re-expressed in gcov's convention for that line (gcov charges loop control differently from us, see
corpus/kernels/README.md); sad.measure.gcov gives the measured counts. Then

- `check`: bind what is known, evaluate, compare line by line;
- `derive`: treat every line as an equation  model(line) = measured(line)  in the unknown parameters, and
  solve them one at a time, always from an equation in which exactly one unknown remains (the first
  statement of an IF arm gives P·(condition count); an arm on its test's line, whose line count is the
  test's, gives it through gcov's branch count; a GOTO loop's body gives X·entries); the equations not
  used are the cross-check, and their residuals are reported.

The results go to sad.measure.params_io (a params file) and sad.measure.fit (models over several problem sizes).
"""
from __future__ import annotations

import re
from collections import defaultdict
from dataclasses import dataclass, field
from functools import lru_cache

import sympy

from sad import ir
from sad.analysis.bindings import bind, evaluate
from sad.analysis.description import line_counts
from sad.common.exactdiv import FloorLog
from sad.ir.languages import resolve_name
from sad.measure.gcov import else_first

Key = tuple[str, int]
TOLERANCE = 1e-6  # relative; counts are integers, so anything larger is a real disagreement


@dataclass
class LineModel:
    """What the SAD predicts for one source line, in sad's and in gcov's counting convention."""
    key: Key
    ours: sympy.Expr  # our convention (DO line = entries, IF line = evaluations, ...)
    gcov: sympy.Expr  # the same line in gcov's convention
    alt: sympy.Expr | None = None  # a second count gcov is seen to show on some lines of this kind
    arm: sympy.Expr | None = None  # an IF whose arm is on the test's line: the arm's count (gcov's branch)


@dataclass
class LineCheck:
    """One line compared: our count and gcov's, with the parameters still unbound."""
    key: Key
    ours: float | None  # in gcov's convention; None when unbound parameters remain
    measured: int | None  # None when gcov has no code on the line
    unbound: list[str] = field(default_factory=list)
    statement: bool = True  # False: gcov instruments a line that holds no statement (END, a header)
    rtol: float = 0.0  # relative tolerance for counts from fitted (non-integer) values: within it, "close"
    arm: bool = False  # the count of an arm on its test's line, against gcov's branch count (not the line's)

    @property
    def status(self) -> str:
        """ok, close, MISMATCH, unbound, not-measured, no-code or gcov-only for this line."""
        if not self.statement:
            return "gcov-only"
        if self.measured is None:
            return "no-code" if not self.ours else "not-measured"
        if self.ours is None:
            return "unbound"
        if _close(self.ours, self.measured):
            return "ok"
        if self.rtol and abs(self.ours - self.measured) <= self.rtol * max(1.0, abs(self.measured)):
            return "close"
        return "MISMATCH"


@dataclass
class Derivation:
    """Parameter values solved from one run's line counts, with how each was found and what stayed open."""
    values: dict[str, float]  # derived parameter → value at this run
    how: dict[str, str]  # parameter → the line whose equation gave it, or why it has no value
    unexercised: list[str]  # parameters whose code did not run (any value fits); set to their default
    undetermined: list[str]  # parameters no equation could pin down
    residuals: list[tuple[Key, float, int]]  # (line, model, measured) where the cross-check fails


# ------------------------------------------------------------------------------------------ gcov's convention
@lru_cache(maxsize=64)
def _source_lines(path: str) -> tuple[str, ...]:
    try:
        with open(path, encoding="utf-8", errors="replace") as fh:
            return tuple(fh.read().splitlines())
    except OSError:
        return ()


def source_text(path: str, line: int) -> str:
    """The text of a source line (empty if the line does not exist)."""
    lines = _source_lines(path)
    return lines[line - 1] if 0 < line <= len(lines) else ""


_DO_LABEL = re.compile(r"^[ \t\d]*DO\s*(\d+)\s*,?\s*[A-Za-z]", re.IGNORECASE)


def _do_label(stmt: ir.Do) -> str | None:
    """The terminal label of a Fortran `DO 10 I = ...` (the IR does not keep it)."""
    match = _DO_LABEL.match(source_text(stmt.loc.file, stmt.loc.line)[:72])
    return match.group(1) if match else None


def _unit_step(stmt: ir.Do) -> bool:
    """A step of 1 or -1: gfortran tests such a loop at each trip, on the DO line (GCC 12: `DO 10 I = N-1, 1,
    -1` shows 10 at N = 10, as `DO I = 1, N` does); other steps precompute the trip count."""
    step = stmt.step
    if isinstance(step, ir.UnOp) and step.op == "neg":
        step = step.operand
    return step is None or (isinstance(step, ir.Const) and step.value in (1, -1))


def gcov_model(analysis) -> dict[Key, LineModel]:
    """Per statement line, the SAD's count and the count gcov (GCC 12, -O0) shows for it."""
    by_role: dict[Key, dict[str, sympy.Expr]] = defaultdict(lambda: defaultdict(lambda: sympy.Integer(0)))
    for event, count in analysis.counts.items():
        by_role[(event.loc.file, event.loc.line)][event.role] += count
    ours = line_counts(analysis.counts)
    model = {key: LineModel(key, expr, expr) for key, expr in ours.items()}
    entries: dict[Key, list[tuple[int, sympy.Expr]]] = defaultdict(list)
    for event, count in analysis.counts.items():
        if event.role == "loop_entry":
            entries[(event.loc.file, event.loc.line)].append((event.seq, count))
    for proc in analysis.program.procedures:
        for stmt in ir.walk_stmts(proc.body):
            for loc in _stmt_locs(stmt):
                key = (loc.file, loc.line)
                model.setdefault(key, LineModel(key, sympy.Integer(0), sympy.Integer(0)))
        _loops(proc.body, proc, by_role, model, parent=None)
        _one_line_nests(proc.body, entries, model)
        if proc.language == "fortran":
            _arithmetic_if_targets(proc, model)
            _continued_computed_gotos(proc, model)
    _same_line_arms(analysis.counts, model, _else_first_lines(analysis.program))
    _unexpanded_calls(analysis, model)
    return dict(sorted(model.items()))


def _unexpanded_calls(analysis, model: dict[Key, LineModel]) -> None:
    """A routine the SAD prices per call as C_<name> at some calls (not expanded there: too large, or its
    counts undefined for the values passed) runs its lines, and those of the routines it calls, that many
    more times than the SAD counts: each such line gets X_<name>_NOT_EXPANDED per such call, so that it
    is unbound, not a MISMATCH against gcov, wherever those calls run (a count bound to 0 adds nothing)."""
    procs = {resolve_name(p.name): p for p in analysis.program.procedures}
    calls: dict[str, sympy.Expr] = defaultdict(lambda: sympy.Integer(0))
    for event, count in analysis.counts.items():
        for item, times in event.cost.items():  # a cost per call of a routine of the program: not expanded
            if item.startswith("cost:C_") and resolve_name(item[7:]) in procs:
                calls[item[7:]] += times * count
    for name, times in sorted(calls.items()):
        extra = times * sympy.Symbol(f"X_{name}_NOT_EXPANDED", nonnegative=True)
        for proc in _reached(procs, resolve_name(name)):
            lines = [(loc.file, loc.line) for stmt in ir.walk_stmts(proc.body) for loc in _stmt_locs(stmt)]
            for file in {f for f, _ in lines}:
                first = min(n for f, n in lines if f == file)
                last = max(n for f, n in lines if f == file)
                for key in [k for k in model if k[0] == file and first <= k[1] <= last]:
                    model[key].gcov, model[key].arm = model[key].gcov + extra, None


def _reached(procs: dict[str, ir.Procedure], start: str) -> list[ir.Procedure]:
    """The routine `start` and every routine of the program it may call, directly or not."""
    seen, todo = {start}, [start]
    while todo:
        proc = procs.get(todo.pop())
        if proc is None:
            continue
        for stmt in ir.walk_stmts(proc.body):
            names = [c.name for c in ir.calls_in(stmt) if not (isinstance(c, ir.FuncCall) and c.intrinsic)]
            for callee in map(resolve_name, names):
                if callee in procs and callee not in seen:
                    seen.add(callee)
                    todo.append(callee)
    return [procs[k] for k in sorted(seen) if k in procs]


def _else_first_lines(program: ir.Program) -> set[Key]:
    """The lines of selects whose else arm the compiler makes the test's fall-through (sad.measure.gcov)."""
    return {(stmt.loc.file, stmt.loc.line) for proc in program.procedures for stmt in ir.walk_stmts(proc.body)
            if isinstance(stmt, ir.If) and stmt.loc is not None and else_first(stmt)}


def _same_line_arms(counts: dict, model: dict[Key, LineModel], else_first_lines: set[Key]) -> None:
    """`IF (D .GT. DIFF) DIFF = D`, `if (c) s;`, `x = c ? a : b`: the arm runs on the test's line, so the
    line's count is the test's and says nothing of the arm; gcov's branch counts do (the test's fall-through
    edge). The arm's count is that of the event the builder made right after the line's one test; where the
    compiler falls through into a select's else arm, the fall-through count is the test's minus that."""
    by_line: dict[Key, list] = defaultdict(list)
    for event, count in counts.items():
        by_line[(event.loc.file, event.loc.line)].append((event.seq, event, count))
    for key, events in by_line.items():
        events.sort(key=lambda t: t[0])
        tests = [k for k, (_, e, _) in enumerate(events) if e.role == "cond"]
        if len(tests) != 1 or key not in model or tests[0] + 1 >= len(events):
            continue
        seq, test, evaluated = events[tests[0]]
        nseq, arm, count = events[tests[0] + 1]
        if nseq == seq + 2 and key in else_first_lines:
            model[key].arm = evaluated  # the then arm is never taken (no events): the else arm always is
        elif nseq == seq + 1 and arm.role in ("stmt", "goto") and arm.procedure == test.procedure:
            model[key].arm = evaluated - count if key in else_first_lines else count


_JUMPS = (ir.Goto, ir.ComputedGoto, ir.AssignedGoto, ir.ArithmeticIf, ir.Return, ir.Stop)


def _continued_computed_gotos(proc: ir.Procedure, model: dict[Key, LineModel]) -> None:
    """A computed GOTO continued over several fixed-form lines (ILAENV's `GO TO ( 10, 10, ... , 160)ISPEC`
    on two) is compared on none of them: gfortran lowers it to a switch whose blocks gcov charges to its
    lines in ways that depend on the values taken, not to one line per run (GCC 12, -O0: ILAENV's one run
    shows 0 and 1; two runs of ISPEC 1 and 3 show 1 and 1 within DGEQRF's build, but 1 and 2 for the same
    statement in a smaller function). Both lines are gcov's alone; the arms it jumps to are compared."""
    for stmt in ir.walk_stmts(proc.body):
        if not isinstance(stmt, ir.ComputedGoto) or stmt.loc is None:
            continue
        if _last_continuation(stmt.loc.file, stmt.loc.line) != stmt.loc.line:
            model.pop((stmt.loc.file, stmt.loc.line), None)


def _last_continuation(path: str, line: int) -> int:
    """The last line of a fixed-form statement that starts on `line`."""
    lines = _source_lines(path)
    last = line
    for k in range(line + 1, min(len(lines), line + 40) + 1):
        text = lines[k - 1]
        if not text.strip() or text[0] in "cC*!":
            continue  # blank and comment lines may stand between a statement's lines
        if len(text) > 5 and not text[:5].strip() and text[5] not in " 0":
            last = k
            continue
        break
    return last


def _arithmetic_if_targets(proc: ir.Procedure, model: dict[Key, LineModel]) -> None:
    """gfortran gives the block that an arithmetic IF jumps to the line of the statement written just
    before the target label, so gcov charges the jumps to that line too: `GOTO 300` right before
    `400 CONTINUE` shows its own runs plus the arithmetic IF's jumps to 400 (a DO loop's latch), an
    assignment right before `420 T = T + 2` shows the runs of 420 (its own runs, which fall into 420, plus
    the jumps). Seen with GCC 12 at -O0; applied where every jump to the label comes from arithmetic IFs
    on other lines and the statement before it is in the same statement list."""
    jumps: dict[str, list[ir.Stmt]] = defaultdict(list)
    for stmt in ir.walk_stmts(proc.body):
        for label in ir.jump_targets(stmt):
            jumps[label].append(stmt)
    lists = [proc.body] + [body for stmt in ir.walk_stmts(proc.body) for body in ir.child_bodies(stmt)]
    for stmts in lists:
        for before, stmt in zip(stmts, stmts[1:]):
            sources = jumps.get(stmt.label or "", [])
            if not sources or not all(isinstance(j, ir.ArithmeticIf) for j in sources):
                continue
            if any(j.loc.line == before.loc.line for j in sources) or ir.child_bodies(before):
                continue
            prev, target = (before.loc.file, before.loc.line), (stmt.loc.file, stmt.loc.line)
            if prev not in model or target not in model or prev == target:
                continue
            own = model[prev].ours if isinstance(before, _JUMPS) else sympy.Integer(0)
            model[prev].gcov = own + model[target].ours


def _stmt_locs(stmt: ir.Stmt) -> list[ir.Loc]:
    locs = [stmt.loc]
    if isinstance(stmt, ir.If):
        locs += [arm.loc for arm in stmt.arms if arm.loc is not None]
    return locs


def _loops(stmts: list[ir.Stmt], proc: ir.Procedure, by_role, model: dict[Key, LineModel],
           parent: ir.Do | None) -> None:
    for stmt in stmts:
        if isinstance(stmt, ir.Do):
            _do_line(stmt, proc, by_role, model, parent)
        elif isinstance(stmt, ir.If) and stmt.logical:
            _logical_if_line(stmt, by_role, model)
        elif isinstance(stmt, ir.While):
            roles = by_role[(stmt.loc.file, stmt.loc.line)]
            key = (stmt.loc.file, stmt.loc.line)
            # the condition is evaluated once per iteration plus once per entry: that is gcov's count
            evaluations = roles["cond"] if stmt.cond is not None else roles["loop_entry"] + roles["loop_iter"]
            if key in model and not stmt.test_at_end:
                model[key].gcov = evaluations
            elif key in model and any((s.loc.file, s.loc.line) == key for s in stmt.body):
                # `do { s += b[i]; } while (++i < N);` on one line: no block enters it apart from the body's,
                # and gcov counts the line as often as the body runs
                model[key].gcov = roles["loop_iter"]
        for body in ir.child_bodies(stmt):
            _loops(body, proc, by_role, model, stmt if isinstance(stmt, ir.Do) else None)
        if isinstance(stmt, ir.Do) and proc.language == "fortran":
            _end_do_exit(stmt, proc, by_role, model)


def _one_line_nests(stmts: list[ir.Stmt], entries: dict[Key, list[tuple[int, sympy.Expr]]],
                    model: dict[Key, LineModel], enclosing: Key | None = None) -> None:
    """`for (i = 0; i < N; i++) for (j = 0; j < M; j++) a[i][j] = 0;`: gcov counts a line as the times control
    enters it from another line plus the times a loop within it goes round, so the inner loops' entries, which
    come from the same line, are not counted: N*M + N + 1 where the loops' tests add up to N*M + 2N + 1. The
    builder makes a loop's entry after its body's events, so of the line's loop entries the last made is the
    outermost loop's, the others the inner loops'."""
    for stmt in stmts:
        key = (stmt.loc.file, stmt.loc.line) if isinstance(stmt, ir.Do) else None
        if isinstance(stmt, ir.Do) and key != enclosing and key in model and _nested_on_its_line(stmt):
            inner = sorted(entries[key], key=lambda t: t[0])[:-1]
            model[key].gcov = model[key].gcov - sum((count for _, count in inner), sympy.Integer(0))
        for body in ir.child_bodies(stmt):
            _one_line_nests(body, entries, model, key)


def _nested_on_its_line(stmt: ir.Do) -> bool:
    """A loop whose whole body is another loop written on the same line."""
    return len(stmt.body) == 1 and isinstance(stmt.body[0], ir.Do) and stmt.body[0].loc.line == stmt.loc.line \
        and stmt.body[0].loc.file == stmt.loc.file


def _end_do_exit(stmt: ir.Do, proc: ir.Procedure, by_role, model: dict[Key, LineModel]) -> None:
    """A DO closed by END DO (no terminal label, whose CONTINUE would carry it): END DO has no code, so the
    loop's exit is charged to the line of the body's last statement, an IF block's or inner DO's first line
    included (GCC 12: `DO I = 1, N; K = K + I; END DO` shows 11 on both lines at N = 10). Not where the
    trip count is precomputed (a step other than 1 or -1, bounds not constants) and the last statement is
    a simple one that makes no call (_ends_compound: `DO I = 1, K, MB; CALL BUMP(S); END DO` shows the
    trips plus the entries on both lines, as a unit step does)."""
    if _do_label(stmt) is not None or not stmt.body or _ends_routine_with_returns(stmt, proc):
        return
    last = stmt.body[-1]
    if not (_unit_step(stmt) or _constant_bounds(stmt, proc) or _ends_compound(stmt, None)):
        return
    key = (last.loc.file, last.loc.line)
    if key in model and key != (stmt.loc.file, stmt.loc.line):
        roles = by_role[(stmt.loc.file, stmt.loc.line)]
        model[key].gcov = model[key].gcov + roles["loop_entry"] - _jumps_out(stmt, by_role)


def _ends_routine_with_returns(stmt: ir.Do, proc: ir.Procedure) -> bool:
    """The loop is the routine's last statement and the routine has a RETURN: gfortran then jumps from the
    loop's exit to the return block, whose line is END, not the body's last (GCC 12: `IF (N .LE. 0) RETURN`
    then `DO J = 1, N; S = S + J; END DO` as the last statement shows 35 on the body's line for 35 trips in
    5 calls, and 40 with any statement after the loop, an explicit RETURN included). Not where the routine
    passes one of its own variables to a call (`_passes_a_local`)."""
    return bool(proc.body) and proc.body[-1] is stmt \
        and any(isinstance(s, ir.Return) for s in ir.walk_stmts(proc.body)) and not _passes_a_local(proc)


def _passes_a_local(proc: ir.Procedure) -> bool:
    """Whether a call passes one of the routine's automatic variables by reference (`CALL BUMP(S)`, `F(S)`;
    not a formal, a constant, an expression or a COMMON or SAVEd variable): gfortran ends such a variable's
    life where the routine returns, and the loop's exit then comes back to the body's last line (GCC 12:
    DTPQRT2's last loop, which passes its P and ALPHA to DGEMV and DGER, shows 32 there for 28 trips in 4
    calls; a loop that passes only formals' elements, `CALL BUMP(A(J,1))`, shows its trips)."""
    for call in (c for s in proc.body for c in ir.calls_in(s)):
        if isinstance(call, ir.FuncCall) and call.intrinsic:
            continue
        for arg in call.args:
            var = proc.variables.get(arg.name) if isinstance(arg, (ir.Var, ir.ArrayRef)) else None
            if var is not None and var.storage == "local":
                return True
    return False


def _do_line(stmt: ir.Do, proc: ir.Procedure, by_role, model: dict[Key, LineModel], parent) -> None:
    language = proc.language
    key = (stmt.loc.file, stmt.loc.line)
    roles = by_role[key]
    entries, iterations = roles["loop_entry"], roles["loop_iter"]
    left_early = _jumps_out(stmt, by_role)
    label = _do_label(stmt) if language == "fortran" else None
    if language == "c" or _unit_step(stmt) or _constant_bounds(stmt, proc) or _ends_compound(stmt, label):
        # the loop test runs at each entry and after each iteration that comes back to it
        header = entries + iterations - left_early
    else:
        header = entries  # gfortran precomputes the trip count: its test shares the last statement's line
    if label and isinstance(parent, ir.Do) and _do_label(parent) == label and parent.body \
            and parent.body[-1] is stmt:
        parent_roles = by_role[(parent.loc.file, parent.loc.line)]
        header += parent_roles["loop_entry"] - _jumps_out(parent, by_role)  # the outer loop's exits
    if key in model:
        model[key].gcov = header
    last = stmt.body[-1] if stmt.body else None
    if label and isinstance(last, ir.Continue) and last.label == label:
        tkey = (last.loc.file, last.loc.line)
        if tkey in model:
            model[tkey].gcov = entries - left_early  # the terminal CONTINUE carries the loop's exit


def _ends_compound(stmt: ir.Do, label: str | None) -> bool:
    """The body's last statement (before the terminal CONTINUE of a labelled DO) is a compound one (a DO, an
    IF block) or ends in a call (a CALL, an I/O statement: with --coverage a call ends its basic block): its
    own line has no code after it, so gfortran charges the counted loop's test per trip to the DO line, as
    for a unit step (GCC 12: `DO I = 1, N, 3` shows 1 around `S = S + I`, 5 at N = 10 around an inner DO;
    DTRTRI's `DO 20 J = 1, N, NB` shows 3 for two trips ending in `CALL DTRTI2`, 1 where an assignment
    follows the call)."""
    body = list(stmt.body)
    if label and body and isinstance(body[-1], ir.Continue) and body[-1].label == label:
        body.pop()
    return bool(body) and (bool(ir.child_bodies(body[-1])) or isinstance(body[-1], (ir.CallStmt, ir.IO)))


def _constant_bounds(stmt: ir.Do, proc: ir.Procedure) -> bool:
    """A loop whose bounds are constants of the source (literals, PARAMETERs): gfortran folds the trip
    count and the test per iteration is charged to the DO line, as for a unit step. (Counts that are
    numbers only because every call site passes constants, `CALL DAXPY(100, ...)`, do not count.)"""
    for bound in (stmt.lo, stmt.hi, stmt.step):
        for node in ir.walk(bound) if bound is not None else []:
            if isinstance(node, ir.Var):
                decl = proc.variables.get(node.name)
                if decl is None or decl.storage != "parameter":
                    return False
            elif not isinstance(node, (ir.Const, ir.BinOp, ir.UnOp)):
                return False
    return True


def _logical_if_line(stmt: ir.If, by_role, model: dict[Key, LineModel]) -> None:
    """`IF (c) S` on one line: gcov charges the runs of S (unless it jumps away) to the line as well."""
    key = (stmt.loc.file, stmt.loc.line)
    body = stmt.arms[0].body if stmt.arms else []
    if key not in model or len(body) != 1 or body[0].loc.line != stmt.loc.line:
        return
    inner = body[0]
    if isinstance(inner, (ir.Goto, ir.Return, ir.Stop, ir.ComputedGoto, ir.ArithmeticIf, ir.AssignedGoto)):
        return
    # gcov shows either the evaluations or the evaluations plus the runs of S (seen both ways with
    # GCC 12); the check accepts either, the derivation uses the second only when the first disagrees
    model[key].alt = by_role[key]["cond"] + by_role[key]["stmt"]


def _jumps_out(loop: ir.Do, by_role) -> sympy.Expr:
    """How often a GOTO inside the loop leaves it (those iterations never return to the loop test)."""
    total = sympy.Integer(0)
    for s in ir.jumps_out(loop):
        if isinstance(s, ir.Goto):
            total += by_role[(s.loc.file, s.loc.line)]["goto"]
    return total


# ------------------------------------------------------------------------------------------ comparison
def known_values(analysis, bindings: dict[str, sympy.Expr]) -> dict[str, sympy.Expr]:
    """User bindings plus the values of direct and indirect parameters (the counts may mention them)."""
    values = {p.name: p.value for p in analysis.table if p.cls != "unresolved" and p.value is not None}
    values.update(bindings)
    return values


def _number(expr: sympy.Expr) -> float | None:
    """The number a closed formula stands for; a Sum (a loop count over an outer index) is added up term
    by term (bindings.evaluate): sympy's float() of a Sum approximates it by Euler-Maclaurin, seconds per
    line on md1 and not exact for the step-shaped terms of loop counts."""
    return evaluate(expr)


def _close(a: float, b: float) -> bool:
    return abs(a - b) <= TOLERANCE * max(1.0, abs(b))


def check(model: dict[Key, LineModel], measured: dict[Key, int], values: dict[str, sympy.Expr],
          rtol: float = 0.0, branches: dict[Key, tuple[int, int]] | None = None) -> list[LineCheck]:
    """Compare the SAD's line counts, bound to `values`, with gcov's measured counts line by line; with
    `rtol`, a count within that relative distance is "close" (values fitted over sizes are not exact).
    With `branches` (sad.measure.gcov), an arm on its test's line whose count is bound is compared with
    gcov's branch count too (a row of its own, `arm=True`): the line's count cannot tell a wrong probability."""
    checks = []
    for key in sorted(set(model) | {k for k in measured if k[0] in {m[0] for m in model}}):
        line = model.get(key)
        expr = bind(line.gcov, values) if line is not None else None
        ours = _number(expr) if expr is not None else None
        unbound = sorted(s.name for s in expr.free_symbols) if expr is not None else []
        if line is not None and line.alt is not None and ours is not None and key in measured \
                and not _close(ours, measured[key]):
            other = _number(bind(line.alt, values))
            ours = other if other is not None else ours
        checks.append(LineCheck(key, ours, measured.get(key), unbound, line is not None, rtol))
        if line is not None and line.arm is not None and branches and key in branches:
            arm = _number(bind(line.arm, values))
            if arm is not None:  # a check beyond the line's: shown when bound, never counted as unbound
                checks.append(LineCheck(key, arm, branches[key][0], [], True, rtol, arm=True))
    return checks


# ------------------------------------------------------------------------------------------ derivation
def derive(analysis, model: dict[Key, LineModel], measured: dict[Key, int], values: dict[str, sympy.Expr],
           unknowns: list[str], branches: dict[Key, tuple[int, int]] | None = None) -> Derivation:
    """Solve the line equations for the unknown parameters, one unknown at a time; `branches` (gcov's
    (arm taken, test evaluated) per line, sad.measure.gcov) add an equation for each arm on its test's line."""
    table = analysis.table
    symbols = {name: table.symbol(name) for name in unknowns if table.symbol(name) is not None}
    wanted = set(symbols.values())
    equations: list[tuple[tuple, sympy.Expr, int]] = []  # (line key, or (file, line, "branch")), model, count
    alternatives: dict[Key, sympy.Expr] = {}
    for key, line in model.items():
        if key not in measured:
            continue
        expr = bind(line.gcov, values)
        if expr.free_symbols - wanted:
            continue  # mentions something neither known nor derivable here
        equations.append((key, expr, measured[key]))
        if line.alt is not None:
            alternatives[key] = bind(line.alt, values)
        if line.arm is not None and branches and key in branches:
            arm = bind(line.arm, values)
            if not arm.free_symbols - wanted:
                equations.append(((key[0], key[1], "branch"), arm, branches[key][0]))
    solved: dict[sympy.Symbol, sympy.Expr] = {}
    how: dict[str, str] = {}
    while True:
        equations = _eliminate(equations, wanted, solved, how, table, alternatives)
        # a value seen only through conditions (IF (RHO .LE. 0)) is known only to lie in a set
        ranged = _ranges(equations, wanted - set(solved), table)
        if not ranged:
            break
        for sym, (value, where) in ranged.items():
            solved[sym] = value
            how[sym.name] = where
        equations = [(k, e.xreplace(solved), c) for k, e, c in equations]
    remaining = set().union(*(e.free_symbols for _, e, _ in equations)) if equations else set()
    unexercised, undetermined = [], []
    for name, sym in sorted(symbols.items()):
        if sym in solved:
            continue
        if sym not in remaining:
            # every equation that mentioned it had it multiplied by a zero count
            unexercised.append(name)
            param = table.get(name)
            solved[sym] = sympy.Float(param.default if param and param.default is not None else 0)
            how[name] = "code not executed in this run: any value fits; suggested default used"
        else:
            undetermined.append(name)
            how[name] = "no equation pins it down"
    residuals = []
    for key, expr, count in equations:
        got = _number(expr.xreplace(solved))
        if got is None or not _close(got, count):
            residuals.append((key, got if got is not None else float("nan"), count))
    return Derivation({s.name: float(v) for s, v in solved.items() if _number(v) is not None}, how,
                      unexercised, undetermined, sorted(residuals))


def _eliminate(equations, wanted, solved, how, table, alternatives):
    """Solve single-unknown equations (and ratios of two equations that leave one unknown) until none is
    left; returns the equations not used, with every solved value substituted. A line with two possible
    gcov readings (`alternatives`) is used only once its first reading is known to disagree."""
    progress = True
    while progress:
        progress = False
        pending = []
        for key, expr, count in equations:
            expr = expr.xreplace(solved) if solved else expr
            free = expr.free_symbols & wanted
            if key in alternatives:
                if free:
                    pending.append((key, expr, count))
                    continue
                alt = alternatives.pop(key)
                if not _close(float(expr), count):
                    expr, free = alt.xreplace(solved), alt.free_symbols & wanted
                    progress = True
            if len(free) == 1 and (not expr.has(sympy.Piecewise) or sympy.count_ops(expr) <= _SOLVABLE_OPS):
                (sym,) = free
                if expr.has(sympy.Piecewise):
                    value = _common_root(sym, [(e.xreplace(solved), c) for k, e, c in equations
                                               if k not in alternatives and sym in e.free_symbols])
                else:
                    value = _solve_one(expr, sym, count, table.get(sym.name))
                if value is not None:
                    solved[sym] = value
                    how[sym.name] = f"{key[0]}:{key[1]}" + (" (gcov's branch counts)" if len(key) > 2 else "")
                    progress = True
                    continue
            pending.append((key, expr, count))
        equations = [(k, e.xreplace(solved), c) for k, e, c in pending]
        if not progress:
            progress = _ratio_step(equations, wanted, solved, how, table, alternatives)
            equations = [(k, e.xreplace(solved), c) for k, e, c in equations]
        if not progress:
            # last resort: trust the first reading of a two-reading line that is the only hope left
            for key, expr, _ in equations:
                if key in alternatives and len(expr.free_symbols & wanted) == 1:
                    del alternatives[key]
                    progress = True
                    break
    return equations


def _ratio_step(equations, wanted, solved, how, table, alternatives) -> bool:
    """Where no equation has a single unknown, divide two that differ by exactly one unknown: an IF arm
    inside a loop nest of unknown counts, over the IF's own line, leaves P alone. Two lines of the same
    unknowns may also leave one: a loop under a test of data (the sieve's `if (!composite[i]) for (j = i*i;
    j <= N; j += i)`), whose header counts P X (T + 1) and whose body P X T, give T alone."""
    by_set: dict[frozenset, list] = defaultdict(list)
    for key, expr, count in equations:
        free = frozenset(expr.free_symbols & wanted)
        if free and count and key not in alternatives:
            by_set[free].append((key, expr, count))
    for big in sorted(by_set, key=lambda f: (len(f), sorted(s.name for s in f))):
        for small in by_set:
            extra = big - small
            if not small <= big or len(extra) > 1 or not extra and len(by_set[big]) < 2:
                continue
            for key1, e1, c1 in by_set[big][:20]:
                for key2, e2, c2 in by_set[small][:20]:
                    if key1 == key2 or e1 == e2:
                        continue
                    ratio = sympy.cancel(e1 / e2)
                    left = ratio.free_symbols & wanted
                    if len(left) != 1 or extra and left != extra:
                        continue
                    (sym,) = left
                    value = _solve_one(ratio, sym, sympy.Rational(c1, c2), table.get(sym.name))
                    if value is not None:
                        solved[sym] = value
                        how[sym.name] = f"{key1[0]}:{key1[1]} / line {key2[1]}"
                        return True
    return False


_SOLVABLE_OPS = 40


def _ranges(equations, open_syms, table) -> dict:
    """Values that only conditions mention: intersect the sets each single-unknown equation allows and
    take a point inside (any point there reproduces every count)."""
    allowed: dict[sympy.Symbol, sympy.Set] = {}
    too_hard: set[sympy.Symbol] = set()
    for _key, expr, count in equations:
        free = expr.free_symbols & open_syms
        if len(free) != 1 or not expr.has(sympy.Piecewise):
            continue
        (sym,) = free
        param = table.get(sym.name)
        if param is None or param.kind != "value":
            continue
        if expr.has(sympy.floor, sympy.ceiling, sympy.Min, sympy.Max) or sympy.count_ops(expr) > _SOLVABLE_OPS:
            too_hard.add(sym)  # solveset can take hours on these (md1's RCUT in floor(BOXL/Min(RCUT, ...)))
            continue
        try:
            sols = sympy.solveset(sympy.Eq(expr, count), sym, domain=sympy.S.Reals)
        except (NotImplementedError, ValueError, TypeError):
            continue
        allowed[sym] = allowed.get(sym, sympy.S.Reals).intersect(sols)
    chosen = {}
    for sym, allowed_set in sorted(allowed.items(), key=lambda kv: kv[0].name):
        if sym in too_hard:
            continue  # a point of the simple sets could contradict the equations left unsolved
        point = _point_in(allowed_set)
        if point is not None:
            chosen[sym] = (point, f"only known to lie in {allowed_set}; {point} taken (any value there "
                                  f"reproduces the counts; give the real one with --size)")
    return chosen


def _point_in(allowed: sympy.Set) -> sympy.Expr | None:
    if allowed is sympy.S.EmptySet or allowed == sympy.S.Reals:
        return None
    if isinstance(allowed, sympy.FiniteSet):
        return sorted(allowed, key=float)[0]
    if isinstance(allowed, sympy.Union):
        allowed = allowed.args[0]
    if isinstance(allowed, sympy.Interval):
        lo, hi = allowed.start, allowed.end
        if lo.is_finite and hi.is_finite:
            return (lo + hi) / 2
        if lo.is_finite:
            return lo + 1
        if hi.is_finite:
            return hi - 1
    return None


def _solve_one(expr: sympy.Expr, sym: sympy.Symbol, count: int, param) -> sympy.Expr | None:
    """The value of sym with expr == count, if one fits its kind (a probability in [0, 1], a loop count
    or value ≥ 0); None when the equation does not decide it (sym multiplied by zero)."""
    expr = expr.replace(lambda e: isinstance(e, sympy.Max) and len(e.args) == 2 and 0 in e.args,
                        lambda e: [a for a in e.args if a != 0][0]) if expr.has(sympy.Max) else expr
    # a count that is zero whatever sym is says nothing about it
    if sympy.diff(expr, sym) == 0:
        return None
    probe = _number(sympy.diff(expr, sym).xreplace({sym: sympy.Integer(1)}))
    if probe == 0.0 and _number(sympy.diff(expr, sym, 2)) in (0.0, None):
        return None
    try:
        roots = sympy.solve(sympy.Eq(expr, count), sym, rational=True)
    except (NotImplementedError, ValueError, TypeError):
        roots = []
    if not roots and expr.has(sympy.floor):
        # an integer division (NLOC = N / NPROCS): solve without the floor, keep a root that reproduces the
        # count exactly (the smallest value of the range the division maps onto it)
        plain = expr.replace(sympy.floor, lambda arg: arg)
        try:
            roots = [r for r in sympy.solve(sympy.Eq(plain, count), sym, rational=True)
                     if _number(expr.xreplace({sym: r})) == float(count)]
        except (NotImplementedError, ValueError, TypeError):
            return None
    if not roots and expr.has(sympy.Min, sympy.Max):
        roots = _clamped_roots(expr, sym, count)
    kind = param.kind if param else "value"
    fitting = []
    for root in roots:
        value = _number(root) if not isinstance(root, dict) else None
        if value is None or isinstance(sympy.N(root), sympy.core.numbers.ComplexInfinity):
            continue
        if kind == "branch_probability" and not (-1e-9 <= value <= 1 + 1e-9):
            continue
        if kind in ("loop_count", "branch_probability") and value < -1e-9:
            continue
        fitting.append(root)
    if not fitting:
        return None
    return sorted(fitting, key=lambda r: abs(float(r)))[-1 if kind == "value" else 0]


def _common_root(sym: sympy.Symbol, equations: list[tuple[sympy.Expr, int]]) -> sympy.Expr | None:
    """The least value of `sym` that reproduces every count in `equations` (those with `sym` as their one
    unknown), from the candidates each equation's pieces give (`_piece_roots`): a floor maps a range onto one
    count, and each equation gives the least value of its own range, one of which is the least of the ranges'
    common part (`for (m = 1; m <= n; m <<= 1)` puts n in [512, 1024), a halving loop down to 3 in [768, 1536):
    768)."""
    single = [(e, c) for e, c in equations if len(e.free_symbols) == 1 and sympy.count_ops(e) <= _SOLVABLE_OPS]
    candidates = sorted({r for e, c in single for r in _piece_roots(e, sym, c)}, key=float)
    for root in candidates:
        if all(_number(e.xreplace({sym: root})) == float(c) for e, c in single):
            return root
    return None


def _piece_roots(expr: sympy.Expr, sym: sympy.Symbol, count: int) -> list[sympy.Expr]:
    """Roots of a count that is a choice of formulas (a loop halving its variable runs Piecewise((0, n < 3),
    (floor(log(n/3)/log(2)) + 1, True)) times): each piece solved with its floors dropped, a root kept where the
    whole count reproduces gcov's exactly (the least value of the range the floor maps onto the count).
    Pieces without the unknown (a value seen only through conditions) are left to `_ranges`."""
    roots: list[sympy.Expr] = []
    folded = sympy.piecewise_fold(expr) if expr.has(sympy.Piecewise) else expr
    pieces = [piece for piece, _cond in folded.args] if isinstance(folded, sympy.Piecewise) else [folded]
    for piece in pieces:
        if sym not in piece.free_symbols or piece.has(sympy.Piecewise):
            continue
        plain = piece.replace(FloorLog, lambda arg, base: sympy.log(arg) / sympy.log(base)) \
            .replace(sympy.floor, lambda arg: arg).replace(sympy.ceiling, lambda arg: arg)
        try:
            found = sympy.solve(sympy.Eq(plain, count), sym, rational=True)
        except (NotImplementedError, ValueError, TypeError):
            continue
        for root in found:
            if not isinstance(root, dict) and root.is_real and root not in roots \
                    and _number(expr.xreplace({sym: root})) == float(count):
                roots.append(root)
    return roots


def _pieces(expr: sympy.Expr, depth: int = 3) -> list[sympy.Expr]:
    """The expressions a Min/Max can stand for: each in turn replaced by one of its arguments."""
    found = next((e for e in sympy.preorder_traversal(expr) if isinstance(e, (sympy.Min, sympy.Max))), None)
    if found is None or depth == 0:
        return [expr] if found is None else []
    return [piece for arg in found.args for piece in _pieces(expr.xreplace({found: arg}), depth - 1)]


def _clamped_roots(expr: sympy.Expr, sym: sympy.Symbol, count: int) -> list[sympy.Expr]:
    """Roots of a count clamped by Min/Max (an index test `IF (I .LE. K)` in `DO I = 1, N` runs
    Max(0, Min(K, N)) times): solve each piece, keep the roots that reproduce the count through the clamp."""
    roots = []
    for piece in _pieces(expr):
        if sym not in piece.free_symbols:
            continue
        try:
            found = sympy.solve(sympy.Eq(piece, count), sym, rational=True)
        except (NotImplementedError, ValueError, TypeError):
            continue
        for root in found:
            if not isinstance(root, dict) and root not in roots \
                    and _number(expr.xreplace({sym: root})) == float(count):
                roots.append(root)
    return roots
