"""Versions of the machine file format, with the list of changes (as Kerncraft's machinemodel.py keeps one).

Data flow: a machine file's `format_version` (absent in files written before versions existed: version 1)
is read by sad.machine.model before the schema check; a file newer than this sad is refused with a clear
message, an older one is upgraded in memory to the current format step by step. `sad calibrate`
(sad.machine.calibrate) writes FORMAT_VERSION into every file it makes. Machine files outlive the code
that wrote them: when the format changes, add an entry to CHANGES and an upgrade step to _UPGRADES.
"""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

FORMAT_VERSION = 8

# (version, what changed relative to the version before)
CHANGES: list[tuple[int, str]] = [
    (1, "The format before versioning (files without a format_version key): name, source, models, processor "
        "(clock, ops by data type, logical, bitop, intrinsics, memory with optional load_strided/store_strided, "
        "control with optional select and startup, io), optional communication and programming_model."),
    (2, "format_version key (an integer); written by `sad calibrate` and carried by the bundled machine_db "
        "files. No other change: a version 1 file loads unchanged."),
    (3, "hierarchy.forward_folded (store-to-load forwarding into a load folded into an operation) and "
        "hierarchy.mispredict (a mispredicted branch), both optional figures; processor.library also holds the "
        "libm routines a compiled loop calls (exp: {call: ...}), libmvec's vector ones (exp_x2) and the cost of a "
        "call itself (same: {call: ...}; a loop calling routines on a file without it is warned about). A version 2 "
        "file loads unchanged (its loops are priced without those figures, with a warning where one is needed)."),
    (4, "hierarchy.first_read, optional: the fault of a fresh page read before anything writes it (the kernel's "
        "zero page mapped, no page zeroed). A version 3 file loads unchanged; such reads are then priced as "
        "first_touch, and --explain says so."),
    (5, "hierarchy.forward_rmw, optional: store-to-load forwarding into a read-modify-write of a register's value "
        "(addq %rax, -24(%rbp)), which Intel's Golden Cove does not rename as it renames a plain load. A version 4 "
        "file loads unchanged; such chains then pay the plain forwarding figure, with a warning."),
    (6, "hierarchy.chain_share, optional: the share of the shorter of a loop's core and its chain through memory "
        "added to the longer, fitted by `sad calibrate` at -O0 (sad.predict.chainshare). A version 5 file loads "
        "unchanged; such loops then take 0.5, with a warning."),
    (7, "hierarchy.walk_share, optional: the share of a loop's column walks' transfers into L1 that wait behind its "
        "chain through memory, fitted with chain_share by `sad calibrate` at -O0 (sad.predict.chainshare). A version "
        "6 file loads unchanged; such loops then wait for all of them, with a warning."),
    (8, "hierarchy.chain_share is now the share of the shorter of a loop's core and the chain through its index kept "
        "in memory (-O0) added to the longer, a longer chain through an accumulator or an element running beside "
        "them (sad.predict.overlap.chained); walk_share is fitted on that rule. A version 7 file's two shares, "
        "fitted by the earlier rule (the longest chain of any kind), are dropped on loading: such loops take the "
        "defaults, with a warning to calibrate again."),
]


def _without_shares(data: dict[str, Any]) -> dict[str, Any]:
    """A version 7 file without its chain and walk shares (fitted by the earlier rule: CHANGES, version 8)."""
    hierarchy = data.get("hierarchy")
    if not isinstance(hierarchy, dict):
        return data
    kept = {k: v for k, v in hierarchy.items() if k not in ("chain_share", "walk_share")}
    return {**data, "hierarchy": kept}


# version → the step that turns a file of that version into one of the next
_UPGRADES: dict[int, Callable[[dict[str, Any]], dict[str, Any]]] = {
    1: lambda data: data,
    2: lambda data: data,
    3: lambda data: data,
    4: lambda data: data,
    5: lambda data: data,
    6: lambda data: data,
    7: _without_shares,
}


class VersionError(ValueError):
    """A format_version this sad cannot read; the message says which versions it can."""


def file_version(data: dict[str, Any]) -> int:
    """The format version a loaded file declares (1 when it declares none). Raises VersionError for a
    version that is not a positive integer or is newer than FORMAT_VERSION."""
    version = data.get("format_version", 1)
    if isinstance(version, bool) or not isinstance(version, int) or version < 1:
        raise VersionError(f"{version!r} is not a format version (this sad reads versions 1 to "
                           f"{FORMAT_VERSION})")
    if version > FORMAT_VERSION:
        raise VersionError(f"{version} is newer than this sad reads (versions 1 to {FORMAT_VERSION}); use a "
                           f"newer sad, or write the file again with this one's `sad calibrate`")
    return version


def upgrade(data: dict[str, Any]) -> dict[str, Any]:
    """The file's data in the current format (the version checked by file_version first)."""
    version = file_version(data)
    while version < FORMAT_VERSION:
        data = _UPGRADES[version](data)
        version += 1
    return {**data, "format_version": FORMAT_VERSION}
