"""sad: a static performance analyzer for Fortran 77 and C (symbolic application descriptions).

The Python API (each name is imported on first use, so `import sad` stays cheap):

- ``sad.run(argv)``: run a `sad` command in this process (``sad.run(["check", "src"])``); returns the exit
  status.
- ``sad.analyze(paths, machine=..., defines=...)``: analyze source files as one program and predict its time;
  returns an ``AnalysisResult`` (``.seconds``, ``.time``, ``.unbound``, ``.table`` of the SAD's blocks,
  ``.parameters``, ``.diagnostics``, ``.to_json()``, ``.to_text()``).
- ``sad.load_machine(name_or_path)``: a machine database, bundled (``"sparc2"``) or a YAML file.

Example::

    import sad
    r = sad.analyze("corpus/md1/md1.f", machine="sparc2", defines={"NPART": 4000},
                    params="corpus/md1/md1.params.yaml")
    print(r.seconds, r.table[0])
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

__version__ = "0.1.0"

__all__ = ["AnalysisError", "AnalysisResult", "__version__", "analyze", "load_machine", "run"]

if TYPE_CHECKING:
    from sad.cli.api import AnalysisError, AnalysisResult, analyze, load_machine, run


def __getattr__(name: str) -> Any:
    """The API's names, imported from sad.cli.api when first used (PEP 562)."""
    if name in ("AnalysisError", "AnalysisResult", "analyze", "load_machine", "run"):
        from sad.cli import api
        return getattr(api, name)
    raise AttributeError(f"module 'sad' has no attribute {name!r}")
