"""The compiler's own code: innermost loops compiled with the user's compiler and flags, priced by llvm-mca.

Data flow: a source file and the compiler + flags a calibrated machine database records (models.compile) →
``compile_asm`` (the real compiler, the same flags plus -g -S, and -fopt-info-vec-optimized for what the
vectorizer did) → ``asm_loops``: every backward jump of the assembly closes a loop; the loop's instructions are
mapped to source lines through the ``.loc`` directives, which are the debug line table itself (the assembler
turns exactly these into .debug_line, what objdump -dl and llvm-dwarfdump read back) → ``mca_cycles``: llvm-mca
(LLVM's machine-code analyzer, the scheduling model of this host's core: sad.machine.mcacpu) simulates many
iterations of the loop body and gives cycles per iteration, which covers both bounds of the in-core model: the
throughput of the ports the instructions need and any loop-carried dependency chain (latency).
sad.predict.loopcost matches these loops to the source's innermost loops and adds the memory hierarchy.

Nothing here is a guess about the compiler: vectorized, unrolled and if-converted code is priced as what it is.
Where the compiler or llvm-mca is missing, ``available`` says so and the per-operation model stays in force.
"""
from __future__ import annotations

import re
import shutil
import subprocess
import tempfile
from collections import Counter
from dataclasses import dataclass, field, replace
from functools import cached_property, lru_cache
from pathlib import Path

from sad.ir.languages import FREE_FORM_SUFFIXES
from sad.machine import mcacpu
from sad.machine.mcacpu import McaResult as McaResult
from sad.machine.mcacpu import host_model

FORTRAN_SUFFIXES = {".f", ".for", ".f77", ".F", ".fpp"} | FREE_FORM_SUFFIXES
MCA_ITERATIONS = mcacpu.MCA_ITERATIONS
_LOC = re.compile(r"^\s*\.loc\s+(\d+)\s+(\d+)")
_FILE = re.compile(r'^\s*\.file\s+(\d+)\s+"([^"]*)"(?:\s+"([^"]*)")?')
_LABEL = re.compile(r"^([.\w$]+):")
_JUMP = re.compile(r"^\s*(j[a-z]+|b[a-z.]*|loop[a-z]*)\s+([.\w$]+)\s*$")
_VECTORIZED = re.compile(r"^(.*?):(\d+):\d+: optimized: loop vectorized using (\d+) byte vectors")
_PACKED = re.compile(r"^\s*v?\w+p[sd]\b|^\s*v?(movdq|padd|psub|pmul)")


@dataclass
class AsmLoop:
    """One loop of the generated code: from a label to the backward jump to it."""
    function: str
    start: int                      # instruction index of the label
    end: int                        # instruction index of the backward jump
    instructions: list[str]
    lines: Counter = field(default_factory=Counter)   # (file, line) → instructions attributed to it
    where: list = field(default_factory=list)         # per instruction: its (file, line), or None
    innermost: bool = True
    vector_bytes: int = 0           # >0: the vectorizer made this loop (16 = SSE, 32 = AVX)
    head: str = ""                  # the label its backward jump goes to
    targets: dict[str, int] = field(default_factory=dict)   # labels inside it → their index in ``instructions``

    @property
    def packed(self) -> bool:
        """True when the loop body holds a packed (SIMD) instruction."""
        return any(_PACKED.match(i) for i in self.instructions)


@dataclass
class CompiledFile:
    """One source file compiled: its loops in assembly and the vector width of vectorized loops."""
    source: Path
    loops: list[AsmLoop]
    vectorized: dict[int, int]      # source line of a loop → vector bytes
    given_spans: dict[str, tuple[int, int]] | None = None
    """Loop head label → the addresses of its code in the program linked from this file alone (first byte,
    one past its backward jump; `linked_spans`), where it links; None: linked on first use (`spans`)."""
    asm: str = ""
    compiler: str = ""

    @cached_property
    def spans(self) -> dict[str, tuple[int, int]]:
        """The loops' linked addresses, linked from the kept assembly the first time a model asks (only the
        fetch bound of some cores needs them: other hosts never link)."""
        if self.given_spans is not None:
            return self.given_spans
        if not self.asm or not self.compiler:
            return {}
        with tempfile.TemporaryDirectory(prefix="sad-linked-") as tmp:
            asm_path = Path(tmp) / (self.source.stem + ".s")
            asm_path.write_text(self.asm)
            return linked_spans(asm_path, self.asm, self.compiler, Path(tmp))

    @cached_property
    def code_lines(self) -> frozenset[tuple[str, int]] | None:
        """The (file, line) pairs that at least one instruction of the assembly comes from (its ``.loc``
        directives); None where the assembly was not kept."""
        if not self.asm:
            return None
        return frozenset(where for _, where, _ in asm_instructions(self.asm)[0] if where is not None)

    def fetch_lines(self, loop: AsmLoop, line: int = 64) -> int | None:
        """How many aligned `line`-byte blocks the loop's code spans in the linked program; None unknown."""
        span = self.spans.get(loop.head)
        if span is None or span[1] <= span[0]:
            return None
        return (span[1] - 1) // line - span[0] // line + 1


def available() -> str | None:
    """None when the compiled-code model can run here, else why not."""
    if shutil.which("llvm-mca") is None:
        return "llvm-mca not found (Debian: apt-get install llvm)"
    return None


def compiler_for(source: Path, compile_spec: str, include_dirs: tuple[str, ...] = (),
                 macros: tuple[str, ...] = ()) -> list[str] | None:
    """The command (compiler + flags) for a source given the database's 'gcc -O2' spec: gfortran with the same
    flags for Fortran sources (one back end), the compiler itself for C; the user's build options as the
    analysis read the source with them (``include_dirs``: -I, the user's first, then the source's own
    directory, as sad profile builds; ``macros``: -D NAME=TEXT). None if no such compiler."""
    words = compile_spec.split()
    if not words:
        return None
    compiler, flags = words[0], words[1:]
    if source.suffix in FORTRAN_SUFFIXES:
        compiler = "gfortran" if compiler in ("gcc", "cc") else compiler
        flags = ["-std=legacy", "-w", *flags]
    else:
        flags = ["-std=gnu99", "-w", *flags]
    if shutil.which(compiler) is None:
        return None
    dirs = [*(str(Path(d).resolve()) for d in include_dirs), str(source.resolve().parent)]
    return [compiler, *flags, *macros, *(f"-I{d}" for d in dict.fromkeys(dirs))]


class CompileError(OSError):
    """The compile that reads a source's loops failed: ``cause`` is the compiler's first error line."""

    def __init__(self, source: Path, command: list[str], stderr: str) -> None:
        self.cause = first_error(stderr)
        self.command = command
        super().__init__(f"{source}: does not compile ({' '.join(command)}): {self.cause}")


def first_error(stderr: str) -> str:
    """The compiler's first error line (``k.c:1:10: fatal error: hdr.h: No such file or directory``), else its
    first line of output, else that it said nothing."""
    lines = [ln.strip() for ln in stderr.splitlines() if ln.strip()]
    errors = [ln for ln in lines if "error" in ln.lower()]
    return (errors or lines or ["the compiler failed and printed nothing"])[0]


def compile_asm(source: Path, command: list[str], workdir: Path) -> tuple[str, str]:
    """(assembly with .loc directives, the vectorizer's report) for one source file; CompileError if the
    compiler fails."""
    out = workdir / (source.stem + ".s")
    cmd = [*command, "-g", "-S", "-fopt-info-vec-optimized", str(source), "-o", str(out)]
    proc = subprocess.run(cmd, capture_output=True, text=True, check=False)
    if proc.returncode != 0:
        raise CompileError(source, [*command, "-g", "-S", str(source)], proc.stderr)   # no temporary path: same output
    return out.read_text(encoding="utf-8", errors="replace"), proc.stderr


def jump_target(text: str) -> str | None:
    """The label a jump instruction goes to (``jbe .L3`` → ``.L3``), None for any other instruction."""
    found = _JUMP.match(text)
    return found.group(2) if found else None


Instruction = tuple[str, tuple[str, int] | None, str]   # (text, (file, line) of its .loc, function)


def asm_instructions(asm: str) -> tuple[list[Instruction], dict[str, int]]:
    """The instructions of an assembly listing (GNU as syntax), each with the source line its ``.loc`` gives
    and its function, and the index of the instruction each label stands before."""
    files: dict[str, str] = {}
    instructions: list[Instruction] = []
    labels: dict[str, int] = {}
    where: tuple[str, int] | None = None
    function = ""
    for raw in asm.splitlines():
        line = raw.split("#", 1)[0].rstrip()
        if m := _FILE.match(line):
            files[m.group(1)] = m.group(3) or m.group(2)
            continue
        if m := _LOC.match(line):
            where = (files.get(m.group(1), m.group(1)), int(m.group(2)))
            continue
        if m := _LABEL.match(line):
            if not m.group(1).startswith("."):
                function = m.group(1)
            labels[m.group(1)] = len(instructions)
            continue
        text = line.strip()
        if not text or text.startswith("."):
            continue
        instructions.append((text, where if where and where[1] else None, function))
    return instructions, labels


def asm_loops(asm: str) -> list[AsmLoop]:
    """The loops of an assembly listing (GNU as syntax, one function after another)."""
    instructions, labels = asm_instructions(asm)
    loops = []
    for k, (text, _, function) in enumerate(instructions):
        m = _JUMP.match(text)
        if m is None or m.group(2) not in labels:
            continue
        start = labels[m.group(2)]
        if start > k or instructions[start][2] != function:
            continue
        body = instructions[start:k + 1]
        loop = AsmLoop(function, start, k, [b[0] for b in body], where=[b[1] for b in body], head=m.group(2),
                       targets={name: at - start for name, at in labels.items() if start < at <= k})
        loop.lines.update(b[1] for b in body if b[1] is not None)
        loops.append(loop)
    for loop in loops:   # innermost: no other loop strictly inside it
        loop.innermost = not any(o is not loop and loop.start <= o.start and o.end <= loop.end
                                 and (o.start, o.end) != (loop.start, loop.end) for o in loops)
    return loops


def vectorized_lines(report: str) -> dict[int, int]:
    """Source line of each loop the vectorizer transformed → vector width in bytes."""
    found = {}
    for text in report.splitlines():
        if m := _VECTORIZED.match(text):
            found[int(m.group(2))] = int(m.group(3))
    return found


def mca(body: tuple[str, ...], mcpu: str | None = None) -> McaResult | None:
    """llvm-mca on a loop body (``MCA_ITERATIONS`` iterations simulated), or None if it cannot read it.
    Jumps stay in (they take a port); their targets are irrelevant. ``mcpu``: the scheduling model, by
    default this host's core's (sad.machine.mcacpu)."""
    # The model is resolved before the cache: a result cached under "the default" must not answer for a
    # different default (a stand-in model chosen later, or another host's).
    return _mca(body, mcpu or host_model().mcpu)


@lru_cache(maxsize=1024)
def _mca(body: tuple[str, ...], mcpu: str) -> McaResult | None:
    return mcacpu.run("\n".join(_neutral_call(_neutral_jump(i)) for i in body) + "\n", mcpu, MCA_ITERATIONS)


def _neutral_call(instruction: str) -> str:
    """A call as a no-op: llvm-mca gives a call a latency of 100 cycles ("call instructions are not
    correctly modeled"), which held the iterations of a long -O0 body calling sqrtf to about three in flight
    (an all-pairs force loop: 49 cycles an iteration priced, 29 measured). What the routine does is priced
    apart: a library routine by its calibrated figure (sad.predict.incore.library_seconds), a routine of the
    program by its own events where the call is expanded."""
    return "nop" if instruction.split(maxsplit=1)[0] in ("call", "callq") else instruction


def rob_entries(mcpu: str | None = None) -> int | None:
    """Entries of the core's reorder buffer in llvm-mca's scheduling model (sad.machine.mcacpu.rob_entries), by
    default this host's: how many instructions the core keeps in flight."""
    return mcacpu.rob_entries(mcpu or host_model().mcpu)


# ------------------------------------------------------------------ chains through memory (unoptimized code)

_OPERANDS = re.compile(r"^\s*(\S+)\s*(.*)$")
_REG = re.compile(r"%([a-z0-9]+)")
_MEM = re.compile(r"^[-\w.+$]*\(%[a-z0-9]+(?:,\s*%[a-z0-9]+)?(?:,\s*\d)?\)$")
_NO_READ_DEST = ("mov", "lea", "cvt", "pxor", "xorp", "sqrtp", "rsqrtp", "rcpp", "pabs", "pmovzx", "pmovsx")
"""Mnemonic prefixes of two-operand instructions that write their destination without reading it: the packed
square root (sqrtpd; the scalar sqrtsd keeps the destination's upper half, so it does read it), the packed
reciprocals, absolute values and widening moves as well as moves, address arithmetic, conversions and zeroing
xors."""
_FUSED = ("vfmadd", "vfmsub", "vfnmadd", "vfnmsub", "shld", "shrd")


def reads_destination(mnemonic: str, ops: list[str]) -> bool:
    """Whether an instruction reads its register destination: a two-operand form does (``addsd %xmm0, %xmm1``)
    unless it only writes it (``_NO_READ_DEST``); a three-operand form does not (``imulq $1200, %rax, %rdx``,
    ``vaddsd``: gfortran -O0 scales a column index so, and taking %rdx for an input chained every address of
    a Jacobi sweep's body into one 35-cycle loop-carried chain), except the fused multiply-adds and the double
    shifts, whose destination is one of their inputs."""
    if mnemonic.startswith(_FUSED):
        return True
    return len(ops) == 2 and not mnemonic.startswith(_NO_READ_DEST)


@dataclass(frozen=True)
class MemoryChain:
    """A chain through one memory slot (a -O0 variable kept in memory) across loop iterations."""
    slot: str              # the address, e.g. -16(%rbp)
    floating: bool
    cycles: float           # latency of the operations on the chain, forwarding not included
    folded: bool = False    # the chain's load is an operation's memory operand (xorl -12(%rbp), %eax), not a mov
    rmw: bool = False       # one read-modify-write of a register's value closes it (addq %rax, -24(%rbp))


def memory_chains(body: list[str], latencies: tuple[float, ...], load_cycles: int | None = None
                  ) -> list[MemoryChain]:
    """Loop-carried dependency chains through a memory slot: a value loaded from a fixed address (a
    variable an unoptimized compile keeps on the stack: the loop index, a sum), changed and stored back to
    the same address, so the next iteration's load waits for store-to-load forwarding. llvm-mca assumes
    loads and stores never alias and does not see these; they bound -O0 loops. ``load_cycles``: the load part
    of an operation's latency that reads memory (``load_to_use``, the host model's, by default)."""
    if len(latencies) != len(body):
        return []
    load = load_to_use() if load_cycles is None else load_cycles
    stored = {ops[-1] for ops in (_operands(i) for i in body) if ops and _MEM.match(ops[-1])}
    chains = []
    for slot in sorted(stored):
        if "," in slot or not any(base in slot for base in ("(%rip)", "(%rbp)", "(%rsp)")):
            continue        # indexed or through a pointer register: an array element, no fixed address
        found = _chain(body, latencies, slot, load)
        if found is not None:
            delay = _address_delay(body, latencies, slot, load)
            chains.append(replace(found, cycles=found.cycles + delay) if delay else found)
    return chains


def invariant_stores(body: list[str]) -> list[str]:
    """Stores into an address no instruction of the loop changes (``movsd %xmm0, (%rdx)`` with %rdx set
    before the loop) that the loop also loads from: an array element updated in place every iteration, a
    chain through memory that llvm-mca does not see (it assumes loads and stores never alias). A store whose
    value stays in a register (gcc keeps the sum and stores it every time) is no chain."""
    written = set()
    for text in body:
        ops = _operands(text)
        if ops and not _MEM.match(ops[-1]):
            written |= {_canon(r) for r in _REG.findall(ops[-1])}
    loaded = {o for text in body for o in _operands(text)[:-1] if _MEM.match(o)}
    found = []
    for text in body:
        ops = _operands(text)
        if len(ops) >= 2 and _MEM.match(ops[-1]) and text.split()[0].startswith("mov") and ops[-1] in loaded:
            regs = {_canon(r) for r in _REG.findall(ops[-1])}
            if regs and not regs & written and not regs & {"rbp", "rsp", "rip"}:
                found.append(ops[-1])
    return found


FLAGS_ONLY = ("cmp", "test", "ucomis", "comis", "vucomis", "vcomis", "bt")
"""Mnemonic prefixes of instructions that write only the flags (no register chain runs through them)."""
_ADDRESS = re.compile(r"^(-?\d*)\((%[a-z0-9]+)?(?:,\s*(%[a-z0-9]+))?(?:,\s*(\d))?\)$")
_STEP = {"add": 1, "sub": -1}


@dataclass(frozen=True)
class ElementChain:
    """A chain through array elements: what one iteration stores, a later one loads (``L[i][j]`` stored,
    ``L[i][j-1]`` read by the next iteration)."""
    store: str             # the store's address operand as the assembly writes it
    load: str              # the load's
    distance: int          # iterations from the store to the load that reads it
    floating: bool
    cycles: float          # latency of the operations from the load to the store, forwarding not included


def element_chains(body: list[str], latencies: tuple[float, ...]) -> list[ElementChain]:
    """Loop-carried chains through array elements in optimized code: a load whose address, ``distance``
    iterations later, is the address an earlier iteration stored to, with the stored value depending on the
    loaded one. Addresses are ``disp(base, index, scale)`` with base and index registers the loop advances by
    constants (``addq $1, %rax``; ``leaq 8(%rdx), %rdx``) or does not change. gcc -O2 leaves such a chain in
    memory where control flow keeps it from holding the element in a register (lcs: ``L[i][j]`` stored on
    either arm of an ``if``, loaded back as ``L[i][j-1]``); llvm-mca assumes loads and stores never alias and
    does not see it. Each iteration then waits for store-to-load forwarding + the operations on the chain,
    spread over ``distance`` iterations. ``latencies``: each instruction's register form (an operand it reads
    from memory off the chain does not delay it; sad.predict.regchain.host_register_latencies)."""
    if len(latencies) != len(body):
        return []
    steps = _induction_steps(body)
    if steps is None:
        return []
    accesses = [(k, ops[-1] if store else op, store) for k, ops in enumerate(_operands(t) for t in body)
                for store, op in ([(True, ops[-1])] if ops and _ADDRESS.match(ops[-1]) else [])
                + [(False, o) for o in ops[:-1] if _ADDRESS.match(o)]]
    found = []
    for ks, store_op, is_store in accesses:
        if not is_store or not body[ks].split()[0].startswith(("mov", "vmov")):
            continue
        for kl, load_op, load_is_store in accesses:
            if load_is_store or body[kl].split()[0].startswith("lea"):
                continue
            distance = _iterations_apart(store_op, ks, load_op, kl, steps)
            if distance is None:
                continue
            chain = _chain_between(body, latencies, kl, ks)
            if chain is not None:
                found.append(ElementChain(store_op, load_op, distance, *chain))
    return found


def bytes_per_iteration(body: list[str], stores_only: bool = False) -> int:
    """Bytes the loop's stores advance per iteration (its loads' where it stores nothing, unless
    ``stores_only``): the largest of ``address_advances``; 0 when none is found."""
    moves = address_advances(body)
    stores = [a for a, store in moves if store]
    loads = [a for a, store in moves if not store]
    return max(stores or ([] if stores_only else loads) or [0])


def address_advances(body: list[str]) -> list[tuple[int, bool]]:
    """(bytes, is a store) per memory operand of the loop whose registers the loop moves by constants
    (``_induction_steps``): how far its address moves per iteration of the compiled loop (0 for an address the
    loop does not move, a fixed slot or an invariant element). ``lea`` computes no access and is left out."""
    steps = _induction_steps(body) or {}
    written = _written_registers(body)
    found: list[tuple[int, bool]] = []
    for text in body:
        ops = _operands(text)
        for k, op in enumerate(ops):
            m = _ADDRESS.match(op)
            if m is None or not m.group(2) or text.split()[0].startswith("lea"):
                continue
            regs = [(_canon(m.group(2)[1:]), 1)] + ([(_canon(m.group(3)[1:]), int(m.group(4) or 1))]
                                                   if m.group(3) else [])
            if any(r not in steps and r in written for r, _ in regs):
                continue       # a register the loop sets some other way: no constant advance
            advance = abs(sum(f * sum(step for _, step in steps.get(r, [])) for r, f in regs))
            found.append((advance, k == len(ops) - 1 and len(ops) > 1))
    return found


_IMPLICIT = {"cltq": {"a"}, "cwtl": {"a"}, "cqto": {"a", "d"}, "cltd": {"a", "d"}}
"""Operand-less instructions and the registers they write."""


def _written_registers(body: list[str]) -> set[str]:
    """Registers (canonical) an instruction of the loop writes; compares write only the flags."""
    written: set[str] = set()
    for text in body:
        ops = _operands(text)
        mnemonic = text.split()[0]
        if not ops:
            written |= _IMPLICIT.get(mnemonic, set())
        elif not _MEM.match(ops[-1]) and not mnemonic.startswith(FLAGS_ONLY) and not _JUMP.match(text):
            written |= {_canon(r) for r in _REG.findall(ops[-1])}
    return written


def _induction_steps(body: list[str]) -> dict[str, list[tuple[int, int]]] | None:
    """Register → (position, increment) of each instruction that advances it by a constant; a register written
    any other way is absent (its addresses are not followed). None when the body has no such register."""
    steps: dict[str, list[tuple[int, int]]] = {}
    other: set[str] = set()
    for k, text in enumerate(body):
        ops = _operands(text)
        if not ops or _MEM.match(ops[-1]) or text.split()[0].startswith(FLAGS_ONLY):
            continue
        mnemonic, regs = text.split()[0], {_canon(r) for r in _REG.findall(ops[-1])}
        step = None
        if mnemonic[:3] in _STEP and len(ops) == 2 and ops[0].startswith("$") and ops[0][1:].lstrip("-").isdigit():
            step = _STEP[mnemonic[:3]] * int(ops[0][1:])
        elif mnemonic[:3] in ("inc", "dec") and len(ops) == 1:
            step = 1 if mnemonic.startswith("inc") else -1
        elif mnemonic.startswith("lea") and len(ops) == 2 and (m := _ADDRESS.match(ops[0])) and m.group(2) \
                and not m.group(3) and _canon(m.group(2)[1:]) in regs:
            step = int(m.group(1) or 0)
        if step is None or len(regs) != 1:
            other |= regs
            continue
        steps.setdefault(next(iter(regs)), []).append((k, step))
    for reg in other:
        steps.pop(reg, None)
    return steps if steps or other else None


def _iterations_apart(store_op: str, ks: int, load_op: str, kl: int,
                      steps: dict[str, list[tuple[int, int]]]) -> int | None:
    """Iterations after the store's at which the load reads the stored address (None when it never does, or
    reads it in the same iteration)."""
    s, ld = _ADDRESS.match(store_op), _ADDRESS.match(load_op)
    if s is None or ld is None or s.groups()[1:] != ld.groups()[1:] or not s.group(2):
        return None
    scale = int(s.group(4) or 1)
    regs = [(_canon(s.group(2)[1:]), 1)] + ([(_canon(s.group(3)[1:]), scale)] if s.group(3) else [])
    if any(r in ("rip", "rsp", "rbp") for r, _ in regs):
        return None            # a fixed slot: memory_chains
    per_iteration, diff = 0, int(s.group(1) or 0) - int(ld.group(1) or 0)
    for reg, factor in regs:
        moves = steps.get(reg, [])
        per_iteration += factor * sum(step for _, step in moves)
        diff += factor * sum(step for k, step in moves if k < ks) - factor * sum(step for k, step in moves if k < kl)
    if per_iteration == 0 or diff % per_iteration:
        return None
    distance = diff // per_iteration
    return distance if distance >= 1 else None


def _chain_between(body: list[str], latencies: tuple[float, ...], load_at: int,
                   store_at: int) -> tuple[bool, float] | None:
    """(floating point, cycles) of the operations from the load at ``load_at`` to the store at ``store_at`` (the
    next one in loop order) when the stored value depends on the loaded one on every path, else None. A
    conditional jump between them leaves a path that may not carry the value (lcs at -O2: ``L[i][j]`` stored
    from the diagonal arm in a quarter of the iterations, from the chain's ``max`` in the others): no chain is
    counted there; measured on this host, lcs runs 4 cycles per iteration where the chain would take 9."""
    n = len(body)
    order = [(load_at + i) % n for i in range(((store_at - load_at) % n) + 1)]
    text = body[load_at]
    ops = _operands(text)
    tainted = {_canon(r) for r in _REG.findall(ops[-1])} if not _MEM.match(ops[-1]) else set()
    floating = "xmm" in ops[-1]
    reads_dest = not text.split()[0].startswith(_NO_READ_DEST)
    cycles = float(latencies[load_at]) if reads_dest else 0.0
    for k in order[1:-1]:
        ops = _operands(body[k])
        mnemonic = body[k].split()[0]
        if _JUMP.match(body[k]) and mnemonic != "jmp":
            return None
        if not ops or _MEM.match(ops[-1]) or mnemonic.startswith(FLAGS_ONLY):
            continue
        dest, sources = ops[-1], ops[:-1]
        regs_in = {_canon(r) for o in sources for r in _REG.findall(o) if not _MEM.match(o)}
        if mnemonic.startswith("lea"):
            regs_in = {_canon(r) for o in sources for r in _REG.findall(o)}
        elif reads_destination(mnemonic, ops):
            regs_in |= {_canon(r) for r in _REG.findall(dest)}
        dest_regs = {_canon(r) for r in _REG.findall(dest)}
        if regs_in & tainted:
            cycles += latencies[k]
            tainted |= dest_regs
            floating = floating or "xmm" in dest
        else:
            tainted -= dest_regs
    stored = {_canon(r) for o in _operands(body[store_at])[:-1] for r in _REG.findall(o)}
    return (floating, max(1.0, cycles)) if stored & tainted else None



def _address_delay(body: list[str], latencies: tuple[float, ...], slot: str, load: int) -> float:
    """Cycles from a load of ``slot`` to the address of a later store into an array (``y[i] = ...`` at -O0: i
    loaded, sign-extended, scaled, added to the base). The load that continues the chain in the next iteration
    waits for the addresses of the older stores (measured on Zen: the -O0 copy loop runs 11 cycles where the
    index chain alone takes 8), so the address arithmetic joins the chain."""
    ready: dict[str, float] = {}       # register → cycles after the slot's load its value is ready
    delay = 0.0
    for text, lat in zip(body, latencies):
        ops = _operands(text)
        if not ops:
            if text.split()[0] == "cltq" and "a" in ready:    # sign-extends %eax into %rax in place
                ready["a"] += max(1, lat)
            continue
        dest, sources = ops[-1], ops[:-1]
        if text.split()[0].startswith(("cmp", "test", "comis", "ucomis")):
            continue                 # compares write only the flags
        if dest == slot:
            break                    # the store that closes the chain: later stores belong to the next round
        if _MEM.match(dest):
            if "," in dest or not any(base in dest for base in ("(%rip)", "(%rbp)", "(%rsp)")):
                delay = max([delay] + [ready[_canon(r)] for r in _REG.findall(dest) if _canon(r) in ready])
            continue
        dest_regs = {_canon(r) for r in _REG.findall(dest)}
        if slot in sources:
            ready.update({r: 0 for r in dest_regs})
            continue
        mnemonic = text.split()[0]
        reads_dest = reads_destination(mnemonic, ops)
        # lea's "memory" operand is arithmetic on its registers (leaq -1(%rax), %rcx: rcx = rax - 1)
        regs_in = {_canon(r) for o in sources for r in _REG.findall(o) if mnemonic.startswith("lea")
                   or not _MEM.match(o)}
        if reads_dest:
            regs_in |= dest_regs
        inputs = [ready[r] for r in regs_in if r in ready]
        own = max(1, lat - (load if any(_MEM.match(o) for o in sources) else 0))
        for r in dest_regs:
            if inputs:
                ready[r] = max(inputs) + own
            else:
                ready.pop(r, None)
    return delay


def _chain(body: list[str], latencies: tuple[float, ...], slot: str, load: int) -> MemoryChain | None:
    tainted: set[str] = set()
    cycles, started, floating, folded = 0.0, False, False, False
    for text, lat in zip(body, latencies):
        ops = _operands(text)
        if not ops:
            continue
        mnemonic = text.split()[0]
        dest, sources = ops[-1], ops[:-1]
        reads_dest = reads_destination(mnemonic, ops)
        regs_in = {_canon(r) for o in sources for r in _REG.findall(o) if not _MEM.match(o)}
        if reads_dest and not _MEM.match(dest):
            regs_in |= {_canon(r) for r in _REG.findall(dest)}
        loads_slot = slot in sources or (reads_dest and dest == slot)
        if dest == slot and loads_slot:          # read-modify-write in one instruction (addl $1, -8(%rbp))
            # of a constant or of a register's value: cores rename the first and may not the second
            return MemoryChain(slot, "xmm" in text, 1, rmw=any(not o.startswith("$") and not _MEM.match(o)
                                                               for o in sources))
        if dest == slot and regs_in & tainted:   # the store that closes the chain
            return MemoryChain(slot, floating, max(1, cycles), folded) if started else None
        if loads_slot and not started:
            started = True
            floating = "xmm" in dest
            tainted = {_canon(r) for r in _REG.findall(dest)}
            if not mnemonic.startswith("mov"):   # an operation with the slot as operand: its own latency
                cycles += max(1, lat - load)
                folded = True
            continue
        if not started or _MEM.match(dest):
            continue
        dest_regs = {_canon(r) for r in _REG.findall(dest)}
        if regs_in & tainted:
            cycles += max(1, lat - (load if any(_MEM.match(o) for o in sources) else 0))
            tainted |= dest_regs
            floating = floating or "xmm" in dest
        else:
            tainted -= dest_regs
    return None


def register_chain(body: list[str]) -> int:
    """Cycles of the longest loop-carried chain through one register: an accumulator that one two-operand
    instruction both reads and writes (``addsd (%rax), %xmm0``) and nothing else in the loop writes. llvm-mca's
    Zen models let the register operand of an instruction with a folded load be read late, which shortens such
    a chain below the operation's latency; the operation alone (register form) gives the bound."""
    writers: Counter = Counter()
    for text in body:
        ops = _operands(text)
        if ops and not _MEM.match(ops[-1]):
            writers.update({_canon(r) for r in _REG.findall(ops[-1])})
    longest = 0
    for text in body:
        ops = _operands(text)
        mnemonic = text.split()[0]
        if len(ops) != 2 or _MEM.match(ops[-1]) or mnemonic.startswith(_NO_READ_DEST + FLAGS_ONLY) \
                or ops[0] == ops[1]:
            continue
        regs = {_canon(r) for r in _REG.findall(ops[-1])}
        if len(regs) != 1 or writers[next(iter(regs))] != 1:
            continue
        source = ops[0]
        if _MEM.match(source):
            source = "%xmm15" if "xmm" in ops[-1] else ("%r15" if ops[-1].startswith("%r") else "%r15d")
        if source.startswith("$"):
            continue
        result = mca((f"{mnemonic}\t{source}, {ops[-1]}",))
        if result is not None and result.latencies:
            longest = max(longest, result.latencies[0])
    return longest


LOAD_TO_USE = 4
"""Cycles llvm-mca's Zen models add to an operation that reads memory (load-to-use, L1); ``load_to_use`` asks
the model in use."""


def load_to_use() -> int:
    """Cycles the host's llvm-mca model adds to an operation that reads memory (load-to-use, L1): its latency of
    a plain load, 4 in the Zen models and 5 in Intel's Ice Lake (so ``xorl -12(%rbp), %eax`` is 5 cycles in
    the one and 6 in the other, 1 of them the xor's);
    taken off when the operation sits on a chain whose value comes through a register. ``LOAD_TO_USE`` where
    llvm-mca cannot tell."""
    result = mca(("movq (%rsp), %rax",))
    return int(result.latencies[0]) if result is not None and result.latencies else LOAD_TO_USE


def _operands(instruction: str) -> list[str]:
    m = _OPERANDS.match(instruction)
    if not m or not m.group(2):
        return []
    parts, depth, cur = [], 0, ""
    for ch in m.group(2):
        if ch == "," and depth == 0:
            parts.append(cur.strip())
            cur = ""
            continue
        depth += ch == "("
        depth -= ch == ")"
        cur += ch
    parts.append(cur.strip())
    return parts


def _canon(reg: str) -> str:
    """%eax, %rax, %ax, %al → 'a'; %r8d → 'r8'; %xmm1 → 'xmm1'."""
    if reg.startswith(("xmm", "ymm", "zmm")):
        return "xmm" + reg[3:]
    numbered = re.match(r"r\d+", reg)
    if numbered:
        return numbered.group(0)
    core = reg[1:] if reg[0] in "re" and len(reg) == 3 else reg
    return core.rstrip("xlh") or core


def _neutral_jump(instruction: str) -> str:
    """Jumps point at a label defined nowhere in the snippet: llvm-mca accepts a numeric displacement."""
    m = _JUMP.match(instruction)
    return f"{m.group(1)} 0" if m else instruction


_MAIN = re.compile(r"^(main|MAIN__):", re.MULTILINE)   # C's main, gfortran's main program
_OBJ_LABEL = re.compile(r"^([0-9a-f]+) <([^>]+)>:$")
_OBJ_INSN = re.compile(r"^\s+([0-9a-f]+):\s+(\S.*)$")
_OBJ_TARGET = re.compile(r"^j[a-z]+\s+([0-9a-f]+) <")


def linked_spans(asm_path: Path, asm: str, compiler: str, workdir: Path) -> dict[str, tuple[int, int]]:
    """Where each loop's code lies once the file is linked into a program on its own, as a one-file program is
    built (`compiler file -lm`; its local labels kept by the assembler's -L): loop head label → (first byte,
    one past the innermost backward jump to it). The alignment of a loop's code decides how many fetch blocks an
    iteration needs (sad.predict.incore.fetch_cycles). Empty where the file has no main program (a library's
    routines land where the program linking them puts them), it does not link, or objdump is missing: the
    layout is then unknown."""
    exe = workdir / "linked"
    if not _MAIN.search(asm):
        return {}   # a library's routines: where they land depends on the program that links them
    try:
        # a main program calling routines of other files (or MPI) is placed as it would be with them: they come
        # after it, so its own code keeps its addresses
        built = subprocess.run([compiler, "-Wa,-L", str(asm_path), "-o", str(exe), "-lm",
                                "-Wl,--unresolved-symbols=ignore-all"], capture_output=True, text=True, check=False)
        if built.returncode != 0:
            return {}
        dump = subprocess.run(["objdump", "-d", "--no-show-raw-insn", str(exe)], capture_output=True, text=True,
                              check=False).stdout
    except OSError:
        return {}
    labels: dict[int, list[str]] = {}
    insns: list[tuple[int, str]] = []
    for line in dump.splitlines():
        if m := _OBJ_LABEL.match(line):
            labels.setdefault(int(m.group(1), 16), []).append(m.group(2))
        elif m := _OBJ_INSN.match(line):
            insns.append((int(m.group(1), 16), m.group(2)))
    spans: dict[str, tuple[int, int]] = {}
    for k, (address, text) in enumerate(insns[:-1]):
        m = _OBJ_TARGET.match(text)
        target = int(m.group(1), 16) if m else None
        if target is None or target > address or target not in labels:
            continue
        end = insns[k + 1][0]
        for name in labels[target]:
            if name not in spans or end < spans[name][1]:
                spans[name] = (target, end)
    return spans


@lru_cache(maxsize=128)
def _compiled(source: str, mtime_ns: int, command: tuple[str, ...]) -> CompiledFile:
    path = Path(source)
    with tempfile.TemporaryDirectory(prefix="sad-compiled-") as tmp:
        asm, report = compile_asm(path, list(command), Path(tmp))
    return CompiledFile(path, asm_loops(asm), vectorized_lines(report), asm=asm, compiler=command[0])


def compiled_file(source: Path, compile_spec: str, include_dirs: tuple[str, ...] = (),
                  macros: tuple[str, ...] = ()) -> CompiledFile | str:
    """The loops of one source compiled as the database says with the user's -I and -D (cached per file
    version and command), or why it cannot be compiled here: the compiler is missing, or its first error."""
    command = compiler_for(source, compile_spec, include_dirs, macros)
    if command is None:
        return f"no compiler '{compile_spec.split()[0] if compile_spec.split() else compile_spec}' here"
    if not source.exists():
        return f"{source}: no such file"
    try:
        return _compiled(str(source.resolve()), source.stat().st_mtime_ns, tuple(command))
    except CompileError as exc:
        return f"`{' '.join(exc.command)}` fails: {exc.cause}"
    except OSError as exc:
        return str(exc)
