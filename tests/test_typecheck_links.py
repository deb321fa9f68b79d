"""The type checker's view of the package (issue 21): mypy reads the code through
``.typecheck/mtg_judge/``, one relative symbolic link per folder that
``[tool.setuptools.package-dir]`` maps into the ``mtg_judge`` namespace. A folder mapped
there without its link (or a link to the wrong folder) would be left unchecked or checked
under the wrong module name, so the links are compared with the mapping here."""

import os
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
LINKS = ROOT / ".typecheck" / "mtg_judge"


def _pyproject() -> dict:
    return tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))


def test_every_mapped_folder_has_its_link():
    mapping = _pyproject()["tool"]["setuptools"]["package-dir"]
    assert "mtg_judge.engine" in mapping and len(mapping) >= 5
    for module, folder in mapping.items():
        link = LINKS.joinpath(*module.split(".")[1:])
        assert link.exists(), f"{module}: no {link.relative_to(ROOT)} (add a symlink to ../../{folder})"
        assert link.resolve() == (ROOT / folder).resolve(), f"{module}: {link} points elsewhere"


def test_the_links_are_relative_and_only_top_level():
    """Relative, so that a clone anywhere works; one per top-level folder (the subpackages,
    such as tools/adapters, come through their parent's link)."""
    mapping = _pyproject()["tool"]["setuptools"]["package-dir"]
    top = {module.split(".")[1] for module in mapping}
    entries = {p.name: p for p in LINKS.iterdir()}
    assert set(entries) == top
    for name, path in entries.items():
        assert path.is_symlink(), name
        assert not os.path.isabs(os.readlink(path)), f"{name} -> {os.readlink(path)}"


def test_mypy_checks_the_code_packages_through_the_links():
    mypy = _pyproject()["tool"]["mypy"]
    assert mypy["mypy_path"] == ".typecheck"
    assert set(mypy["packages"]) == {"mtg_judge.engine", "mtg_judge.conformance", "mtg_judge.tools"}
