"""Cache geometry (ways, sets, line per level): read from the OS by `sad calibrate`, written to and read back
from the machine database, and the set-mapping rule that gives the capacity a strided walk can use."""
from __future__ import annotations

from pathlib import Path

import pytest

from sad.machine import hierarchy as hier
from sad.machine.model import load_machine

SYS_CACHE = Path("/sys/devices/system/cpu")


def _sysfs(root: Path, entries) -> None:
    for k, fields in enumerate(entries):
        d = root / "cpu0" / "cache" / f"index{k}"
        d.mkdir(parents=True)
        for name, value in fields.items():
            (d / name).write_text(f"{value}\n")


def test_ways_sets_and_line_read_from_a_sysfs_directory(tmp_path):
    _sysfs(tmp_path, [
        {"level": 1, "type": "Data", "size": "48K", "coherency_line_size": 64, "ways_of_associativity": 12,
         "number_of_sets": 64},
        {"level": 1, "type": "Instruction", "size": "32K", "coherency_line_size": 64, "ways_of_associativity": 8,
         "number_of_sets": 64},
        {"level": 2, "type": "Unified", "size": "1280K", "coherency_line_size": 64, "ways_of_associativity": 10},
        {"level": 3, "type": "Unified", "size": "8192K", "coherency_line_size": 128},
    ])
    caches = hier.os_caches(0, tmp_path)
    # L2 gives no number_of_sets: 1280 KiB / (10 ways x 64 B) = 2048; L3 gives no ways: geometry unknown (0)
    assert [(c.level, c.size_bytes, c.line_bytes, c.ways, c.sets) for c in caches] == [
        (1, 49152, 64, 12, 64), (2, 1310720, 64, 10, 2048), (3, 8388608, 128, 0, 0)]


@pytest.mark.skipif(not (SYS_CACHE / "cpu0" / "cache" / "index0" / "ways_of_associativity").exists(),
                    reason="no Linux sysfs cache description on this host")
def test_this_hosts_caches_have_a_consistent_geometry():
    caches = hier.os_caches(0, SYS_CACHE)
    assert caches and caches[0].level == 1
    for c in caches:
        # ways x sets x line is the size the OS reports, for every data or unified level
        assert c.ways > 0 and c.sets > 0
        assert c.ways * c.sets * c.line_bytes == c.size_bytes


L1 = hier.Level("L1", 32 * 1024, 0.3e-9, 0.4e-9, ways=8, sets=64, line_bytes=64)
L2 = hier.Level("L2", 512 * 1024, 0.8e-9, 0.9e-9, ways=8, sets=1024, line_bytes=64)


@pytest.mark.parametrize(("level", "pitch", "sets_reached"), [
    (L1, 4096, 1),          # a page apart: span 64 x 64 B = 4 KiB divides the pitch, one set
    (L1, 16384, 1),
    (L1, 2048, 2),          # 4096 / gcd(2048, 4096) = 2
    (L1, 1024, 4),
    (L2, 16384, 4),         # n = 2048 doubles: 65536 / gcd(16384, 65536) = 4 of 1024 sets
    (L2, 8192, 8),
    (L2, 16000, 512),       # n = 2000: gcd(16000, 65536) = 128, 512 sets
    (L2, 2112, 1024),       # 33 lines, odd: every set
    (L1, 12, 64),           # not a whole line apart: every set
])
def test_a_pitch_maps_a_walk_onto_the_sets_the_rule_gives(level, pitch, sets_reached):
    assert level.effective_bytes(pitch, 64) == level.ways * sets_reached * 64


@pytest.mark.parametrize(("level", "pitch", "sets_reached"), [
    (L1, 4096, 1),          # the L1's span is a page: virtual and physical indices agree, nothing changes
    (L1, 2048, 2),
    (L2, 16384, 16),        # one line offset within a page x 16 page colours (64 KiB span / 4 KiB pages)
    (L2, 8192, 16),
    (L2, 2048, 32),         # two offsets within a page x 16 colours
    (L2, 16000, 512),       # gcd(16000, 4096) = 128: 32 offsets within a page x 16 colours
    (L2, 2112, 1024),
])
def test_a_physically_indexed_level_spreads_a_walk_over_its_page_colours(level, pitch, sets_reached):
    # a level whose span (sets x line) is larger than a page is indexed by physical address: the bits above
    # the page offset come from the page frames the OS gave, which a walk over many pages spreads over all
    # span / page colours; only the offset within the page follows the program's pitch
    assert level.sets_reached(pitch, 64, 4096) == sets_reached
    assert level.effective_bytes(pitch, 64, 4096) == level.ways * sets_reached * 64


def test_a_level_without_geometry_offers_its_whole_size():
    plain = hier.Level("L1", 32 * 1024, 0.3e-9, 0.4e-9)
    assert plain.effective_bytes(4096, 64) == 32 * 1024


def _calibration() -> hier.HierarchyCalibration:
    """A calibration of an L1 8 × 64 sets and an L2 8 × 1024 sets of 64 B lines, every figure 1 ns."""
    m = hier.Measured(1e-9, 0.01, 5)
    caches = [hier.CacheInfo(1, 32 * 1024, 64, 8, 64), hier.CacheInfo(2, 512 * 1024, 64, 8, 1024)]
    cal = hier.HierarchyCalibration(hier.Measured(2.5e9, 0.01, 5), caches)
    for name in ("L1", "L2", "memory"):
        cal.read[name] = cal.write[name] = cal.column[name] = cal.column_write[name] = m
    return cal


def _sparc2_with(tmp_path: Path, lines: list[str]):
    """sparc2's database with the rendered hierarchy lines appended, loaded."""
    text = (Path(__file__).resolve().parents[2] / "machine_db" / "sparc2.yaml").read_text(encoding="utf-8")
    path = tmp_path / "with_hierarchy.yaml"
    path.write_text(text + "\n".join(lines) + "\n", encoding="utf-8")
    return load_machine(path)


def test_geometry_and_walk_latency_written_by_calibrate_and_read_back(tmp_path):
    cal = _calibration()
    cal.walk_latency = hier.Measured(207e-9, 0.05, 9)
    lines = hier.render_yaml(cal)
    assert "    - {name: L2, size: 512 KiB, ways: 8, sets: 1024, line: 64, read: 1 ns, write: 1 ns, " \
           "column_read: 1 ns, column_update: 1 ns}  # per line; spread 1.0%" in lines
    machine = _sparc2_with(tmp_path, lines)
    levels = machine.hierarchy.levels
    assert [(lv.name, lv.ways, lv.sets, lv.line_bytes) for lv in levels] == [
        ("L1", 8, 64, 64), ("L2", 8, 1024, 64), ("memory", 0, 0, 0)]
    assert levels[1].effective_bytes(16384, 64) == 2048
    assert machine.hierarchy.walk_latency_s == pytest.approx(207e-9)


def test_one_set_walk_pitch_and_rows_per_level():
    l1 = hier.CacheInfo(1, 32 * 1024, 64, 8, 64)
    # 64 sets x 64 B: rows 4096 B apart all map to one set of this L1
    assert hier.one_set_pitch(l1) == 4096
    assert hier.one_set_pitch(hier.CacheInfo(1, 32 * 1024, 64)) == 0      # geometry unknown: not measured
    # L2 8 ways x 1024 sets: a 4096 B pitch reaches 65536 / 4096 = 16 sets, 8 x 16 x 64 B = 8 KiB usable,
    # a quarter of it is 32 lines; L3 16 ways x 8192 sets: 524288 / 4096 = 128 sets, 128 KiB, 512 lines
    assert hier.one_set_rows_of(hier.CacheInfo(2, 512 * 1024, 64, 8, 1024), 4096) == 32
    assert hier.one_set_rows_of(hier.CacheInfo(3, 8 * 1024 ** 2, 64, 16, 8192), 4096) == 512
    assert hier.one_set_rows_of(hier.CacheInfo(2, 512 * 1024, 64), 4096) == 0
    assert hier.one_set_rows_of(hier.CacheInfo(2, 512 * 1024, 64, 8, 1024), 0) == 0


def test_one_set_figures_written_by_calibrate_and_read_back(tmp_path):
    cal = _calibration()
    cal.one_set["L2"] = hier.Measured(4.2e-9, 0.02, 5)
    cal.one_set_write["L2"] = hier.Measured(26e-9, 0.08, 9, reliable=False)
    lines = hier.render_yaml(cal)
    assert "    - {name: L2, size: 512 KiB, ways: 8, sets: 1024, line: 64, read: 1 ns, write: 1 ns, " \
           "column_read: 1 ns, column_update: 1 ns, one_set_read: 4.2 ns, one_set_update: 26 ns}  # per line; " \
           "spread 8.0%  UNRELIABLE" in lines
    levels = _sparc2_with(tmp_path, lines).hierarchy.levels
    assert [lv.name for lv in levels] == ["L1", "L2", "memory"]
    assert [lv.one_set_s for lv in levels] == pytest.approx([0.0, 4.2e-9, 0.0])
    assert [lv.one_set_store_s for lv in levels] == pytest.approx([0.0, 26e-9, 0.0])


def test_the_copy_figure_written_by_calibrate_and_read_back(tmp_path):
    cal = _calibration()
    cal.copy["memory"] = hier.Measured(3.3e-9, 0.03, 7)
    lines = hier.render_yaml(cal)
    assert any(line.startswith("    - {name: memory, read: ") and "column_update: 1 ns, copy: 3.3 ns}" in line
               for line in lines)
    levels = _sparc2_with(tmp_path, lines).hierarchy.levels
    assert [lv.copy_s for lv in levels] == pytest.approx([0.0, 0.0, 3.3e-9])


def _bench(tmp_path):
    """The calibration's hierarchy benchmark, compiled (skipped without gcc)."""
    import shutil
    import subprocess
    gcc = shutil.which("gcc")
    if gcc is None:
        pytest.skip("no gcc")
    src, exe = tmp_path / "hier.c", tmp_path / "hier"
    src.write_text(hier.bench_source(), encoding="utf-8")
    subprocess.run([gcc, "-O2", "-DLINE=64", "-DPITCH=33", "-DPAGE=4096", "-DSPAN=4096", str(src), "-o", str(exe)],
                   check=True, capture_output=True)
    return exe


def test_the_one_set_walk_benchmark_compiles_and_times_a_column(tmp_path):
    import subprocess
    exe = _bench(tmp_path)
    for mode in ("S", "U"):
        out = subprocess.run([str(exe), mode, "10", str(32 * 64), "3"], capture_output=True, text=True,
                             check=True).stdout.split()
        # one line per timed repetition after the first (untimed warm-up), each a positive time per access
        assert len(out) == 2 and all(float(x) > 0 for x in out)
    # the copy (k): half the lines read, the other half written beside them, a time per pair of lines
    out = subprocess.run([str(exe), "k", "10", str(64 * 64), "3"], capture_output=True, text=True,
                         check=True).stdout.split()
    assert len(out) == 2 and all(float(x) > 0 for x in out)
    # memory's streaming modes touch every element of each line (streaming_mode), still a time per line
    for mode in ("r+", "w+", "k+"):
        out = subprocess.run([str(exe), mode, "10", str(64 * 64), "3"], capture_output=True, text=True,
                             check=True).stdout.split()
        assert len(out) == 2 and all(float(x) > 0 for x in out)


def test_memory_streams_are_timed_on_every_element_the_caches_and_columns_on_one_per_line():
    assert [hier.streaming_mode(m, "memory") for m in ("r", "w", "k", "R", "W")] == ["r+", "w+", "k+", "R", "W"]
    assert [hier.streaming_mode(m, level) for m in ("r", "w", "k") for level in ("L1", "L3")] == \
        ["r", "r", "w", "w", "k", "k"]


def test_level_figures_are_timed_in_the_middle_of_the_footprints_each_level_serves():
    caches = [hier.CacheInfo(1, 32 * 1024, 64, 8, 64), hier.CacheInfo(2, 1024 ** 2, 64, 8, 2048),
              hier.CacheInfo(3, 32 * 1024 ** 2, 64, 16, 32768)]
    # L1: half of it, 16 KiB; L2: sqrt(32 KiB x 512 KiB) = 128 KiB; L3: sqrt(1 MiB x 16 MiB) = 4 MiB (1024
    # pages, within half of 3072 TLB entries); memory: 8 x 32 MiB
    assert hier.level_footprints(caches, 3072, 4096) == [
        ("L1", 16384, 16384), ("L2", 131072, 131072), ("L3", 4 * 1024 ** 2, 4 * 1024 ** 2),
        ("memory", 256 * 1024 ** 2, 256 * 1024 ** 2)]
    # 768 TLB entries: the L3 column walk is kept to half their reach, 384 pages = 1.5 MiB (> the 1 MiB L2)
    assert hier.level_footprints(caches, 768, 4096)[2] == ("L3", 4 * 1024 ** 2, 1536 * 1024)
    # 512 entries: half their reach (1 MiB) is not beyond the L2: the walk stays at 4 MiB
    assert hier.level_footprints(caches, 512, 4096)[2] == ("L3", 4 * 1024 ** 2, 4 * 1024 ** 2)


def test_one_set_walks_are_timed_in_the_middle_of_the_walks_each_level_serves():
    l1, l2, l3 = (hier.CacheInfo(1, 32 * 1024, 64, 8, 64), hier.CacheInfo(2, 1024 ** 2, 64, 8, 2048),
                  hier.CacheInfo(3, 32 * 1024 ** 2, 64, 16, 32768))
    # rows 4096 B apart: L1 keeps 8 lines (one set x 8 ways); L2 2048 sets x 64 B = 128 KiB span, 32 sets
    # reached x 8 ways = 256 lines, half 128: sqrt(8 x 128) = 32 rows; L3 2 MiB span, 512 sets x 16 = 8192
    # lines, half 4096: sqrt(256 x 4096) = 1024 rows; with 1536 TLB entries at most 768 (one page a row)
    assert hier.one_set_rows_of(l2, 4096, l1, 3072, 4096) == 32
    assert hier.one_set_rows_of(l3, 4096, l2, 3072, 4096) == 1024
    assert hier.one_set_rows_of(l3, 4096, l2, 1536, 4096) == 768
    assert hier.one_set_rows_of(l3, 4096) == 2048       # without the level before it: a quarter, as before


def test_a_shared_last_cache_holds_what_its_read_passes_say():
    mid, memory = 0.64e-9, 4.74e-9          # the L3's figure (4 MiB) and memory's: half way 2.69 ns
    mib = 1024 ** 2
    # this host: 8 MiB 0.66, 10 MiB 0.91, 12 MiB 1.04, 14 MiB 2.0, 16 MiB 3.27 ns a line: the half way is
    # crossed between 14 and 16 MiB, at 14 + 2 x (2.69 - 2.0) / (3.27 - 2.0) = 15.0866 MiB -> 15448 KiB
    passes = {8 * mib: 0.66e-9, 10 * mib: 0.91e-9, 12 * mib: 1.04e-9, 14 * mib: 2.0e-9, 16 * mib: 3.27e-9}
    assert hier.holds_of(mid, memory, passes, 4 * mib) == 15448 * 1024
    assert hier.holds_of(mid, memory, {8 * mib: 0.9e-9, 16 * mib: 1.0e-9}, 4 * mib) == 0     # all of it
    # already past half way at the first pass: between the timed footprint (4 MiB, 0.64) and it (8 MiB, 4.0)
    assert hier.holds_of(mid, memory, {8 * mib: 4.0e-9}, 4 * mib) == int(4 * mib + 4 * mib * 2.05 / 3.36) // 1024 * 1024
    level = hier.Level("L3", 32 * mib, mid, mid, holds_bytes=8 * mib)
    assert level.fit_bytes() == 8 * mib
    assert hier.Level("L3", 32 * mib, mid, mid).fit_bytes() == 16 * mib
    assert hier.Level("L3", 8 * mib, mid, mid, holds_bytes=16 * mib).fit_bytes() == 4 * mib


def test_the_ramp_of_a_machine_file_is_read_as_shares_of_lines_from_memory(tmp_path):
    level = _sparc2_with(tmp_path, [
        "hierarchy:", "  clock: 3400 MHz", "  levels:",
        "    - {name: L1, size: 32 KiB, read: 0.2 ns, write: 0.3 ns}",
        "    - {name: L3, size: 32768 KiB, read: 0.64 ns, write: 0.7 ns, holds: 15448 KiB, "
        "ramp: {8192 KiB: 0.66 ns, 16384 KiB: 3.27 ns}}",
        "    - {name: memory, read: 4.7 ns, write: 3.7 ns}"]).hierarchy.levels[1]
    # (0.66 - 0.64) / (4.7 - 0.64) = 0.0049; (3.27 - 0.64) / 4.06 = 0.6478
    assert level.holds_bytes == 15448 * 1024
    # the level's own figure was timed over half the first pass (4 MiB): share 0 there
    assert level.ramp == ((4 * 1024 ** 2, 0.0), (8 * 1024 ** 2, 0.0049), (16 * 1024 ** 2, 0.6478))


def test_the_last_caches_read_passes_reach_its_whole_size():
    """The ramp's passes run from twice the footprint the last cache's figures are timed at to its whole size:
    a 16 MiB L3 behind a 512 KiB L2 is timed at sqrt(512 KiB x 8 MiB) = 2 MiB, its passes over 4, 7, 10, 13
    and 16 MiB; a 32 MiB one behind 1 MiB at 4 MiB, passes over 8 ... 32 MiB. Passes that stopped at half the
    size put a 10 MiB footprint (gemm's B at PolyBench's LARGE size) in memory on the 16 MiB host."""
    kib, mib = 1024, 1024 ** 2
    small = [hier.CacheInfo(1, 32 * kib, 64, 8, 64), hier.CacheInfo(2, 512 * kib, 64, 8, 1024),
             hier.CacheInfo(3, 16 * mib, 64, 16, 16384)]
    timed = {name: nbytes for name, nbytes, _ in hier.level_footprints(small)}
    assert timed["L3"] == 2 * mib
    assert hier.ramp_footprints(timed["L3"], 16 * mib) == [4 * mib, 7 * mib, 10 * mib, 13 * mib, 16 * mib]
    large = [hier.CacheInfo(1, 32 * kib, 64, 8, 64), hier.CacheInfo(2, 1 * mib, 64, 8, 2048),
             hier.CacheInfo(3, 32 * mib, 64, 16, 32768)]
    timed = {name: nbytes for name, nbytes, _ in hier.level_footprints(large)}
    assert hier.ramp_footprints(timed["L3"], 32 * mib) == [8 * mib, 14 * mib, 20 * mib, 26 * mib, 32 * mib]
    assert hier.ramp_footprints(16 * mib, 16 * mib) == []  # no room between the timed footprint and the size


def test_a_footprint_within_the_ramp_takes_its_share_of_memorys_lines(tmp_path):
    """A 10 MiB footprint on a 16 MiB L3 whose passes reach its size: L3's line plus the measured share of the
    way to memory's, interpolated between the passes over 7 and 13 MiB (shares (1.6 - 1.1) / 5.5 and
    (5.0 - 1.1) / 5.5); past the size, memory's line."""
    import sympy

    from sad.predict.reuse import by_serving_level
    hierarchy = _sparc2_with(tmp_path, [
        "hierarchy:", "  clock: 3000 MHz", "  levels:",
        "    - {name: L1, size: 32 KiB, read: 0.2 ns, write: 0.3 ns}",
        "    - {name: L3, size: 16384 KiB, read: 1.1 ns, write: 1.2 ns, "
        "ramp: {4096 KiB: 1.1 ns, 7168 KiB: 1.6 ns, 13312 KiB: 5.0 ns, 16384 KiB: 6.0 ns}}",
        "    - {name: memory, read: 6.6 ns, write: 5.0 ns}"]).hierarchy

    def line_at(nbytes: int) -> float:
        return float(by_serving_level(sympy.Integer(nbytes), hierarchy, None, lambda lv: sympy.Float(lv.line_s * 1e9)))
    low, high = (1.6 - 1.1) / 5.5, (5.0 - 1.1) / 5.5
    share = low + (high - low) * (10 - 7) / (13 - 7)
    assert line_at(10 * 1024 ** 2) == pytest.approx(1.1 + share * 5.5, rel=1e-3)
    assert line_at(20 * 1024 ** 2) == pytest.approx(6.6)


def test_folded_forwarding_and_mispredict_written_by_calibrate_and_read_back(tmp_path):
    cal = _calibration()
    cal.forward_folded = hier.Measured(2.4e-9, 0.01, 5)
    cal.forward_rmw = hier.Measured(2.07e-9, 0.01, 5)
    cal.mispredict = hier.Measured(4.0e-9, 0.04, 5)
    lines = hier.render_yaml(cal)
    machine = _sparc2_with(tmp_path, lines).hierarchy
    assert machine.forward_folded_s == pytest.approx(2.4e-9) and machine.mispredict_s == pytest.approx(4.0e-9)
    assert machine.forward_rmw_s == pytest.approx(2.07e-9)
    # a random test no slower than a constant one: no figure (never 0 ns), a comment says why
    cal.mispredict = hier.Measured(-0.1e-9, 0.3, 5)
    lines = hier.render_yaml(cal)
    assert not any(line.startswith("  mispredict:") for line in lines)
    assert any(line.startswith("  # mispredict: not isolated") for line in lines)
    assert _sparc2_with(tmp_path, lines).hierarchy.mispredict_s == 0.0


def test_first_read_written_by_calibrate_and_read_back(tmp_path):
    cal = _calibration()
    cal.page_bytes = 4096
    cal.first_touch = hier.Measured(2.6e-6, 0.05, 3)
    cal.first_read = hier.Measured(0.96e-6, 0.05, 3)
    lines = hier.render_yaml(cal)
    machine = _sparc2_with(tmp_path, lines).hierarchy
    assert machine.first_touch_s == pytest.approx(2.6e-6) and machine.first_read_s == pytest.approx(0.96e-6)
    # a read no slower than no touch at all: no figure (never 0 ns), a comment says why; reads priced as writes
    cal.first_read = hier.Measured(-0.01e-6, 0.3, 3)
    lines = hier.render_yaml(cal)
    assert not any(line.startswith("  first_read:") for line in lines)
    assert any(line.startswith("  # first_read: not isolated") for line in lines)
    assert _sparc2_with(tmp_path, lines).hierarchy.first_read_s == 0.0


def test_the_first_read_run_reads_a_byte_a_page_of_fresh_memory(tmp_path):
    import subprocess
    exe = _bench(tmp_path)
    for mode in ("p", "q", "z"):   # a write, nothing, a read per page: each exits 0 and prints nothing
        done = subprocess.run([str(exe), mode, "4096", str(1 << 22), "1"], capture_output=True, text=True)
        assert done.returncode == 0 and done.stdout == ""
    samples = hier.first_touch_samples(exe, None, 4096, 1 << 22, mode="z")
    assert len(samples) == 3 and all(isinstance(s, float) for s in samples)
