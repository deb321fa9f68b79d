"""A disk cache of the suite's collected cases, keyed by the content of everything they are
built from (issue 21: collection was about 0.2 s of every ``mtg-judge run``).

:func:`mtg_judge.conformance.runner.collect` of the suite's own fixtures directory
(:data:`~mtg_judge.conformance.resources.FIXTURES_DIR`) reads its cases from here when the
key matches, and otherwise collects them as always and stores them. The key is a BLAKE2b
digest of, length-prefixed and in a fixed order:

* this module's :data:`CACHE_VERSION`, the Python version and the ``marshal`` format;
* the fixtures directory as given and as an absolute path (cases carry paths under it);
* the path and the **bytes** of every fixture file :func:`~mtg_judge.conformance.loader.iter_fixture_paths`
  yields (the walk is done on every call: a file added, removed or linked changes the key),
  of every card file (``<root>/cards/*.json``) and of every schema (``schema/*.json``);
* the bytes of the code that turns them into cases: every module of ``mtg_judge.conformance``
  and ``mtg_judge.engine`` (the expectation by ruleset reads ``engine/rulesets.py``), and
  the installed version of ``jsonschema_rs`` (the validity verdict).

File times are never part of the key: a file rewritten with the same bytes is a hit, a file
changed within the same second is a miss. Only a collection without any problem is stored
(no invalid fixture or card file, no unknown card): a problem's message always comes from
the loader itself. Reading the key costs about 0.03 s (the walk and every file read), a
hit about 0.02 s more; a miss costs the write (atomic: a temporary file renamed, so that
parallel processes never read half a file). The cached cases are the same data as a
fresh collection, sharing among cases included (a card's dict is one object for every
case that uses it), each with its :attr:`~mtg_judge.conformance.runner.Case.scenario_json`
already written (the text the reference engine's copy is parsed from) and its
:attr:`~mtg_judge.conformance.runner.Case.needs` (what a report lists).

Where: ``$MTG_JUDGE_CACHE_DIR`` if set (an empty value turns the cache off), else
``$XDG_CACHE_HOME/mtg-judge``, else ``~/.cache/mtg-judge``; one file per fixtures directory
(``collect-<digest of its path>.marshal``), replaced when the key changes; the folder keeps
the :data:`KEEP_FILES` most recently used (written or read with a hit: a checkout's own file
is not pushed out by the temporary fixtures directories of the tests). A cache that
cannot be read or written (a read-only home, a corrupt file) is ignored: the cases are
then collected as without it. The format is :mod:`marshal` of plain data (strings, lists,
dicts; no code and no pickled objects).
"""

from __future__ import annotations

import hashlib
import importlib.util
import marshal
import os
import sys
from collections.abc import Iterable
from pathlib import Path
from typing import TYPE_CHECKING

from mtg_judge.conformance.resources import SCHEMA_DIR

if TYPE_CHECKING:
    from mtg_judge.conformance.runner import Case

#: Raised whenever the stored layout changes.
CACHE_VERSION = 3
#: The environment variable naming the cache folder (empty: no cache).
CACHE_ENV = "MTG_JUDGE_CACHE_DIR"
#: The packages whose modules are part of the key.
CODE_PACKAGES = ("mtg_judge.conformance", "mtg_judge.engine")


def cache_dir() -> Path | None:
    """The cache folder (see the module docstring), or None when ``$MTG_JUDGE_CACHE_DIR``
    is set to an empty value."""
    chosen = os.environ.get(CACHE_ENV)
    if chosen is not None:
        return Path(chosen) if chosen.strip() else None
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "mtg-judge"


def cache_file(root: Path, folder: Path) -> Path:
    """The cache file of the fixtures directory ``root`` inside ``folder``."""
    name = hashlib.blake2b(os.path.abspath(root).encode("utf-8", "surrogateescape"),
                           digest_size=8).hexdigest()
    return folder / f"collect-{name}.marshal"


def _code_files() -> list[Path]:
    out: list[Path] = []
    for package in CODE_PACKAGES:
        spec = importlib.util.find_spec(package)  # imports mtg_judge only, not the package
        for folder in (spec.submodule_search_locations or []) if spec is not None else []:
            out += sorted(Path(folder).glob("*.py"))
    return out


def _jsonschema_rs_version() -> str:
    from importlib import metadata

    try:
        return metadata.version("jsonschema_rs")
    except metadata.PackageNotFoundError:
        return "-"


def source_key(root: Path, fixture_paths: Iterable[Path]) -> str:
    """The hex digest that names what the cases of ``root`` are built from (the module
    docstring lists it); ``fixture_paths`` is the walk of ``root``, in its order. A file
    that cannot be read enters the key as unreadable (the collection then reports it)."""
    digest = hashlib.blake2b(digest_size=32)

    def feed(part: bytes) -> None:
        digest.update(len(part).to_bytes(8, "little"))
        digest.update(part)

    def feed_file(label: str, path: Path) -> None:
        feed(label.encode("utf-8", "surrogateescape"))
        feed(str(path).encode("utf-8", "surrogateescape"))
        try:
            with open(path, "rb") as handle:
                feed(b"+" + handle.read())
        except OSError:
            feed(b"-")

    feed(f"{CACHE_VERSION} {sys.version} {marshal.version} {_jsonschema_rs_version()}".encode())
    feed(str(root).encode("utf-8", "surrogateescape"))
    feed(os.path.abspath(root).encode("utf-8", "surrogateescape"))
    for path in fixture_paths:
        feed_file("fixture", path)
    for path in sorted(Path(root, "cards").glob("*.json")):
        feed_file("card", path)
    for path in sorted(SCHEMA_DIR.glob("*.json")):
        feed_file("schema", path)
    for path in _code_files():
        feed_file("code", path)
    return digest.hexdigest()


def load(root: Path, key: str, folder: Path | None) -> list[Case] | None:
    """The cases stored for ``root`` under ``key``, or None (no cache, another key, a file
    that cannot be read or is not the expected shape)."""
    if folder is None:
        return None
    from mtg_judge.conformance.runner import Case

    try:
        path = cache_file(root, folder)
        with open(path, "rb") as handle:
            stored = marshal.loads(handle.read())  # marshal.load(handle) reads in small pieces: 10x slower
        version, stored_key, rows = stored
        if version != CACHE_VERSION or stored_key != key:
            return None
        with _quiet():  # a hit makes the file the most recently used: _prune keeps it
            os.utime(path)
        cases = []
        for fixture_id, ruleset, path, document, mechanic, scenario, text, needs in rows:
            case = Case(fixture_id, ruleset, Path(path), document, mechanic, scenario)
            case.__dict__["scenario_json"] = text  # the cached_properties, already worked out
            case.__dict__["needs"] = needs
            cases.append(case)
        return cases
    except (OSError, EOFError, ValueError, TypeError):
        return None


def store(root: Path, key: str, cases: list[Case], folder: Path | None) -> None:
    """Store ``cases`` (a collection without problems) for ``root`` under ``key``; nothing
    happens when that fails (the next run collects again)."""
    if folder is None or any(case.problem for case in cases):
        return
    from mtg_judge.conformance.needs import case_needs

    card_memo: dict = {}  # a card's needs are worked out once for every case using it
    try:
        rows = [(c.fixture_id, c.ruleset, str(c.path), c.document, c.mechanic, c.scenario,
                 c.scenario_json, c.__dict__["needs"] if "needs" in c.__dict__
                 else c.__dict__.setdefault("needs", case_needs(c.scenario, card_memo)))
                for c in cases]
    except TypeError:  # a scenario canonical JSON refuses: run_case will say so
        return
    try:
        data = marshal.dumps((CACHE_VERSION, key, rows))
        folder.mkdir(parents=True, exist_ok=True)
        target = cache_file(root, folder)
        import tempfile  # only to store: a hit does not need it

        handle, temporary = tempfile.mkstemp(dir=folder, prefix=target.name, suffix=".tmp")
        try:
            with os.fdopen(handle, "wb") as out:
                out.write(data)
            os.replace(temporary, target)
        except BaseException:
            with _quiet():
                os.unlink(temporary)
            raise
        _prune(folder, keep=target)
    except (OSError, ValueError):
        return


#: How many cache files (fixtures directories) a cache folder keeps.
KEEP_FILES = 8


def _prune(folder: Path, keep: Path) -> None:
    """Remove the least recently used cache files (file time: written, or read with a hit by
    :func:`load`) beyond :data:`KEEP_FILES` (fixtures directories of temporary installs, old
    checkouts), never ``keep``."""
    found = []
    for path in folder.glob("collect-*.marshal"):
        with _quiet():
            found.append((path.stat().st_mtime_ns, path.name, path))
    found.sort(reverse=True)
    for _time, _name, path in found[KEEP_FILES:]:
        if path != keep:
            with _quiet():
                path.unlink()


def _quiet():
    import contextlib

    return contextlib.suppress(OSError)
