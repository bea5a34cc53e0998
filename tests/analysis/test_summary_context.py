"""A routine's summary is taken into another program only where the rest of that program answers what its
build asked the same way (sad.analysis.journal): LEAF's test of X(I) against zero is decided for generic data
where no caller may store a zero in X, and stays a probability where ZC's call of ZSET(X(1)) may. Before,
the summary of whichever program came first was taken into the other (sad check's report of a file then
depended on the files the same process had checked before it)."""
from pathlib import Path

import pytest

from sad.analysis.pipeline import build_procedures, load_program
from sad.analysis.summaries import SummaryStore

SOURCES = {
    "leaf.f": """\
      SUBROUTINE LEAF(N, X)
      INTEGER N, I
      DOUBLE PRECISION X(*)
      DO 10 I = 1, N
         IF (X(I).NE.0.0D0) X(I) = 1.0D0/X(I)
   10 CONTINUE
      END
""",
    "zset.f": """\
      SUBROUTINE ZSET(T)
      DOUBLE PRECISION T
      T = 0.0D0
      END
""",
    "zc.f": """\
      SUBROUTINE ZC(N, X)
      INTEGER N
      DOUBLE PRECISION X(*)
      CALL ZSET(X(1))
      CALL LEAF(N, X)
      END
""",
    "pc.f": """\
      SUBROUTINE PC(N, X)
      INTEGER N
      DOUBLE PRECISION X(*)
      CALL LEAF(N, X)
      END
""",
}
ZERO_STORED = ["zc.f", "zset.f", "leaf.f"]  # a caller may leave a zero in LEAF's X
DATA_ONLY = ["pc.f", "leaf.f"]


@pytest.fixture
def tree(tmp_path: Path) -> Path:
    for name, text in SOURCES.items():
        (tmp_path / name).write_text(text)
    return tmp_path


def _leaf(tree: Path, files: list[str], store: SummaryStore | None) -> list[tuple[int, str]]:
    """LEAF's counts by line, built in the program of `files` (the first always built, the others taken
    from `store` where they may be)."""
    paths = [str(tree / f) for f in files]
    program, failed = load_program(paths, [], {})
    assert not failed
    digests = {path: Path(path).read_text() for path in paths}
    ctx = build_procedures(program, summaries=(store, digests, {paths[0]}) if store is not None else None)[0]
    return sorted((event.loc.line, str(count)) for event, count in ctx.built["leaf"].counts.items())


@pytest.mark.parametrize("first, second", [(ZERO_STORED, DATA_ONLY), (DATA_ONLY, ZERO_STORED)])
def test_a_summary_is_not_taken_where_the_callers_store_other_constants(tree, first, second):
    store = SummaryStore()
    _leaf(tree, first, store)
    reused = _leaf(tree, second, store)
    assert store.reused == 0
    assert reused == _leaf(tree, second, None)
    # each program's summary kept: the first program again takes its callees in (LEAF, and ZSET where it is)
    again = _leaf(tree, first, store)
    assert store.reused == len(first) - 1
    assert again == _leaf(tree, first, None)


def test_the_test_of_data_goes_by_the_callers(tree):
    """What makes the two programs differ: the IF's arm runs N times for data, P_LEAF_IF1·N where a zero
    may be stored."""
    arm = {count for line, count in _leaf(tree, ZERO_STORED, None) if line == 5}
    assert arm == {"Max(0, LEAF.N)", "P_LEAF_IF1*Max(0, LEAF.N)"}
    assert {count for line, count in _leaf(tree, DATA_ONLY, None) if line == 5} == {"Max(0, LEAF.N)"}


def test_a_summary_is_taken_where_the_program_answers_alike(tree):
    """The same callers in another program (another file calling PC): LEAF is taken in, and equals its
    build there."""
    (tree / "top.f").write_text("      SUBROUTINE TOP(X)\n      DOUBLE PRECISION X(*)\n"
                                "      CALL PC(7, X)\n      END\n")
    store = SummaryStore()
    _leaf(tree, DATA_ONLY, store)
    reused = _leaf(tree, ["top.f", *DATA_ONLY], store)
    assert store.reused == 2  # LEAF and PC
    assert reused == _leaf(tree, ["top.f", *DATA_ONLY], None)


def test_each_question_is_put_to_a_program_once(tree, monkeypatch):
    """PC's summary asks again what LEAF's build asked (LEAF's test of X(I) against zero): taking LEAF in,
    then PC, puts each question to TOP's program once, and the counts are a fresh build's."""
    from sad.analysis.values import ProgramFacts
    (tree / "top.f").write_text("      SUBROUTINE TOP(X)\n      DOUBLE PRECISION X(*)\n"
                                "      CALL PC(7, X)\n      END\n")
    store = SummaryStore()
    _leaf(tree, DATA_ONLY, store)
    asked: list[tuple] = []
    answer = ProgramFacts.asked_again
    monkeypatch.setattr(ProgramFacts, "asked_again", lambda self, q, *rest: asked.append(q) or answer(self, q, *rest))
    reused = _leaf(tree, ["top.f", *DATA_ONLY], store)
    assert store.reused == 2 and asked and len(asked) == len(set(asked))
    monkeypatch.undo()
    assert reused == _leaf(tree, ["top.f", *DATA_ONLY], None)


DEFERRED = {
    "r.f": """\
      SUBROUTINE R(N, X)
      INTEGER N, NB, I, IBLK
      DOUBLE PRECISION X(*)
      EXTERNAL IBLK
      NB = IBLK(N)
      DO 10 I = 1, N
         X(I) = X(I) + NB
   10 CONTINUE
      END
""",
    "iblk.f": (Path(__file__).resolve().parent / "realcode" / "iblk.f").read_text(),
    "top.f": """\
      SUBROUTINE TOP(X)
      DOUBLE PRECISION X(*)
      CALL R(200, X)
      END
""",
}


def test_a_summary_keeps_the_references_run_where_a_call_binds_its_formals(tmp_path):
    """R's IBLK(N) is run where a call binds N (its test's probability named P_IBLK_IF1_IN_R_1 in R's own
    counts). R's summary, taken into TOP's program, still has that reference: TOP's R(200) runs IBLK(200),
    K = 2 686 700 > 5 000: IBLK = 32 runs once, IBLK = 1 never, as in a fresh build (the summary lost it:
    P_IBLK_IF1_IN_R_... stayed unbound in TOP)."""
    for name, text in DEFERRED.items():
        (tmp_path / name).write_text(text)

    def top(files: list[str], store: SummaryStore | None) -> dict[tuple[str, int, str], str]:
        paths = [str(tmp_path / f) for f in files]
        program, _ = load_program(paths, [], {})
        digests = {path: Path(path).read_text() for path in paths}
        ctx = build_procedures(program, summaries=(store, digests, {paths[0]}) if store is not None else None)[0]
        return {(Path(e.loc.file).name, e.loc.line, e.role): str(c)
                for e, c in (ctx.built["top"].counts.items() if "top" in ctx.built else [])}

    store = SummaryStore()
    top(["r.f", "iblk.f"], store)
    reused = top(["top.f", "r.f", "iblk.f"], store)
    assert store.reused == 2  # R and IBLK
    arms = {line: count for (name, line, _), count in reused.items() if name == "iblk.f" and line in (8, 10)}
    assert arms == {8: "1"}  # the ELSE arm's count is 0, left out
    assert reused == top(["top.f", "r.f", "iblk.f"], None)


def test_a_joined_test_open_for_data_does_not_tie_a_summary_to_its_callers(tree):
    """BAND's `X(I).GT.0 .AND. X(I).LT.1` is open for data (their sign and size are not known), so open
    whatever constants a caller may store in X: the join asks nothing of the program, and BAND's summary
    from the program where ZSET may leave a zero in X is taken into the one where nothing is stored (before,
    the join asked both comparisons' stored constants, and the two programs' answers differed)."""
    band = ("      SUBROUTINE LEAF(N, X)\n      INTEGER N, I\n      DOUBLE PRECISION X(*)\n"
            "      DO 10 I = 1, N\n"
            "         IF (X(I).GT.0.0D0 .AND. X(I).LT.1.0D0) X(I) = 2.0D0*X(I)\n"
            "   10 CONTINUE\n      END\n")
    (tree / "leaf.f").write_text(band)
    store = SummaryStore()
    first = _leaf(tree, ZERO_STORED, store)
    reused = _leaf(tree, DATA_ONLY, store)
    assert store.reused == 1
    assert reused == _leaf(tree, DATA_ONLY, None)
    assert {count for line, count in first if line == 5} == {"Max(0, LEAF.N)", "P_LEAF_IF1*Max(0, LEAF.N)"}


DERIVED = {
    "sumx.f": """\
      SUBROUTINE SUMX(N, X, S)
      INTEGER N, I
      DOUBLE PRECISION X(*), S
      S = 0.0D0
      DO 10 I = 1, N
         S = S + X(I)
   10 CONTINUE
      END
""",
    "mid.f": """\
      SUBROUTINE MID(N, X, S)
      INTEGER N
      DOUBLE PRECISION X(*), S
      CALL SUMX(N, X, S)
      END
""",
    "zset.f": SOURCES["zset.f"],
    "oset.f": """\
      SUBROUTINE OSET(T)
      DOUBLE PRECISION T
      T = 1.0D0
      END
""",
    "t1.f": """\
      SUBROUTINE T1(N, X, S)
      INTEGER N
      DOUBLE PRECISION X(*), S
      CALL ZSET(X(1))
      CALL MID(N, X, S)
      END
""",
    "t2.f": """\
      SUBROUTINE T2(N, X, S)
      INTEGER N
      DOUBLE PRECISION X(*), S
      CALL ZSET(X(1))
      CALL OSET(X(2))
      CALL MID(N, X, S)
      END
""",
}


def test_a_summary_notes_the_derived_answer_not_what_deriving_it_asked(tmp_path):
    """MID's call of SUMX asks SUMX's element rule for X (whether every call tells which elements hold a
    stored constant), and working it out asks which constants MID's and SUMX's X may hold: {0} under T1,
    {0, 1} under T2. SUMX has no rule in either program, and that is all MID's build takes: MID's and SUMX's
    summaries from T1's program are taken into T2's (before, the sets asked on the way were noted too, and
    both were built again), with the counts of a fresh build."""
    for name, text in DERIVED.items():
        (tmp_path / name).write_text(text)

    def counts(files: list[str], store: SummaryStore | None) -> list[tuple[str, int, str]]:
        paths = [str(tmp_path / f) for f in files]
        program, failed = load_program(paths, [], {})
        assert not failed
        digests = {path: Path(path).read_text() for path in paths}
        ctx = build_procedures(program, summaries=(store, digests, {paths[0]}) if store is not None else None)[0]
        return sorted((Path(e.loc.file).name, e.loc.line, str(c)) for name in ("mid", "sumx")
                      for e, c in ctx.built[name].counts.items())

    store = SummaryStore()
    counts(["t1.f", "mid.f", "sumx.f", "zset.f"], store)
    reused = counts(["t2.f", "mid.f", "sumx.f", "zset.f", "oset.f"], store)
    assert store.reused == 3  # MID, SUMX and ZSET
    assert reused == counts(["t2.f", "mid.f", "sumx.f", "zset.f", "oset.f"], None)
    assert ("sumx.f", 6, "Max(0, MID.N)") in reused


def _zero_and_one(tree: Path) -> list[str]:
    """ZOC's program: callers may store {0, 1} in LEAF's X (ZSET's zero and OSET's one)."""
    (tree / "oset.f").write_text(DERIVED["oset.f"])
    (tree / "zoc.f").write_text("      SUBROUTINE ZOC(N, X)\n      INTEGER N\n      DOUBLE PRECISION X(*)\n"
                                "      CALL ZSET(X(1))\n      CALL OSET(X(2))\n      CALL LEAF(N, X)\n      END\n")
    return ["zoc.f", "zset.f", "oset.f", "leaf.f"]


def test_a_test_open_under_both_sets_of_constants_ties_no_summary_to_them(tree):
    """LEAF's `X(I).NE.0` is open where a caller may store {0} in X (ZC) and where one may store {0, 1}
    (ZOC, which also calls OSET): the build takes only the test's outcome (sad.analysis.heldtests), so
    LEAF's summary from ZC's program is taken into ZOC's, with the counts of a fresh build. Before, the
    sets themselves were noted and LEAF was built again (SGEEVX's unit built 23 routines it reaches
    again that way)."""
    both = _zero_and_one(tree)
    store = SummaryStore()
    first = _leaf(tree, ZERO_STORED, store)
    reused = _leaf(tree, both, store)
    assert store.reused == 2  # LEAF and ZSET
    assert reused == _leaf(tree, both, None) == first
    assert {count for line, count in reused if line == 5} == {"Max(0, LEAF.N)", "P_LEAF_IF1*Max(0, LEAF.N)"}


def test_a_test_decided_under_one_set_and_open_under_another_is_built_again(tree):
    """LEAF's `X(I).NE.1` is decided (true) for data and where a caller may store {0} in X, open where one
    may store {0, 1}: the outcomes differ, LEAF is built again in ZOC's program."""
    (tree / "leaf.f").write_text(SOURCES["leaf.f"].replace("X(I).NE.0.0D0", "X(I).NE.1.0D0"))
    both = _zero_and_one(tree)
    store = SummaryStore()
    first = _leaf(tree, ZERO_STORED, store)
    reused = _leaf(tree, both, store)
    assert store.reused == 1  # ZSET alone
    assert reused == _leaf(tree, both, None)
    assert {count for line, count in first if line == 5} == {"Max(0, LEAF.N)"}
    assert {count for line, count in reused if line == 5} == {"Max(0, LEAF.N)", "P_LEAF_IF1*Max(0, LEAF.N)"}


PASSED = {
    "leafs.f": """\
      SUBROUTINE LEAFS(N, T, X)
      INTEGER N, I
      DOUBLE PRECISION T, X(*)
      IF (T.NE.0.0D0) THEN
         DO 10 I = 1, N
            X(I) = T*X(I)
   10    CONTINUE
      END IF
      END
""",
    "mids.f": """\
      SUBROUTINE MIDS(N, TAU, X)
      INTEGER N, I
      DOUBLE PRECISION TAU(*), X(*)
      DO 10 I = 1, N
         CALL LEAFS(N, TAU(I), X)
   10 CONTINUE
      END
""",
    "zset.f": SOURCES["zset.f"],
    "oset.f": DERIVED["oset.f"],
    "zcs.f": """\
      SUBROUTINE ZCS(N, TAU, X)
      INTEGER N
      DOUBLE PRECISION TAU(*), X(*)
      CALL ZSET(TAU(3))
      CALL MIDS(N, TAU, X)
      END
""",
    "zocs.f": """\
      SUBROUTINE ZOCS(N, TAU, X)
      INTEGER N
      DOUBLE PRECISION TAU(*), X(*)
      CALL ZSET(TAU(3))
      CALL OSET(TAU(4))
      CALL MIDS(N, TAU, X)
      END
""",
}


def test_a_callee_test_on_a_passed_element_ties_no_summary_to_the_constants(tmp_path):
    """MIDS passes TAU(I) to LEAFS, whose `T.NE.0` is decided in MIDS's build with the constants callers
    may store in TAU: {0} under ZCS, {0, 1} under ZOCS, open under both. MIDS notes the outcome
    (sad.analysis.heldtests.formal_outcome), so its summary from ZCS's program is taken into ZOCS's,
    with the counts of a fresh build (before, the sets were noted and MIDS was built again)."""
    store = SummaryStore()
    first = _mids(tmp_path, ZCS, store)
    reused = _mids(tmp_path, ZOCS, store)
    assert store.reused == 3  # MIDS, LEAFS and ZSET
    assert reused == _mids(tmp_path, ZOCS, None) == first
    assert ("leafs.f", 6, "P_LEAFS_IF1*Max(0, MIDS.N)**2") in reused


def test_a_callee_test_decided_under_one_set_only_builds_the_caller_again(tmp_path):
    """LEAFS's `T.NE.1` on the element MIDS passes is decided (true) where callers may store {0} in TAU,
    open where they may store {0, 1}: MIDS is built again in ZOCS's program (LEAFS and ZSET are taken in)."""
    store = SummaryStore()
    first = _mids(tmp_path, ZCS, store, PASSED["leafs.f"].replace("T.NE.0.0D0", "T.NE.1.0D0"))
    reused = _mids(tmp_path, ZOCS, store)
    assert store.reused == 2
    assert reused == _mids(tmp_path, ZOCS, None)
    assert ("leafs.f", 6, "Max(0, MIDS.N)**2") in first
    assert ("leafs.f", 6, "P_LEAFS_IF1*Max(0, MIDS.N)**2") in reused


ZCS = ["zcs.f", "mids.f", "leafs.f", "zset.f"]
ZOCS = ["zocs.f", "mids.f", "leafs.f", "zset.f", "oset.f"]


def _mids(tree: Path, files: list[str], store: SummaryStore | None, leafs: str | None = None
          ) -> list[tuple[str, int, str]]:
    """MIDS's counts (LEAFS's expanded in them) in the program of `files` (PASSED; LEAFS's text `leafs`
    where given, else as it stands), the first file always built."""
    for name, text in PASSED.items():
        if name != "leafs.f" or not (tree / name).exists() or leafs is not None:
            (tree / name).write_text(leafs if name == "leafs.f" and leafs is not None else text)
    paths = [str(tree / f) for f in files]
    program, failed = load_program(paths, [], {})
    assert not failed
    digests = {path: Path(path).read_text() for path in paths}
    ctx = build_procedures(program, summaries=(store, digests, {paths[0]}) if store is not None else None)[0]
    return sorted((Path(e.loc.file).name, e.loc.line, str(c)) for e, c in ctx.built["mids"].counts.items())
