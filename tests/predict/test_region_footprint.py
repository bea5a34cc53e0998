"""References of one array in one region of a nest count once, at the largest footprint among them
(sad.predict.reuse.footprint's ``_bigger``). Numbers were compared by their operations, all equal, so the last
reference stood for the region: floyd-warshall's path[i][k] (a column over i) for path[i][j] (the whole matrix
over i and j), and the matrix's sweep was priced from L2 where it streams from memory (PolyBench's
floyd-warshall at N = 1 500, -O2: -57 % -> -41 % on the same measured time)."""
from __future__ import annotations

from sad.predict.reuse import footprint, reuse_footprint
from tests.predict.loop_nests import inner_loop

FLOYD = """static double path[300][300];
int main(void) {
    int i, j, k;
    for (k = 0; k < 300; k++)
        for (i = 0; i < 300; i++)
            for (j = 0; j < 300; j++)
                path[i][j] = path[i][j] < path[i][k] + path[k][j] ? path[i][j] : path[i][k] + path[k][j];
    return path[3][4] > 0;
}
"""


def test_the_matrix_swept_between_reuses_is_the_whole_matrix(tmp_path):
    loop, trips = inner_loop(tmp_path, FLOYD, 6, "floyd.c")
    by_name = {(r.indices[0].name, r.indices[1].name, r.write): r for r in loop.refs}
    # path[i][j] is reused at k's next iteration: i and j sweep the 300 x 300 doubles, and row k beside them
    assert reuse_footprint(by_name[("i", "j", False)], loop, trips, 64) == 300 * 300 * 8 + 300 * 8
    j_and_i = list(reversed(loop.nest))[:2]
    # in either order of the references: the largest of the region's footprints, not the last one
    for refs in (loop.refs, list(reversed(loop.refs))):
        assert footprint(refs, j_and_i, trips, loop.fastest, 64) == 300 * 300 * 8 + 300 * 8
    # path[i][k] alone over j and i: a line of each of 300 rows
    assert footprint([by_name[("i", "k", False)]], j_and_i, trips, loop.fastest, 64) == 300 * 64
