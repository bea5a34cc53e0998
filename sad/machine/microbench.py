"""Microbenchmarks for `sad calibrate`: one generated C or Fortran program that times every atomic operation.

Data flow: BENCHES (this module: what to time and what to subtract) → ``c_source`` / ``fortran_source`` (one
program, one routine per kernel) → sad.machine.calibrate compiles and runs it kernel by kernel and turns the timings
into the figures of a machine database (machine_db/schema.json).

How a figure is isolated. A kernel repeats one statement UNROLL times inside a counted loop; the time per
statement minus the loop overhead per statement (the empty loop's time / UNROLL) is the statement's cost, and
the statement's other operations (``minus``: the assignment that stores the result, a negation that keeps an
intrinsic's argument in range, ...) are subtracted with their own, earlier measured figures. This is exactly
the accounting of the SAD: ``x = x + y`` is one add and one assign (see machine_db/sparc2.yaml, MODEL).

Strided references (load_strided / store_strided, sad.ir.ops): one element per cache line (LINE_BYTES), one pass
over a 32 MB array per trip, so each reference brings a line from beyond L2; the auxiliary column walk
(pitch COLUMN_PITCH, every element visited) is recorded as a comment only.

How the optimizer is kept honest (flags like -O2): every statement feeds the next one (a dependency chain
``x = f(x)``, so nothing can be hoisted or run in parallel and the figure is a latency); inputs come from the
command line (the compiler cannot fold constants); results go to a sink that prints them only if they take an
impossible value (the chain cannot be deleted); in C an empty ``asm volatile`` on the chain variable after each
statement stops the compiler from combining statements (``x+y+y`` into ``x+2y``) without adding any
instruction. At -O0 the barrier is compiled out (``__OPTIMIZE__`` undefined), so the code is what a user's
-O0 program runs. Fortran has no such barrier: the program is preprocessed (``bench.F90``) and, only when
``__OPTIMIZE__`` is defined, a kernel declares VOLATILE its opaque inputs, the variable a statement assigns when
it does not read it (independent statements: each result must be stored), and the chain variable of an
idempotent intrinsic (ABS(ABS(x)) folds); the empty loop stores its index to a volatile variable. The volatile
accesses cost a load or store each (L1, off the chains); at -O0 every variable lives in memory anyway and the code
is unchanged. The subroutine ``empty`` is compiled as a separate file (``helper_source``), so the optimizer can
neither inline nor delete the call it times. Trip counts are 64-bit (INTEGER(8), long) and capped at MAX_TRIPS: a
kernel still unmeasurably short there had its work removed, and sad.machine.calibrate derives its figure instead.
"""
from __future__ import annotations

import re
from dataclasses import dataclass

UNROLL = 10
"""Statements per loop trip in an unrolled kernel."""

MAX_TRIPS = 10**9
"""Most trips of a kernel's timed loop (a 64-bit count in both languages)."""

OPAQUE = ("i1", "i2", "r1", "r2", "r3", "r4", "d1", "d2", "d3", "d4", "l1")
"""The kernels' inputs: values the compiler must not know (read from the command line's ONE)."""

MEM_SIZES_KB = (16, 256, 4096, 32768)
"""Working sets of the memory kernels (doubles: 2 K, 32 K, 512 K, 4 M elements)."""

MEM_MODEL_KB = 256
"""The working set whose figures go into memory.load / memory.store (see calibrate.write_yaml)."""

MAX_ELEMS = MEM_SIZES_KB[-1] * 1024 // 8

LINE_BYTES = 64
"""Cache line assumed by the strided kernels (x86-64 and most current cores); a larger stride would also do."""

STRIDED_KB = MEM_SIZES_KB[-1]
"""Working set of the strided kernels in KB (32 MB, well beyond any L2), for every type."""

MAX_ELEMS4 = STRIDED_KB * 1024 // 4
"""Elements of the 4-byte arrays (integer, real): the same 32 MB."""

COLUMN_PITCH = 257
"""Row pitch (elements) of the auxiliary column-walk kernel: 2 KB + one double, not a power of two (no set
aliasing), like the column of a 250 x 250 matrix."""


@dataclass(frozen=True)
class Bench:
    """One kernel. ``figure`` names what it yields (a dotted key below processor, or an auxiliary name)."""

    figure: str
    c: str | None
    f: str | None
    minus: tuple[str, ...] = ()
    bar: tuple[str, ...] = ()
    kind: str = "unrolled"            # unrolled | empty | array | columns | io
    size_kb: int = 0                  # array: working set
    stride: int = 1                   # array: element stride; columns: row pitch (every element visited)
    elem_bytes: int = 8               # array, columns: element size (working set = size_kb)
    scale: float = 1.0                # divide the per-statement time by this (ops per statement)
    note: str = ""
    idempotent: bool = False          # f(f(x)) = f(x): the optimizer folds the chain unless x is opaque

    @property
    def ident(self) -> str:
        """The name this benchmark's result is reported under: its figure's name."""
        return self.figure


# Variables every unrolled kernel has: i0 r0 d0 l0 chain variables; i1 r1 d1 l1 opaque near-one inputs;
# i2 = 1000003, d2 = r2 = 1e6 (moduli), d3 = e (keeps LOG's chain in range), d4 = 0.25.
_TYPES = {"integer": ("i", "int", "INTEGER"), "real": ("r", "float", "REAL"),
          "double": ("d", "double", "DOUBLE PRECISION")}
_CFN = {"real": "f", "double": ""}      # C math library suffix


def _arith(t: str) -> list[Bench]:
    v, _, _ = _TYPES[t]
    x, y, m, z = f"{v}0", f"{v}1", f"{v}2", f"{v}5"
    a = f"ops.{t}.assign"
    out = [
        Bench(a, f"{x} = {y};", f"{x} = {y}", bar=(y, x)),
        # the four rules and negation are timed as independent statements (throughput): an out-of-order
        # core overlaps the statements of a block, and chained latencies summed statement by statement
        # overestimate real code several times over (see benchmarks/accuracy.py)
        Bench(f"ops.{t}.add", f"{z} = {x} + {y};", f"{z} = {x} + {y}", (a,), (x, y, z)),
        Bench(f"ops.{t}.sub", f"{z} = {x} - {y};", f"{z} = {x} - {y}", (a,), (x, y, z)),
        Bench(f"ops.{t}.mul", f"{z} = {x} * {y};", f"{z} = {x} * {y}", (a,), (x, y, z)),
        Bench(f"ops.{t}.div", f"{z} = {x} / {y};", f"{z} = {x} / {y}", (a,), (x, y, z)),
        Bench(f"ops.{t}.neg", f"{z} = -{x};", f"{z} = -{x}", (a,), (x, z)),
        Bench(f"ops.{t}.compare", f"l0 = {x} < {y};", f"l0 = {x} .LT. {y}", ("ops.logical.assign",), (x, "l0")),
    ]
    if t == "integer":
        out += [
            Bench("ops.integer.mod", f"{x} = {x} % {m};", f"{x} = MOD({x}, {m})", (a,), (x,)),
            Bench("ops.integer.pow", None, f"{x} = {x} ** {y}", (a,), (x,),
                  note="C has no integer power: pow.double plus two conversions"),
            Bench("ops.integer.convert", f"{x} = (int)d1;", f"{x} = INT(d1)", (a,), ("d1", x),
                  note="double to integer"),
        ]
    else:
        fn = _CFN[t]
        cast = "float" if t == "real" else "double"
        conv = "REAL" if t == "real" else "DBLE"
        out += [
            Bench(f"ops.{t}.mod", f"{x} = fmod{fn}({x}, {m});", f"{x} = MOD({x}, {m})", (a,), (x,)),
            Bench(f"ops.{t}.pow", f"{x} = pow{fn}({x}, {y});", f"{x} = {x} ** {y}", (a,), (x,)),
            Bench(f"ops.{t}.convert", f"{x} = ({cast})i1;", f"{x} = {conv}(i1)", (a,), ("i1", x),
                  note="integer to " + t),
        ]
    return out


def _intrinsics(t: str) -> list[Bench]:
    v, _, _ = _TYPES[t]
    x, fn = f"{v}0", _CFN[t]
    a, add, neg, mul = f"ops.{t}.assign", f"ops.{t}.add", f"ops.{t}.neg", f"ops.{t}.mul"
    base = f"intrinsics.{{}}.{t}"
    out = [
        Bench(base.format("SQRT"), f"{x} = sqrt{fn}({x});", f"{x} = SQRT({x})", (a,), (x,)),
        Bench(base.format("EXP"), f"{x} = exp{fn}(-{x});", f"{x} = EXP(-{x})", (a, neg), (x,),
              note="exp(-x): fixed point 0.567"),
        Bench(base.format("LOG"), f"{x} = log{fn}({x} + {v}3);", f"{x} = LOG({x} + {v}3)", (a, add), (x,),
              note="log(x + e): fixed point 1.5"),
        Bench(base.format("SIN"), f"{x} = sin{fn}({x});", f"{x} = SIN({x})", (a,), (x,)),
        Bench(base.format("COS"), f"{x} = cos{fn}({x});", f"{x} = COS({x})", (a,), (x,)),
        Bench(base.format("TAN"), f"{x} = tan{fn}({x}) * {v}4 + {v}4;", f"{x} = TAN({x}) * {v}4 + {v}4",
              (a, add, mul), (x,), note="0.25 tan(x) + 0.25: fixed point 0.34"),
        Bench(base.format("ATAN"), f"{x} = atan{fn}({x}) + {v}1;", f"{x} = ATAN({x}) + {v}1", (a, add), (x,),
              note="atan(x) + 1: fixed point 2.1"),
        Bench(base.format("ABS"), f"{x} = fabs{fn}({x});", f"{x} = ABS({x})", (a,), (x,), idempotent=True),
        Bench(base.format("MAX"), f"{x} = fmax{fn}({x}, {v}1);", f"{x} = MAX({x}, {v}1)", (a,), (x,)),
        Bench(base.format("MIN"), f"{x} = fmin{fn}({x}, {v}2);", f"{x} = MIN({x}, {v}2)", (a,), (x,)),
    ]
    if t == "double":
        out.append(Bench("intrinsics.ANINT.double", "d0 = round(d0);", "D0 = ANINT(D0)", (a,), ("d0",),
                         idempotent=True))
        out.append(Bench("intrinsics.NINT.double", "i0 = (int)lround(d0);", "i0 = NINT(d0)",
                         ("ops.integer.assign",), ("d0", "i0")))
    return out


def _integer_intrinsics() -> list[Bench]:
    a = "ops.integer.assign"
    return [
        Bench("intrinsics.ABS.integer", "i0 = abs(i0);", "i0 = ABS(i0)", (a,), ("i0",), idempotent=True),
        Bench("intrinsics.MAX.integer", None, "i0 = MAX(i0, i1)", (a,), ("i0",)),
        Bench("intrinsics.MIN.integer", None, "i0 = MIN(i0, i2)", (a,), ("i0",)),
    ]


def _memory() -> list[Bench]:
    """Element references without a dependency chain (a chain through the sum would hide the load latency
    behind the add's): ``x = A(J)`` is assign + index + load, ``A(J) = x`` assign + index + store. The value
loaded or stored is kept live (a barrier on it), so an optimizer can delete neither the load nor the store."""
    da, ia = "ops.double.assign", "ops.integer.assign"
    out = [
        Bench("memory.index", "d0 = b2[i1][j];", "D0 = B2(J, I1)", (da, "aux.load1.double"), ("d0",), kind="array",
              size_kb=16, note="a second subscript: 2-D minus 1-D reference"),
    ]
    for kb in MEM_SIZES_KB:
        out += [
            Bench(f"memory.load.double@{kb}", "d0 = a[j];", "D0 = A(J)", (da, "memory.index"), ("d0",),
                  kind="array", size_kb=kb),
            Bench(f"memory.store.double@{kb}", "a[j] = d0;", "A(J) = D0", (da, "memory.index"), ("d0",),
                  kind="array", size_kb=kb),
        ]
    out += [
        Bench("memory.load.integer", "i0 = ia[j];", "I0 = IA(J)", (ia, "memory.index"), ("i0",), kind="array",
              size_kb=MEM_MODEL_KB),
        Bench("memory.store.integer", "ia[j] = i0;", "IA(J) = I0", (ia, "memory.index"), ("i0",), kind="array",
              size_kb=MEM_MODEL_KB),
    ]
    return out


def _strided() -> list[Bench]:
    """Strided element references (sad.ir.ops load_strided / store_strided): one element per cache line, a single
    pass over STRIDED_KB, so every reference brings a new line from beyond L2 (the hardware prefetcher is free
    to follow the constant stride, as it does for a real column walk). Same accounting as the unit-stride
    kernels: ``x = A(J)`` is assign + index + load_strided. The loaded value is kept live (a barrier on it) so
    an optimizer cannot delete the load."""
    out = []
    for t, (v, _, _) in _TYPES.items():
        arr = {"integer": "ia", "real": "ra", "double": "a"}[t]
        size = 8 if t == "double" else 4
        x = f"{v}0"
        a = f"ops.{t}.assign"
        out += [
            Bench(f"memory.load_strided.{t}", f"{x} = {arr}[j];", f"{x} = {arr.upper()}(J)", (a, "memory.index"),
                  (x,), kind="array", size_kb=STRIDED_KB, stride=LINE_BYTES // size, elem_bytes=size,
                  note=f"one element per {LINE_BYTES}-byte line"),
            Bench(f"memory.store_strided.{t}", f"{arr}[j] = {x};", f"{arr.upper()}(J) = {x}", (a, "memory.index"),
                  (x,), kind="array", size_kb=STRIDED_KB, stride=LINE_BYTES // size, elem_bytes=size,
                  note=f"one element per {LINE_BYTES}-byte line"),
        ]
    out.append(Bench(f"memory.load_strided.double@{STRIDED_KB}/column", "d0 = a[j];", "D0 = A(J)",
                     ("ops.double.assign", "memory.index"), ("d0",), kind="columns", size_kb=STRIDED_KB,
                     stride=COLUMN_PITCH, note="column walk of a 32 MB matrix, pitch 2 KB: TLB-bound"))
    return out


def benches() -> list[Bench]:
    """Every kernel, in measuring order: a kernel's ``minus`` figures are measured before it."""
    out = [Bench("control.loop_iter", "", "", kind="empty")]
    out += [Bench("ops.logical.assign", "l0 = l1;", "l0 = l1", (), ("l1", "l0"))]
    for t in ("integer", "real", "double"):
        out += _arith(t)
    out += [
        Bench("ops.logical.compare", "l0 = l0 == l1;", "l0 = l0 .EQV. l1", ("ops.logical.assign",), ("l0",)),
        Bench("logical", "l0 = !l0;", "l0 = l0 .AND. l1", ("ops.logical.assign",), ("l0",)),
        Bench("bitop", "i0 = i0 & i2;", "i0 = IAND(i0, i2)", ("ops.integer.assign",), ("i0",)),
        Bench("control.branch", "if (d0 < d1) d0 = d1;", "IF (d0 .LT. d1) d0 = d1", ("ops.double.compare",),
              ("d0",), note="predictable, not taken"),
        Bench("control.goto", "goto L{L}; L{L}: ;", "GOTO {L}\n{L} CONTINUE", (), ()),
        Bench("control.loop_start", "for (j = 0; j < i1; j++) BARI(j);", "DO J = 1, I1\nEND DO",
              ("control.loop_iter",), (), note="an inner loop of one trip"),
        Bench("control.call", "empty(&d0, &i0);", "CALL EMPTY(D0, I0)", (), (),
              note="a subroutine with two arguments and an empty body"),
    ]
    for t in ("double", "real"):
        out += _intrinsics(t)
    out += _integer_intrinsics()
    out += [Bench("aux.load1.double", "d0 = a[j];", "D0 = A(J)", ("ops.double.assign",), ("d0",), kind="array",
                  size_kb=16, note="index + load of a 1-D reference")]
    out += _memory()
    out += _strided()
    out += [
        Bench("io.item1", 'fprintf(devnull, "%12.4f\\n", d0);', "WRITE (10, '(F12.4)') D0", (), (), kind="io"),
        Bench("io.item4", 'fprintf(devnull, "%12.4f%12.4f%12.4f%12.4f\\n", d0, d1, d2, d3);',
              "WRITE (10, '(4F12.4)') D0, D1, D2, D3", (), (), kind="io"),
    ]
    return out


def _bar(var: str) -> str:
    return f"BARI({var});" if var[0] in "ijl" else f"BARF({var});"


# ------------------------------------------------------------------------------------------------- C


_C_HEAD = r"""/* generated by sad calibrate -- microbenchmarks, one per atomic operation (see sad/machine/microbench.py) */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#if defined(__OPTIMIZE__) && (defined(__x86_64__) || defined(__i386__))
#define BARI(v) __asm__ __volatile__("" : "+r"(v))
#define BARF(v) __asm__ __volatile__("" : "+x"(v))
#elif defined(__OPTIMIZE__) && defined(__aarch64__)
#define BARI(v) __asm__ __volatile__("" : "+r"(v))
#define BARF(v) __asm__ __volatile__("" : "+w"(v))
#elif defined(__OPTIMIZE__)
#define BARI(v) __asm__ __volatile__("" : "+m"(v))
#define BARF(v) __asm__ __volatile__("" : "+m"(v))
#else
#define BARI(v)
#define BARF(v)
#endif
#define MAXEL %(maxel)d
#define MAXEL4 %(maxel4)d
static double a[MAXEL];
static int ia[MAXEL4];
static float ra[MAXEL4];
static double b2[2][2048];
static FILE *devnull;
static double now(void) { struct timespec ts; clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec; }
void empty(double *x, int *k);   /* in its own file (helper_source): never inlined */
static void sink(int i0, float r0, double d0, int l0) {
  if (i0 == -987654 && r0 == -9.5f && d0 == -9.25 && l0 == 7) printf("%%d %%g %%g %%d\n", i0, r0, d0, l0); }
#define DECLS int i0 = one, i1 = one, i2 = 1000003 * one, i5 = 0, l0 = one, l1 = one - 1, j = 0; \
  float r0 = 1.5f * one, r1 = 1.0000001f * one, r2 = 1.0e6f * one, r3 = 2.7182817f * one, r4 = 0.25f * one, \
  r5 = 0.0f; \
  double d0 = 1.5 * one, d1 = 1.0000001 * one, d2 = 1.0e6 * one, d3 = 2.718281828459045 * one, \
  d4 = 0.25 * one, d5 = 0.0; (void)j; (void)i5; (void)r5; (void)d5; (void)r1; (void)r2; (void)r3; (void)r4; (void)d2; (void)d3; (void)d4; (void)i2
"""


def _c_kernel(k: int, b: Bench) -> str:
    code = b.c
    assert code is not None, f"{b.figure} has no C kernel"     # for_language("c") keeps only those that have
    body: list[str] = []
    if b.kind == "unrolled":
        for u in range(UNROLL):
            body.append(code.replace("{L}", f"{k}_{u}") + "".join(_bar(v) for v in b.bar))
        loop = "for (it = 0; it < n; it++) {\n    " + "\n    ".join(body) + "\n  }"
    elif b.kind == "empty":
        loop = "for (it = 0; it < n; it++) { BARI(it); }"     # -O2 keeps the loop; -O0: an empty body
    elif b.kind == "io":
        loop = "for (it = 0; it < n; it++) {\n    " + code + "\n  }"
    elif b.kind == "columns":
        stmt = code + "".join(_bar(v) for v in b.bar)
        loop = (f"for (it = 0; it < n; it++) {{\n    for (c = 0; c < {b.stride}; c++)\n"
                f"      for (j = c; j < w; j += {b.stride}) {{ {stmt} }}\n  }}")
    else:
        stmt = code + "".join(_bar(v) for v in b.bar)
        loop = (f"for (it = 0; it < n; it++) {{\n    for (j = 0; j < w; j += {b.stride}) {{ {stmt} }}\n  }}")
    return (f"static double k{k}(long n, int one, int w) {{ /* {b.figure} */\n  long it; int c; DECLS;\n  double t0;\n"
            f"  (void)w; (void)c;\n  t0 = now();\n  {loop}\n  t0 = now() - t0;\n  sink(i0 + i5, r0 + r5, d0 + d5, l0);\n  return t0;\n}}\n")


def c_source(items: list[Bench]) -> str:
    """The C program running kernel k of `items` when called with k as first argument."""
    kernels = "".join(_c_kernel(k, b) for k, b in enumerate(items))
    cases = "".join(f"    case {k}: t = k{k}(n, one, w); break;\n" for k in range(len(items)))
    main = (
        "int main(int argc, char **argv) {\n"
        "  int k, one, reps, r, w; long n, i; double t = 0.0;\n"
        "  if (argc < 6) { fprintf(stderr, \"usage: bench KERNEL N REPS ONE W\\n\"); return 2; }\n"
        "  k = atoi(argv[1]); n = atol(argv[2]); reps = atoi(argv[3]); one = atoi(argv[4]); w = atoi(argv[5]);\n"
        "  devnull = fopen(\"/dev/null\", \"w\");\n"
        "  for (i = 0; i < MAXEL; i++) { a[i] = 1.0 / (double)(i + 1); }\n"
        "  for (i = 0; i < MAXEL4; i++) { ia[i] = (int)(i & 7); ra[i] = 1.0f / (float)(i + 1); }\n"
        "  for (i = 0; i < 2048; i++) { b2[0][i] = 1.0; b2[1][i] = 0.5; }\n"
        "  for (r = 0; r < reps; r++) {\n    switch (k) {\n" + cases +
        "    default: return 2;\n    }\n    printf(\"%.9e\\n\", t);\n  }\n  return 0;\n}\n")
    return _C_HEAD % {"maxel": MAX_ELEMS, "maxel4": MAX_ELEMS4} + kernels + main


# ------------------------------------------------------------------------------------------- Fortran


_F_DECLS = """  INTEGER(8), INTENT(IN) :: N
  INTEGER, INTENT(IN) :: ONE, W
  DOUBLE PRECISION, INTENT(OUT) :: T
  INTEGER(8) :: IT, IV
  INTEGER :: J, C, I0, I1, I2, I5
  REAL :: R0, R1, R2, R3, R4, R5
  DOUBLE PRECISION :: D0, D1, D2, D3, D4, D5
  LOGICAL :: L0, L1
  DOUBLE PRECISION :: C0, C1
  DOUBLE PRECISION :: A(%(maxel)d), B2(2048, 2)
  INTEGER :: IA(%(maxel4)d)
  REAL :: RA(%(maxel4)d)
  COMMON /ARR/ A, B2, IA, RA
%(volatile)s  I5 = 0; R5 = 0.0; D5 = 0.0D0
  I0 = ONE; I1 = ONE; I2 = 1000003 * ONE; L0 = ONE == 1; L1 = ONE /= 1; J = 0
  R0 = 1.5 * ONE; R1 = 1.0000001 * ONE; R2 = 1.0E6 * ONE; R3 = 2.7182817 * ONE; R4 = 0.25 * ONE
  D0 = 1.5D0 * ONE; D1 = 1.0000001D0 * ONE; D2 = 1.0D6 * ONE; D3 = 2.718281828459045D0 * ONE
  D4 = 0.25D0 * ONE
  CALL CPU_TIME(C0)
"""


def _f_kernel(k: int, b: Bench) -> str:
    code = b.f
    assert code is not None, f"{b.figure} has no Fortran kernel"
    lines: list[str] = []
    if b.kind == "unrolled":
        for u in range(UNROLL):
            lines += code.replace("{L}", str(1000 + 10 * u)).splitlines()
        loop = ["DO IT = 1, N", *("   " + s if not s[:1].isdigit() else s for s in lines), "END DO"]
    elif b.kind == "empty":
        loop = ["DO IT = 1, N", "#ifdef __OPTIMIZE__", "   IV = IT", "#endif", "END DO"]
    elif b.kind == "io":
        loop = ["DO IT = 1, N", "   " + code, "END DO"]
    elif b.kind == "columns":
        loop = ["DO IT = 1, N", f"   DO C = 1, {b.stride}", f"      DO J = C, W, {b.stride}", "         " + code,
                "      END DO", "   END DO", "END DO"]
    else:
        loop = ["DO IT = 1, N", f"   DO J = 1, W, {b.stride}", "      " + code, "   END DO", "END DO"]
    body = "\n".join(s if s[:1] in "0123456789#" else "  " + s for s in loop)
    volatile = f"#ifdef __OPTIMIZE__\n  VOLATILE :: {', '.join(_f_volatile(b))}\n#endif\n"
    return (f"SUBROUTINE K{k}(N, ONE, W, T)\n  ! {b.figure}\n  IMPLICIT NONE\n"
            + _F_DECLS % {"maxel": MAX_ELEMS, "maxel4": MAX_ELEMS4, "volatile": volatile} + body + "\n"
            "  CALL CPU_TIME(C1)\n  T = C1 - C0\n  CALL SINK(I0 + I5, R0 + R5, D0 + D5, L0)\n"
            f"END SUBROUTINE K{k}\n\n")


def _f_volatile(b: Bench) -> list[str]:
    """Variables a Fortran kernel declares VOLATILE under -O (the module docstring says why): the inputs it
    reads, the variable it assigns without reading, the chain variable of an idempotent function."""
    code = (b.f or "").upper()
    out = {v.upper() for v in OPAQUE} & set(re.findall(r"[A-Z_][A-Z0-9_]*", code))
    if target := re.match(r"\s*([A-Z][A-Z0-9]*)\s*=(.*)", code):
        if b.idempotent or target.group(1) not in re.findall(r"[A-Z_][A-Z0-9_]*", target.group(2)):
            out.add(target.group(1))
    if b.kind == "empty":
        out.add("IV")
    return sorted(out) or ["IV"]


def fortran_source(items: list[Bench]) -> str:
    """The Fortran program running kernel k of `items` when called with k as first argument."""
    kernels = "".join(_f_kernel(k, b) for k, b in enumerate(items))
    cases = "".join(f"  CASE ({k})\n    CALL K{k}(N, ONE, W, T)\n" for k in range(len(items)))
    return f"""! generated by sad calibrate -- microbenchmarks, one per atomic operation (see sad/machine/microbench.py)
PROGRAM BENCH
  IMPLICIT NONE
  INTEGER :: K, REPS, ONE, W, R, I
  INTEGER(8) :: N
  DOUBLE PRECISION :: T
  CHARACTER(LEN=32) :: ARG
  DOUBLE PRECISION :: A({MAX_ELEMS}), B2(2048, 2)
  INTEGER :: IA({MAX_ELEMS4})
  REAL :: RA({MAX_ELEMS4})
  COMMON /ARR/ A, B2, IA, RA
  CALL GET_COMMAND_ARGUMENT(1, ARG); READ (ARG, *) K
  CALL GET_COMMAND_ARGUMENT(2, ARG); READ (ARG, *) N
  CALL GET_COMMAND_ARGUMENT(3, ARG); READ (ARG, *) REPS
  CALL GET_COMMAND_ARGUMENT(4, ARG); READ (ARG, *) ONE
  CALL GET_COMMAND_ARGUMENT(5, ARG); READ (ARG, *) W
  OPEN (10, FILE='/dev/null')
  DO I = 1, {MAX_ELEMS}
    A(I) = 1.0D0 / DBLE(I)
  END DO
  DO I = 1, {MAX_ELEMS4}
    IA(I) = IAND(I, 7)
    RA(I) = 1.0 / REAL(I)
  END DO
  B2 = 1.0D0
  T = 0.0D0
  DO R = 1, REPS
    SELECT CASE (K)
{cases}  CASE DEFAULT
    STOP 2
  END SELECT
    WRITE (*, '(ES16.9)') T
  END DO
END PROGRAM BENCH

""" + kernels


def for_language(language: str) -> list[Bench]:
    """The kernels that have code in ``language`` ('c' or 'fortran')."""
    return [b for b in benches() if (b.c if language == "c" else b.f) is not None]


def source(language: str, items: list[Bench]) -> str:
    """The microbenchmark program for `items` in `language` ('c' or 'fortran')."""
    return c_source(items) if language == "c" else fortran_source(items)


def helper_source(language: str) -> str:
    """The routine ``empty`` that control.call times (and Fortran's result sink), compiled as its own file: no
    optimizer can see (inline, or delete as pure) the call without link-time optimization."""
    if language == "c":
        return "/* generated by sad calibrate: the called routine */\nvoid empty(double *x, int *k) { (void)x; (void)k; }\n"
    # Fortran's SINK lives here too: inlined, its test is folded away by value ranges (SQRT(x) >= 0 is never
    # -9.25) and with it every chain it was to keep
    return ("! generated by sad calibrate: the called routine and the sink\nSUBROUTINE EMPTY(X, K)\n"
            "  DOUBLE PRECISION :: X\n  INTEGER :: K\nEND SUBROUTINE EMPTY\n\n"
            "SUBROUTINE SINK(I0, R0, D0, L0)\n  INTEGER :: I0\n  REAL :: R0\n  DOUBLE PRECISION :: D0\n"
            "  LOGICAL :: L0\n  IF (I0 == -987654 .AND. R0 == -9.5 .AND. D0 == -9.25D0 .AND. L0) PRINT *, I0, R0, D0, L0\n"
            "END SUBROUTINE SINK\n")


def empty_program(language: str) -> str:
    """A program that does nothing, for the start-up time of a process (control.startup)."""
    if language == "c":
        return "/* generated by sad calibrate: process start-up */\nint main(void) { return 0; }\n"
    return "! generated by sad calibrate: process start-up\nPROGRAM EMPTY\nEND PROGRAM EMPTY\n"
