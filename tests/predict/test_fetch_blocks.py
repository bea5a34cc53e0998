"""The front end's floor (sad.predict.incore.fetch_cycles): where a loop's code lies once its file is linked
alone (sad.predict.compiled.linked_spans), and how many 64-byte blocks it spans. Hand-placed assembly: one
loop starts 56 bytes into a 64-byte block and is 9 bytes long (two blocks), the other starts a block and is
the same 9 bytes (one)."""
from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from sad.predict import compiled as cc
from sad.predict import incore

ASM = """\
        .text
        .globl  main
        .type   main, @function
main:
        movl    $1000, %ecx
        xorl    %eax, %eax
        .p2align 6
        .skip   56, 0x90
.L5:
        addq    $1, %rax
        subl    $1, %ecx
        jne     .L5
        movl    $1000, %ecx
        .p2align 6
.L7:
        addq    $1, %rax
        subl    $1, %ecx
        jne     .L7
        xorl    %eax, %eax
        ret
        .size   main, .-main
        .section .note.GNU-stack,"",@progbits
"""

needs_gcc = pytest.mark.skipif(shutil.which("gcc") is None or shutil.which("objdump") is None,
                               reason="gcc and objdump (binutils) are needed to link and read the program")


@needs_gcc
def test_loops_placed_across_and_inside_a_block(tmp_path: Path):
    path = tmp_path / "placed.s"
    path.write_text(ASM)
    spans = cc.linked_spans(path, ASM, "gcc", tmp_path)
    start, end = spans[".L5"]
    assert start % 64 == 56 and end - start == 9          # add (4 bytes), sub (3), jne (2)
    start7, end7 = spans[".L7"]
    assert start7 % 64 == 0 and end7 - start7 == 9
    loops = {loop.head: loop for loop in cc.asm_loops(ASM)}
    cf = cc.CompiledFile(path, list(loops.values()), {}, spans)
    assert cf.fetch_lines(loops[".L5"]) == 2 and cf.fetch_lines(loops[".L7"]) == 1
    lazy = cc.CompiledFile(path, list(loops.values()), {}, asm=ASM, compiler="gcc")   # linked when first asked
    assert lazy.spans == spans
    zen = cc.host_model().mcpu.startswith("znver")
    assert incore.fetch_cycles(loops[".L5"], cf) == (2 if zen else 0)
    assert incore.fetch_cycles(loops[".L7"], cf) == 0


@needs_gcc
def test_a_file_that_does_not_link_alone_has_no_layout(tmp_path: Path):
    path = tmp_path / "lib.s"
    lib = ASM.replace("main", "kernel")   # no main: a library routine
    path.write_text(lib)
    assert cc.linked_spans(path, lib, "gcc", tmp_path) == {}


LIBRARY = """void axpy(int n, double a, const double *x, double *y) {
    for (int i = 0; i < n; i++)
        y[i] += a * x[i];
}
"""


@needs_gcc
@pytest.mark.skipif(shutil.which("llvm-mca") is None, reason="llvm-mca is needed for the compiled-code model")
def test_a_library_file_says_its_fetch_bound_is_left_out(tmp_path: Path):
    """A file with no main program has no place for its code: --explain's core line says the fetch bound is left
    out (on AMD Zen hosts, where it would apply), and the same loop in a program does not say so."""
    from tests.predict.test_compile_options import _machine, _sad
    machine = _machine(tmp_path, "gcc -O2")
    lib = tmp_path / "lib.c"
    lib.write_text(LIBRARY)
    prog = tmp_path / "prog.c"
    prog.write_text(LIBRARY + "static double x[1000], y[1000];\n"
                    "int main(void) { axpy(1000, 2.0, x, y); return y[3] > 0; }\n")
    unknown = "no fetch bound: the code's place is unknown"
    zen = cc.host_model().mcpu.startswith("znver")
    status, out, err = _sad("analyze", str(lib), "-m", str(machine), "--explain")
    cores = [line for line in out.splitlines() if line.strip().startswith("core:")]
    assert status == 0 and len(cores) == 1, err + out
    assert (unknown in cores[0]) == zen
    status, out, err = _sad("analyze", str(prog), "-m", str(machine), "--explain")
    cores = [line for line in out.splitlines() if line.strip().startswith("core:")]
    assert status == 0 and len(cores) == 1 and unknown not in cores[0], err + out
