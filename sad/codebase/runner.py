"""Running a whole codebase in one process: cache look-up, then the missing files on workers.

Data flow: paths → source files and their dependency closures (sad.codebase.sources) → one unit per file
with its cache key (file content, the contents of the files it may call and of every file these include,
tool version, machine database, options) → results from the on-disk cache (diskcache, under
$XDG_CACHE_HOME/sad or --cache-dir) or from workers: this process (-j 1), forked processes (-j N; modules
imported once, before the fork; files that share callees kept on one worker, sad.codebase.schedule) or a
dask.distributed cluster (--scheduler ADDRESS; the workers must see the same file system; units dealt to
them as to -j N's processes) → results sorted by path, so that the output does not depend on where or in
which order units ran.

Each unit runs under a CPU-time limit (--timeout). A file past it is analyzed once more on its own, under
the same limit, with every call into another file priced by the callee's name (C_<callee>, a parameter) instead
of expanded: its routines are reported with a warning each and marked (`named_calls`), and that result is
cached under a key that holds the limit, so that a run with a larger one tries the whole analysis again. A
file past the limit on its own too becomes an error diagnostic and is not cached.
"""
from __future__ import annotations

import gc
import hashlib
import importlib.util
import json
import os
import re
import sys
import time
import traceback
from collections.abc import Iterable
from dataclasses import dataclass, field, replace
from functools import lru_cache, partial
from pathlib import Path

from sad import __version__
from sad.codebase.results import Options, Unit, UnitResult
from sad.codebase.schedule import on_workers, placed
from sad.codebase.sources import SourceFile, definers, dependencies, discover, included_files, scan
from sad.codebase.timelimit import AnalysisTimeout, stopped_in, time_limit
from sad.common.cachefiles import cache_home
from sad.common.english import plural
from sad.ir.languages import resolve_name

CACHE_FORMAT = 4  # bump when the cached result's shape or the key's make-up changes


@dataclass
class CheckRun:
    """The results of a `sad check` run over all units, with cache hits and misses."""
    results: list[UnitResult]
    missing: list[str] = field(default_factory=list)  # paths given that do not exist
    hits: int = 0
    misses: int = 0
    seconds: float = 0.0

    @property
    def lines(self) -> int:
        """Source lines checked over all units."""
        return sum(r.lines for r in self.results)


def default_cache_dir() -> str:
    """The analysis cache directory: $XDG_CACHE_HOME/sad or ~/.cache/sad."""
    return str(cache_home())


def plan(paths: list[str], excludes: list[str], options: Options) -> tuple[list[Unit], list[str]]:
    """The units to analyze (one per source file, with its dependency closure and cache key)."""
    files, missing = discover(paths, excludes)
    scanned = {path: scan(path) for path in files}
    index = definers(list(scanned.values()))
    machine_digest = hashlib.sha256(Path(options.machine).read_bytes()).hexdigest()
    # The machine by content only: its path moves with the installation or the checkout.
    chosen = {k: v for k, v in options.to_jsonable().items() if k != "machine"}
    settings = json.dumps({"version": __version__, "code": code_digest(), "format": CACHE_FORMAT,
                           "machine": machine_digest, "options": chosen}, sort_keys=True)
    roots = sorted({os.path.normpath(p) for p in paths if os.path.isdir(p)}, key=lambda r: (-len(r), r))
    units = []
    headers: dict[str, SourceFile | None] = {}
    shown = {path: _relative(path, roots) for path in scanned}  # once per file, not once per unit loading it
    closures = {path: dependencies(source, scanned, index) for path, source in scanned.items()}
    callees = {dep for deps in closures.values() for dep in deps}
    for path, source in scanned.items():
        deps = closures[path]
        loaded = (source, *[scanned[d] for d in deps])
        key = _key(settings, [(shown[item.path], item.digest) for item in loaded]
                   + _include_key(loaded, options.include, roots, headers))
        units.append(Unit(path, tuple(deps), source.lines, key, os.getcwd(), path in callees))
    return units, missing


@lru_cache(maxsize=1)
def code_digest() -> str:
    """A digest of the installed analyzer itself (every file of the `sad` and `frontends` packages, shipped
    headers included): a result cached by another build of the same version (a development checkout, a
    patched install) must not be reused. Hashing the ~2 MB of sources costs a few milliseconds per run."""
    digest = hashlib.sha256()
    for package in ("sad", "sad.frontends"):  # located, not imported: only the pipeline imports the frontends
        spec = importlib.util.find_spec(package)
        if spec is None or spec.origin is None:
            continue
        root = Path(spec.origin).parent
        for path in sorted(p for p in root.rglob("*") if p.is_file() and "__pycache__" not in p.parts
                           and p.suffix != ".pyc"):
            digest.update(f"\0{package}/{path.relative_to(root).as_posix()}\0".encode())
            digest.update(path.read_bytes())
    return digest.hexdigest()


def _include_key(loaded: tuple[SourceFile, ...], include_dirs: tuple[str, ...], roots: list[str],
                 headers: dict[str, SourceFile | None]) -> list[tuple[str, str]]:
    """(name, relative path and digest, or "absent") of every file the unit's files include."""
    entries = []
    for item in loaded:
        for name, header in included_files(item, include_dirs, headers):
            where = "absent" if header is None else f"{_relative(header.path, roots)}:{header.digest}"
            entries.append((f"include {name}", where))
    return entries


def _relative(path: str, roots: list[str]) -> str:
    """`path` as the cache key holds it, so that a copy of the tree elsewhere (another checkout, a CI
    workspace) finds this tree's results: relative to the working directory when the file is under it,
    else relative to the checked directory it was found under (the deepest given), else its base name."""
    absolute, cwd = os.path.abspath(path), os.getcwd()
    # os.path.relpath's answer for a file under the working directory, without its splitting and joining
    # (asked for every file of the codebase before any is analyzed)
    here = absolute[len(cwd) + 1:] if absolute.startswith(cwd.rstrip(os.sep) + os.sep) and cwd != os.sep \
        else os.path.relpath(absolute)
    if here != os.pardir and not here.startswith(os.pardir + os.sep):
        return here.replace(os.sep, "/")
    for root in roots:
        if path.startswith(root.rstrip(os.sep) + os.sep):
            return Path(os.path.relpath(path, root)).as_posix()
    return os.path.basename(path)


def _key(settings: str, sources: list[tuple[str, str]]) -> str:
    """The cache key of a unit: the settings, then (relative path, content digest) of its file and of each
    file it depends on."""
    digest = hashlib.sha256(settings.encode())
    for path, content in sources:
        digest.update(f"\0{path}\0{content}".encode())
    return digest.hexdigest()


def check_unit(unit: Unit, options: Options, timeout: float | None) -> dict:
    """One unit on a worker: the result as plain data. `timed_out` is set when the limit stopped the whole
    analysis, `by_name` when the result is then the file's own, its calls into other files priced by name."""
    start = time.perf_counter()
    data, timed_out = _analyzed(unit, options, timeout)
    by_name = False
    if timed_out and unit.deps:
        alone, again = _analyzed(replace(unit, deps=()), options, timeout)
        if not again:
            data, by_name = _priced_by_name(alone, unit, timeout), True
        else:
            data = _failed(unit, f"analysis stopped after {timeout:g} CPU s (--timeout), and again alone with its "
                                 f"calls into other files priced by name; no routine of this file is reported")
    data["timed_out"] = timed_out
    data["by_name"] = by_name
    data["seconds"] = time.perf_counter() - start
    return data


def _analyzed(unit: Unit, options: Options, timeout: float | None) -> tuple[dict, bool]:
    """The unit's result as plain data under the time limit, and whether the limit stopped it."""
    from sad.codebase.routines import analyze_unit  # the analysis: imported only when something is analyzed
    data: dict = {}
    for _attempt in range(2):
        try:
            with time_limit(timeout, own=unit.located(unit.path)):
                data = analyze_unit(unit, options).to_jsonable()
            break
        except AnalysisTimeout:
            return _failed(unit, f"analysis stopped after {timeout:g} CPU s (--timeout){_stopped_in(unit)}; no "
                                 f"routine of this file is reported"), True
        except Exception as exc:  # a bug of ours in one file must not stop the codebase
            # Analyzed once more: a bug of ours fails again the same way (the same report), while a passing
            # failure of the worker does not (fresh-clone CI twice saw "EOFError: Ran out of input" in a Dask
            # worker's unit, never reproduced). The place it was raised is part of the message.
            data = _failed(unit, f"internal error: {type(exc).__name__}: {exc}{_raised_at(exc)}")
    return data, False


def _stopped_in(unit: Unit) -> str:
    """Where the limit was passed, when in building another file's routines (charged to that file:
    sad.common.cpuaccounts), as the user gave its path."""
    account = stopped_in()
    if account is None:
        return ""
    shown = next((dep for dep in unit.deps if unit.located(dep) == account), account)
    return f" in building the routines of {shown}"


def _priced_by_name(data: dict, unit: Unit, timeout: float | None) -> dict:
    """The file's result analyzed alone, each routine's calls into the unit's other files named in
    `named_calls` and in a warning at the routine: each such call costs a parameter (C_<callee>, the
    call_cost default at the reference points), not the callee's expanded time."""
    defined = {name for dep in unit.deps for name in scan(unit.located(dep)).defines}
    diagnostics = list(data["diagnostics"])
    for routine in data["routines"]:
        named = sorted(name for name in routine["unseen_calls"] if resolve_name(name) in defined)
        routine["named_calls"] = named
        if named:
            shown = ", ".join(named[:_NAMED_SHOWN]) + (", ..." if len(named) > _NAMED_SHOWN else "")
            diagnostics.append({
                "file": unit.path, "line": routine["line"], "col": 0, "severity": "warning",
                "message": f"{routine['name']}: expanding its calls into other files passed --timeout "
                           f"{timeout:g} CPU s; {plural(len(named), 'callee')} ({shown}) priced by name "
                           f"(C_<callee>, the call_cost default at the reference points) instead"})
    return {**data, "diagnostics": sorted(diagnostics, key=_diagnostic_order)}


_NAMED_SHOWN = 8  # callees a warning names; the routine's `named_calls` lists them all


def _diagnostic_order(d: dict) -> tuple:
    return d["line"], d["col"], d["severity"], d["message"]


def _raised_at(exc: BaseException) -> str:
    """ (at FILE:LINE), the innermost frame of sad or its frontends the exception passed through."""
    ours = [f for f in traceback.extract_tb(exc.__traceback__)
            if f"{os.sep}sad{os.sep}" in f.filename or f"{os.sep}frontends{os.sep}" in f.filename]
    if not ours:
        return ""
    frame = ours[-1]
    parts = Path(frame.filename).parts
    top = max(i for i, part in enumerate(parts) if part in ("sad", "frontends"))
    return f" (at {'/'.join(parts[top:])}:{frame.lineno})"


def _failed(unit: Unit, message: str) -> dict:
    return {"path": unit.path, "lines": unit.lines, "routines": [],
            "diagnostics": [{"file": unit.path, "line": 1, "col": 0, "severity": "error", "message": message}]}


def run(units: list[Unit], options: Options, *, jobs: int = 1, cache_dir: str | None = None,
        use_cache: bool = True, scheduler: str | None = None, timeout: float | None = 60.0,
        progress: bool = False) -> CheckRun:
    """Analyze every unit (cached results reused), in parallel when jobs > 1 or with a scheduler."""
    start = time.perf_counter()
    cache = _open_cache(cache_dir) if use_cache else None
    found: dict[str, UnitResult] = {}
    todo: list[Unit] = []
    for unit in units:
        data = _cached(cache, unit, timeout) if cache is not None else None
        if data is not None:
            result = UnitResult.from_jsonable(_moved(data, [unit.path, *unit.deps]))
            result.cached = True
            found[unit.path] = result
        else:
            todo.append(unit)
    # longest first: where nothing deals the units (a cluster with no worker yet) the last to finish ends sooner
    todo.sort(key=lambda u: (-u.lines, u.path))
    bar = _progress_bar(len(units), len(found), progress)
    pending: dict[str, dict] = {}
    stored_at = time.perf_counter()
    try:
        for unit, data in _execute(todo, options, jobs, scheduler, timeout):
            result = UnitResult.from_jsonable(data)
            result.seconds = data["seconds"]
            found[unit.path] = result
            if cache is not None and (not data["timed_out"] or data["by_name"]):
                stored = {k: data[k] for k in ("path", "lines", "routines", "diagnostics")}
                key = by_name_key(unit.key, timeout or 0) if data["by_name"] else unit.key
                pending[key] = {**stored, "sources": [unit.path, *unit.deps]}
                if time.perf_counter() - stored_at > _STORE_EVERY_S:
                    _store(cache, pending)
                    stored_at = time.perf_counter()
            if bar is not None:
                bar.update(1)
    finally:
        if bar is not None:
            bar.close()
        if cache is not None:
            _store(cache, pending)  # also what finished before an interruption
            if todo:
                cache.cull()  # once for the run: the size limit (set culls nothing, see _open_cache)
            cache.close()
    results = [found[u.path] for u in sorted(units, key=lambda u: u.path)]
    return CheckRun(results, hits=len(units) - len(todo), misses=len(todo),
                    seconds=time.perf_counter() - start)


def _cached(cache, unit: Unit, timeout: float | None) -> dict | None:
    """The unit's cached result: the whole analysis, else the one priced by name under this time limit."""
    data = cache.get(unit.key)
    if data is None and unit.deps and timeout:
        data = cache.get(by_name_key(unit.key, timeout))
    return data


def by_name_key(key: str, timeout: float) -> str:
    """The cache key of a unit's result priced by name: it holds the limit the whole analysis passed."""
    return f"{key}:by-name-past:{timeout:g}"


_STORE_EVERY_S = 1.0  # results are written to the cache together, at most this long after they arrive


def _store(cache, pending: dict[str, dict]) -> None:
    """Write the pending results to the cache in one transaction (one commit for all: a commit per result
    was a third of this process's own CPU time on a codebase of small files), and forget them."""
    if not pending:
        return
    cache.set_many(pending)
    pending.clear()


def _moved(data: dict, sources: list[str]) -> dict:
    """A cached result with the paths of the run that stored it replaced by this run's: the same relative
    paths and contents under another directory (the key guarantees the two lists match one to one)."""
    renamed = {old: new for old, new in zip(data.get("sources", []), sources) if old != new}
    if not renamed:
        return data
    pattern = re.compile(r"(?<![\w./-])(" + "|".join(map(re.escape, sorted(renamed, key=lambda p: (-len(p), p))))
                         + r")(?![\w/-])")

    def text(value: str) -> str:
        return pattern.sub(lambda m: renamed[m.group(1)], value)

    return {**data, "path": renamed.get(data["path"], data["path"]),
            "routines": [{**r, "file": renamed.get(r["file"], r["file"])} for r in data["routines"]],
            "diagnostics": [{**d, "file": renamed.get(d["file"], d["file"]), "message": text(d["message"])}
                            for d in data["diagnostics"]]}


def machine_name(given: str, options: Options, cache_dir: str | None, *, use_cache: bool = True) -> str | None:
    """The machine database's name, after loading (and so validating) it; None after printing why it cannot
    be used. A database whose exact content was loaded by an earlier run is known from the cache: a run whose
    results are all cached then imports none of the machine model (jsonschema, pint, sympy)."""
    digest = hashlib.sha256(Path(options.machine).read_bytes()).hexdigest() if Path(options.machine).is_file() \
        else None
    key = f"machine-name:{digest}"
    cache = _open_cache(cache_dir) if use_cache and digest else None
    try:
        name = cache.get(key) if cache is not None else None
        if name is None:
            from sad.machine.model import MachineError, load_machine
            try:
                name = load_machine(given).name
            except MachineError as exc:
                print(str(exc) if ": error:" in str(exc) else f"sad: error: {exc}", file=sys.stderr)
                return None
            if cache is not None:
                cache.set(key, name)
        return name
    finally:
        if cache is not None:
            cache.close()


def _open_cache(directory: str | None):
    """The on-disk cache. cull_limit=0: a write does not look for entries to evict past the size limit
    (diskcache measures the cache's volume at every write, a third of writing a result); `run` culls once
    at its end instead."""
    import diskcache

    from sad.codebase.resultcache import ResultCache
    path = Path(directory or default_cache_dir())
    # a damaged database is set aside with a warning and the run goes on (sad.codebase.resultcache)
    return ResultCache(path, lambda: diskcache.Cache(str(path), size_limit=2 ** 32, cull_limit=0))


def _progress_bar(total: int, done: int, wanted: bool):
    if not wanted or not sys.stderr.isatty():
        return None
    import tqdm
    tqdm.tqdm.monitor_interval = 0  # no monitor thread: worker processes are forked after this
    return tqdm.tqdm(total=total, initial=done, unit="file", file=sys.stderr, desc="sad check")


def _execute(units: list[Unit], options: Options, jobs: int, scheduler: str | None,
             timeout: float | None) -> Iterable[tuple[Unit, dict]]:
    if not units:
        return
    if scheduler:
        yield from _on_dask(units, options, scheduler, timeout)
    elif jobs <= 1 or len(units) == 1:
        # Callees first (a caller's closure holds its callee's and the callee itself): each routine is then
        # built by its own unit and taken in from there by every unit calling it (sad.analysis.summaries).
        for unit in sorted(units, key=lambda u: (len(u.deps), u.path)):
            yield unit, check_unit(unit, options, timeout)
    else:
        yield from _on_pool(units, options, jobs, timeout)


def _on_pool(units: list[Unit], options: Options, jobs: int, timeout: float | None):
    from sad.codebase.routines import prepare
    prepare(options)  # imports, parser tables and the machine once, inherited by every forked worker
    # The objects that exist now (modules, tables) are left out of garbage collection while the workers
    # run: a collection in a worker would write to their pages, which fork shares until written (about
    # 4 % of the workers' CPU on the fixture)
    gc.freeze()
    try:
        yield from on_workers(units, min(jobs, len(units)), partial(check_batch, options=options, timeout=timeout))
    finally:
        gc.unfreeze()


def check_batch(units: list[Unit], options: Options, timeout: float | None) -> list[dict]:
    """Several units on one worker, in order (check_unit for each)."""
    return [check_unit(unit, options, timeout) for unit in units]


def _on_dask(units: list[Unit], options: Options, address: str, timeout: float | None):
    from distributed import Client
    from distributed import as_completed as dask_completed
    with Client(address) as client:
        futures = submitted(client, units, options, timeout)
        owner = {future.key: unit for future, unit in futures}
        for future in dask_completed([future for future, _ in futures]):
            yield owner[future.key], future.result()


def submitted(client, units: list[Unit], options: Options, timeout: float | None) -> list[tuple]:
    """(future, unit) for each unit, on the cluster of `client`: dealt to the workers connected now as -j N
    deals units to its processes (sad.codebase.schedule.placed), so that a routine built on one worker serves
    that worker's later files. A task may still run elsewhere when its worker leaves (`allow_other_workers`);
    with no worker connected yet, the scheduler places every task."""
    workers = list(client.nthreads())
    if not workers:
        futures = client.map(check_unit, units, options=options, timeout=timeout, pure=False)
        return list(zip(futures, units))
    return [(client.submit(check_unit, unit, options=options, timeout=timeout, pure=False, workers=[address],
                           allow_other_workers=True, priority=priority), unit)
            for unit, address, priority in placed(units, workers)]


def cpu_count() -> int:
    """The cores this process may run on (the default of -j)."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not Linux
        return os.cpu_count() or 1

