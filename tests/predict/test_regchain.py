"""The loop-carried register chain timed with the host's measured latencies (sad.predict.regchain, issue 27): an
in-order reduction gcc -O2 emits for `w -= A[i][k] * A[k][j]` runs at the latency of its subsd. llvm-mca's
znver3 model says 3 cycles; a host whose calibration measured 2 cycles per dependent add gets 2/3 of llvm-mca's
cycles, never below the port bound; a loop bound by throughput is left alone. Real llvm-mca, hand-derived
figures."""
from __future__ import annotations

import shutil

import pytest

from sad.machine import mcacpu
from sad.machine.hierarchy import Hierarchy, Level
from sad.predict import compiled as cc
from sad.predict.regchain import host_chain, latency_bound_cycles, op_class, register_form_latencies

pytestmark = pytest.mark.skipif(shutil.which("llvm-mca") is None, reason="llvm-mca is needed")


@pytest.fixture(autouse=True)
def zen_host(monkeypatch):
    """The figures are znver3's: the register forms llvm-mca is asked for (with the host's model) must come from
    the same model as the loops, whatever core runs the tests (an Intel core's mulsd takes 4 cycles)."""
    monkeypatch.setattr(cc, "host_model", lambda: mcacpu.McaModel("znver3", "a Zen core llvm-mca does not know"))

CLOCK = 4e9
DOT = ["movsd\t(%rcx), %xmm0", "mulsd\t(%rdx), %xmm0", "addq\t$8000, %rdx", "addq\t$8, %rcx",
       "subsd\t%xmm0, %xmm1", "cmpq\t%rsi, %rdx", "jne\t.L8"]
STREAM = ["movupd\t(%rax,%rdx), %xmm0", "mulpd\t%xmm2, %xmm0", "movups\t%xmm0, (%rcx,%rdx)", "addq\t$16, %rdx",
          "cmpq\t%rsi, %rdx", "jne\t.L3"]


def _host(add_latency_cycles: float) -> Hierarchy:
    ops = {"add.double": (add_latency_cycles / CLOCK, 0.5 / CLOCK), "mul.double": (3 / CLOCK, 0.5 / CLOCK)}
    return Hierarchy(CLOCK, 64, (Level("L1", 49152, 0.1e-9, 0.2e-9), Level("memory", None, 1e-9, 2e-9)), ops=ops)


def test_classes_of_the_measured_operations():
    assert [op_class(m) for m in ("subsd", "vaddpd", "mulss", "divsd", "imull", "addq", "movsd", "vfmadd231sd")] \
        == ["add.double", "add.double", "mul.double", "div.double", "mul.integer", "add.integer", None, None]


def test_the_dot_product_chain_is_its_subsd_and_takes_the_hosts_latency():
    result = cc.mca(tuple(DOT), "znver3")
    assert result is not None
    model = register_form_latencies(DOT, result.latencies)
    assert model[1] == 3          # mulsd's register form: the load is not on the chain through %xmm0
    assert host_chain(DOT, model, _host(2.0)) == (3.0, 2.0)      # subsd alone carries %xmm1
    cycles = latency_bound_cycles(DOT, result.latencies, result.cycles, result.block_rthroughput, _host(2.0))
    assert cycles == pytest.approx(result.cycles * 2 / 3) and result.cycles == pytest.approx(3.0, abs=0.1)
    same = latency_bound_cycles(DOT, result.latencies, result.cycles, result.block_rthroughput, _host(3.0))
    assert same == result.cycles                                   # the model had it right: unchanged


def test_a_throughput_bound_loop_is_left_alone_and_no_chain_goes_below_the_port_bound():
    result = cc.mca(tuple(STREAM), "znver3")
    assert result is not None
    assert latency_bound_cycles(STREAM, result.latencies, result.cycles, result.block_rthroughput, _host(0.5)) \
        == result.cycles
    dot = cc.mca(tuple(DOT), "znver3")
    assert dot is not None
    assert latency_bound_cycles(DOT, dot.latencies, dot.cycles, dot.block_rthroughput, _host(0.1)) \
        == dot.block_rthroughput


def test_a_chain_through_memory_at_o0_takes_the_measured_add():
    """-O0's `s = s + x[i]` keeps s on the stack: load, addsd, store. The calibrated forwarding is a measured
    chain (forwarding + add) minus the measured add, so the add on the chain is the host's (2 cycles), not
    llvm-mca's (3); the load of x[i] keeps llvm-mca's load-to-use."""
    from sad.predict.regchain import host_latencies
    body = ["movl\t-4(%rbp), %eax", "cltq", "movsd\tx(,%rax,8), %xmm0", "movsd\t-16(%rbp), %xmm1",
            "addsd\t%xmm1, %xmm0", "movsd\t%xmm0, -16(%rbp)", "addl\t$1, -4(%rbp)", "jmp\t.L2"]
    result = cc.mca(tuple(body), "znver3")
    assert result is not None
    (model,) = [c for c in cc.memory_chains(body, result.latencies) if c.slot == "-16(%rbp)"]
    (host,) = [c for c in cc.memory_chains(body, host_latencies(body, result.latencies, _host(2.0)))
               if c.slot == "-16(%rbp)"]
    assert (model.cycles, host.cycles) == (3, 2)


def test_a_pointer_chase_keeps_its_load_latency():
    """`p = p->next` is a chain through a load: no measured class, nothing to replace, llvm-mca's cycles stand
    (a register form of the load would have made the chain a 1-cycle move)."""
    body = ["movq\t(%rax), %rax", "addq\t$1, %rdx", "cmpq\t%rcx, %rdx", "jne\t.L4"]
    result = cc.mca(tuple(body), "znver3")
    assert result is not None and result.cycles > 3
    assert register_form_latencies(body, result.latencies)[0] == result.latencies[0]
    assert latency_bound_cycles(body, result.latencies, result.cycles, result.block_rthroughput, _host(2.0)) \
        == result.cycles


GEMM = ["movapd\t(%rcx,%rax), %xmm0", "mulpd\t%xmm1, %xmm0", "addpd\t(%rdx,%rax), %xmm0",
        "movaps\t%xmm0, (%rdx,%rax)", "addq\t$16, %rax", "cmpq\t$8800, %rax", "jne\t.L12"]


def test_a_compare_passes_no_chain_on():
    # gemm's update at -O2: the only loop-carried register is %rax, one addq a trip; cmpq reads %rax and writes
    # only the flags. A 2-cycle "chain" through the cmpq made this throughput-bound loop (1.5 cycles by the
    # ports) look latency bound and pinned it at the unscaled port bound
    result = cc.mca(tuple(GEMM), "znver3")
    assert result is not None
    model = register_form_latencies(GEMM, result.latencies)
    assert host_chain(GEMM, model, _host(2.0)) == (1.0, 1.0)
    assert latency_bound_cycles(GEMM, result.latencies, 1.3, result.block_rthroughput, _host(2.0)) == 1.3


MAXIMUM = ["movl\t20000(%rsi), %edx", "addl\t(%r9,%rcx,4), %edx", "cmpl\t%edx, %eax", "cmovl\t%edx, %eax",
           "addq\t$1, %rcx", "addq\t$10000, %rsi", "movl\t%eax, (%rdi)", "cmpl\t%ecx, %r8d", "jg\t.L7"]


def test_a_running_maximum_chains_through_the_compare_and_the_conditional_move():
    # nussinov's k loop at -O2 (gcc 12): table[i][j] = max(table[i][j], table[i][k] + table[k+1][j]) kept in %eax,
    # compared and moved each trip: the chain is cmpl (1 cycle) then cmovl (1), 2 cycles a link, where %eax alone
    # through the cmovl is 1; the compare of the counter (cmpl %ecx, %r8d before jg) carries nothing on
    result = cc.mca(tuple(MAXIMUM), "znver3")
    assert result is not None
    model = register_form_latencies(MAXIMUM, result.latencies)
    assert host_chain(MAXIMUM, model, _host(3.0)) == (2.0, 2.0)


HASH = ["xorl\t(%rax), %esi", "addq\t$4, %rax", "imull\t$16777619, %esi, %esi", "cmpq\t%rdx, %rax", "jne\t.L4"]


def test_a_chain_through_a_folded_loads_register_operand_runs_at_its_register_form():
    # h = (h ^ v[i]) * 16777619 at -O2: llvm-mca's znver3 keeps part of the xor's load on the chain through %esi
    # (about 5 cycles an iteration); the register forms chain 1 + 3 cycles, which a host measuring a 1-cycle add
    # and a 3-cycle integer multiply runs (4 cycles measured here, 1.41 ns at 2.83 GHz)
    result = cc.mca(tuple(HASH))
    assert result is not None and result.cycles > 4.5
    ops = {"add.integer": (1 / CLOCK, 0.25 / CLOCK), "mul.integer": (3 / CLOCK, 1 / CLOCK)}
    host = Hierarchy(CLOCK, 64, (Level("L1", 49152, 0.1e-9, 0.2e-9), Level("memory", None, 1e-9, 2e-9)), ops=ops)
    assert host_chain(HASH, register_form_latencies(HASH, result.latencies), host) == (4.0, 4.0)
    assert latency_bound_cycles(HASH, result.latencies, result.cycles, result.block_rthroughput, host) == 4.0


SQRT_EXP = ["movapd\t(%r14), %xmm0", "xorpd\t.LC4(%rip), %xmm0", "addq\t$16, %r15", "addq\t$16, %r14",
            "sqrtpd\t-16(%r14), %xmm2", "movaps\t%xmm2, (%rsp)", "call\t_ZGVbN2v_exp@PLT", "mulpd\t(%rsp), %xmm0",
            "addpd\t-16(%r15), %xmm0", "movaps\t%xmm0, -16(%r15)", "cmpq\t%r15, %rbx", "jne\t.L3"]


def test_a_packed_square_root_does_not_read_its_destination():
    # gfortran -O2's Y(I) = SQRT(X(I)) * EXP(-X(I)) + Y(I), two elements a pass: sqrtpd writes %xmm2 without
    # reading it (sqrtsd would keep its upper half), so %xmm2 carries nothing from one iteration to the next;
    # taken for an accumulator it was a 21-cycle chain (0.149 s predicted, 0.09 s measured)
    assert cc.register_chain(SQRT_EXP) == 0
    assert cc.register_chain(["sqrtsd\t(%rax), %xmm2", "addq\t$8, %rax", "cmpq\t%rax, %rbx", "jne\t.L3"]) > 0
