"""The process entry point (sad.cli.main.console): what a user's shell sees from `sad` and `python -m sad`.

console() ends the process with os._exit after the commands of FAST_EXIT_COMMANDS (skipping the interpreter's
teardown of the analysis' objects). These tests run the real entry point in a child process, reading its
output through a pipe, and compare bytes and exit status with an in-process run (sad.cli.main.run) and with
the interpreter's normal exit (`sys.exit(main())`).
"""
from __future__ import annotations

import gc
import importlib
import io
import os
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

from sad.cli.main import run
from sad.common import collector, symcache

cli = importlib.import_module("sad.cli.main")  # the module (the package's `main` attribute is a function)

ROOT = Path(__file__).resolve().parents[2]
MD1 = str(ROOT / "corpus/md1/md1.f")
TRIANG = str(ROOT / "corpus/kernels/triangular.f")
MISSING = str(ROOT / "corpus/kernels/no_such_file.f")


def _entry_point() -> str:
    """pyproject's `sad` console script as pip writes its launcher: `from MODULE import NAME; sys.exit(NAME())`."""
    spec = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["scripts"]["sad"]
    module, name = spec.split(":")
    return f"import sys; from {module} import {name}; sys.exit({name}())"


CONSOLE_SCRIPT = _entry_point()
NORMAL_EXIT = "import sys; from sad.cli.main import main; sys.exit(main())"  # the interpreter's own exit


def _child(code: str | None, *args: str, **popen) -> subprocess.Popen:
    command = [sys.executable, "-m", "sad"] if code is None else [sys.executable, "-c", code]
    return subprocess.Popen([*command, *args], cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, **popen)


def _finish(proc: subprocess.Popen) -> tuple[int, bytes, bytes]:
    out, err = proc.communicate(timeout=120)
    return proc.returncode, out, err


def _in_process(*args: str) -> tuple[int, bytes, bytes]:
    out, err = io.StringIO(), io.StringIO()
    code = run(list(args), out, err)
    return code, out.getvalue().encode(), err.getvalue().encode()


def test_the_console_script_is_the_fast_exit_entry_point():
    assert CONSOLE_SCRIPT == "import sys; from sad.cli import console; sys.exit(console())"


@pytest.mark.parametrize("args", [
    ("ir", MD1),                                               # 690 kB of JSON: many pipe-buffer flushes
    ("analyze", TRIANG, "-m", "sparc2", "-D", "N=1000"),
    ("analyze", TRIANG, MISSING, "-m", "sparc2"),   # status 1, diagnostics on stderr
    ("analyze", TRIANG, "-m", "no_such_machine"),                            # status 2
], ids=["ir-md1", "analyze", "missing-file", "bad-machine"])
def test_console_script_through_a_pipe_gives_the_bytes_and_status_of_an_in_process_run(args):
    status, out, err = _finish(_child(CONSOLE_SCRIPT, *args))
    assert (status, out, err) == _in_process(*args)


def test_python_dash_m_sad_is_the_same_entry_point():
    args = ("analyze", TRIANG, "-m", "sparc2", "-D", "N=1000", "--format", "json")
    status, out, err = _finish(_child(None, *args))
    assert status == 0 and out.startswith(b"{\n")
    assert (status, out, err) == _in_process(*args)


def test_a_reader_that_stops_early_sees_the_same_exit_as_with_the_normal_exit():
    results = []
    for code in (CONSOLE_SCRIPT, NORMAL_EXIT):
        proc = _child(code, "ir", MD1)
        assert proc.stdout is not None
        head = proc.stdout.read(10)
        proc.stdout.close()
        err = proc.stderr.read() if proc.stderr is not None else b""
        results.append((proc.wait(timeout=120), head, err))
    assert results[0] == results[1]
    assert results[0][1] == b'{\n "node":'


def test_output_file_written_by_the_console_script_is_complete(tmp_path):
    ours, theirs = tmp_path / "console.yaml", tmp_path / "in_process.yaml"
    status, out, err = _finish(_child(CONSOLE_SCRIPT, "params", TRIANG, "-o", str(ours)))
    assert status == 0 and out == b""
    assert _in_process("params", TRIANG, "-o", str(theirs))[0] == 0
    assert ours.read_bytes() == theirs.read_bytes()
    assert b"N" in ours.read_bytes() and err == f"sad: 1 unresolved parameters written to {ours}\n".encode()


class _Exited(Exception):
    pass


def _console(monkeypatch, argv: list[str]) -> tuple[str, int]:
    """console() in this process with os._exit caught: ('_exit' | 'sys.exit', status)."""
    def fake_exit(code):
        raise _Exited(code)
    monkeypatch.setattr(cli.os, "_exit", fake_exit)
    monkeypatch.setattr(sys, "argv", ["sad", *argv])
    monkeypatch.setattr(collector, "THRESHOLDS", gc.get_threshold())   # this test process keeps its own
    try:
        cli.console()
    except _Exited as exc:
        return "_exit", exc.args[0]
    except SystemExit as exc:
        return "sys.exit", exc.code if isinstance(exc.code, int) else -1
    raise AssertionError("console() returned")


def test_only_commands_without_exit_work_skip_the_interpreter_exit(monkeypatch, capsys):
    monkeypatch.setattr(cli, "_nothing_left_at_exit", lambda: True)   # this test process may have threads
    assert _console(monkeypatch, ["ir", MISSING]) == ("_exit", 2)
    assert "No such file" in capsys.readouterr().err
    assert _console(monkeypatch, ["analyze", TRIANG, "-m", "no_such_machine"]) == ("_exit", 2)
    # a command that may leave work for the interpreter's exit, --help and usage errors: the normal exit
    assert _console(monkeypatch, ["check", "--help"]) == ("sys.exit", 0)
    assert _console(monkeypatch, ["--version"]) == ("sys.exit", 0)
    assert _console(monkeypatch, ["frobnicate"]) == ("sys.exit", 2)
    capsys.readouterr()


def test_a_live_thread_keeps_the_normal_exit(monkeypatch, capsys):
    import threading
    release = threading.Event()
    worker = threading.Thread(target=release.wait)
    worker.start()
    try:
        assert _console(monkeypatch, ["ir", MISSING]) == ("sys.exit", 2)
    finally:
        release.set()
        worker.join()
    capsys.readouterr()


def test_in_a_fresh_process_the_fast_exit_is_taken_and_atexit_hooks_are_not_run():
    marker = "import atexit, sys; atexit.register(lambda: print('atexit ran', file=sys.stderr)); "
    fast = subprocess.run([sys.executable, "-c", marker + CONSOLE_SCRIPT, "ir", MISSING], cwd=ROOT,
                          capture_output=True, text=True, timeout=120)
    assert fast.returncode == 2 and "No such file" in fast.stderr and "atexit ran" not in fast.stderr
    normal = subprocess.run([sys.executable, "-c", marker + CONSOLE_SCRIPT, "check", "--help"], cwd=ROOT,
                            capture_output=True, text=True, timeout=120)
    assert normal.returncode == 0 and "atexit ran" in normal.stderr


def test_the_command_process_gets_the_analysis_collector_thresholds(monkeypatch, capsys):
    monkeypatch.setattr(sys, "argv", ["sad", "--version"])
    before = gc.get_threshold()
    try:
        gc.set_threshold(700, 10, 10)   # CPython's defaults
        with pytest.raises(SystemExit):
            cli.console()
        assert gc.get_threshold() == collector.THRESHOLDS == (200_000, 30, 30)
    finally:
        gc.set_threshold(*before)
    capsys.readouterr()


@pytest.mark.parametrize("set_by_user", [None, "500"])
def test_the_command_process_gets_the_analysis_sympy_cache_size(set_by_user):
    """sympy, imported after console() starts, keeps symcache.SIZE entries per cached function, unless the
    user's environment sets SYMPY_CACHE_SIZE; this test process's sympy is left as it is."""
    env = {k: v for k, v in os.environ.items() if k != "SYMPY_CACHE_SIZE"}
    if set_by_user is not None:
        env["SYMPY_CACHE_SIZE"] = set_by_user
    size = "__import__('sympy.core.cache').core.cache.SYMPY_CACHE_SIZE"
    report = f"import atexit; atexit.register(lambda: print({size})); "
    done = subprocess.run([sys.executable, "-c", report + CONSOLE_SCRIPT, "--version"], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0
    assert done.stdout.splitlines()[-1] == (set_by_user or str(symcache.SIZE))


@pytest.mark.skipif(not Path("/dev/full").exists(), reason="needs /dev/full (a device whose writes fail)")
@pytest.mark.parametrize("command", ["analyze", "check"])
def test_output_to_a_full_device_is_one_error_line_and_status_1(command):
    args = [command, TRIANG, "-m", "sparc2"] if command == "analyze" else [command, TRIANG, "--no-cache"]
    with open("/dev/full", "wb") as full:
        proc = subprocess.run([sys.executable, "-c", CONSOLE_SCRIPT, *args], cwd=ROOT, stdout=full,
                              stderr=subprocess.PIPE, timeout=120)
    assert proc.returncode == 1
    assert b"Traceback" not in proc.stderr
    assert proc.stderr.decode().splitlines()[-1] == ("sad: error: cannot write standard output: "
                                                     "No space left on device")
