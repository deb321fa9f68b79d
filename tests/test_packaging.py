"""The installable package (issue 10): one ``mtg_judge`` import namespace whose data travels
with it, checked on the sdist and the wheel that an engine author would install.

The module builds the sdist from a copy of the tracked files, then the wheel *from that
sdist* (``python -m build --no-isolation``, offline), so a file the sdist forgot is missing
from the wheel too. It installs the wheel into a fresh virtual environment with no checkout
on its path and runs the CLI from a temporary directory outside the repository:
``mtg-judge run`` on the embedded reference engine, the same through protocol v1
(``--engine "mtg-judge serve"``), ``validate``, ``show`` and ``coverage``.

The new environment gets its dependencies (click, jsonschema, ...) from this interpreter's
site-packages through a ``.pth`` line. Python does not process the ``.pth`` files of a folder
added that way, so this environment's editable install of mtg-judge (a ``.pth`` hook) is not
active there: ``mtg_judge`` can only come from the wheel, which a test asserts.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import sysconfig
import tarfile
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
DATA_FOLDERS = ("fixtures", "schema")  # shipped whole: every tracked file in them


def _tracked_files() -> list[str]:
    """The repository's tracked files (``git ls-files``), plus new untracked ones not ignored:
    what a clean clone of this working tree would hold."""
    out = subprocess.run(["git", "ls-files", "--cached", "--others", "--exclude-standard"],
                         cwd=ROOT, capture_output=True, text=True, check=True).stdout
    return sorted({line for line in out.splitlines() if (ROOT / line).is_file()})


@pytest.fixture(scope="module")
def dist(tmp_path_factory) -> dict[str, Path]:
    """``{"sdist": path, "wheel": path}`` built from a copy of the tracked files."""
    if shutil.which("git") is None or not (ROOT / ".git").exists():
        pytest.fail("the packaging tests need a git checkout of mtg-judge", pytrace=False)
    src = tmp_path_factory.mktemp("src")
    for name in _tracked_files():
        target = src / name
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(ROOT / name, target)
    out = tmp_path_factory.mktemp("dist")
    proc = subprocess.run([sys.executable, "-m", "build", "--no-isolation", "--outdir", str(out),
                           str(src)], capture_output=True, text=True)
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-3000:]
    (sdist,) = out.glob("*.tar.gz")
    (wheel,) = out.glob("*.whl")
    return {"sdist": sdist, "wheel": wheel}


def _expected_data() -> list[str]:
    """Every data file the package must carry, as a path inside ``mtg_judge/``."""
    tracked = _tracked_files()
    data = [name for name in tracked if name.split("/")[0] in DATA_FOLDERS]
    data += [name for name in tracked if name.startswith("conformance/__snapshots__/")]
    data += ["conformance/rulings.json", "engine/data/creature_types.json"]
    return sorted(data)


def test_the_wheel_has_one_top_level_package_and_carries_every_data_file(dist):
    names = zipfile.ZipFile(dist["wheel"]).namelist()
    top = {name.split("/")[0] for name in names}
    dist_info = {t for t in top if t.endswith(".dist-info")}
    assert top - dist_info == {"mtg_judge"}, f"top-level names in the wheel: {sorted(top)}"
    assert not any(name.startswith(("engine/", "tools/", "conformance/", "tests/")) for name in names)
    missing = [p for p in _expected_data() if f"mtg_judge/{p}" not in names]
    assert not missing, f"{len(missing)} data files missing from the wheel, e.g. {missing[:5]}"
    # the counts behind that: 435+ fixtures, cards, decks, every snapshot, every schema
    assert sum(n.startswith("mtg_judge/conformance/__snapshots__/") for n in names) >= 732
    assert sum(n.startswith("mtg_judge/fixtures/decks/") and n.endswith(".txt") for n in names) >= 6
    assert "mtg_judge/schema/scenario.schema.json" in names
    assert "mtg_judge/schema/audit.schema.json" in names  # the citation audits travel too
    assert any(n.startswith("mtg_judge/fixtures/audit/") and n.endswith(".json") for n in names)
    (entry_points,) = [n for n in names if n.endswith(".dist-info/entry_points.txt")]
    text = zipfile.ZipFile(dist["wheel"]).read(entry_points).decode()
    assert "mtg-judge = mtg_judge.tools.cli:main" in text
    assert "[pytest11]" in text and "mtg_judge.conformance.pytest_plugin" in text


def test_the_sdist_carries_the_sources_and_every_data_file(dist):
    with tarfile.open(dist["sdist"]) as tar:
        names = {name.split("/", 1)[1] for name in tar.getnames() if "/" in name}
    missing = [p for p in _expected_data() + ["pyproject.toml", "README.md", "engine/game.py"]
               if p not in names]
    assert not missing, f"{len(missing)} files missing from the sdist, e.g. {missing[:5]}"


@pytest.fixture(scope="module")
def venv(dist, tmp_path_factory) -> Path:
    """A fresh virtual environment with only the wheel installed (dependencies borrowed)."""
    env = tmp_path_factory.mktemp("venv")
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(env)], check=True)
    python = env / "bin" / "python"
    purelib = subprocess.run([str(python), "-c", "import sysconfig; print(sysconfig.get_path('purelib'))"],
                             capture_output=True, text=True, check=True).stdout.strip()
    Path(purelib, "_borrowed_dependencies.pth").write_text(sysconfig.get_path("purelib") + "\n")
    proc = subprocess.run([sys.executable, "-m", "pip", "--python", str(python), "install",
                           "--quiet", "--no-deps", "--no-index", str(dist["wheel"])],
                          capture_output=True, text=True)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    return env


def _in_venv(env: Path, *args: str, cwd: Path) -> subprocess.CompletedProcess:
    environ = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV")}
    environ["PATH"] = f"{env / 'bin'}{os.pathsep}{environ.get('PATH', '')}"
    environ["MTG_JUDGE_CACHE_DIR"] = str(env / "cache")  # the collection cache of this install
    return subprocess.run(list(args), cwd=cwd, env=environ, capture_output=True, text=True,
                          timeout=600)


def test_the_installed_package_comes_from_the_wheel_not_the_checkout(venv, tmp_path):
    proc = _in_venv(venv, "python", "-c", "import json, mtg_judge.engine, mtg_judge.conformance.resources as r; "
                    "print(json.dumps([mtg_judge.engine.__file__, str(r.FIXTURES_DIR), str(r.SCHEMA_DIR)]))",
                    cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    for path in json.loads(proc.stdout):
        assert Path(path).is_relative_to(venv), f"{path} is not inside the new environment"
        assert not Path(path).is_relative_to(ROOT)
    for module in ("engine", "tools", "conformance"):
        proc = _in_venv(venv, "python", "-c", f"import {module}", cwd=tmp_path)
        assert proc.returncode != 0 and "ModuleNotFoundError" in proc.stderr, f"top-level {module} importable"
    proc = _in_venv(venv, sys.executable, "-m", "pip", "--python", str(venv / "bin" / "python"),
                    "show", "-f", "mtg-judge", cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    files = [line.strip() for line in proc.stdout.split("Files:", 1)[1].splitlines() if line.strip()]
    tops = {f.split("/")[0] for f in files if not f.startswith("..")}
    assert {t for t in tops if not t.endswith(".dist-info")} == {"mtg_judge"}, tops


def _statuses(report_dir: Path) -> dict[str, str]:
    """``{case name: status}`` from a ``report.jsonl`` (its case lines)."""
    out = {}
    for line in (report_dir / "report.jsonl").read_text().splitlines():
        row = json.loads(line)
        if row.get("kind") == "case":
            out[row["name"]] = row["status"]
    return out


def test_the_suite_runs_from_the_wheel_outside_any_checkout(venv, tmp_path):
    work = tmp_path / "elsewhere"
    work.mkdir()
    run = _in_venv(venv, "mtg-judge", "run", "--report-dir", "in-process", cwd=work)
    assert run.returncode == 0, run.stdout[-3000:] + run.stderr[-3000:]
    served = _in_venv(venv, "mtg-judge", "run", "--engine", "mtg-judge serve", "-n", "2",
                      "--report-dir", "served", cwd=work)
    assert served.returncode == 0, served.stdout[-3000:] + served.stderr[-3000:]
    in_process, through_protocol = _statuses(work / "in-process"), _statuses(work / "served")
    assert len(in_process) >= 732 and set(in_process.values()) == {"passed"}
    assert through_protocol == in_process
    assert run.stdout.split("\n\n")[0] == served.stdout.split("\n\n")[0]  # the same table

    validate = _in_venv(venv, "mtg-judge", "validate", cwd=work)
    assert validate.returncode == 0 and validate.stdout.strip().endswith("ok"), validate.stdout + validate.stderr
    show = _in_venv(venv, "mtg-judge", "show", "classic.stack.last-in-first-out", cwd=work)
    assert show.returncode == 0, show.stderr
    assert show.stdout.startswith("classic.stack.last-in-first-out [modern]") and "Play (" in show.stdout
    coverage = _in_venv(venv, "mtg-judge", "coverage", cwd=work)
    assert coverage.returncode == 0, coverage.stderr
    assert "classic" in coverage.stdout and "timespiral" in coverage.stdout
    assert not list(work.glob("*.egg-info")) and sorted(p.name for p in work.iterdir()) == ["in-process", "served"]
