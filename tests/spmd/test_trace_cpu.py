"""The traced run's CPU times (sad.measure.mpitrace): each rank's own work, apart from what other processes had
of its core, and the part of its cores' time the run got; `sad extrapolate` says when other load took some.
On the 2-core development host, CG-Tree's np 2 run took 490 ms with 246 ms of CPU time on the one core it was
pinned to: other jobs had half of it."""
from __future__ import annotations

import contextlib
import io
import os
from pathlib import Path

import pytest

from sad.cli.main import main
from sad.measure import mpitrace
from sad.measure.mpitrace import Call

SPMD = Path(__file__).resolve().parents[2] / "corpus" / "spmd"


def _rank(cpu_in_call: float, cpu: float, wall: float) -> list[Call]:
    """A rank that computes, sends (wall 0.1 ... 0.3 s, cpu_in_call of CPU inside), computes, ends."""
    return [Call("send", 1, 8, 0.1, 0.3, 0.05, 0.05 + cpu_in_call), Call("end", -1, 0, wall, wall, cpu, cpu)]


def test_cpu_outside_the_calls_and_the_share_of_the_cores():
    ranks = [_rank(0.01, 0.1, 0.4), _rank(0.02, 0.1, 0.38)]
    assert mpitrace.cpu_time(ranks[0]) == 0.1
    # 0.1 s of CPU from MPI_Init to MPI_Finalize, 0.01 of it in the send
    assert mpitrace.cpu_compute_between(ranks[0]) == pytest.approx(0.09)
    assert mpitrace.cpu_compute_between(ranks[1]) == pytest.approx(0.08)
    # 0.2 s of CPU in the 0.4 s the slower rank took: half of one core, a quarter of two
    assert mpitrace.core_share(ranks, 1) == pytest.approx(0.5)
    assert mpitrace.core_share(ranks, 2) == pytest.approx(0.25)
    # a trace without CPU times (the format before them) has no share
    assert mpitrace.core_share([[Call("end", -1, 0, 0.4, 0.4)]], 1) is None


def test_trace_lines_with_and_without_cpu_times(tmp_path):
    (tmp_path / "rank0.txt").write_text("send 1 8 0.100000000 0.300000000 0.050000000 0.060000000\n"
                                        "end -1 0 0.4 0.4\n")
    assert mpitrace._read(tmp_path / "rank0.txt") == [Call("send", 1, 8, 0.1, 0.3, 0.05, 0.06),
                                                      Call("end", -1, 0, 0.4, 0.4, 0.0, 0.0)]


def test_a_real_run_records_cpu_times():
    calls = mpitrace.run([str(SPMD / "cgsimple.f")], 2)
    for rank in calls:
        assert 0 < mpitrace.cpu_time(rank) <= mpitrace.run_time(rank) + 0.01
        assert all(c.cpu_end >= c.cpu_start >= 0 for c in rank)


def _extrapolate(monkeypatch, ranks: list[list[Call]]) -> tuple[str, str]:
    monkeypatch.setattr(mpitrace, "run", lambda *a, **k: ranks)
    monkeypatch.setattr(os, "sched_getaffinity", lambda pid: {0})
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        main(["extrapolate", str(SPMD / "cgsimple.f"), "-m", "ncube2", "-D", "NPROCS=4"])
    return out.getvalue(), err.getvalue()


def test_extrapolate_says_when_other_load_had_the_cores(monkeypatch):
    # 2 ranks on 1 core: 0.1 + 0.1 s of CPU in 0.4 s: half of the core; alone 0.4 x 0.5 = 0.2 s
    text, err = _extrapolate(monkeypatch, [_rank(0.01, 0.1, 0.4), _rank(0.02, 0.1, 0.38)])
    assert "its ranks had 200.000 ms of CPU time on the 1 core(s) they could use: 50 % of those cores' time" in text
    assert "alone this host would have taken about 200.000 ms" in text
    assert "warning: the traced run got 50 % of its 1 core(s)" in err and "2 x those of this host alone" in err
    # the rank's CPU outside its calls in the table: 90 ms and 80 ms
    assert "90.000 ms" in text and "80.000 ms" in text


def test_extrapolate_does_not_warn_on_a_quiet_core(monkeypatch):
    # 0.19 + 0.18 s of CPU in 0.4 s: 92 % of the core, above LOADED
    text, err = _extrapolate(monkeypatch, [_rank(0.01, 0.19, 0.4), _rank(0.02, 0.18, 0.38)])
    assert "92 % of those cores' time" in text
    assert "other load" not in text and "of its 1 core(s)" not in err


def test_extrapolate_warns_when_the_host_file_has_other_cores(monkeypatch, tmp_path):
    # a host file written by sad calibrate pinned to one core (cores: 1), the traced run free to use two: the
    # timeline would stretch 2 ranks by 2 / 1 where the run had a core each
    text = (Path(__file__).resolve().parents[2] / "machine_db" / "ncube2.yaml").read_text()
    text = text.replace("\n  dma: true", "\n  cores: 1\n  dma: true", 1)
    host = tmp_path / "host.yaml"
    host.write_text(text.replace("models:\n", "models:\n  tool: \"sad calibrate\"\n", 1))
    monkeypatch.setattr(mpitrace, "run", lambda *a, **k: [_rank(0.01, 0.19, 0.4), _rank(0.02, 0.18, 0.38)])
    for cpus, warned in (({0, 1}, True), ({0}, False)):
        monkeypatch.setattr(os, "sched_getaffinity", lambda pid, cpus=cpus: cpus)
        out, err = io.StringIO(), io.StringIO()
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            main(["extrapolate", str(SPMD / "cgsimple.f"), "-m", str(host), "-D", "NPROCS=4"])
        assert ("calibrated on 1 core(s) (communication.cores), this run could use 2" in err.getvalue()) == warned
