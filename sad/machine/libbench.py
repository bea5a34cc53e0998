"""`sad calibrate`'s measurements of the C library routines scientific code calls: malloc, calloc, realloc,
free, memcpy, memmove, memset and qsort (what sad.analysis.libcalls counts and the machine database prices
under ``processor.library``).

Data flow: one C program (below) compiled with gcc and the calibration's flags, run pinned, times each routine
itself (the process's CPU time around many calls, so that other work on the machine does not count; the
median of REPS rounds) and prints ``figure seconds`` lines → figures per call, per byte (two sizes: the slope
is the cost per byte, the rest the cost per call) and per n·log2(n) of a sort of n random doubles → the YAML
lines of ``processor.library`` (`render_yaml`), each with how it was measured. The routines are called
through volatile function pointers, so that no flag inlines or removes them. A sort's time depends on its
data (glibc's merge sort takes a third of the time on data in long ascending runs): random data is the
figure's case.

The math routines a compiled loop calls (``call exp`` in the assembly of ``y[i] = exp(x[i])``: llvm-mca sees
one instruction) are timed as such loops: direct calls (the program is compiled with -fno-builtin, so that
sqrt and floor are calls as at -O0), independent arguments over MATH_N doubles in L1, and the same loop calling
a routine that returns its argument (``same``, kept out of line), each the fastest of REPS rounds (a neighbour
on a shared core only slows such a loop down: medians of the same runs moved 4.5 to 6.9 ns for exp here, the
fastest rounds 4.9 to 5.0). The difference per call is the routine's own
work beyond a call and a return: ``processor.library.<routine>.call``, which sad.predict.incore adds to the
loop's own cycles. The call and return themselves are the ``same`` loop less the loop without the call
(``processor.library.same.call``): llvm-mca cannot model a call (it takes 100 cycles of latency), so the
compiled-code model gives it a no-op and adds this figure per call.
"""
from __future__ import annotations

import math
import re
import shutil
import subprocess
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

from sad.machine import hierarchy as hier

REPS = 7          # rounds per figure (the median is kept)
SMALL, LARGE = 64, 16384  # bytes of the two copies whose difference gives the cost per byte (both in L1)
SORT_N = 20000    # doubles sorted per qsort round
MATH_N = 1024     # doubles of a math routine's loop (16 KiB of arguments and results: L1)
MATH_ROUTINES = ("exp", "log", "log10", "sin", "cos", "tan", "asin", "acos", "atan", "sinh", "cosh", "tanh",
                 "sqrt", "cbrt", "floor", "ceil", "round", "trunc", "lround", "fmod", "pow", "atan2",
                 "expf", "logf", "sinf", "cosf", "tanf", "sqrtf", "powf", "atanf")
"""The libm routines compiled C and Fortran call in loops (gfortran's EXP, NINT, MOD and ** call these too)."""
COMPLEX_ROUTINES = (("__muldc3", "double"), ("__divdc3", "double"), ("__mulsc3", "float"), ("__divsc3", "float"))
"""libgcc's complex multiply and divide (name, part type): gcc calls them for C99 ``z * w`` and ``z / w`` at -O0
(at -O2 the product is inline and the call is left for NaN results only; the quotient stays a call), as the ISO C
Annex G rules ask. Timed like the math routines, against the same routine returning its argument: the figure
holds the passing of four parts and the return of two, which a float complex result makes through memory (two
stores and a load of both: here, on an AMD EPYC Zen 3 VM at -O0, a trivial routine returning a float complex ran
11.5 ns a call, one returning a double complex 2.7, one returning a double 2.0)."""
VECTOR_ROUTINES = ("exp", "log", "sin", "cos", "tan", "atan", "pow", "log10", "sinh", "cosh", "tanh", "atan2",
                   "expf", "logf", "sinf", "cosf", "powf")
"""libmvec's routines (glibc 2.35+) gcc and gfortran call a vector at a time where they vectorize a loop of math
calls (``call _ZGVbN2v_exp``: two doubles, SSE; ``_ZGVdN4v_exp``: four, AVX2): timed like the scalar ones, per
call of one vector, in each instruction set of ``VECTOR_ISAS`` the calibration's flags allow."""
_VECTOR_SYMBOL = re.compile(r"_ZGV[bcde][NM](\d+)v+_(\w+)")

_PROGRAM = r"""
#define _POSIX_C_SOURCE 199309L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define REPS %(reps)d
#define CALLS 20000
static void *(*volatile p_malloc)(size_t) = malloc;
static void *(*volatile p_calloc)(size_t, size_t) = calloc;
static void *(*volatile p_realloc)(void *, size_t) = realloc;
static void (*volatile p_free)(void *) = free;
static void *(*volatile p_memcpy)(void *, const void *, size_t) = memcpy;
static void *(*volatile p_memmove)(void *, const void *, size_t) = memmove;
static void *(*volatile p_memset)(void *, int, size_t) = memset;
static void (*volatile p_qsort)(void *, size_t, size_t, int (*)(const void *, const void *)) = qsort;
static void *ptrs[CALLS];
static char src[%(large)d + 64], dst[%(large)d + 64];
static double data[%(sort_n)d], work[%(sort_n)d];
static double xs[%(math_n)d] __attribute__((aligned(64))), ys[%(math_n)d] __attribute__((aligned(64)));
static float xf[%(math_n)d] __attribute__((aligned(64))), yf[%(math_n)d] __attribute__((aligned(64)));
/* libmvec's variants, which gcc and gfortran call where they vectorize a loop of math calls */
%(vector_decls)svolatile double sink;
__attribute__((noipa)) static double same(double v) { return v; }
%(complex_decls)s
static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
    return t.tv_sec + 1e-9 * t.tv_nsec;
}
static int cmp(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}
static int by_double(const void *a, const void *b) { return cmp(a, b); }
static void report(const char *name, double *t, double per) {
    qsort(t, REPS, sizeof(double), by_double);
    printf("%%s %%.6e\n", name, t[REPS / 2] / per);
}
/* the fastest round: a neighbour on a shared core only ever slows a short loop of arithmetic down */
static void report_min(const char *name, double *t, double per) {
    qsort(t, REPS, sizeof(double), by_double);
    printf("%%s %%.6e\n", name, t[0] / per);
}
static void heap(const char *name, size_t bytes, int calls) {
    double tm[REPS], tf[REPS];
    for (int r = 0; r < REPS; r++) {
        double t0 = now();
        for (int i = 0; i < calls; i++) ptrs[i] = p_malloc(bytes);
        double t1 = now();
        for (int i = 0; i < calls; i++) p_free(ptrs[i]);
        tm[r] = t1 - t0; tf[r] = now() - t1;
    }
    report(name, tm, calls);
    report("free", tf, calls);
}
/* calloc and free of one block at a time: the heap reuses the block, so calloc clears it (a fresh block
   from the kernel would come zeroed, its cost paid in page faults at first touch) */
static void zeroed(const char *name, size_t bytes) {
    double t[REPS];
    for (int r = 0; r < REPS; r++) {
        double t0 = now();
        for (int i = 0; i < CALLS; i++) p_free(p_calloc(1, bytes));
        t[r] = now() - t0;
    }
    report(name, t, CALLS);
}
static void copies(const char *name, int which, size_t bytes) {
    double t[REPS];
    int calls = (int)(400000000 / (bytes + 256));
    for (int r = 0; r < REPS; r++) {
        double t0 = now();
        for (int i = 0; i < calls; i++) {
            if (which == 0) p_memcpy(dst, src, bytes);
            else if (which == 1) p_memmove(dst + 8, dst, bytes);
            else p_memset(dst, i, bytes);
        }
        t[r] = now() - t0;
    }
    report(name, t, calls);
}
/* a loop of independent calls y[i] = f(x[i]), timed per call */
#define MATH(label, body) VMATH(label, 1, body)
#define VMATH(label, lanes, body) do { \
    for (int r = 0; r < REPS; r++) { \
        double t0 = now(); \
        for (int k = 0; k < MATH_ROUNDS; k++) \
            for (int i = 0; i < %(math_n)d; i += lanes) body; \
        t[r] = now() - t0; \
        sink = ys[k0 %% %(math_n)d] + yf[k0 %% %(math_n)d]; \
    } \
    report_min(label, t, (double)MATH_ROUNDS * %(math_n)d / lanes); } while (0)
#define MATH_ROUNDS 300
static void maths(void) {
    double t[REPS];
    int k0 = 7;
    for (int i = 0; i < %(math_n)d; i++) { xs[i] = 0.1 + 0.8 * i / %(math_n)d; xf[i] = (float)xs[i]; }
    MATH("math.same", ys[i] = same(xs[i]));
    /* the same loop without the call (the asm keeps gcc from vectorizing or replacing it by memcpy) */
    MATH("math.copy", { double v = xs[i]; __asm__ volatile("" : "+x"(v)); ys[i] = v; });
%(math)s%(complex)s%(vector)s}
int main(void) {
    char name[64];
    double t[REPS];
    const char *copy_names[3] = {"memcpy", "memmove", "memset"};
    heap("malloc", %(small)d, CALLS);
    zeroed("calloc.small", %(small)d);
    zeroed("calloc.large", %(large)d);
    for (int r = 0; r < REPS; r++) {
        void *p = p_malloc(%(small)d);
        double t0 = now();
        for (int i = 0; i < CALLS; i++) p = p_realloc(p, (i & 1) ? %(small)d : 2 * %(small)d);
        t[r] = now() - t0;
        p_free(p);
    }
    report("realloc", t, CALLS);
    for (int k = 0; k < 3; k++) {
        snprintf(name, sizeof name, "%%s.small", copy_names[k]);
        copies(name, k, %(small)d);
        snprintf(name, sizeof name, "%%s.large", copy_names[k]);
        copies(name, k, %(large)d);
    }
    unsigned long seed = 12345;
    for (int i = 0; i < %(sort_n)d; i++) {
        seed = seed * 6364136223846793005UL + 1442695040888963407UL;
        data[i] = (double)(seed >> 11);
    }
    for (int r = 0; r < REPS; r++) {
        double t0 = now();
        for (int k = 0; k < 5; k++) { memcpy(work, data, sizeof data); p_qsort(work, %(sort_n)d, sizeof(double), cmp); }
        double t1 = now();
        for (int k = 0; k < 5; k++) memcpy(work, data, sizeof data);
        t[r] = (t1 - t0) - (now() - t1);
    }
    report("qsort.sorted", t, 5.0);
    for (int r = 0; r < REPS; r++) {
        double t0 = now();
        for (int i = 0; i < CALLS; i++) p_qsort(work, 1, sizeof(double), cmp);
        t[r] = now() - t0;
    }
    report("qsort.call", t, CALLS);
    maths();
    return 0;
}
"""


@dataclass
class LibraryCalibration:
    """Figures of the C library routines (seconds), keyed as ``processor.library``: 'memcpy.byte', 'malloc'."""
    compiler: str
    flags: list[str]
    figures: dict[str, float] = field(default_factory=dict)
    how: dict[str, str] = field(default_factory=dict)


def program() -> str:
    """The C source of the library microbenchmarks."""
    return _PROGRAM % {"reps": REPS, "small": SMALL, "large": LARGE, "sort_n": SORT_N, "math_n": MATH_N,
                       "math": "".join(f'    MATH("math.{name}", {_math_call(name)});\n' for name in MATH_ROUTINES),
                       "vector_decls": _vector_decls(), "vector": _vector_calls(),
                       "complex_decls": _complex_decls(), "complex": _complex_calls()}


def vector_key(symbol: str) -> str | None:
    """The database name of a libmvec routine's symbol: ``_ZGVbN2v_exp`` → ``exp_x2`` (its lanes), else None."""
    found = _VECTOR_SYMBOL.fullmatch(symbol)
    return f"{found.group(2)}_x{found.group(1)}" if found else None


VECTOR_ISAS = (("b", 16, "defined(__x86_64__)"), ("d", 32, "defined(__x86_64__) && defined(__AVX2__)"))
"""libmvec's x86-64 variants timed: (its letter in the symbol, vector bytes, when the calibration's flags let C
call it): SSE always, AVX2 where the flags enable it (``-march=native`` on a core that has it), as a user's
build with the same flags would call it."""


def _vector_symbol(name: str, isa: str = "b", width: int = 16) -> tuple[str, int, int, str]:
    """(libmvec's symbol, lanes, arguments, the C vector type) of a routine in one instruction set."""
    single = name.endswith("f")
    lanes, args = width // (4 if single else 8), (2 if name.rstrip("f") in ("pow", "atan2") else 1)
    return f"_ZGV{isa}N{lanes}{'v' * args}_{name}", lanes, args, f"v{lanes}{'f' if single else 'd'}"


def _vector_decls() -> str:
    """Per instruction set, under its condition: the vector types, the routines returning their argument and
    libmvec's declarations."""
    out = []
    for isa, width, condition in VECTOR_ISAS:
        out.append(f"#if {condition}\n")
        for kind, base in ((f"v{width // 8}d", "double"), (f"v{width // 4}f", "float")):
            out.append(f"typedef {base} {kind} __attribute__((vector_size({width})));\n"
                       f"__attribute__((noipa)) static {kind} same_{kind}({kind} v) {{ return v; }}\n")
        for name in VECTOR_ROUTINES:
            symbol, _, args, kind = _vector_symbol(name, isa, width)
            out.append(f"{kind} {symbol}({', '.join([kind] * args)});\n")
        out.append("#endif\n")
    return "".join(out)


def _vector_calls() -> str:
    """Per instruction set, under its condition: the loops of the baselines and of each routine."""
    out = []
    for isa, width, condition in VECTOR_ISAS:
        out.append(f"#if {condition}\n")
        for kind, x, y in ((f"v{width // 8}d", "xs", "ys"), (f"v{width // 4}f", "xf", "yf")):
            lanes = int(kind[1:-1])
            body = f"*({kind} *)({y} + i) = same_{kind}(*({kind} *)({x} + i))"
            out.append(f'    VMATH("math.same_{kind}", {lanes}, {body});\n')
        for name in VECTOR_ROUTINES:
            symbol, lanes, args, kind = _vector_symbol(name, isa, width)
            x, y = ("xf", "yf") if kind.endswith("f") else ("xs", "ys")
            operands = ", ".join([f"*({kind} *)({x} + i)"] * args)
            out.append(f'    VMATH("math.{name}_x{lanes}", {lanes}, *({kind} *)({y} + i) = {symbol}({operands}));\n')
        out.append("#endif\n")
    return "".join(out)


def _complex_decls() -> str:
    """libgcc's complex routines and arrays for their results (not static: the stores stay at -O2)."""
    out = [f"{part} _Complex zc_{part}[{MATH_N}];\n" for part in ("double", "float")]
    out.extend(f"{part} _Complex {name}({part}, {part}, {part}, {part});\n" for name, part in COMPLEX_ROUTINES)
    return "".join(out)


def _complex_calls() -> str:
    """The loops of the complex routines: independent products and quotients of x[i] + 0.5i and 0.3 + x[i]i (no
    zero, infinity or NaN: the routines' common path)."""
    out = []
    for name, part in COMPLEX_ROUTINES:
        x = "xs" if part == "double" else "xf"
        out.append(f'    MATH("math.{name}", zc_{part}[i] = {name}({x}[i], 0.5, 0.3, {x}[i]));\n')
    return "".join(out)


def _math_call(name: str) -> str:
    """The loop body calling a math routine: arguments in (0.1, 0.9), each routine's domain."""
    single = name.endswith("f")
    x, y = ("xf[i]", "yf[i]") if single else ("xs[i]", "ys[i]")
    args = {"pow": f"{x}, 1.7", "powf": f"{x}, 1.7f", "atan2": f"{x}, 1.5", "fmod": f"{x} * 7.0, 0.3"}.get(name, x)
    return f"{y} = {name}({args})"


def measure(flags: list[str], workdir: Path | None = None) -> LibraryCalibration:
    """Compile and run the library microbenchmarks with gcc and `flags`; raises OSError or
    subprocess.SubprocessError when gcc is missing or the program fails."""
    gcc = shutil.which("gcc")
    if gcc is None:
        raise OSError("gcc not found on PATH (the C library routines are measured from C)")
    with tempfile.TemporaryDirectory(prefix="sad-libbench-", dir=workdir) as tmp:
        source, exe = Path(tmp) / "libbench.c", Path(tmp) / "libbench"
        source.write_text(program(), encoding="utf-8")
        subprocess.run([gcc, "-std=gnu99", "-w", "-fno-builtin", *flags, str(source), "-o", str(exe), "-lm"],
                       check=True, capture_output=True, text=True, timeout=120)
        cmd = hier.pin_command([str(exe)], hier.pinned_cpu())  # pinned, as every other calibration run
        out = subprocess.run(cmd, check=True, capture_output=True, text=True, timeout=300).stdout
    raw = {name: float(value) for name, value in (line.split() for line in out.splitlines() if line.strip())}
    return figures_of(raw, "gcc", flags)


def figures_of(raw: dict[str, float], compiler: str, flags: list[str]) -> LibraryCalibration:
    """The database figures from the program's raw times (seconds per call or per sort)."""
    cal = LibraryCalibration(compiler, list(flags))
    per_call = "calls through a function pointer, median of rounds of many calls"
    cal.figures["malloc"], cal.how["malloc"] = raw["malloc"], f"malloc({SMALL}), {per_call}"
    cal.figures["free"], cal.how["free"] = raw["free"], f"free of a {SMALL}-byte block, {per_call}"
    cal.figures["realloc"], cal.how["realloc"] = raw["realloc"], f"realloc between {SMALL} and {2 * SMALL} bytes"
    for name in ("calloc", "memcpy", "memmove", "memset"):
        small, large = raw[f"{name}.small"], raw[f"{name}.large"]
        byte = max(0.0, (large - small) / (LARGE - SMALL))
        cal.figures[f"{name}.byte"] = byte
        cal.how[f"{name}.byte"] = f"({name} of {LARGE} B - of {SMALL} B) / {LARGE - SMALL}"
        freed = raw["free"] if name == "calloc" else 0.0   # calloc is timed with the free of its block
        cal.figures[f"{name}.call"] = max(0.0, small - SMALL * byte - freed)
        cal.how[f"{name}.call"] = f"{name} of {SMALL} B minus {SMALL} bytes" + (" and a free" if freed else "")
    units = SORT_N * math.log2(SORT_N)
    cal.figures["qsort.call"], cal.how["qsort.call"] = raw["qsort.call"], "qsort of one element"
    cal.figures["qsort.nlogn"] = max(0.0, (raw["qsort.sorted"] - raw["qsort.call"]) / units)
    cal.how["qsort.nlogn"] = (f"qsort of {SORT_N} random doubles / ({SORT_N} log2 {SORT_N}), the calls of its "
                              f"comparator (two compares of doubles) included")
    for isa, width, _ in VECTOR_ISAS:
        for name in VECTOR_ROUTINES:
            symbol, lanes, _, kind = _vector_symbol(name, isa, width)
            if f"math.{name}_x{lanes}" in raw and f"math.same_{kind}" in raw:
                cal.figures[f"{name}_x{lanes}.call"] = max(0.0, raw[f"math.{name}_x{lanes}"] - raw[f"math.same_{kind}"])
                cal.how[f"{name}_x{lanes}.call"] = (f"{symbol} (libmvec, {lanes} lanes) over {MATH_N} elements in "
                                                    f"L1 minus a call returning its vector "
                                                    f"({_ns(raw[f'math.same_{kind}'])})")
    if "math.same" in raw and "math.copy" in raw:
        cal.figures["same.call"] = max(0.0, raw["math.same"] - raw["math.copy"])
        cal.how["same.call"] = (f"the call itself: a loop calling a routine that returns x[i] "
                                f"({_ns(raw['math.same'])}) minus the loop without the call ({_ns(raw['math.copy'])})")
    parts = dict(COMPLEX_ROUTINES)
    for name in (*MATH_ROUTINES, *parts):
        if f"math.{name}" in raw:
            loop = f"a loop of {name}(x[i])" if name not in parts else \
                f"libgcc's complex {'product' if 'mul' in name else 'quotient'} of {parts[name]}s"
            cal.figures[f"{name}.call"] = max(0.0, raw[f"math.{name}"] - raw["math.same"])
            cal.how[f"{name}.call"] = (f"{loop} over {MATH_N} elements in L1 minus one calling a routine that "
                                       f"returns x[i] ({_ns(raw['math.same'])})")
    return cal


def render_yaml(cal: LibraryCalibration) -> list[str]:
    """The ``processor.library`` lines of the machine database (indented under ``processor``)."""
    lines = [f"  library:                        # C library routines, measured from C ({cal.compiler} "
             f"{' '.join(cal.flags) or '(no flags)'}; sad/machine/libbench.py)"]
    routines = sorted({key.split(".")[0] for key in cal.figures})
    for name in routines:
        if name in cal.figures:
            lines.append(f"    {name}: {_ns(cal.figures[name]):<14s} # {cal.how[name]}")
            continue
        lines.append(f"    {name}:")
        for unit in ("call", "byte", "nlogn"):
            key = f"{name}.{unit}"
            if key in cal.figures:
                lines.append(f"      {unit}: {_ns(cal.figures[key]):<14s} # {cal.how[key]}")
    return lines


def _ns(seconds: float) -> str:
    return f"{seconds * 1e9:.4g} ns"
