"""The loop-carried chain through registers of a compiled loop, timed with this host's measured latencies.

Data flow: a compiled loop body (sad.predict.compiled), llvm-mca's latency of each instruction's register form,
and the latencies `sad calibrate` measured on this host (the ``ops`` of the machine's hierarchy: one dependent
chain of add, mul, div on double and integer) → ``host_chain``: the cycles of the longest chain from a register's
value at the top of an iteration to its value at the bottom, once with llvm-mca's latencies and once with the
host's where it measured the operation's class → sad.predict.incore replaces the model's chain by the host's in a
loop llvm-mca finds latency bound.

Why: llvm-mca's scheduling model is a core's as LLVM describes it, or a stand-in's where LLVM does not know the
core (sad.machine.mcacpu). A reduction that gcc keeps in order at -O2 (``w -= A[i][k] * A[k][j]``, a dot product
without -ffast-math: one ``subsd`` or two ``addsd`` per iteration on one register) runs at the latency of the add.
On this host (AMD family 26) the calibration measures that latency as 2.0 cycles; llvm-mca's znver3 model says 3,
and lu, cholesky and durbin of benchmarks/devkernels and ludcmp of benchmarks/devkernels2, all such reductions,
were predicted 49-58 % too slow at -O2. The host's measured latency is the figure to trust; where the model has it
right, the two chains are equal and nothing changes.
"""
from __future__ import annotations

import re

from sad.machine.hierarchy import Hierarchy
from sad.predict import compiled as cc

_FP = re.compile(r"^v?(add|sub|mul|div)(s|p)(d|s)$")
_INT = {"add": "add", "sub": "add", "inc": "add", "dec": "add", "neg": "add", "imul": "mul", "idiv": "div",
        "div": "div"}
_PURE_DEST = ("mov", "lea", "cvt", "pxor", "xorp", "vxorp", "vmov", "vcvt", "unpck", "pshuf", "vbroadcast")


def op_class(mnemonic: str) -> str | None:
    """'addsd' → 'add.double', 'vmulpd' → 'mul.double', 'imull' → 'mul.integer'; None for others (their
    latency stays llvm-mca's). Single-precision operations take the double figure: one unit runs both."""
    fp = _FP.match(mnemonic)
    if fp:
        return f"{'add' if fp.group(1) == 'sub' else fp.group(1)}.double"
    head = _operation(mnemonic)
    return f"{_INT[head]}.integer" if head in _INT else None


def _operation(mnemonic: str) -> str:
    """An integer instruction's operation without its operand-size suffix: 'imull' → 'imul', 'addq' → 'add'."""
    return re.sub(r"[bwlq]$", "", mnemonic)


def host_chain(body: list[str], model_latencies: list[float], hierarchy: Hierarchy) -> tuple[float, float]:
    """(cycles of the longest loop-carried register chain with llvm-mca's latencies, the same chain with the
    host's measured latencies where it has them). ``model_latencies``: llvm-mca's latency of each instruction's
    register form (an operand read from memory does not delay the chain through the other operand)."""
    host = [_host_latency(text, lat, hierarchy) for text, lat in zip(body, model_latencies)]
    best_model, best_host = 0.0, 0.0
    for reg in sorted(_written(body) - {FLAGS}):
        model = _chain(body, model_latencies, reg)
        if model is not None and model > best_model:
            best_model, best_host = model, _chain(body, host, reg) or 0.0
    return best_model, best_host


def register_form_latencies(body: list[str], latencies: tuple[int, ...]) -> list[float]:
    """llvm-mca's latency of each operation that reads its destination and a memory source (``addsd (%rax),
    %xmm1``) with the memory source read from a register instead (its own llvm-mca run): the delay it puts on
    the chain through its destination, without the load's. A load into a register (``movq (%rax), %rax``, a
    pointer chase) keeps its whole latency: the chain runs through the load."""
    out: list[float] = []
    for text, lat in zip(body, latencies):
        ops = cc._operands(text)
        sources = ops[:-1]
        if not _loads_beside_dest(text):
            out.append(float(lat))
            continue
        spare = "%xmm15" if "mm" in ops[-1] else "%r15" if ops[-1].startswith("%r") else "%r15d"
        form = ", ".join(spare if cc._MEM.match(op) else op for op in sources) + f", {ops[-1]}"
        result = cc.mca((f"{text.split()[0]}\t{form}",))
        out.append(float(result.latencies[0]) if result is not None and result.latencies
                   else float(max(1, lat - cc.load_to_use())))
    return out


def host_latencies(body: list[str], latencies: tuple[int, ...], hierarchy: Hierarchy) -> tuple[float, ...]:
    """llvm-mca's latency of each instruction with the operation's own part replaced by the host's measured
    latency where the calibration has its class (a memory operand's load part stays llvm-mca's). For the chains
    through memory of unoptimized code: the calibrated forwarding figure is a measured chain (forwarding + add)
    minus the measured add (sad.machine.hierarchy), so the add on such a chain must be the measured one too."""
    if len(latencies) != len(body):
        return tuple(float(x) for x in latencies)
    forms = register_form_latencies(body, latencies)
    return tuple(lat - form + _host_latency(text, form, hierarchy)
                 for text, lat, form in zip(body, latencies, forms))


def host_register_latencies(body: list[str], latencies: tuple[int, ...], hierarchy: Hierarchy) -> list[float]:
    """Each instruction's latency in its register form (``register_form_latencies``), the host's measured one
    where the calibration has its class: the delay it puts on a chain that reaches it through a register."""
    if len(latencies) != len(body):
        return [float(x) for x in latencies]
    return [_host_latency(text, form, hierarchy) for text, form in zip(body, register_form_latencies(body, latencies))]


def latency_bound_cycles(body: list[str], latencies: tuple[int, ...], cycles: float, rthroughput: float,
                         hierarchy: Hierarchy) -> float:
    """``cycles`` (llvm-mca's per iteration) with the loop-carried register chain timed by the host's measured
    latencies where the loop is bound by that chain (its model length is at least 90 % of the cycles); never
    below the port throughput bound ``rthroughput``. A loop bound by the chain only as llvm-mca runs it, with
    a folded load's latency on the chain through the operation's register operand (its Zen models read that
    operand early: ``xorl (%rax), %esi; imull $16777619, %esi, %esi`` 5.03 cycles, 4 measured here), runs
    at the register form's chain."""
    if len(latencies) != len(body) or not hierarchy.ops:
        return cycles
    model, host = host_chain(body, register_form_latencies(body, latencies), hierarchy)
    if model <= 0:
        return cycles
    if cycles > model / 0.9:
        full, _ = host_chain(body, [float(x) for x in latencies], hierarchy)
        if full <= model or cycles > full / 0.9:
            return cycles
        return max(rthroughput, host)
    return cycles if host == model else max(rthroughput, cycles * host / model)


def _loads_beside_dest(text: str) -> bool:
    """An operation that reads its register destination and a memory source (``addsd (%rax), %xmm1``)."""
    ops = cc._operands(text)
    return len(ops) == 2 and not text.split()[0].startswith(_PURE_DEST) and not cc._MEM.match(ops[-1]) \
        and bool(cc._MEM.match(ops[0]))


def _host_latency(text: str, model: float, hierarchy: Hierarchy) -> float:
    """The host's measured latency of the operation's class in cycles, else ``model``; an operation whose
    latency includes a load it does not chain through (not a register form) keeps ``model``."""
    ops = cc._operands(text)
    if any(cc._MEM.match(op) for op in ops[:-1]) and not _loads_beside_dest(text):
        return model
    cls = op_class(text.split()[0]) if text.split() else None
    if cls is None or cls not in hierarchy.ops or hierarchy.clock_hz <= 0:
        return model
    return hierarchy.ops[cls][0] * hierarchy.clock_hz


FLAGS = "flags"
"""The status flags, as one register: written by a compare and the integer arithmetic, read by a conditional
move, set or carry (``_sources_and_dests``)."""
_READS_FLAGS = ("cmov", "set", "adc", "sbb")
_WRITES_FLAGS = {"add", "sub", "and", "or", "xor", "inc", "dec", "neg", "shl", "shr", "sar", "sal", "imul", "adc",
                 "sbb"}


def _sources_and_dests(text: str) -> tuple[set[str], set[str]]:
    """Registers an instruction reads (its operands and addresses) and writes (a register destination), the flags
    among them (``FLAGS``): a running maximum kept by ``cmpl %edx, %eax; cmovl %edx, %eax`` (nussinov's k loop)
    carries %eax through the compare and the move, two cycles a link, where %eax alone passes one."""
    ops = cc._operands(text)
    if not ops:
        return set(), set()
    mnemonic = text.split()[0]
    dest = ops[-1]
    if mnemonic.startswith(cc.FLAGS_ONLY):
        # a compare writes only the flags: ``cmpq $8800, %rax`` reads %rax and passes nothing on to a register
        # (taken as a write of %rax, the loop's addq + cmpq made a false 2-cycle chain that held gemm's update
        # at llvm-mca's unscaled 1.5 cycles where the scaled model says 1.3: +28 % at -O2); only a conditional
        # move or set reads what it wrote
        return {cc._canon(r) for op in ops for r in cc._REG.findall(op)}, {FLAGS}
    reads = {cc._canon(r) for op in ops[:-1] for r in cc._REG.findall(op)}
    if mnemonic.startswith(_READS_FLAGS):
        reads.add(FLAGS)
    flags = {FLAGS} if _operation(mnemonic) in _WRITES_FLAGS else set()
    if cc._MEM.match(dest):
        return reads | {cc._canon(r) for r in cc._REG.findall(dest)}, flags
    written = {cc._canon(r) for r in cc._REG.findall(dest)}
    if len(ops) == 2 and not mnemonic.startswith(_PURE_DEST) and ops[0] != ops[1]:
        reads |= written          # two-operand form: the destination is also a source (addsd %xmm0, %xmm1)
    if mnemonic.startswith("cmov"):
        reads |= written          # the destination is kept where the condition fails
    return reads, written | flags


def _written(body: list[str]) -> set[str]:
    return {r for text in body for r in _sources_and_dests(text)[1]}


def _chain(body: list[str], latencies: list[float], reg: str) -> float | None:
    """Cycles from ``reg`` at the top of the body to ``reg`` at its bottom along the instructions that pass its
    value on; None when the value at the bottom does not depend on the one at the top."""
    ready: dict[str, float] = {reg: 0.0}
    for text, lat in zip(body, latencies):
        reads, writes = _sources_and_dests(text)
        known = [ready[r] for r in reads if r in ready]
        for w in writes:
            if known:
                ready[w] = max(known) + lat
            else:
                ready.pop(w, None)
    return ready.get(reg) or None
