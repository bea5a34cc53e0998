"""The held-out loop-kernel suite of benchmarks/accuracy.py: C and Fortran kernels written here, each at a size
whose working set sits in L1, in L2, in L3 and in memory.

Data flow: KERNELS (name, language, arrays, body, work per repetition) → ``source`` renders a whole program
(read n and reps, allocate and initialize the arrays, repeat the kernel reps times, print a checksum so nothing
is dead code) → ``cases`` picks n per cache level from the working-set formula and the cache sizes the OS
reports (a quarter of L1, L2, L3; 64 MB for memory) and reps so that a run takes ~10^7 inner iterations.
Cubic kernels (matrix multiply) skip the memory size: one repetition there takes seconds at -O0.
"""
from __future__ import annotations

import math
from dataclasses import dataclass

from sad.machine.hierarchy import os_caches

TARGET_WORK = 5e6


@dataclass(frozen=True)
class Kernel:
    name: str
    lang: str          # c | f
    arrays: str        # names of the arrays used, each `length` elements of double
    length: str        # elements per array in terms of n: "n", "n*n", "n*n*n", "8*n"
    body: str          # the kernel, one repetition (C statements, or Fortran fixed-form lines)
    work: str          # inner iterations per repetition (Python expression in n), to size reps
    dims: int = 1      # 1: n elements; 2: n x n; 3: n^3 (sizes solve for n)
    cubic: bool = False


C = [
    Kernel("daxpy", "c", "xy", "n", "for (i = 0; i < n; i++) y[i] = y[i] + t * x[i];", "n"),
    Kernel("ddot", "c", "xy", "n", "for (i = 0; i < n; i++) s += x[i] * y[i];", "n"),
    Kernel("dscal", "c", "x", "n", "for (i = 0; i < n; i++) x[i] = x[i] * t;", "n"),
    Kernel("triad", "c", "xyz", "n", "for (i = 0; i < n; i++) z[i] = x[i] + t * y[i];", "n"),
    Kernel("sum", "c", "x", "n", "for (i = 0; i < n; i++) s += x[i];", "n"),
    Kernel("nrm2", "c", "x", "n", "for (i = 0; i < n; i++) s += x[i] * x[i];", "n"),
    Kernel("reverse_copy", "c", "xy", "n", "for (i = 0; i < n; i++) y[i] = x[n - 1 - i];", "n"),
    Kernel("strided_sum", "c", "x", "8*n", "for (i = 0; i < n; i++) s += x[8 * i];", "n"),
    Kernel("prefix_sum", "c", "x", "n", "for (i = 1; i < n; i++) x[i] = x[i] + t * x[i - 1];", "n"),
    Kernel("min_ternary", "c", "x", "n", "for (i = 0; i < n; i++) s = (x[i] < s) ? x[i] : s;", "n"),
    Kernel("max_if", "c", "x", "n", "for (i = 0; i < n; i++) if (x[i] > s) s = x[i];", "n"),
    Kernel("jacobi1d", "c", "xy", "n",
           "for (i = 1; i < n - 1; i++) y[i] = (x[i - 1] + x[i] + x[i + 1]) * 0.333;\n"
           "        for (i = 1; i < n - 1; i++) x[i] = y[i];", "2*n"),
    Kernel("dgemv_n", "c", "Axy", "n*n",
           "for (i = 0; i < n; i++) for (j = 0; j < n; j++) y[i] += A[i * n + j] * x[j];", "n*n", 2),
    Kernel("dgemv_t", "c", "Axy", "n*n",
           "for (i = 0; i < n; i++) for (j = 0; j < n; j++) y[j] += A[i * n + j] * x[i];", "n*n", 2),
    Kernel("column_sum", "c", "Ax", "n*n",
           "for (j = 0; j < n; j++) for (i = 0; i < n; i++) x[j] += A[i * n + j];", "n*n", 2),
    Kernel("dger", "c", "Axy", "n*n",
           "for (i = 0; i < n; i++) for (j = 0; j < n; j++) A[i * n + j] += x[i] * y[j];", "n*n", 2),
    Kernel("jacobi2d", "c", "AB", "n*n",
           "for (i = 1; i < n - 1; i++) for (j = 1; j < n - 1; j++)\n"
           "            B[i * n + j] = 0.2 * (A[i * n + j] + A[i * n + j - 1] + A[i * n + j + 1]"
           " + A[(i - 1) * n + j] + A[(i + 1) * n + j]);", "n*n", 2),
    Kernel("trisolve", "c", "Axy", "n*n",
           "for (i = 0; i < n; i++) { s = y[i]; for (j = 0; j < i; j++) s -= A[i * n + j] * x[j];"
           " x[i] = s / (A[i * n + i] + n); }", "n*n/2", 2),
    Kernel("edit_distance", "c", "AB", "n*n",
           "for (i = 1; i < n; i++) for (j = 1; j < n; j++) {\n"
           "            u = A[(i - 1) * n + j] + 1.0; v = A[i * n + j - 1] + 1.0;"
           " w = A[(i - 1) * n + j - 1] + B[i * n + j];\n"
           "            u = u < v ? u : v; A[i * n + j] = u < w ? u : w; }", "n*n", 2),
    Kernel("stencil3d", "c", "AB", "n*n*n",
           "for (i = 1; i < n - 1; i++) for (j = 1; j < n - 1; j++) for (k = 1; k < n - 1; k++)\n"
           "            B[(i * n + j) * n + k] = 0.1 * (A[(i * n + j) * n + k - 1] + A[(i * n + j) * n + k + 1]"
           " + A[(i * n + j - 1) * n + k] + A[(i * n + j + 1) * n + k] + A[((i - 1) * n + j) * n + k]"
           " + A[((i + 1) * n + j) * n + k]);", "n*n*n", 3),
    Kernel("matmul_ijk", "c", "ABC", "n*n",
           "for (i = 0; i < n; i++) for (j = 0; j < n; j++) for (k = 0; k < n; k++)"
           " C[i * n + j] += A[i * n + k] * B[k * n + j];", "n*n*n", 2, True),
    Kernel("matmul_ikj", "c", "ABC", "n*n",
           "for (i = 0; i < n; i++) for (k = 0; k < n; k++) for (j = 0; j < n; j++)"
           " C[i * n + j] += A[i * n + k] * B[k * n + j];", "n*n*n", 2, True),
    Kernel("matmul_jki", "c", "ABC", "n*n",
           "for (j = 0; j < n; j++) for (k = 0; k < n; k++) for (i = 0; i < n; i++)"
           " C[i * n + j] += A[i * n + k] * B[k * n + j];", "n*n*n", 2, True),
]

F = [
    Kernel("f_daxpy", "f", "XY", "N", "      DO 10 I = 1, N\n         Y(I) = Y(I) + T * X(I)\n   10 CONTINUE", "n"),
    Kernel("f_ddot", "f", "XY", "N", "      DO 10 I = 1, N\n         S = S + X(I) * Y(I)\n   10 CONTINUE", "n"),
    Kernel("f_sum", "f", "X", "N", "      DO 10 I = 1, N\n         S = S + X(I)\n   10 CONTINUE", "n"),
    Kernel("f_reverse", "f", "XY", "N", "      DO 10 I = 1, N\n         Y(I) = X(N + 1 - I)\n   10 CONTINUE", "n"),
    Kernel("f_max", "f", "X", "N", "      DO 10 I = 1, N\n         IF (X(I) .GT. S) S = X(I)\n   10 CONTINUE", "n"),
    Kernel("f_jacobi1d", "f", "XY", "N",
           "      DO 10 I = 2, N - 1\n         Y(I) = (X(I - 1) + X(I) + X(I + 1)) * 0.333D0\n   10 CONTINUE", "n"),
    Kernel("f_dgemv", "f", "AXY", "N*N",
           "      DO 20 J = 1, N\n      DO 10 I = 1, N\n         Y(I) = Y(I) + A(I, J) * X(J)\n   10 CONTINUE\n"
           "   20 CONTINUE", "n*n", 2),
    Kernel("f_row_sum", "f", "AX", "N*N",
           "      DO 20 I = 1, N\n      DO 10 J = 1, N\n         X(I) = X(I) + A(I, J)\n   10 CONTINUE\n"
           "   20 CONTINUE", "n*n", 2),
    Kernel("f_jacobi2d", "f", "AB", "N*N",
           "      DO 20 J = 2, N - 1\n      DO 10 I = 2, N - 1\n         B(I, J) = 0.2D0 * (A(I, J) + A(I - 1, J)"
           "\n     &      + A(I + 1, J) + A(I, J - 1) + A(I, J + 1))\n   10 CONTINUE\n   20 CONTINUE", "n*n", 2),
    Kernel("f_trisolve", "f", "AXY", "N*N",
           "      DO 20 I = 1, N\n         S = Y(I)\n      DO 10 J = 1, I - 1\n         S = S - A(I, J) * X(J)\n"
           "   10 CONTINUE\n         X(I) = S / (A(I, I) + N)\n   20 CONTINUE", "n*n/2", 2),
    Kernel("f_matmul_jki", "f", "ABC", "N*N",
           "      DO 30 J = 1, N\n      DO 20 K = 1, N\n      DO 10 I = 1, N\n"
           "         C(I, J) = C(I, J) + A(I, K) * B(K, J)\n   10 CONTINUE\n   20 CONTINUE\n   30 CONTINUE",
           "n*n*n", 2, True),
]

KERNELS = C + F


def source(k: Kernel) -> str:
    return _c_source(k) if k.lang == "c" else _f_source(k)


def _c_source(k: Kernel) -> str:
    decl = ", ".join(f"*{a} = malloc(len * sizeof(double))" for a in k.arrays)
    init = " ".join(f"{a}[i] = 1.0 + (i % 7) * 0.125;" for a in k.arrays)
    check = " + ".join(f"{a}[len / 2]" for a in k.arrays)
    return f"""#include <stdio.h>
#include <stdlib.h>
int main(void) {{
    int n, reps, r, i, j, k;
    long len;
    double s = 0.5, t = 0.999, u, v, w;
    if (scanf("%d %d", &n, &reps) != 2) return 1;
    len = (long){k.length.replace('n', 'n')};
    double {decl};
    for (i = 0; i < len; i++) {{ {init} }}
    for (r = 0; r < reps; r++) {{
        {k.body}
    }}
    printf("%g\\n", s + {check});
    (void)j; (void)k; (void)u; (void)v; (void)w;
    return 0;
}}
"""


def _f_source(k: Kernel) -> str:
    arrays = list(k.arrays)
    shape = "(N, N)" if k.dims == 2 else "(N)"
    formal = ", ".join(arrays)
    decls = "\n".join(f"      DOUBLE PRECISION {a}{shape}" if a == "A" or a in "BC" and k.dims == 2
                      else f"      DOUBLE PRECISION {a}(N)" for a in arrays)
    return f"""      PROGRAM {k.name.upper()[:6]}
      INTEGER N, REPS, R, I
      DOUBLE PRECISION S
      DOUBLE PRECISION W1(8400000), W2(8400000), W3(8400000)
      READ (*, *) N, REPS
      DO 5 I = 1, {k.length}
         W1(I) = 1.0D0 + MOD(I, 7) * 0.125D0
         W2(I) = 1.0D0 + MOD(I, 5) * 0.125D0
         W3(I) = 1.0D0 + MOD(I, 3) * 0.125D0
    5 CONTINUE
      S = 0.5D0
      DO 6 R = 1, REPS
         CALL KERN(N, S, {", ".join(["W1", "W2", "W3"][:len(arrays)])})
    6 CONTINUE
      PRINT *, S, W1(N / 2), W2(N / 2)
      END
      SUBROUTINE KERN(N, S, {formal})
      INTEGER N, I, J, K
      DOUBLE PRECISION S, T
{decls}
      T = 0.999D0
{k.body}
      RETURN
      END
"""


def level_targets() -> list[tuple[str, int]]:
    """(level, working-set bytes): a quarter of each cache the OS reports, 64 MB for memory."""
    caches = os_caches() or []
    sizes = {f"L{c.level}": c.size_bytes for c in caches}
    out = [(name, sizes.get(name, default) // 4) for name, default in
           (("L1", 32 * 1024), ("L2", 512 * 1024), ("L3", 8 * 1024 ** 2))]
    return out + [("memory", 64 * 1024 ** 2)]


def size_for(k: Kernel, working_set: int) -> int:
    """n whose working set (arrays × length × 8 bytes) is about ``working_set``."""
    per = working_set / (8 * len(k.arrays))
    if k.length == "8*n":
        return max(16, int(per / 8))
    return max(8, int(round(per ** (1 / k.dims))))


WORK = {"n": lambda n: n, "2*n": lambda n: 2 * n, "n*n": lambda n: n * n, "n*n/2": lambda n: n * n / 2,
        "n*n*n": lambda n: n ** 3}
LENGTH = {"n": lambda n: n, "8*n": lambda n: 8 * n, "n*n": lambda n: n * n, "n*n*n": lambda n: n ** 3}


def reps_for(k: Kernel, n: int) -> int:
    return max(1, int(TARGET_WORK / max(1.0, WORK[k.work](n))))


def cases(k: Kernel) -> list[tuple[str, int, int]]:
    """(level, n, reps) for a kernel: L1, L2, L3 and memory (cubic kernels: no memory size)."""
    out = []
    for level, ws in level_targets():
        if k.cubic and level == "memory":
            continue
        n = size_for(k, ws)
        if k.lang == "f" and LENGTH[k.length.lower()](n) > 8400000:
            n = int(math.sqrt(8400000)) if k.dims == 2 else 8400000
        out.append((level, n, reps_for(k, n)))
    return out
