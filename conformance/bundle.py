"""The suite as plain data: export it as a bundle, and read a bundle back (docs/PROTOCOL.md §7).

A bundle holds every case (one fixture under one of its rulesets) already resolved: the
``scenario`` exactly as a protocol ``run`` message carries it (the fixture with
``expect_by_ruleset`` applied by :func:`mtg_judge.conformance.expect.for_ruleset` and every
card of its setup embedded under ``cards``, see
:func:`mtg_judge.conformance.protocol.build_scenario`), the JSON Schemas, and a manifest. An
engine written in any language can be tested from it without Python, and ``mtg-judge run
--bundle PATH`` (or the pytest plugin's ``--mtg-fixtures PATH``) plays it without the
repository's fixtures.

Layout (a folder, or the same paths inside one zip file)::

    manifest.json                       the manifest (below)
    README.md                           how to use the bundle (points to docs/PROTOCOL.md §7)
    cases/<fixture id>/<ruleset>.json   one case: {"bundle_version", "id", "fixture",
                                        "ruleset", "document", "mechanic", "source",
                                        "checks": [{"name", "capability"}], "needs",
                                        "scenario"}
    schema/<name>.schema.json           the JSON Schemas (scenario, card, event, state,
                                        protocol messages), byte for byte

``manifest.json``::

    {"bundle_version": 1, "suite": {"name": "mtg-judge", "version": "0.1.0"},
     "protocol_version": 1, "rulesets": [sorted rulesets of the cases],
     "selection": {"rulesets": [...] or null, "keyword": "EXPR" or null},
     "counts": {"cases": n, "fixtures": m},
     "cases": [{"id": "<fixture id>[<ruleset>]", "fixture", "ruleset", "document",
                "mechanic", "source": "<document>/<mechanic>/<name>.json", "file":
                "cases/<fixture id>/<ruleset>.json",
                "needs": {"actions": [...], ...}}],      # in run order; needs.case_needs
     "files": {"<path>": "<sha256 hex>"}}               # every file but manifest.json

Every byte is deterministic: case files are canonical JSON
(:func:`mtg_judge.conformance.canonical.dumps`, one line, sorted keys) plus a newline, the
manifest is the same data indented (sorted keys), schemas are copied unchanged, and a zip
has its entries in sorted order with fixed timestamps (1980-01-01) and permissions. Two
exports of the same fixtures give identical files and an identical zip.
"""

from __future__ import annotations

import contextlib
import hashlib
import io
import json
import os
import zipfile
from dataclasses import dataclass
from pathlib import Path, PurePosixPath
from typing import Iterable

from mtg_judge.conformance.canonical import dumps
from mtg_judge.conformance.resources import SCHEMA_DIR

#: The version of the bundle layout (the manifest's and every case file's ``bundle_version``).
BUNDLE_VERSION = 1
MANIFEST = "manifest.json"
#: The fixed timestamp of every zip entry (the earliest a zip can hold).
ZIP_DATE = (1980, 1, 1, 0, 0, 0)
_CASE_KEYS = ("id", "fixture", "ruleset", "document", "mechanic", "source", "file")


class BundleError(Exception):
    """A bundle that cannot be written or read: ``str(error)`` is ``"<file>: <problem>"``,
    naming the bundle (or the file inside it) and what was expected."""

    def __init__(self, file: str | Path, problem: str):
        super().__init__(f"{file}: {problem}")
        self.file, self.problem = str(file), problem


# --------------------------------------------------------------------------------------------
# Writing


def _suite_version() -> str:
    from mtg_judge.conformance.protocol import _package_version

    return _package_version()


def case_file(case) -> str:
    """The bundle path of a case: ``cases/<fixture id>/<ruleset>.json``."""
    return f"cases/{case.fixture_id}/{case.ruleset}.json"


def bundle_files(cases: list, selection: dict | None = None, root: Path | str | None = None,
                 schema_dir: Path | str = SCHEMA_DIR) -> dict[str, bytes]:
    """The bundle of ``cases`` (:class:`mtg_judge.conformance.runner.Case`, in run order) as
    ``{posix path: bytes}``, the manifest included (layout and shapes in the module
    docstring). ``selection`` is recorded in the manifest (``{"rulesets", "keyword"}``);
    ``root`` is the fixtures folder the cases come from (each case's ``source`` is its file
    relative to it).

    Raises :class:`BundleError` for a case that cannot be exported (an invalid fixture or
    an unknown card: its ``problem``, naming the file), for two cases with one id, or for
    data that is not canonical JSON.
    """
    from mtg_judge.conformance.needs import case_needs
    from mtg_judge.conformance.runner import plan_checks

    bad = [c for c in cases if c.problem]
    if bad:
        raise BundleError(bad[0].path, f"cannot export {len(bad)} case(s) with problems (run "
                          "mtg-judge validate):\n  "
                          + "\n  ".join(f"{c.name}: {c.problem}" for c in bad))
    files: dict[str, bytes] = {}
    entries = []
    for case in cases:
        name = case_file(case)
        if name in files:
            raise BundleError(case.path, f"two cases named {case.name}")
        source = _source(case, root)
        record = {"bundle_version": BUNDLE_VERSION, "id": case.name,
                  "fixture": case.fixture_id, "ruleset": case.ruleset,
                  "document": case.document, "mechanic": case.mechanic, "source": source,
                  "checks": [{"name": n, "capability": c} for n, c in plan_checks(case.scenario)],
                  "needs": case_needs(case.scenario), "scenario": case.scenario}
        try:
            files[name] = (dumps(record) + "\n").encode("utf-8")
        except TypeError as exc:
            raise BundleError(case.path, f"not canonical JSON: {exc}") from None
        entries.append({"id": case.name, "fixture": case.fixture_id, "ruleset": case.ruleset,
                        "document": case.document, "mechanic": case.mechanic,
                        "source": source, "file": name, "needs": record["needs"]})
    schema_dir = Path(schema_dir)
    for path in sorted(schema_dir.glob("*.schema.json")):
        files[f"schema/{path.name}"] = path.read_bytes()
    version = _suite_version()
    files["README.md"] = _readme(version, len(entries)).encode("utf-8")
    manifest = {
        "bundle_version": BUNDLE_VERSION,
        "suite": {"name": "mtg-judge", "version": version},
        "protocol_version": 1,
        "rulesets": sorted({e["ruleset"] for e in entries}),
        "selection": selection or {"rulesets": None, "keyword": None},
        "counts": {"cases": len(entries), "fixtures": len({e["fixture"] for e in entries})},
        "cases": entries,
        "files": {path: hashlib.sha256(data).hexdigest() for path, data in sorted(files.items())},
    }
    files[MANIFEST] = manifest_text(manifest).encode("utf-8")
    return dict(sorted(files.items()))


def manifest_text(manifest: dict) -> str:
    """The bytes-stable text of a manifest: canonical data, indented 1, sorted keys, a final
    newline. Raises ``TypeError`` for data canonical JSON refuses."""
    return json.dumps(json.loads(dumps(manifest)), indent=1, sort_keys=True,
                      ensure_ascii=False) + "\n"


def _source(case, root: Path | str | None) -> str:
    """The fixture file relative to its fixtures directory (``classic/stack/x.json``)."""
    if root is not None:
        with contextlib.suppress(ValueError):
            return Path(case.path).resolve().relative_to(Path(root).resolve()).as_posix()
    parts = Path(case.path).parts
    if case.document and case.document in parts:
        i = len(parts) - 1 - parts[::-1].index(case.document)
        return PurePosixPath(*parts[i:]).as_posix()
    return Path(case.path).name


def _readme(version: str, count: int) -> str:
    return (f"# mtg-judge {version} conformance bundle\n\n"
            f"{count} cases: every fixture of the suite under each of its rulesets, resolved.\n"
            "`cases/<fixture id>/<ruleset>.json` holds one case; send its `ruleset` and\n"
            "`scenario` to your engine as a protocol v1 `run` message\n"
            '(`{"cmd": "run", "seq": N, "ruleset": ..., "scenario": ...}`) and check the\n'
            "reply against `scenario.expect` (FORMAT §3.3). `manifest.json` lists the cases in\n"
            "run order and the sha256 of every file; `schema/` holds the JSON Schemas.\n"
            "The layout and how to use it: docs/PROTOCOL.md §7 of mtg-judge. To play the bundle\n"
            'through mtg-judge itself: `mtg-judge run --bundle THIS --engine "COMMAND"`.\n')


def write_bundle(files: dict[str, bytes], out: Path | str, fmt: str = "dir",
                 force: bool = False) -> Path:
    """Write :func:`bundle_files` output to ``out``: a folder (``fmt="dir"``) or one zip
    file (``fmt="zip"``). Returns ``out``.

    A folder must not exist or be empty, unless ``force`` and it holds nothing but a bundle
    exported before (:func:`_remove_old_bundle`), which is then replaced. A zip is written through a temporary file
    and a rename; an existing file is replaced only with ``force``. Raises
    :class:`BundleError` (the path and what was expected) or ``OSError``.
    """
    out = Path(out)
    if fmt == "zip":
        if out.is_dir():
            raise BundleError(out, "is a folder; --format zip writes one zip file")
        if out.exists() and not force:
            raise BundleError(out, "already exists (use --force to replace it)")
        out.parent.mkdir(parents=True, exist_ok=True)
        tmp = out.with_name(f".{out.name}.{os.getpid()}.tmp")
        try:
            with open(tmp, "wb") as stream:
                stream.write(zip_bytes(files))
            os.replace(tmp, out)
        except BaseException:
            with contextlib.suppress(OSError):
                os.unlink(tmp)
            raise
        return out
    if fmt != "dir":
        raise ValueError(f"unknown bundle format {fmt!r}, expected dir or zip")
    if out.exists():
        if not out.is_dir():
            raise BundleError(out, "exists and is not a folder")
        if any(out.iterdir()):
            if not force:
                raise BundleError(out, "is not empty (use --force to replace a bundle "
                                       "exported there before)")
            _remove_old_bundle(out)
    for name, data in files.items():
        path = out / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(data)
    return out


def _remove_old_bundle(folder: Path) -> None:
    """Delete the bundle exported into ``folder`` before, and nothing else: only a folder
    whose every file is ``manifest.json`` (an mtg-judge bundle manifest) or listed in its
    ``files`` is emptied (files first, then the folders left empty). Raises
    :class:`BundleError` naming the first file that is not the old bundle's, so that
    ``--force`` never deletes someone's project because it holds a ``manifest.json``."""
    try:
        manifest = json.loads((folder / MANIFEST).read_text(encoding="utf-8"))
        listed = set(manifest["files"]) if manifest.get("suite", {}).get("name") == "mtg-judge" \
            and isinstance(manifest.get("bundle_version"), int) else None
    except (OSError, ValueError, KeyError, TypeError, AttributeError):
        listed = None
    if listed is None:
        raise BundleError(folder, "is not empty and holds no mtg-judge bundle (no manifest.json "
                                  "with bundle_version and suite mtg-judge): --force only "
                                  "replaces a bundle exported there before; choose a new or "
                                  "empty folder")
    files = sorted(p for p in folder.rglob("*") if not p.is_dir() or p.is_symlink())
    for path in files:
        name = path.relative_to(folder).as_posix()
        if name != MANIFEST and name not in listed:
            raise BundleError(folder, f"holds {name}, which is not a file of the bundle exported "
                                      "there before: --force only replaces a folder holding "
                                      "nothing but that bundle; nothing was deleted")
    for path in files:
        path.unlink()
    for sub in sorted((p for p in folder.rglob("*") if p.is_dir()), key=lambda p: -len(p.parts)):
        with contextlib.suppress(OSError):
            sub.rmdir()


def zip_bytes(files: dict[str, bytes]) -> bytes:
    """A deterministic zip of ``files`` (``{posix path: bytes}``): entries sorted by path,
    timestamps :data:`ZIP_DATE`, mode 0644, deflate level 9, no extra fields. The
    compressed bytes are those of the Python's zlib: identical for every export with the
    same zlib (a different zlib build, e.g. zlib-ng, may compress differently; the files
    inside, and so the manifest's sha256s, are the same)."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        for name in sorted(files):
            info = zipfile.ZipInfo(name, date_time=ZIP_DATE)
            info.compress_type = zipfile.ZIP_DEFLATED
            info.create_system = 3
            info.external_attr = 0o100644 << 16
            archive.writestr(info, files[name], compresslevel=9)
    return buffer.getvalue()


# --------------------------------------------------------------------------------------------
# Reading


def is_bundle(path: Path | str) -> bool:
    """True if ``path`` is a zip file or a folder holding ``manifest.json`` (a bundle), False
    for anything else (e.g. a fixtures folder)."""
    path = Path(path)
    if path.is_file():
        return zipfile.is_zipfile(path)
    return (path / MANIFEST).is_file()


@dataclass
class Bundle:
    """A bundle read by :func:`read_bundle`: its ``path``, ``manifest`` (the dict of
    ``manifest.json``) and ``files`` (``{posix path: bytes}``, every file checked against
    its sha256)."""

    path: Path
    manifest: dict
    files: dict[str, bytes]

    def case_records(self) -> list[dict]:
        """Every case file's data, in the manifest's (run) order."""
        out = []
        for entry in self.manifest["cases"]:
            name = entry["file"]
            try:
                record = json.loads(self.files[name].decode("utf-8"))
            except (ValueError, UnicodeDecodeError) as exc:
                raise BundleError(f"{self.path}/{name}", f"not a JSON case file: {exc}") from None
            if not isinstance(record, dict) or not isinstance(record.get("scenario"), dict):
                raise BundleError(f"{self.path}/{name}", "expected a JSON object with a "
                                  "'scenario' object")
            for key in ("id", "fixture", "ruleset"):
                if record.get(key) != entry[key]:
                    raise BundleError(f"{self.path}/{name}", f"{key} {record.get(key)!r} "
                                      f"differs from the manifest's {entry[key]!r}")
            out.append(record)
        return out


def _read_files(path: Path) -> dict[str, bytes]:
    if path.is_file():
        try:
            with zipfile.ZipFile(path) as archive:
                return {info.filename: archive.read(info) for info in archive.infolist()
                        if not info.is_dir()}
        except (zipfile.BadZipFile, OSError) as exc:
            raise BundleError(path, f"not a readable zip file: {exc}") from None
    if not path.is_dir():
        raise BundleError(path, "no such bundle (expected a folder or a zip file written "
                                "by mtg-judge export)")
    return {p.relative_to(path).as_posix(): p.read_bytes()
            for p in sorted(path.rglob("*")) if p.is_file()}


def read_bundle(path: Path | str) -> Bundle:
    """Read a bundle folder or zip file written by ``mtg-judge export``.

    Raises :class:`BundleError` naming the bundle or the file inside it for: no bundle
    there, no or unreadable ``manifest.json``, a ``bundle_version`` newer than
    :data:`BUNDLE_VERSION`, a manifest without its fields, a file the manifest lists that
    is missing or whose sha256 differs, a ``counts.cases`` that is not the number of
    ``cases``, a case file under ``cases/`` that ``cases`` does not list (a damaged or edited
    bundle).
    """
    path = Path(path)
    files = _read_files(path)
    if MANIFEST not in files:
        raise BundleError(path, f"no {MANIFEST}: not a bundle written by mtg-judge export")
    try:
        manifest = json.loads(files[MANIFEST].decode("utf-8"))
    except (ValueError, UnicodeDecodeError) as exc:
        raise BundleError(f"{path}/{MANIFEST}", f"not JSON: {exc}") from None
    where = f"{path}/{MANIFEST}"
    if not isinstance(manifest, dict):
        raise BundleError(where, "expected a JSON object")
    version = manifest.get("bundle_version")
    if not isinstance(version, int) or version > BUNDLE_VERSION:
        raise BundleError(where, f"bundle_version {version!r}: this mtg-judge reads version "
                                 f"{BUNDLE_VERSION}")
    if not isinstance(manifest.get("cases"), list) or not isinstance(manifest.get("files"), dict):
        raise BundleError(where, "expected 'cases' (a list) and 'files' (an object)")
    for i, entry in enumerate(manifest["cases"]):
        if not isinstance(entry, dict) or not all(isinstance(entry.get(k), str) for k in _CASE_KEYS):
            raise BundleError(where, f"cases[{i}]: expected an object with string "
                                     f"{', '.join(_CASE_KEYS)}")
    for name, digest in sorted(manifest["files"].items()):
        if name not in files:
            raise BundleError(f"{path}/{name}", "missing (listed in the manifest)")
        if hashlib.sha256(files[name]).hexdigest() != digest:
            raise BundleError(f"{path}/{name}", "sha256 differs from the manifest's (a damaged "
                                                "or edited bundle)")
    for entry in manifest["cases"]:
        if entry["file"] not in manifest["files"]:
            raise BundleError(where, f"case {entry['id']}: its file {entry['file']} has no sha256 "
                                     "in 'files'")
    counted = (manifest.get("counts") or {}).get("cases") if isinstance(manifest.get("counts"), dict) else None
    if counted != len(manifest["cases"]):
        raise BundleError(where, f"counts.cases is {counted!r} but 'cases' lists "
                                 f"{len(manifest['cases'])} (an edited manifest)")
    listed = {entry["file"] for entry in manifest["cases"]}
    for name in sorted(files):
        if name.startswith("cases/") and name not in listed:
            raise BundleError(f"{path}/{name}", "a case file the manifest's 'cases' does not list "
                                                "(an edited bundle)")
    return Bundle(path, manifest, files)


def bundle_cases(path: Path | str, rulesets: Iterable[str] | None = None,
                 keyword: str | None = None) -> list:
    """The cases of a bundle as :class:`mtg_judge.conformance.runner.Case` objects, in run
    order, ready for :func:`mtg_judge.conformance.runner.run_suite`; no fixture folder is
    read. ``rulesets`` and ``keyword`` (a ``-k`` expression on ``<id>[<ruleset>]``) select
    as in :func:`mtg_judge.conformance.runner.collect`. A case's ``path`` is its fixture
    file relative to the fixtures folder it was exported from (``classic/stack/x.json``).
    Raises :class:`BundleError` (see :func:`read_bundle`) or ``ValueError`` for a bad
    ``keyword``.
    """
    from mtg_judge.conformance.runner import Case, keyword_matches

    keyword_matches(keyword, "")  # a malformed expression fails before any work
    bundle = read_bundle(path)
    keep = set(rulesets) if rulesets is not None else None
    cases = []
    for record in bundle.case_records():
        case = Case(record["fixture"], record["ruleset"], Path(record.get("source") or ""),
                    record.get("document") or "", record.get("mechanic") or "",
                    record["scenario"])
        if (keep is None or case.ruleset in keep) and keyword_matches(keyword, case.name):
            cases.append(case)
    return cases


def load_cases(path: Path | str, rulesets: Iterable[str] | None = None,
               keyword: str | None = None) -> list:
    """The cases under ``path``: a bundle (:func:`bundle_cases`) or a fixtures folder
    (:func:`mtg_judge.conformance.runner.collect`). Raises :class:`BundleError`,
    ``FixtureError`` or ``ValueError`` (a bad ``keyword``)."""
    if is_bundle(path):
        return bundle_cases(path, rulesets, keyword)
    from mtg_judge.conformance.runner import collect

    return collect(path, rulesets=rulesets, keyword=keyword)
