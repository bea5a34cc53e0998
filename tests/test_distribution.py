"""The distribution is `sad-perf` (the PyPI project named `sad` is someone else's; issue 30, item 1): the wheel
built from this checkout carries that name and the `sad` command, and no README recipe installs the other
project."""
from __future__ import annotations

import re
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


@pytest.mark.heavy
def test_wheel_is_named_sad_perf_and_installs_the_sad_command(tmp_path: Path):
    src = tmp_path / "src"  # a copy: the build writes build/ and *.egg-info next to the sources
    src.mkdir()
    for name in ("pyproject.toml", "README.md"):
        shutil.copy(ROOT / name, src / name)
    for folder in ("sad", "frontends", "machine_db"):
        shutil.copytree(ROOT / folder, src / folder, ignore=shutil.ignore_patterns("__pycache__"))
    subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", ".", "-w", str(tmp_path / "dist")],
                   cwd=src, check=True, capture_output=True, text=True, timeout=600)
    (wheel,) = (tmp_path / "dist").glob("*.whl")
    assert wheel.name.startswith("sad_perf-")
    with zipfile.ZipFile(wheel) as archive:
        info = {Path(n).name: archive.read(n).decode() for n in archive.namelist() if ".dist-info/" in n}
    assert re.search(r"^Name: sad-perf$", info["METADATA"], re.M)
    assert re.search(r"^sad = sad\.cli:console$", info["entry_points.txt"], re.M)
    # frontends/ and machine_db/ install inside the project's namespace, not at the top of site-packages
    with zipfile.ZipFile(wheel) as archive:
        tops = {n.split("/", 1)[0] for n in archive.namelist() if ".dist-info/" not in n}
        names = set(archive.namelist())
    assert tops == {"sad"}, tops
    assert {"sad/frontends/fortran/lower.py", "sad/frontends/c/include/stdio.h", "sad/machine_db/sparc2.yaml",
            "sad/machine_db/schema.json", "sad/schemas/analyze.json"} <= names


def test_the_package_list_names_every_package_folder():
    """pyproject.toml lists the packages by hand (a package-dir mapping cannot be found by setuptools' find):
    a new folder with an __init__.py must be added there, or the wheel would lack it."""
    import tomllib
    listed = set(tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]["packages"])
    folders = set()
    for init in ROOT.glob("*/**/__init__.py"):
        parts = init.parent.relative_to(ROOT).parts
        if parts[0] in ("sad", "frontends", "machine_db"):
            folders.add(".".join(parts if parts[0] == "sad" else ("sad", *parts)))
    assert listed == folders


def test_readme_recipes_install_this_project():
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    installs = re.findall(r"pip install\s+([^`\n&;]+)", text)
    assert installs
    for args in installs:
        for word in args.split():
            bare = word.strip("'\"")
            assert not re.fullmatch(r"sad(\[[\w,]+\])?([<>=!~].*)?", bare), f"installs PyPI's sad: pip install {args}"
    assert "pip install '.[dask]'" in text and "sad_perf-0.1.0-py3-none-any.whl" in text


def test_sarif_points_at_no_other_project():
    from sad.codebase.sarif import to_sarif
    log = to_sarif({"comparison": None, "diagnostics": [], "machine": "sparc2", "summary": {}})
    driver = log["runs"][0]["tool"]["driver"]
    assert driver["name"] == "sad" and "pypi.org/project/sad" not in str(log)


@pytest.mark.heavy
def test_the_github_recipe_runs_as_written_with_the_wheel(tmp_path: Path):
    """The README's GitHub job, step by step, in a checked repository of its own: the wheel built from this
    checkout lies in ci/ as the recipe says, is installed by the recipe's own pip line (into a fresh virtual
    environment that sees the test environment's dependencies: no download), and the recipe's `sad check` steps
    pass against a baseline of the same tree, with the SARIF and Markdown reports written."""
    import yaml
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    docs = [yaml.safe_load(b) for b in re.findall(r"^```yaml\n(.*?)^```", text, flags=re.S | re.M)]
    job = next(d["jobs"]["performance"] for d in docs if isinstance(d, dict) and "jobs" in d)
    runs = [s["run"] for s in job["steps"] if "run" in s]
    project = tmp_path / "project"
    shutil.copytree(ROOT / "corpus" / "check" / "before", project / "src")
    subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", str(ROOT), "-w", str(project / "ci")],
                   cwd=tmp_path, check=True, capture_output=True, text=True, timeout=600)
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--system-site-packages", str(venv)], check=True, timeout=300)
    env = {"PATH": f"{venv / 'bin'}:/usr/bin:/bin", "HOME": str(tmp_path), "XDG_CACHE_HOME": str(tmp_path / "cache"),
           "GITHUB_STEP_SUMMARY": str(tmp_path / "summary.md")}
    install = next(r for r in runs if r.startswith("pip install"))
    # the recipe's own line; --force-reinstall because the test environment already has this version (editable)
    subprocess.run(f"python -m {install} --no-deps --force-reinstall -q", shell=True, cwd=project, env=env,
                   check=True, capture_output=True, text=True, timeout=600)
    where = subprocess.run(["python", "-c", "import sad, sad.frontends; print(sad.__file__, sad.frontends.__file__)"],
                           cwd=tmp_path, env=env, check=True, capture_output=True, text=True).stdout
    assert where.count(str(venv)) == 2, where          # the wheel's code, not this checkout's
    subprocess.run("sad check src --save-baseline baseline.json", shell=True, cwd=project, env=env, check=True,
                   capture_output=True, text=True, timeout=600)
    for step in runs:
        if step.startswith("sad "):
            done = subprocess.run(step, shell=True, cwd=project, env=env, capture_output=True, text=True, timeout=600)
            assert done.returncode == 0, (step, done.stderr)
    assert (project / "sad.sarif").is_file() and "0 regressions" in (tmp_path / "summary.md").read_text()
