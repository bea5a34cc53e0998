"""sad.analysis.depthmemo: a value worked out without meeting a limit is reused at every depth where the
limits would not change it; one that met a limit only at its own depth."""
from sad.analysis.depthmemo import DepthMemo, Reach

LIMIT = 10


def follow(reach: Reach, depth: int, levels: int, runs: list[int], limit: int = LIMIT) -> str:
    """A stand-in for a followed value: asks `levels` levels below `depth`, unknown past `limit`."""
    runs.append(depth)
    for level in range(depth, depth + levels + 1):
        if reach.past(level, limit):
            return "unknown"
    return "known"


def test_a_value_within_the_limit_is_worked_out_once_for_shallower_and_safe_deeper_depths():
    reach, runs = Reach(), []
    memo = DepthMemo(reach)
    assert memo.get("n", 5, lambda: follow(reach, 5, 3, runs)) == "known"
    assert memo.get("n", 2, lambda: follow(reach, 2, 3, runs)) == "known"  # shallower: same answer
    assert memo.get("n", 7, lambda: follow(reach, 7, 3, runs)) == "known"  # 7 + 3 <= 10: same answer
    assert runs == [5]
    assert reach.room == 0 and not reach.limited  # what the reused work would have left: it asked down to 10


def test_a_deeper_start_that_would_meet_the_limit_is_worked_out_again():
    reach, runs = Reach(), []
    memo = DepthMemo(reach)
    assert memo.get("n", 5, lambda: follow(reach, 5, 3, runs)) == "known"
    assert memo.get("n", 8, lambda: follow(reach, 8, 3, runs)) == "unknown"  # 8 + 3 > 10
    assert runs == [5, 8]
    assert reach.limited


def test_a_value_that_met_the_limit_holds_at_its_own_depth_only():
    reach, runs = Reach(), []
    memo = DepthMemo(reach)
    assert memo.get("n", 9, lambda: follow(reach, 9, 3, runs)) == "unknown"
    assert memo.get("n", 9, lambda: follow(reach, 9, 3, runs)) == "unknown"
    assert memo.get("n", 4, lambda: follow(reach, 4, 3, runs)) == "known"
    assert runs == [9, 4]


def test_the_reach_of_the_enclosing_work_includes_its_inner_values():
    reach, runs = Reach(), []
    memo = DepthMemo(reach)

    def outer() -> str:
        inner = memo.get("inner", 3, lambda: follow(reach, 3, 8, runs))  # asks down to 11: past the limit
        return f"outer of {inner}"

    assert memo.get("outer", 2, outer) == "outer of unknown"
    # the outer value met the limit through its inner one: not reused at another depth
    assert memo.get("outer", 1, outer) == "outer of unknown"
    assert runs == [3]  # the inner value, remembered for depth 3 only, reused by the second outer run


def test_a_deeper_start_is_judged_by_the_limits_the_work_checked():
    # DGEJSV's runs check the backtracer's full limit; judged by the half limit that calls check, each was
    # worked out again from every deeper start (69 900 runs for a few dozen uses)
    reach, runs = Reach(), []
    memo = DepthMemo(reach)
    assert memo.get("n", 5, lambda: follow(reach, 5, 3, runs, limit=2 * LIMIT)) == "known"
    assert memo.get("n", 17, lambda: follow(reach, 17, 3, runs, limit=2 * LIMIT)) == "known"  # 17 + 3 <= 20
    assert runs == [5]
    assert memo.get("n", 18, lambda: follow(reach, 18, 3, runs, limit=2 * LIMIT)) == "unknown"  # 18 + 3 > 20
    assert runs == [5, 18]


def test_a_reused_value_leaves_its_room_to_the_enclosing_work():
    reach, runs = Reach(), []
    memo = DepthMemo(reach)
    assert memo.get("inner", 3, lambda: follow(reach, 3, 4, runs)) == "known"  # checks down to 7: room 3

    def outer(depth: int) -> str:
        return "outer of " + memo.get("inner", depth, lambda: follow(reach, depth, 4, runs))

    assert memo.get("outer", 5, lambda: outer(5)) == "outer of known"  # the inner value reused: room 1 there
    assert memo.get("outer", 6, lambda: outer(6)) == "outer of known"  # the inner work would reach 10: within
    assert runs == [3]
    assert memo.get("outer", 7, lambda: outer(7)) == "outer of unknown"  # 7 + 4 > 10: worked out again
    assert runs == [3, 7]
