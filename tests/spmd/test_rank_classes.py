"""Rank classes (sad.predict.rankclass): one rank traced per class of ranks that behave alike, the others'
events re-evaluated from its functions of the rank; the same events as tracing every rank."""
from __future__ import annotations

import gc
from pathlib import Path

import pytest

from sad.analysis.pipeline import load_program
from sad.machine.model import load_machine
from sad.predict import rankclass
from sad.predict.trace import traces

SPMD = Path(__file__).resolve().parents[2] / "corpus" / "spmd"


def test_arithmetic_keeps_the_function_and_observations_are_guards():
    """2r + 1 at the traced rank 5 is 11 and at rank 7 is 15, with no guard; comparing it with 12 is a
    guard (True at 5): it holds at ranks 0 ... 5 only; a hash pins the value (rank 5 only)."""
    guards = rankclass.Guards()
    me = rankclass.rank_symbol(5, guards)
    son = me * 2 + 1
    assert son == 11 and son.at(7) == 15 and len(guards) == 1  # the == itself is observed
    guards.clear()
    guards.seen.clear()
    assert son < 12
    template = rankclass.Template([], guards, [])
    assert [r for r in range(10) if template.holds(r)] == [0, 1, 2, 3, 4, 5]
    hash(son)
    assert [r for r in range(10) if template.holds(r)] == [5]


def test_heap_tree_has_thirteen_classes_at_128():
    """CG-Tree (heap-numbered) at P = 128: rank 0; the path to rank 127 (ranks 1, 3, 7, 15, 31: each one
    level's node whose subtree holds the lone level-7 rank); rank 63 (one son); the other nodes of levels
    1 ... 5 (one class per level); every leaf (64 ... 127): 13 ranks traced, 115 re-evaluated."""
    program, _ = load_program([str(SPMD / "cgtree.f")], [], {})
    machine = load_machine("ncube2")
    events, shared = traces(program, machine, 128, {})
    assert shared.classed == 115
    assert events == traces(program, machine, 128, {}, classes=False)[0]


def test_tracing_hands_the_events_back_to_the_cycle_collector():
    """traces() keeps the events it made out of the cycle collector's way while it works (gc.freeze) and
    hands them back when it returns: nothing stays frozen, the collector is on, and the events are the same
    as tracing every rank. CG-Tree at 64: rank 0; ranks 1, 3, 7, 15 (their subtree holds rank 63, alone on
    level 6); rank 31 (one son); the other nodes of levels 1 ... 4 (one class each); every leaf (32 ... 63,
    whatever its level): 11 ranks traced."""
    program, _ = load_program([str(SPMD / "cgtree.f")], [], {})
    machine = load_machine("ncube2")
    assert gc.get_freeze_count() == 0
    events, shared = traces(program, machine, 64, {})
    assert gc.get_freeze_count() == 0 and gc.isenabled()
    assert 64 - shared.classed == 11
    assert events == traces(program, machine, 64, {}, classes=False)[0]


@pytest.mark.parametrize("name, values", [("cgtree_mpi.c", {}), ("cghalve.f", {}), ("cgcoll.f", {}),
                                          ("cgallg.f", {}), ("cgsimple_any.c", {}), ("ringmm.f", {}),
                                          ("cg.f", {"N": 64, "NITER": 3, "IGSUM": 2})])
@pytest.mark.parametrize("machine_name", ["ncube2", "paragon"])
def test_classes_give_every_rank_its_own_events(name, values, machine_name):
    """The corpus's SPMD programs at P = 7, 33 and 128: every rank's events and replicated trips are those
    of tracing it (and some ranks are re-evaluated, not traced)."""
    program, _ = load_program([str(SPMD / name)], [], {})
    machine = load_machine(machine_name)
    classed = 0
    for nprocs in (7, 33, 128):
        events, shared = traces(program, machine, nprocs, values)
        traced, alone = traces(program, machine, nprocs, values, classes=False)
        assert events == traced and shared.repeats == alone.repeats and shared.notes == alone.notes
        classed += shared.classed
    assert classed > 0


def test_explain_says_how_many_ranks_came_from_their_class():
    import contextlib
    import io

    from sad.cli.main import main
    out = io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(io.StringIO()):
        assert main(["timeline", str(SPMD / "cgtree.f"), "-m", "ncube2", "-D", "NPROCS=128", "--explain"]) == 0
    assert "(tracing: 115 of 128 ranks took the events of a traced rank whose decisions came out the same " \
           "there, not traced again)" in out.getvalue()
