"""Where the suite's data is: the fixtures, cards, decks, schemas, snapshots and the rulings
catalog, found through :mod:`importlib.resources` as package data of ``mtg_judge``.

The same names work in a checkout (an editable install maps ``mtg_judge.fixtures`` to the
repository's ``fixtures/`` folder, and so on) and in an installed wheel (the data sits under
``site-packages/mtg_judge/``). Each value is a :class:`pathlib.Path` to a real folder or
file: the package must be installed on the file system (a wheel or an editable install, not
a zip archive). ``--fixtures DIR`` on the command line overrides :data:`FIXTURES_DIR`.
"""

from __future__ import annotations

from importlib.resources import files
from pathlib import Path


def package_path(package: str) -> Path:
    """The folder of ``package`` (a dotted name such as ``"mtg_judge.fixtures"``) as a
    :class:`~pathlib.Path`. Raises ``ModuleNotFoundError`` if the package is not installed
    and ``TypeError`` if it is not a file-system folder (a zipped install)."""
    path = Path(str(files(package)))
    if not path.is_dir():
        raise TypeError(f"{package} is not a folder on the file system ({path})")
    return path


#: ``fixtures/``: ``<document>/<mechanic>/<name>.json`` scenarios, ``untestable.json``.
FIXTURES_DIR = package_path("mtg_judge.fixtures")
#: ``fixtures/cards/``: one JSON file per card.
CARDS_DIR = FIXTURES_DIR / "cards"
#: ``fixtures/decks/``: the self-play decks (``*.txt``).
DECKS_DIR = FIXTURES_DIR / "decks"
#: ``schema/``: the JSON Schemas (``<name>.schema.json``).
SCHEMA_DIR = package_path("mtg_judge.schema")
#: ``conformance/``: this package, holding the catalog and the snapshots.
CONFORMANCE_DIR = package_path("mtg_judge.conformance")
#: ``conformance/rulings.json``: the catalog of ruling units (DESIGN §15).
RULINGS_FILE = CONFORMANCE_DIR / "rulings.json"
#: ``conformance/__snapshots__/``: the reference engine's syrupy snapshots (DESIGN §8).
SNAPSHOT_DIR = CONFORMANCE_DIR / "__snapshots__"


def checkout_root() -> Path | None:
    """The repository folder when running from a checkout (an editable install: the folder
    above ``conformance/`` holds ``pyproject.toml``), else None. Only ``mtg-judge snapshots
    update`` needs it: it runs pytest on the repository's tests."""
    root = CONFORMANCE_DIR.parent
    return root if (root / "pyproject.toml").is_file() and (root / "tests").is_dir() else None
