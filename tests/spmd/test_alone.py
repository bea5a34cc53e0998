"""Each traced rank priced alone (sad.predict.alone): `sad analyze`'s number where the ranks cannot be
simulated together and its formula keeps per-rank values (CG-Tree's subtree sizes) as parameters. Checked
against the mapper's formula where that has a number (CG-Simple, CG with collectives) and against the PICL
send/recv prices of Brehm 1999, Sec. 6.1.3 on the nCUBE/2 for a rank derived by hand."""
from __future__ import annotations

from pathlib import Path

import pytest
import sympy

from sad.analysis.pipeline import analyze, load_program
from sad.machine.model import load_machine
from sad.predict.alone import price_alone
from sad.predict.mapper import predict
from sad.predict.trace import traces

SPMD = Path(__file__).resolve().parents[2] / "corpus" / "spmd"
NCUBE = load_machine("ncube2")


def _alone(name: str, nprocs: int, machine=NCUBE):
    program, _ = load_program([str(SPMD / name)], [], {})
    return price_alone(traces(program, machine, nprocs, {})[0], machine)


@pytest.mark.parametrize("name", ["cgsimple.f", "cgcoll.f"])
@pytest.mark.parametrize("machine", ["ncube2", "paragon"])
def test_traced_ranks_priced_alone_are_the_formula(name, machine):
    """Where the formula has a number, the traced ranks priced alone give it (to 1e-9): the same costs
    through another path (a collective call priced whole by the programming model, as the mapper does)."""
    target = load_machine(machine)
    blocks = analyze([str(SPMD / name)]).blocks
    for p in (4, 16):
        formula = predict(blocks, target, {"NPROCS": sympy.Integer(p)}).time_value
        assert _alone(name, p, target).time == pytest.approx(formula, rel=1e-9)


def send(b: int) -> float:
    return 100e-6 + b / 5.35e6 + b / 1.67e6


def recv(b: int) -> float:
    return 73e-6 + b / 5.35e6


def test_tree_rank_communication_by_hand():
    """P = 4, NB = 256: rank 1's sons are {3}; it receives rank 3's block (2048 B), sends its subtree's two
    blocks up (4096 B), receives the vector (8192 B) and passes it to rank 3; each of the two sums: one 8-byte
    receive from 3, send to 0, receive from 0, send to 3."""
    alone = _alone("cgtree.f", 4)
    hand = recv(2048) + send(4096) + recv(8192) + send(8192) + 2 * (2 * recv(8) + 2 * send(8))
    assert alone.communicate[1] == pytest.approx(hand, rel=1e-12)
    assert alone.communicate[3] == pytest.approx(send(2048) + recv(8192) + 2 * (send(8) + recv(8)), rel=1e-12)
