"""The disk cache of collected cases (conformance/collection_cache.py, issue 21): a hit gives
the cases a fresh collection gives, and the key follows the files' bytes, never their times."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

from mtg_judge.conformance import collection_cache
from mtg_judge.conformance.loader import iter_fixture_paths
from mtg_judge.conformance.runner import DEFAULT_ROOT, collect


def _fields(cases):
    return [(c.fixture_id, c.ruleset, c.path, c.document, c.mechanic, c.scenario, c.problem)
            for c in cases]


def test_a_hit_gives_the_cases_of_a_fresh_collection(tmp_path, monkeypatch):
    monkeypatch.setenv(collection_cache.CACHE_ENV, "")
    fresh = collect()
    monkeypatch.setenv(collection_cache.CACHE_ENV, str(tmp_path))
    stored = collect()  # a miss: collected, then stored
    assert list(tmp_path.glob("collect-*.marshal"))
    key = collection_cache.source_key(DEFAULT_ROOT, list(iter_fixture_paths(DEFAULT_ROOT)))
    hit = collection_cache.load(DEFAULT_ROOT, key, tmp_path)
    assert hit is not None and hit is not stored
    assert _fields(hit) == _fields(stored) == _fields(fresh)
    assert _fields(collect(rulesets=["modern"], keyword="flashback")) == _fields(
        c for c in fresh if c.ruleset == "modern" and "flashback" in c.name)
    # a card's data is one object for every case using it, as in a fresh collection
    by_name = [c.scenario["cards"].get("Island") for c in hit if "Island" in c.scenario["cards"]]
    assert len(by_name) > 2 and all(card is by_name[0] for card in by_name)
    with pytest.raises(ValueError, match="malformed -k"):
        collect(keyword="and")


def _copy(root: Path, tmp_path: Path) -> Path:
    """A small fixtures folder: two fixture files and the cards."""
    out = tmp_path / "fixtures"
    shutil.copytree(root / "cards", out / "cards")
    for path in list(iter_fixture_paths(root))[:2]:
        target = out / path.relative_to(root)
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(path, target)
    return out


def test_the_key_follows_bytes_not_times(tmp_path):
    root = _copy(DEFAULT_ROOT, tmp_path)

    def key() -> str:
        return collection_cache.source_key(root, list(iter_fixture_paths(root)))

    first = key()
    fixture = next(iter_fixture_paths(root))
    stat = fixture.stat()
    os.utime(fixture, ns=(stat.st_atime_ns, stat.st_mtime_ns + 10**9))  # touched only
    assert key() == first
    text = fixture.read_text(encoding="utf-8")
    fixture.write_text(text.replace('"title": "', '"title": "X', 1), encoding="utf-8")
    os.utime(fixture, ns=(stat.st_atime_ns, stat.st_mtime_ns))  # same time, other bytes
    assert key() != first
    fixture.write_text(text, encoding="utf-8")
    assert key() == first
    card = next((root / "cards").glob("*.json"))
    card.write_bytes(card.read_bytes() + b"\n")
    assert key() != first
    card.write_bytes(card.read_bytes()[:-1])
    shutil.copy2(fixture, fixture.with_name("another.json"))  # a file added
    assert key() != first


def test_only_the_suites_folder_and_clean_collections_are_stored(tmp_path, monkeypatch):
    cache = tmp_path / "cache"
    monkeypatch.setenv(collection_cache.CACHE_ENV, str(cache))
    root = _copy(DEFAULT_ROOT, tmp_path)
    assert collect(root) and not cache.exists()  # another folder: never cached
    cases = collect(root)
    collection_cache.store(root, "k", cases, cache)
    assert _fields(collection_cache.load(root, "k", cache)) == _fields(cases)
    assert collection_cache.load(root, "other key", cache) is None
    bad = [cases[0].__class__(*_fields(cases)[0][:-1], "invalid fixture: x")]
    collection_cache.store(root, "bad", bad, cache)  # a problem: not stored
    assert collection_cache.load(root, "bad", cache) is None
    collection_cache.cache_file(root, cache).write_bytes(b"\x00 not marshal")
    assert collection_cache.load(root, "k", cache) is None  # a corrupt file is a miss
    assert collection_cache.load(root, "k", None) is None


def test_where_the_cache_lives(monkeypatch, tmp_path):
    monkeypatch.setenv(collection_cache.CACHE_ENV, "")
    assert collection_cache.cache_dir() is None
    monkeypatch.setenv(collection_cache.CACHE_ENV, str(tmp_path))
    assert collection_cache.cache_dir() == tmp_path
    monkeypatch.delenv(collection_cache.CACHE_ENV)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    assert collection_cache.cache_dir() == tmp_path / "xdg" / "mtg-judge"


def test_the_folder_keeps_the_latest_files(tmp_path):
    root = _copy(DEFAULT_ROOT, tmp_path)
    cases = collect(root)
    cache = tmp_path / "cache"
    cache.mkdir()
    for i in range(collection_cache.KEEP_FILES + 3):
        old = cache / f"collect-{i:016x}.marshal"
        old.write_bytes(b"")
        os.utime(old, ns=(10**9 * i, 10**9 * i))
    collection_cache.store(root, "k", cases, cache)
    left = sorted(p.name for p in cache.glob("collect-*.marshal"))
    assert len(left) == collection_cache.KEEP_FILES
    assert collection_cache.cache_file(root, cache).name in left
    assert "collect-0000000000000000.marshal" not in left
    assert _fields(collection_cache.load(root, "k", cache)) == _fields(cases)


def test_a_hit_keeps_the_file_among_the_latest(tmp_path):
    """The folder keeps the most recently *used* files: a file read with a hit is not pruned
    by newer writes of other fixtures directories (issue 21: on a machine with several
    checkouts, or a test run writing files for its temporary fixtures directories, the
    checkout's own file was pushed out and every collection missed)."""
    root = _copy(DEFAULT_ROOT, tmp_path)
    cases = collect(root)
    cache = tmp_path / "cache"
    collection_cache.store(root, "k", cases, cache)
    mine = collection_cache.cache_file(root, cache)
    os.utime(mine, ns=(0, 0))  # written long ago
    for i in range(collection_cache.KEEP_FILES):
        other = cache / f"collect-{i:016x}.marshal"
        other.write_bytes(b"")
        os.utime(other, ns=(10**9 * (i + 1), 10**9 * (i + 1)))
    assert collection_cache.load(root, "k", cache) is not None  # the hit refreshes its time
    assert collection_cache.load(root, "other key", cache) is None  # a miss does not
    collection_cache.store(tmp_path / "elsewhere", "k", cases, cache)  # a newer write prunes one
    left = {p.name for p in cache.glob("collect-*.marshal")}
    assert len(left) == collection_cache.KEEP_FILES
    assert mine.name in left and "collect-0000000000000000.marshal" not in left
