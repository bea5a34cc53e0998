"""The C frontend's lowering of each construct to the IR (frontends/c)."""
from __future__ import annotations

import itertools
import math
import shutil
import subprocess
import textwrap

import pytest

from sad import ir
from sad.frontends.c import load


# ------------------------------------------------------------------------------------------------ helpers
def lower(tmp_path, source: str, name: str = "t.c", **kw) -> ir.Program:
    path = tmp_path / name
    path.write_text(textwrap.dedent(source))
    prog = load(str(path), kw.get("include_dirs", []), kw.get("defines", {}))
    return prog


def proc(tmp_path, body: str, decls: str = "", fn: str = "f", params: str = "int n, double *a") -> ir.Procedure:
    src = f"#include <stdio.h>\n#include <stdlib.h>\n#include <math.h>\n{decls}\nvoid {fn}({params})\n{{\n{body}\n}}\n"
    prog = lower(tmp_path, src)
    errors = [d for d in prog.diagnostics if d.severity == "error"]
    assert not errors, [str(d) for d in errors]
    p = prog.procedure(fn)
    assert p is not None
    return p


def stmts_of(p: ir.Procedure, cls) -> list:
    return [s for s in ir.walk_stmts(p.body) if isinstance(s, cls)]


def ev(e: ir.Expr, env: dict) -> float:
    """Evaluate a lowered integer expression (C semantics for / and %)."""
    if isinstance(e, ir.Const):
        return e.value
    if isinstance(e, ir.Var):
        return env[e.name]
    if isinstance(e, ir.UnOp) and e.op == "neg":
        return -ev(e.operand, env)
    if isinstance(e, ir.Cast):
        return ev(e.operand, env)
    if isinstance(e, ir.BinOp):
        a, b = ev(e.left, env), ev(e.right, env)
        if e.op == "div":
            return int(a / b)
        return {"add": a + b, "sub": a - b, "mul": a * b, "mod": math.fmod(a, b)}[e.op]
    raise AssertionError(f"cannot evaluate {e}")


def gcc_ok(tmp_path, source: str) -> None:
    """The test program is valid C (when gcc is available)."""
    gcc = shutil.which("gcc")
    if gcc is None:
        return
    path = tmp_path / "gcc_check.c"
    path.write_text(textwrap.dedent(source))
    res = subprocess.run([gcc, "-std=gnu99", "-fsyntax-only", str(path)], capture_output=True, text=True)
    assert res.returncode == 0, res.stderr


# ------------------------------------------------------------------------------------- canonical loops
LOOP_FORMS = [
    # (for header, lo, hi, step) with n = 10 in the environment
    ("i = 0; i < n; i++", 0, 9, None),
    ("i = 0; i < n; ++i", 0, 9, None),
    ("i = 1; i <= n; i++", 1, 10, None),
    ("i = n; i > 0; i--", 10, 1, -1),
    ("i = n - 1; i >= 0; --i", 9, 0, -1),
    ("i = 0; i != n; i++", 0, 9, None),
    ("i = n; i != 0; i--", 10, 1, -1),
    ("i = 0; i < n; i += 3", 0, 9, 3),
    ("i = 2; i <= n; i += 2", 2, 10, 2),
    ("i = n; i >= 1; i -= 2", 10, 1, -2),
    ("i = n; i > 0; i -= 3", 10, 1, -3),
    ("i = 0; i < n; i = i + 4", 0, 9, 4),
    ("i = 0; i < n; i = 2 + i", 0, 9, 2),
    ("i = n; i > 0; i = i - 1", 10, 1, -1),
    ("i = 0; n > i; i++", 0, 9, None),
    ("i = 0; i < n; i += 1", 0, 9, None),
]


@pytest.mark.parametrize("header,lo,hi,step", LOOP_FORMS)
def test_canonical_for_lowers_to_do(tmp_path, header, lo, hi, step):
    p = proc(tmp_path, f"int i;\nfor ({header}) a[i] = i;")
    dos = stmts_of(p, ir.Do)
    assert len(dos) == 1, header
    do = dos[0]
    assert do.index == "i"
    env = {"n": 10}
    assert ev(do.lo, env) == lo
    assert ev(do.hi, env) == hi
    if step is None:
        assert do.step is None
    else:
        assert ev(do.step, env) == step
    assert not stmts_of(p, ir.While)
    assert isinstance(do.body[0], ir.Assign)


def c_trip_count(lo: int, bound: int, cmp: str, step: int) -> int:
    ops = {"<": lambda a, b: a < b, "<=": lambda a, b: a <= b, ">": lambda a, b: a > b,
           ">=": lambda a, b: a >= b, "!=": lambda a, b: a != b}
    i, count = lo, 0
    while ops[cmp](i, bound):
        count += 1
        i += step
        assert count < 10000
    return count


def test_do_bounds_give_c_trip_counts_with_fortran_formula(tmp_path):
    """hi is chosen so that the SAD's trip formula max(0, floor((hi - lo + s) / s)) is C's trip count."""
    cases = []
    for cmp, steps in (("<", (1, 2, 3, 5)), ("<=", (1, 2, 4)), (">", (-1, -2, -3)), (">=", (-1, -3)),
                       ("!=", (1,))):
        for s in steps:
            cases.append((cmp, s))
    body = []
    for k, (cmp, s) in enumerate(cases):
        inc = f"i += {s}" if s > 0 else f"i -= {-s}"
        body.append(f"for (i = lo; i {cmp} hi; {inc}) a[i] = {k};")
    p = proc(tmp_path, "int i;\n" + "\n".join(body), params="int lo, int hi, double *a")
    dos = stmts_of(p, ir.Do)
    assert len(dos) == len(cases)
    for (cmp, s), do in zip(cases, dos):
        for lo_v, hi_v in itertools.product(range(-4, 9), range(-4, 9)):
            if cmp == "!=" and hi_v < lo_v:
                continue  # C would not terminate
            env = {"lo": lo_v, "hi": hi_v}
            lo, hi = ev(do.lo, env), ev(do.hi, env)
            st = ev(do.step, env) if do.step is not None else 1
            assert st == s
            sad_trips = max(0, math.floor((hi - lo + st) / st))
            assert sad_trips == c_trip_count(lo_v, hi_v, cmp, s), (cmp, s, lo_v, hi_v)


def test_declared_index_and_symbolic_step(tmp_path):
    p = proc(tmp_path, "int s = 2;\nfor (int k = 1; k <= n; k += s) a[k] = 0.0;")
    (do,) = stmts_of(p, ir.Do)
    assert do.index == "k" and isinstance(do.step, ir.Var) and do.step.name == "s"
    assert isinstance(do.hi, ir.Var) and do.hi.name == "n"
    assert p.variables["k"].type == "integer"


@pytest.mark.parametrize("header,body", [
    ("i = 0; i < n; i++", "i += 2;"),                # index written in the body
    ("i = 0; i < n; i++", "n--;"),                   # bound written in the body
    ("i = 0; i < n && a[i] > 0; i++", ""),           # compound condition
    ("i = 0; i < n; i *= 2", ""),                    # geometric step
    ("i = 0; i != n; i += 2", ""),                   # != with a step other than 1
    ("i = 0; i < n; i--", ""),                       # wrong direction
    ("; i < n; i++", ""),                            # no init
    ("i = 0; i < n; ", "i++;"),                      # no increment
    ("x = 0.0; x < 1.0; x += 0.1", ""),              # floating index
    ("i = 0; i < rand(); i++", ""),                  # a call in the bound
    ("i = 0; i < n; i++, n--", ""),                  # the bound changes in the increment
    ("i = 0; i < n; i++", "scanf(\"%d\", &i);"),     # the address of the index is taken
])
def test_non_canonical_for_lowers_to_while(tmp_path, header, body):
    p = proc(tmp_path, f"int i = 0; double x;\nfor ({header}) {{ {body} a[0] = x; }}")
    assert not stmts_of(p, ir.Do), header
    (w,) = stmts_of(p, ir.While)
    assert not w.test_at_end


def test_while_for_keeps_init_and_puts_increment_at_end(tmp_path):
    p = proc(tmp_path, "int i;\nfor (i = 1; i < n; i *= 2) a[i] = 1.0;")
    init = p.body[0]
    assert isinstance(init, ir.Assign) and init.target.name == "i" and init.value.value == 1
    (w,) = stmts_of(p, ir.While)
    assert isinstance(w.cond, ir.BinOp) and w.cond.op == "lt"
    last = w.body[-1]
    assert isinstance(last, ir.Assign) and last.target.name == "i"
    assert last.value.op == "mul"


def test_infinite_loops_have_no_condition(tmp_path):
    p = proc(tmp_path, "for (;;) { if (n) break; }\nwhile (1) { if (n) return; }")
    ws = stmts_of(p, ir.While)
    assert [w.cond for w in ws] == [None, None]


def test_do_while(tmp_path):
    p = proc(tmp_path, "int i = 0;\ndo { a[i] = 0; i++; } while (i < n);\ndo { a[0] = 1; } while (0);")
    ws = stmts_of(p, ir.While)
    assert len(ws) == 1 and ws[0].test_at_end
    assert ws[0].cond.op == "lt"
    # do { } while (0) is its body once
    assert any(isinstance(s, ir.Assign) and isinstance(s.value, ir.Const) and s.value.value == 1.0
               for s in p.body)


# ------------------------------------------------------------------------------------ break / continue
def test_break_and_continue_become_gotos_to_invented_labels(tmp_path):
    p = proc(tmp_path, textwrap.dedent("""\
        int i;
        for (i = 0; i < n; i++) {
            if (a[i] < 0) continue;
            if (a[i] > 100) break;
            a[i] = sqrt(a[i]);
        }
        """))
    (do,) = stmts_of(p, ir.Do)
    gotos = stmts_of(p, ir.Goto)
    assert len(gotos) == 2
    cont, brk = gotos[0].target, gotos[1].target
    assert cont.startswith(".") and brk.startswith(".") and cont != brk
    # continue target: the last statement of the body; break target: right after the loop
    assert isinstance(do.body[-1], ir.Continue) and do.body[-1].label == cont
    after = p.body[p.body.index(do) + 1]
    assert isinstance(after, ir.Continue) and after.label == brk


def test_continue_in_while_for_precedes_increment(tmp_path):
    p = proc(tmp_path, "int i;\nfor (i = 1; i < n; i *= 2) { if (a[i]) continue; a[i] = 1; }")
    (w,) = stmts_of(p, ir.While)
    (g,) = stmts_of(p, ir.Goto)
    labels = [s.label for s in w.body]
    assert labels.index(g.target) == len(w.body) - 2  # then the increment
    assert isinstance(w.body[-1], ir.Assign) and w.body[-1].target.name == "i"


def test_unused_loop_labels_are_not_emitted(tmp_path):
    p = proc(tmp_path, "int i;\nfor (i = 0; i < n; i++) a[i] = 0;")
    assert not [s for s in ir.walk_stmts(p.body) if s.label]


# --------------------------------------------------------------------------------------------- switch
SWITCH = """\
    switch (n) {
    case 1:
    case 2:
        a[0] = 1;
        break;
    case 3:
        a[0] = 3;
    case 4:
        a[0] = 4;
        break;
    default:
        a[0] = 0;
    }
    a[1] = 9;
"""


def test_switch_lowering(tmp_path):
    p = proc(tmp_path, SWITCH)
    (cg,) = stmts_of(p, ir.ComputedGoto)
    assert isinstance(cg.selector, ir.Var) and cg.selector.name == "n"
    assert len(cg.targets) == 3
    assert [[c.value for c in case] for case in cg.cases] == [[1, 2], [3], [4]]
    assert cg.default is not None and cg.default not in cg.targets
    body = p.body
    labels = {s.label: i for i, s in enumerate(body) if s.label}
    for t in cg.targets + [cg.default]:
        assert t in labels and t.startswith(".")
    # fall-through: case 3's statement is followed directly by case 4's label, no goto between
    i3 = labels[cg.targets[1]]
    assert isinstance(body[i3 + 1], ir.Assign) and isinstance(body[i3 + 2], ir.Continue)
    assert body[i3 + 2].label == cg.targets[2]
    # break: Goto to a label after the switch body, before a[1] = 9
    gotos = [s for s in body if isinstance(s, ir.Goto)]
    assert len(gotos) == 2 and gotos[0].target == gotos[1].target
    end = labels[gotos[0].target]
    assert end > labels[cg.default]
    assert isinstance(body[end + 1], ir.Assign) and body[end + 1].target.indices[0].value == 1


def test_switch_without_default_jumps_to_end(tmp_path):
    # case 0 falls through into case 1: a computed jump into the body, not an if chain
    p = proc(tmp_path, "switch (n % 3) { case 0: a[0] = 1; case 1: a[0] = 2; }\na[1] = 0;")
    (cg,) = stmts_of(p, ir.ComputedGoto)
    assert cg.selector.op == "mod"
    end_label = cg.default
    idx = [i for i, s in enumerate(p.body) if s.label == end_label]
    assert idx and isinstance(p.body[idx[0] + 1], ir.Assign)


def test_break_inside_loop_inside_switch_targets_the_loop(tmp_path):
    p = proc(tmp_path, "int i;\nswitch (n) { case 1: while (a[0] > 0) { if (a[0] > 5) break; a[0] -= 1; } break; }")
    (w,) = stmts_of(p, ir.While)
    inner = [s for s in ir.walk_stmts(w.body) if isinstance(s, ir.Goto)]
    # the case ends in its own break: the switch is an if, and the loop's break leaves the loop only
    (chain,) = [s for s in p.body if isinstance(s, ir.If)]
    ends = [s.label for s in chain.arms[0].body if isinstance(s, ir.Continue) and s.label]
    assert [g.target for g in inner] == ends


# ---------------------------------------------------------------------------------- ternary, && and ||
def test_ternary_in_assignment_becomes_if(tmp_path):
    p = proc(tmp_path, "double x;\nx = n > 0 ? a[0] : -a[0];")
    (i,) = stmts_of(p, ir.If)
    assert i.arms[0].cond.op == "gt"
    assert isinstance(i.arms[0].body[0], ir.Assign) and i.arms[0].body[0].target.name == "x"
    assert isinstance(i.orelse[0].value, ir.UnOp)
    assert not any(isinstance(s, ir.Assign) and isinstance(s.value, ir.Ternary) for s in ir.walk_stmts(p.body))


def test_ternary_in_return_and_nested(tmp_path):
    src = """\
        int sgn(int x) { return x > 0 ? 1 : x < 0 ? -1 : 0; }
        """
    prog = lower(tmp_path, src)
    p = prog.procedure("sgn")
    returns = stmts_of(p, ir.Return)
    assert sorted(r.value.value for r in returns) == [-1, 0, 1]
    assert len(stmts_of(p, ir.If)) >= 1


def test_ternary_inside_expression_stays_ternary(tmp_path):
    p = proc(tmp_path, "double x;\nx = 2.0 * (n > 0 ? a[0] : a[1]);")
    (asg,) = stmts_of(p, ir.Assign)
    assert isinstance(asg.value.right, ir.Ternary)
    assert asg.value.right.type == "double"


def test_and_in_if_becomes_nested_ifs(tmp_path):
    p = proc(tmp_path, "if (n > 0 && a[0] > 1.0) a[1] = 1.0;")
    (outer,) = [s for s in p.body if isinstance(s, ir.If)]
    assert outer.arms[0].cond.op == "gt" and outer.orelse is None
    (inner,) = [s for s in outer.arms[0].body if isinstance(s, ir.If)]
    assert inner.arms[0].cond.op == "gt" and inner.arms[0].cond.left.type == "double"
    assert isinstance(inner.arms[0].body[0], ir.Assign)


def test_and_with_else_duplicates_small_else(tmp_path):
    p = proc(tmp_path, "if (n > 0 && a[0] > 1.0) a[1] = 1.0; else a[1] = 2.0;")
    (outer,) = [s for s in p.body if isinstance(s, ir.If)]
    inner = outer.arms[0].body[0]
    assert isinstance(inner, ir.If)
    assert outer.orelse[0].value.value == 2.0 and inner.orelse[0].value.value == 2.0


def test_or_in_if_becomes_else_chain(tmp_path):
    p = proc(tmp_path, "if (n < 0 || n > 10) a[0] = 0.0;")
    (top,) = [s for s in p.body if isinstance(s, ir.If)]
    assert [arm.cond.op for arm in top.arms] == ["lt", "gt"]
    assert all(isinstance(arm.body[0], ir.Assign) for arm in top.arms)


def test_and_in_expression_context_stays_binop(tmp_path):
    p = proc(tmp_path, "int ok;\nok = n > 0 && a[0] > 0;\nwhile (n > 0 && a[n] > 0) n--;")
    asg = p.body[0]
    assert isinstance(asg.value, ir.BinOp) and asg.value.op == "and"
    (w,) = stmts_of(p, ir.While)
    assert w.cond.op == "and"


def test_if_else_if_chain_is_one_if(tmp_path):
    p = proc(tmp_path, "if (n == 1) a[0] = 1; else if (n == 2) a[0] = 2; else a[0] = 3;")
    (i,) = [s for s in p.body if isinstance(s, ir.If)]
    assert len(i.arms) == 2 and len(i.orelse) == 1


def test_truth_value_conditions_are_explicit(tmp_path):
    p = proc(tmp_path, "if (n) a[0] = 1; if (!a) a[1] = 0;")
    ifs = [s for s in p.body if isinstance(s, ir.If)]
    assert ifs[0].arms[0].cond.op == "ne"
    assert ifs[1].arms[0].cond.op == "not"


# ------------------------------------------------------------------------------ side effects, operators
def test_increments_and_compound_assignment(tmp_path):
    p = proc(tmp_path, "int i = 0, j;\ni++;\n--i;\nj = i++;\na[i++] = 1.0;\nj += 2;\na[j] *= 3.0;\nj <<= 1;")
    s = p.body
    # i = 0
    assert isinstance(s[0], ir.Assign)
    assert s[1].target.name == "i" and s[1].value.op == "add" and s[1].value.right.value == 1
    assert s[2].target.name == "i" and s[2].value.op == "sub"
    # j = i++  → j = i ; i = i + 1
    assert s[3].target.name == "j" and isinstance(s[3].value, ir.Var) and s[3].value.name == "i"
    assert s[4].target.name == "i" and s[4].value.op == "add"
    # a[i++] = 1.0 → a[i] = 1.0 ; i = i + 1
    assert isinstance(s[5].target, ir.ArrayRef) and s[5].target.indices[0].name == "i"
    assert s[6].target.name == "i"
    # j += 2 → j = j + 2
    assert s[7].value.op == "add" and s[7].value.left.name == "j" and s[7].value.right.value == 2
    # a[j] *= 3.0
    assert isinstance(s[8].value.left, ir.ArrayRef) and s[8].value.op == "mul"
    assert s[8].value.type == "double"
    assert s[9].value.op == "shl"


def test_prefix_increment_inside_expression_is_hoisted_before(tmp_path):
    p = proc(tmp_path, "int i = 0; double x;\nx = a[++i];")
    assert p.body[1].target.name == "i"
    assert isinstance(p.body[2].target, ir.Var) and p.body[2].target.name == "x"


def test_assignment_inside_condition_is_hoisted(tmp_path):
    p = proc(tmp_path, "int c;\nwhile ((c = getchar()) != EOF) a[0] += c;")
    io = p.body[0]
    assert isinstance(io, ir.IO) and io.kind == "read"
    assert [t.name for t in io.targets] == ["c"]
    (w,) = stmts_of(p, ir.While)
    assert w.cond.op == "ne"
    # the condition's side effect is re-evaluated at the end of each iteration
    assert isinstance(w.body[-1], ir.IO)


def test_usual_arithmetic_conversions_and_casts(tmp_path):
    p = proc(tmp_path, "int i = 1; float f; double d; long l;\nf = i * 2.0f;\nd = f + i;\nl = i / 2;\n"
                       "d = (double)i / n;\ni = d;\n")
    s = p.body
    assert s[1].value.type == "real" and isinstance(s[1].value.left, ir.Cast)
    assert s[1].value.right.type == "real"
    # d = f + i: the sum is float (i converted), then converted to double for the store
    assert isinstance(s[2].value, ir.Cast) and s[2].value.type == "double"
    assert s[2].value.operand.type == "real" and isinstance(s[2].value.operand.right, ir.Cast)
    assert s[3].value.type == "integer"
    assert s[4].value.type == "double" and isinstance(s[4].value.left, ir.Cast)
    assert isinstance(s[5].value, ir.Cast) and s[5].value.type == "integer"


def test_types(tmp_path):
    p = proc(tmp_path, "char c; short s; long long q; unsigned u; float f; double d; long double e;\n"
                       "_Complex double z; double *ptr; int m[3][4];",
             decls="#include <complex.h>")
    v = p.variables
    assert [v[k].type for k in "csqufde"] == ["integer"] * 4 + ["real", "double", "double"]
    assert v["z"].type == "complex"
    assert v["ptr"].type == "pointer" and v["ptr"].dims is None
    assert v["m"].type == "integer"
    assert [(lo.value, hi.value) for lo, hi in v["m"].dims] == [(0, 2), (0, 3)]
    assert v["n"].storage == "formal" and v["a"].type == "pointer"


# --------------------------------------------------------------------------------- pointers and structs
def test_pointers_and_structs(tmp_path):
    decls = "struct pt { double x, y; int tag; };\ntypedef struct pt pt_t;"
    p = proc(tmp_path, textwrap.dedent("""\
        struct pt s; pt_t *q = &s; double *p = a; double m[4][5];
        *p = 1.0;
        *(p + 2) = 2.0;
        p[3] = 3.0;
        m[1][2] = 4.0;
        s.x = 5.0;
        q->y = s.x;
        q->tag = 1;
        *p++ = 6.0;
        """), decls=decls)
    s = [x for x in p.body if isinstance(x, ir.Assign)]
    assert s[0].target.name == "q" and isinstance(s[0].value, ir.UnOp) and s[0].value.op == "addr"
    deref = s[2].target
    assert isinstance(deref, ir.ArrayRef) and deref.name == "p" and deref.indices == [] and deref.type == "double"
    assert s[3].target.name == "p" and s[3].target.indices[0].value == 2
    assert s[4].target.indices[0].value == 3
    assert s[5].target.name == "m" and [i.value for i in s[5].target.indices] == [1, 2]
    mem = s[6].target
    assert isinstance(mem, ir.Member) and not mem.arrow and mem.field_name == "x" and mem.type == "double"
    arrow = s[7].target
    assert isinstance(arrow, ir.Member) and arrow.arrow and arrow.base.name == "q"
    assert s[8].target.type == "integer"
    assert isinstance(s[9].target, ir.ArrayRef) and s[9].target.indices == []
    assert s[10].target.name == "p" and s[10].value.type == "pointer"


def test_sizeof_is_a_plausible_constant(tmp_path):
    p = proc(tmp_path, "long k;\nk = sizeof(double);\nk = sizeof(int) * n;\nk = sizeof a[0];\nk = sizeof(char);")
    vals = [s.value for s in p.body if isinstance(s, ir.Assign)]
    assert isinstance(vals[0], ir.Const) and vals[0].value == 8
    assert vals[1].left.value == 4
    assert vals[2].value == 8 and vals[3].value == 1


def test_function_pointer_calls_are_indirect(tmp_path):
    src = """\
        typedef double (*fn_t)(double);
        struct ops { fn_t f; };
        double sq(double x) { return x * x; }
        double apply(fn_t g, double x, struct ops *o) {
            double y;
            g(x);
            y = g(x) + (*g)(x);
            o->f(x);
            y = y + sq(x);
            return y;
        }
        """
    gcc_ok(tmp_path, src)
    prog = lower(tmp_path, src)
    p = prog.procedure("apply")
    calls = stmts_of(p, ir.CallStmt)
    assert calls[0].name == "g" and calls[0].indirect
    assert calls[1].indirect and calls[1].name == "o->f"
    y = [s for s in p.body if isinstance(s, ir.Assign)]
    assert y[0].value.left.indirect and y[0].value.right.indirect and y[0].value.left.name == "g"
    assert y[1].value.right.name == "sq" and not y[1].value.right.indirect and not y[1].value.right.intrinsic


def test_recursion_and_variadic_calls_are_plain_calls(tmp_path):
    src = """\
        #include <stdarg.h>
        int sum(int n, ...) { va_list ap; int s = 0; va_start(ap, n); s = va_arg(ap, int); va_end(ap); return s; }
        int fact(int n) { if (n <= 1) return 1; return n * fact(n - 1); }
        int main(void) { int k; k = sum(3, 1, 2, 3); return fact(k); }
        """
    gcc_ok(tmp_path, src)
    prog = lower(tmp_path, src)
    assert not [d for d in prog.diagnostics if d.severity == "error"], prog.diagnostics
    fact = prog.procedure("fact")
    ret = stmts_of(fact, ir.Return)[-1]
    assert ret.value.right.name == "fact"
    main = prog.procedure("main")
    assert main.kind == "program"
    call = main.body[0].value
    assert call.name == "sum" and len(call.args) == 4


# ----------------------------------------------------------------------------------- library functions
def test_math_functions_are_generic_intrinsics(tmp_path):
    p = proc(tmp_path, textwrap.dedent("""\
        double x = 2.0; float y = 1.0f; int k;
        x = sqrt(x) + sqrtf(y) + sqrtl(x);
        x = fabs(x) + exp(x) + log(x) + sin(x) + cos(x) + atan2(x, x);
        x = fmod(x, 2.0) + floor(x) + ceil(x) + fmin(x, 1.0) + fmax(x, 1.0);
        x = pow(x, 3.0);
        y = powf(y, 2.0f);
        k = abs(k);
        """))
    names = []
    for s in p.body:
        stack = [s.value] if isinstance(s, ir.Assign) else []
        while stack:
            e = stack.pop()
            if isinstance(e, ir.FuncCall):
                assert e.intrinsic
                names.append(e.name)
                stack.extend(e.args)
            elif isinstance(e, ir.BinOp):
                stack += [e.left, e.right]
            elif isinstance(e, ir.Cast):
                stack.append(e.operand)
    assert sorted(names) == sorted(["SQRT", "SQRT", "SQRT", "ABS", "EXP", "LOG", "SIN", "COS", "ATAN2",
                                    "MOD", "FLOOR", "CEILING", "MIN", "MAX", "ABS"])
    pw = p.body[5].value  # after x = 2.0, y = 1.0f and three statements
    assert isinstance(pw, ir.BinOp) and pw.op == "pow" and pw.type == "double"
    assert p.body[6].value.op == "pow" and p.body[6].value.type == "real"
    sq = p.body[2].value.left.left
    assert sq.type == "double"


def test_user_function_named_like_libm_is_not_intrinsic(tmp_path):
    prog = lower(tmp_path, "double sqrt(double x) { return x; }\ndouble g(double y) { return sqrt(y); }\n")
    ret = stmts_of(prog.procedure("g"), ir.Return)[0]
    assert ret.value.name == "sqrt" and not ret.value.intrinsic


def test_io_calls(tmp_path):
    p = proc(tmp_path, textwrap.dedent("""\
        int k; double x; char buf[80]; FILE *fp;
        printf("%d %f\\n", k, x);
        scanf("%d %lf %s", &k, &x, buf);
        fp = fopen("out.txt", "w");
        fprintf(fp, "%f\\n", a[k]);
        fscanf(fp, "%lf", &a[2]);
        puts("done");
        fgets(buf, 80, stdin);
        fclose(fp);
        """))
    ios = stmts_of(p, ir.IO)
    assert [io.kind for io in ios] == ["print", "read", "open", "write", "read", "print", "read", "close"]
    assert [i.name for i in ios[0].items] == ["k", "x"]
    t = ios[1].targets
    assert t[0].name == "k" and t[1].name == "x" and isinstance(t[2], ir.ArrayRef) and t[2].name == "buf"
    assert ios[2].targets[0].name == "fp"
    assert isinstance(ios[3].items[0], ir.ArrayRef)
    assert isinstance(ios[4].targets[0], ir.ArrayRef) and ios[4].targets[0].indices[0].value == 2
    assert not stmts_of(p, ir.CallStmt)


def test_io_in_condition_gets_a_temporary(tmp_path):
    p = proc(tmp_path, "int k;\nif (scanf(\"%d\", &k) != 1) exit(1);")
    io = p.body[0]
    assert isinstance(io, ir.IO) and io.targets[0].name == "k"
    tmp = io.targets[-1].name
    assert tmp.startswith(".") and tmp in p.variables
    (i,) = stmts_of(p, ir.If)
    assert i.arms[0].cond.left.name == tmp
    (stop,) = stmts_of(p, ir.Stop)
    assert stop.code.value == 1


def test_exit_and_abort_are_stops(tmp_path):
    p = proc(tmp_path, "if (n < 0) abort();\nexit(EXIT_FAILURE);")
    stops = stmts_of(p, ir.Stop)
    assert len(stops) == 2 and stops[0].code is None and stops[1].code.value == 1


def test_assert_is_a_branch_to_stop(tmp_path):
    p = proc(tmp_path, "assert(n > 0);", decls="#include <assert.h>")
    (i,) = stmts_of(p, ir.If)
    assert isinstance(i.orelse[0], ir.Stop)


def test_mpi_calls_are_messages(tmp_path):
    src = """\
        #include <mpi.h>
        int main(int argc, char **argv) {
            int rank, size, n = 10; double buf[10], sum; MPI_Status st;
            MPI_Init(&argc, &argv);
            MPI_Comm_rank(MPI_COMM_WORLD, &rank);
            MPI_Comm_size(MPI_COMM_WORLD, &size);
            if (rank == 0) MPI_Send(buf, n, MPI_DOUBLE, 1, 0, MPI_COMM_WORLD);
            else MPI_Recv(buf, n, MPI_DOUBLE, 0, 0, MPI_COMM_WORLD, &st);
            MPI_Bcast(&n, 1, MPI_INT, 0, MPI_COMM_WORLD);
            MPI_Allreduce(buf, &sum, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
            MPI_Reduce(buf, &sum, n, MPI_FLOAT, MPI_SUM, 0, MPI_COMM_WORLD);
            MPI_Barrier(MPI_COMM_WORLD);
            double t = MPI_Wtime();
            MPI_Finalize();
            return 0;
        }
        """
    prog = lower(tmp_path, src)
    assert not prog.diagnostics
    p = prog.procedure("main")
    msgs = stmts_of(p, ir.Message)
    assert [m.kind for m in msgs] == ["init", "comm_rank", "comm_size", "send", "recv", "bcast", "allreduce",
                                      "reduce", "barrier", "finalize"]
    assert all(m.library == "MPI" for m in msgs)
    send = msgs[3]
    assert send.count.name == "n" and send.datatype == "double" and send.name == "MPI_Send"
    assert msgs[5].count.value == 1 and msgs[5].datatype == "integer"
    assert msgs[6].datatype == "double" and msgs[7].datatype == "real" and msgs[7].count.name == "n"
    wtime = [s for s in p.body if isinstance(s, ir.Assign) and s.target.name == "t"][0]
    assert isinstance(wtime.value, ir.FuncCall) and wtime.value.name == "MPI_Wtime"


# ---------------------------------------------------------------------------------- goto, declarations
def test_goto_and_labels(tmp_path):
    p = proc(tmp_path, "int i = 0;\nagain:\n  i++;\n  if (i < n) goto again;\ndone: ;")
    labelled = [s for s in p.body if s.label]
    assert [s.label for s in labelled] == ["again", "done"]
    assert isinstance(labelled[0], ir.Continue)
    (g,) = stmts_of(p, ir.Goto)
    assert g.target == "again"


def test_globals_consts_enums_and_statics(tmp_path):
    src = """\
        #define NX 64
        enum dir { LEFT, RIGHT = 4, UP };
        const int NSTEP = 2 * NX;
        const double H = 1.0 / NX;
        static const double W[3] = {0.25, 0.5, 0.25};
        double field[NX][NX + 2];
        int iters = 10;
        extern int external_count;
        int f(void) {
            static int calls = 0;
            const int local_k = 3;
            int m = NSTEP;
            enum { A1 = 7, A2 } e = A2;
            calls++;
            return m + local_k + e + UP;
        }
        """
    prog = lower(tmp_path, src)
    g = prog.globals
    assert g["LEFT"].value.value == 0 and g["RIGHT"].value.value == 4 and g["UP"].value.value == 5
    assert g["UP"].storage == "const" and g["UP"].type == "integer"
    assert g["NSTEP"].storage == "const" and g["NSTEP"].value.value == 128
    assert g["H"].type == "double" and g["H"].value.value == pytest.approx(1 / 64)
    assert g["W"].storage == "const" and [c.value for c in g["W"].data] == [0.25, 0.5, 0.25]
    assert [(lo.value, hi.value) for lo, hi in g["field"].dims] == [(0, 63), (0, 65)]
    assert g["field"].storage == "global"
    assert g["iters"].data[0].value == 10 and g["iters"].storage == "global"
    assert g["external_count"].storage == "global"
    assert "stdout" not in g and "printf" not in g
    f = prog.procedure("f")
    v = f.variables
    assert v["calls"].storage == "static" and v["calls"].data[0].value == 0
    assert v["local_k"].storage == "const" and v["local_k"].value.value == 3
    assert v["m"].storage == "local"
    assert v["A2"].value.value == 8
    first = f.body[0]
    assert isinstance(first, ir.Assign) and first.target.name == "m" and first.value.name == "NSTEP"


def test_vla_and_formal_array_dims(tmp_path):
    prog = lower(tmp_path, "void f(int n, double b[][10]) { double t[n]; t[0] = b[0][0]; }")
    v = prog.procedure("f").variables
    assert v["b"].dims[0][1] is None and v["b"].dims[1][1].value == 9 and v["b"].storage == "formal"
    hi = v["t"].dims[0][1]
    assert isinstance(hi, ir.BinOp) and hi.op == "sub" and hi.left.name == "n"


def test_names_as_written(tmp_path):
    prog = lower(tmp_path, "void matmul_(double *A, int *N) { A[0] = *N; }\nvoid Caller(void) { matmul_(0, 0); }")
    assert prog.procedure("matmul_") is not None
    call = stmts_of(prog.procedure("Caller"), ir.CallStmt)[0]
    assert call.name == "matmul_"
    assert prog.procedure("matmul_").kind == "subroutine"
    assert prog.procedure("matmul_").formals == ["A", "N"]


def test_defines_are_forwarded(tmp_path):
    prog = lower(tmp_path, "void f(double *a) { int i; for (i = 0; i < N; i++) a[i] = 0; }",
                 defines={"N": "500"})
    (do,) = stmts_of(prog.procedure("f"), ir.Do)
    assert do.hi.value == 499


def test_procedure_metadata(tmp_path):
    prog = lower(tmp_path, "\n\ndouble g(int k)\n{\n  return k;\n}\n")
    g = prog.procedure("g")
    assert g.language == "c" and g.kind == "function" and g.result_type == "double"
    assert g.loc.line == 3 and g.end_line >= 5
    ret = g.body[0]
    assert ret.value.type == "double" and isinstance(ret.value, ir.Cast)


# ------------------------------------------------------------------------------------------ odd corners
def test_postfix_in_while_condition(tmp_path):
    p = proc(tmp_path, "while (n--) a[n] = 0;")
    (w,) = stmts_of(p, ir.While)
    assert w.cond.op == "ne" and w.cond.left.name == "n"
    # the decrement happens after each test: at the top of the body and once after the loop
    assert isinstance(w.body[0], ir.Assign) and w.body[0].target.name == "n" and w.body[0].value.op == "sub"
    after = p.body[p.body.index(w) + 1]
    assert isinstance(after, ir.Assign) and after.target.name == "n"


def test_duffs_device_does_not_fail(tmp_path):
    src = """\
        void copy(double *to, double *from, int count) {
            int n = (count + 3) / 4;
            switch (count % 4) {
            case 0: do { *to++ = *from++;
            case 3:      *to++ = *from++;
            case 2:      *to++ = *from++;
            case 1:      *to++ = *from++;
                    } while (--n > 0);
            }
        }
        """
    prog = lower(tmp_path, src)
    assert not prog.diagnostics
    p = prog.procedure("copy")
    (cg,) = stmts_of(p, ir.ComputedGoto)
    (w,) = stmts_of(p, ir.While)
    inside = {s.label for s in w.body if s.label}
    assert set(cg.targets[1:]) <= inside and w.test_at_end


def test_knr_definition_and_block_extern(tmp_path):
    src = """\
        int total;
        double scale(x, k)
        double x; int k;
        {
            extern int total;
            total += k;
            return x * k;
        }
        """
    prog = lower(tmp_path, src)
    p = prog.procedure("scale")
    assert p.formals == ["x", "k"]
    assert p.variables["x"].type == "double" and p.variables["k"].type == "integer"
    assert "total" not in p.variables and prog.globals["total"].storage == "global"


def test_ir_is_jsonable_and_deterministic(tmp_path):
    src = SWITCH.replace("    ", "")
    a = ir.to_jsonable(proc(tmp_path, src))
    b = ir.to_jsonable(proc(tmp_path, src))
    assert a == b
    import json
    json.dumps(a)


def test_every_expression_has_a_type(tmp_path):
    import dataclasses

    p = proc(tmp_path, textwrap.dedent("""\
        int i, k = 0; double x = 1.0, *q = a; float f = 2.0f;
        for (i = 0; i < n; i++) { x += a[i] * f / (i + 1); k = k % 3 + (i << 1); }
        x = sqrt(x) + pow(x, 2) + (double)k + *q + q[1] + (x > 1 ? x : -x);
        """))

    def exprs(node):
        if isinstance(node, ir.Expr):
            yield node
        if dataclasses.is_dataclass(node):
            for f in dataclasses.fields(node):
                v = getattr(node, f.name)
                for item in (v if isinstance(v, list) else [v]):
                    if dataclasses.is_dataclass(item) and not isinstance(item, ir.Loc):
                        yield from exprs(item)

    seen = 0
    for s in ir.walk_stmts(p.body):
        for e in exprs(s):
            seen += 1
            assert e.type in ir.TYPES and e.type != "unknown", e
    assert seen > 40


def test_struct_array_element_reference_has_member_type(tmp_path):
    p = proc(tmp_path, "struct v { double x; int k; } pos[8];\npos[1].x = pos[2].k;")
    (asg,) = stmts_of(p, ir.Assign)
    assert isinstance(asg.target, ir.Member) and asg.target.type == "double"
    assert isinstance(asg.target.base, ir.ArrayRef) and asg.target.base.type == "double"
    assert asg.value.operand.base.type == "integer"  # converted int → double
