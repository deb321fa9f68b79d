"""Loading and validating fixtures, card files and the rulings catalog (docs/FORMAT.md §3, §5).

Every file is read with :func:`load_json` and checked against its JSON Schema in ``schema/``
(draft 2020-12). The schemas refer to each other by ``$id``
(``https://mtg-judge.dev/schema/<name>.schema.json``); they are resolved from the local
``schema/`` folder, never from the network.

Every problem is a :class:`FixtureError` that names the file, the JSON path inside it
(``$.setup.players[0].hand[2].card``) and what was expected there.

Speed (issue 10). Validation is two-stage:

1. a yes/no from ``jsonschema_rs`` (Rust): one compiled validator per schema, built once
   per process over a registry of every ``schema/*.json`` by ``$id`` (``offline=True``:
   every ``$ref`` names one of them, nothing is fetched). It takes about 0.1 ms per
   fixture where the ``jsonschema`` library takes 15-50 ms, so a cold ``collect()`` of
   the whole suite stops being dominated by validation;
2. only when that says *invalid* (or cannot take the data at all, e.g. a dict with a
   non-string key), the ``jsonschema`` library runs exactly as before and words the
   errors: same messages, same order (``best_match``), same JSON paths. The ``jsonschema``
   library is imported only then, which also keeps it (≈0.1 s of imports) out of the
   start-up of every command whose files are valid.

Why this design rather than the alternatives: a cache keyed by content hash would also
need the schema files in its key, a place on disk to live (read-only installs, CI's fresh
clones) and would not help a cold run; compiling the ``jsonschema`` validators once was
already done (``functools.cache``), the cost is in the Python evaluation itself. The
two-stage check keeps the wording in one place (the ``jsonschema`` path, unchanged), so
the fast path can only change *speed*, never a message. (Issue 21 added such a cache on
top, for the suite's own folder only: :mod:`mtg_judge.conformance.collection_cache`. Its key
holds the schemas and the code, it lives in the user's cache folder and is ignored where
it cannot be written, and it stores only collections without problems, so this module
still words every error; the first run of a fresh clone is as cold as before.)

The fast path is trusted only for a *valid* verdict, so the two validators need only agree
on what is valid. Known differences all make ``jsonschema_rs`` stricter, which just falls
back to the slow path: Python's ``re`` lets ``$`` match before a final newline, and a NaN
is a number to ``jsonschema``. The one way it is more lenient, a tuple taken as a JSON
array, is excluded by :func:`_plain_json` before the fast path is used.
``tests/test_fast_validation.py`` checks that ``jsonschema_rs`` never accepts what
``jsonschema`` refuses on every bad-input file of the repository and on mutations of real
fixtures and cards, and that :func:`validate` returns ``jsonschema``'s errors word for word.
"""

from __future__ import annotations

import functools
import json
import os
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from mtg_judge.conformance.resources import CARDS_DIR, FIXTURES_DIR, RULINGS_FILE, SCHEMA_DIR


class FixtureError(Exception):
    """A problem in a fixture, card, untestable or catalog file.

    Attributes:
        file: the file, as given by the caller (a ``str``; ``"<engine reply>"`` for data
            that did not come from a file).
        path: a JSON path into the file's data, ``$`` for the whole document, e.g.
            ``$.setup.players[0].hand[2].card`` or ``$.expect.state.battlefield["token#1"]``.
        message: one line saying what is wrong, including what was expected.
        expected: what was expected at ``path``, in words (``"one of: modern, ..."``).

    ``str(error)`` is ``"{file}: {path}: {message}"``.
    """

    def __init__(self, file: str | Path, path: str, message: str, expected: str = "") -> None:
        super().__init__(file, path, message, expected)
        self.file = str(file)
        self.path = path
        self.message = message
        self.expected = expected

    def __str__(self) -> str:
        return f"{self.file}: {self.path}: {self.message}"


UNTESTABLE_FILE = "untestable.json"
#: ``fixtures/audit/``: the citation audits (``schema/audit.schema.json``, DESIGN §15.1); not fixtures.
AUDIT_DIR = "audit"
_IDENTIFIER = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


def json_path(parts: Any) -> str:
    """Render a sequence of keys and indexes as a JSON path.

    ``["setup", "players", 0, "hand"]`` → ``$.setup.players[0].hand``; keys that are not
    identifiers are quoted: ``["battlefield", "token#1"]`` → ``$.battlefield["token#1"]``.
    """
    out = "$"
    for part in parts:
        if isinstance(part, int):
            out += f"[{part}]"
        elif _IDENTIFIER.fullmatch(part):
            out += f".{part}"
        else:
            out += f"[{json.dumps(part, ensure_ascii=False)}]"
    return out


def load_json(path: str | Path) -> Any:
    """Read a UTF-8 JSON file and return its data.

    Raises FixtureError (path ``$``) when the file cannot be read, is not UTF-8, is not
    valid JSON (the message gives line and column) or repeats a key inside one object
    (a silent overwrite is almost always an editing mistake).
    """
    try:
        text = Path(path).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise FixtureError(path, "$", f"cannot read the file: {exc}", "a readable UTF-8 file") from None
    try:
        return json.loads(text, object_pairs_hook=_unique_keys)
    except json.JSONDecodeError as exc:
        where = "" if exc.msg.endswith(" at") else " at"  # "Unterminated string starting at"
        raise FixtureError(path, "$", f"invalid JSON: {exc.msg}{where} line {exc.lineno} column {exc.colno}",
                           "valid JSON") from None
    except _DuplicateKey as exc:
        raise FixtureError(path, "$", f"duplicate key {exc.key!r} in one object",
                           "each key once per object") from None


class _DuplicateKey(Exception):
    def __init__(self, key: str) -> None:
        super().__init__(key)
        self.key = key


def _unique_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key, value in pairs:
        if key in out:
            raise _DuplicateKey(key)
        out[key] = value
    return out


SCHEMA_BASE_URI = "https://mtg-judge.dev/schema/"


def _schema_file_name(schema_name: str) -> str:
    return schema_name if schema_name.endswith(".schema.json") else f"{schema_name}.schema.json"


@functools.cache
def _schema_documents() -> dict[str, Any]:
    """Every schema in ``schema/`` by its ``$id``, read once per process."""
    documents = {}
    for path in sorted(SCHEMA_DIR.glob("*.json")):
        contents = json.loads(path.read_text(encoding="utf-8"))
        documents[contents["$id"]] = contents
    return documents


@functools.cache
def _registry() -> Any:
    """Every schema in ``schema/`` by its ``$id`` (so ``$ref`` between files resolves
    offline), as a ``referencing.Registry`` for the ``jsonschema`` library."""
    from referencing import Registry, Resource

    return Registry().with_resources(
        (uri, Resource.from_contents(contents)) for uri, contents in _schema_documents().items())


def _schema(schema_name: str) -> dict:
    """The schema document of ``schema_name``; ValueError naming the known ones if none."""
    try:
        document: dict = _schema_documents()[SCHEMA_BASE_URI + _schema_file_name(schema_name)]
        return document
    except KeyError:
        known = sorted(p.name.removesuffix(".schema.json") for p in SCHEMA_DIR.glob("*.schema.json"))
        raise ValueError(f"no schema {schema_name!r} in {SCHEMA_DIR} (known: {', '.join(known)})") from None


@functools.cache
def _fast_registry() -> Any:
    """Every schema by its ``$id`` as a ``jsonschema_rs.Registry``."""
    import jsonschema_rs  # imported on the first validation: a cached collection needs none

    return jsonschema_rs.Registry(list(_schema_documents().items()))


@functools.cache
def _fast_validator(schema_name: str) -> Any:
    """The compiled ``jsonschema_rs`` validator of ``schema_name`` (the yes/no stage)."""
    import jsonschema_rs

    return jsonschema_rs.Draft202012Validator(_schema(schema_name), registry=_fast_registry(), offline=True)


@functools.cache
def _validator(schema_name: str) -> Any:
    """The ``jsonschema`` library's validator of ``schema_name`` (the wording stage)."""
    from jsonschema import Draft202012Validator

    return Draft202012Validator(_schema(schema_name), registry=_registry())


def _plain_json(instance: Any) -> bool:
    """True unless ``instance`` holds a tuple somewhere: ``jsonschema_rs`` takes a tuple
    for a JSON array, the ``jsonschema`` library does not (data read from a file never
    holds one)."""
    stack = [instance]
    while stack:
        value = stack.pop()
        if isinstance(value, dict):
            stack.extend(value.values())
        elif isinstance(value, list):
            stack.extend(value)
        elif isinstance(value, tuple):
            return False
    return True


def validate(instance: Any, schema_name: str, file: str | Path) -> list[FixtureError]:
    """Check ``instance`` against ``schema/<schema_name>.schema.json``.

    ``schema_name`` is ``"scenario"``, ``"card"``, ``"event"``, ``"state"``,
    ``"untestable"``, ``"rulings"`` or ``"protocol-run"`` etc. (the ``.schema.json`` suffix
    may be given too); ``file`` only labels the errors. Returns every error, most relevant
    first (jsonschema's ``best_match`` order); each descends into ``anyOf``/``if``
    branches to the most specific cause. Returns ``[]`` when the instance is valid.
    Raises ValueError for an unknown schema name.

    A valid instance is recognised by ``jsonschema_rs`` alone; the ``jsonschema`` library
    words the errors of an invalid one (see the module's docstring).
    """
    return _validate(instance, schema_name, file, from_json=False)


def _validate(instance: Any, schema_name: str, file: str | Path, from_json: bool) -> list[FixtureError]:
    """:func:`validate`; ``from_json``: ``instance`` was parsed from JSON text (so it holds
    no tuple and :func:`_plain_json` can be skipped)."""
    fast = _fast_validator(schema_name)
    try:
        if fast.is_valid(instance) and (from_json or _plain_json(instance)):
            return []
    except Exception:  # noqa: BLE001 - data it cannot convert (a non-string key...): ask jsonschema
        pass
    return _errors(instance, schema_name, file)


def _errors(instance: Any, schema_name: str, file: str | Path) -> list[FixtureError]:
    """Every error of ``instance`` worded by the ``jsonschema`` library, most relevant first."""
    from jsonschema.exceptions import best_match, relevance

    validator = _validator(schema_name)
    base_uri = validator.schema["$id"]
    errors = _without_moot_conditions(list(validator.iter_errors(instance)),
                                      _condition_keys(schema_name))
    errors = sorted(errors, key=relevance, reverse=True)
    return [_to_fixture_error(best_match([error]), file, base_uri) for error in errors]


def _conditional(error: Any) -> bool:
    return any(key in ("then", "else") for key in error.absolute_schema_path)


def _without_moot_conditions(errors: list, keys: frozenset[str]) -> list:
    """``errors`` without those of a schema's ``if``/``then``/``else`` branch inside an
    object whose property that a condition reads (``keys``: ``types``, ``layout``…) is
    missing or of the wrong type: the branch taken then means nothing (a ``types`` that is
    a string "contains" every type as far as JSON Schema's ``contains`` goes, so a card
    would be told it lacks a planeswalker's loyalty, or has a non-creature's power), and
    the error about the property itself is the one that points at the cause (issue 25)."""
    broken: list[tuple] = []
    for error in errors:
        if _conditional(error):
            continue
        path = tuple(error.absolute_path)
        if error.validator == "type" and path and path[-1] in keys:
            broken.append(path[:-1])
        elif error.validator == "required" and isinstance(error.instance, dict) and any(
                key in keys and key not in error.instance for key in error.validator_value or ()):
            broken.append(path)
    if not broken:
        return errors
    return [e for e in errors if not (_conditional(e) and any(
        tuple(e.absolute_path)[:len(b)] == b for b in broken))]


@functools.lru_cache(maxsize=None)
def _condition_keys(schema_name: str) -> frozenset[str]:
    """The property names that the ``if`` conditions of a schema read."""
    keys: set[str] = set()

    def walk(node: Any, in_if: bool) -> None:
        if isinstance(node, dict):
            for key, value in node.items():
                if in_if and key in ("properties", "required"):
                    keys.update(value if key == "required" and isinstance(value, list) else
                                value.keys() if isinstance(value, dict) else ())
                walk(value, in_if or key == "if")
        elif isinstance(node, list):
            for item in node:
                walk(item, in_if)

    walk(_validator(schema_name).schema, False)
    return frozenset(keys)


def _to_fixture_error(error: Any, file: str | Path, base_uri: str) -> FixtureError:
    """Turn a jsonschema error into a FixtureError with a readable message and expectation.

    ``base_uri`` is the ``$id`` of the schema being applied (to resolve a ``$ref`` when
    listing the allowed properties of an ``unevaluatedProperties`` error).
    """
    schema = error.schema if isinstance(error.schema, dict) else {}
    description = schema.get("description", "")
    value = error.validator_value
    message = error.message
    if error.validator == "not" and description:
        message = expected = description
    elif error.validator == "pattern" and description:
        expected = description
        message = f"{error.instance!r} does not match {value!r}: expected {description}"
    elif error.validator in ("anyOf", "oneOf") and description:
        expected = description
        message = f"{json.dumps(error.instance, ensure_ascii=False)} is not valid here: expected {description}"
    elif error.validator == "enum":
        expected = "one of: " + ", ".join(json.dumps(v) for v in value)
    elif error.validator == "const":
        expected = json.dumps(value)
    elif error.validator == "type":
        expected = f"a JSON {' or '.join(value) if isinstance(value, list) else value}"
    elif error.validator == "required":
        expected = "the properties: " + ", ".join(value)
    elif error.validator in ("additionalProperties", "unevaluatedProperties"):
        names = _allowed_properties(schema, base_uri)
        expected = "only the properties: " + ", ".join(names) if names else "no other properties"
    else:
        expected = _EXPECTED.get(error.validator, "{validator}: {value}").format(
            validator=error.validator, value=json.dumps(value))
    return FixtureError(file, json_path(error.absolute_path), message, expected)


_EXPECTED = {
    "minItems": "at least {value} item(s)",
    "maxItems": "at most {value} item(s)",
    "minProperties": "at least {value} propert(y/ies)",
    "minLength": "at least {value} character(s)",
    "minimum": "a number >= {value}",
    "maximum": "a number <= {value}",
    "uniqueItems": "no repeated items",
}


def _allowed_properties(schema: dict, base_uri: str) -> list[str]:
    """The property names ``schema`` declares, including those of the schema its ``$ref`` names."""
    from referencing.exceptions import Unresolvable

    names = set(schema.get("properties", {}))
    if "$ref" in schema:
        try:
            target = _registry().resolver(base_uri=base_uri).lookup(schema["$ref"]).contents
        except Unresolvable:  # a $ref relative to another file: list what is known
            target = {}
        names |= set(target.get("properties", {}))
    return sorted(names)


def _first(data: Any, schema_name: str, file: str | Path) -> Any:
    """Return ``data`` (parsed from JSON) if it matches the schema, else raise its most
    relevant error."""
    errors = _validate(data, schema_name, file, from_json=True)
    if errors:
        raise errors[0]
    return data


def load_cards(cards_dir: str | Path = CARDS_DIR) -> dict[str, dict]:
    """Load every ``*.json`` card file in ``cards_dir`` (FORMAT §5).

    Returns ``{card name: card dict}``, files read in sorted order. Raises FixtureError for
    the first problem: unreadable or invalid JSON, a schema error, or a card name already
    defined by another file (path ``$.name``).
    """
    cards: dict[str, dict] = {}
    files: dict[str, Path] = {}
    for path in sorted(Path(cards_dir).glob("*.json")):
        card = _first(load_json(path), "card", path)
        name = card["name"]
        if name in cards:
            raise FixtureError(path, "$.name", f"duplicate card name {name!r}: already defined in {files[name]}",
                               "a card name defined by one file only")
        cards[name], files[name] = card, path
    return cards


def load_cards_lenient(cards_dir: str | Path = CARDS_DIR) -> tuple[dict[str, dict], list[FixtureError]]:
    """Like :func:`load_cards`, but a bad card file is left out instead of stopping
    everything: returns ``({card name: card dict}, [FixtureError per bad file])``, so that
    one broken card file errors only the fixtures that use it."""
    cards: dict[str, dict] = {}
    files: dict[str, Path] = {}
    problems: list[FixtureError] = []
    for path in sorted(Path(cards_dir).glob("*.json")):
        try:
            card = _first(load_json(path), "card", path)
        except FixtureError as exc:
            problems.append(exc)
            continue
        name = card["name"]
        if name in cards:
            problems.append(FixtureError(path, "$.name", f"duplicate card name {name!r}: already defined in "
                                         f"{files[name]}", "a card name defined by one file only"))
            continue
        cards[name], files[name] = card, path
    return cards, problems


def load_fixture(path: str | Path) -> dict:
    """Load one fixture file and check it against ``schema/scenario.schema.json`` (FORMAT §3).

    Returns the fixture dict. Raises FixtureError for unreadable or invalid JSON, or for the
    most relevant schema error. (Cross-file checks — unknown cards, aliases, ruling ids,
    duplicate ids — are :func:`mtg_judge.conformance.lint.lint`'s job.)
    """
    scenario: dict = _first(load_json(path), "scenario", path)
    return scenario


def iter_fixture_paths(root: str | Path = FIXTURES_DIR) -> Iterator[Path]:
    """Yield every fixture file under ``root``: each ``*.json`` at any depth, sorted, except
    the card files (``root/cards/``), the citation audits (``root/audit/``) and
    ``root/untestable.json``.

    Symlinked folders are followed, each real folder once: a second link to a folder
    already walked, or a link back to a parent (a loop), is not entered again. Paths are
    given as found under ``root`` (a file reached through a link keeps the link's path, so
    its ``<document>/<mechanic>`` is where the link sits). A dangling symlink named
    ``*.json`` is yielded too (loading it fails with a message naming it)."""
    root = Path(root)
    skip_dirs, skip_file = (root / "cards", root / AUDIT_DIR), root / UNTESTABLE_FILE
    seen: set[str] = set()
    found: list[Path] = []
    for dirpath, dirnames, filenames in os.walk(root, followlinks=True):
        real = os.path.realpath(dirpath)
        if real in seen:  # reached again through another link
            dirnames[:] = []
            continue
        seen.add(real)
        # Not into a folder already walked (a link back to a parent: a loop), nor cards/.
        dirnames[:] = sorted(d for d in dirnames
                             if os.path.realpath(os.path.join(dirpath, d)) not in seen
                             and Path(dirpath, d) not in skip_dirs)
        found += [Path(dirpath, name) for name in filenames if name.endswith(".json")]
    for path in sorted(found):
        # ``skip in path.parents``, without building every parent of every path
        if path != skip_file and not any(path != skip and path.is_relative_to(skip)
                                         for skip in skip_dirs):
            yield path


def file_label(path: str | Path, root: str | Path) -> str:
    """``path`` named relative to the folder holding ``root`` (``fixtures/classic/x/y.json``),
    as found (through symlinks, not resolving them) or else resolved; as given when it lies
    outside ``root``'s folder."""
    path, root = Path(path), Path(root)
    try:  # as found first: resolving costs a system call per path component
        return Path(os.path.abspath(path)).relative_to(Path(os.path.abspath(root)).parent).as_posix()
    except ValueError:
        pass
    try:
        return path.resolve().relative_to(root.resolve().parent).as_posix()
    except ValueError:
        return str(path)


def duplicate_id_error(file: str, fixture_id: str, first_file: str) -> FixtureError:
    """The problem of a fixture ``file`` whose id ``fixture_id`` the fixture ``first_file``
    already uses (``mtg-judge validate``, ``run`` and every collection refuse it)."""
    return FixtureError(file, "$.id", f"duplicate fixture id {fixture_id!r}: {first_file} uses "
                        "it too", "an id no other fixture uses")


def load_all_fixtures(root: str | Path = FIXTURES_DIR) -> list[tuple[Path, dict]]:
    """Load every fixture under ``root`` (see :func:`iter_fixture_paths`).

    Returns ``[(path, fixture dict)]`` in path order. Raises FixtureError for the first
    file that does not load (see :func:`load_fixture`).
    """
    return [(path, load_fixture(path)) for path in iter_fixture_paths(root)]


def load_untestable(path: str | Path = FIXTURES_DIR / UNTESTABLE_FILE) -> list[dict]:
    """Load ``fixtures/untestable.json``: ``[{"id": ruling id, "reason": str}]`` (DESIGN §15).

    A missing file means no ruling is declared untestable: returns ``[]``. Raises
    FixtureError for invalid JSON or a schema error (``schema/untestable.schema.json``).
    """
    if not Path(path).exists():
        return []
    entries: list[dict] = _first(load_json(path), "untestable", path)
    return entries


def iter_audit_paths(root: str | Path = FIXTURES_DIR) -> list[Path]:
    """The citation audit files ``root/audit/*.json``, sorted (none if the folder is missing)."""
    folder = Path(root) / AUDIT_DIR
    return sorted(folder.glob("*.json")) if folder.is_dir() else []


def load_audits(root: str | Path = FIXTURES_DIR) -> dict[str, dict]:
    """The citation audits of ``root/audit/*.json`` merged by ruling unit (DESIGN §15.1).

    Returns ``{ruling id: {"document", "file" (path), "claims": [...], "note"?}}`` (the
    unit objects of ``schema/audit.schema.json`` with their file). Raises FixtureError for
    invalid JSON or a schema error; a unit audited twice keeps its first entry (``mtg-judge
    validate`` reports the second).
    """
    units: dict[str, dict] = {}
    for path in iter_audit_paths(root):
        data = _first(load_json(path), "audit", path)
        for unit in data["units"]:
            units.setdefault(unit["id"], {**unit, "document": data["document"], "file": str(path)})
    return units


def load_rulings(path: str | Path = RULINGS_FILE) -> dict:
    """Load the project's catalog of ruling units (``conformance/rulings.json``).

    Returns ``{"version": 1, "documents": {doc: {"file", "title", "era"}},
    "rulings": [{"id", "doc", "lines": [first, last], "heading", "kind", "sha1"}]}``.
    Raises FixtureError for invalid JSON or a schema error (``schema/rulings.schema.json``).
    """
    rulings: dict = _first(load_json(path), "rulings", path)
    return rulings
