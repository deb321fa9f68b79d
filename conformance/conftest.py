"""pytest configuration of the suite's own snapshot tests (``conformance/test_fixtures.py``).

Provides the ``log_snapshot`` fixture: a syrupy snapshot stored as one JSON file per test
(``conformance/__snapshots__/test_fixtures/<test name>.json``, DESIGN §8) in the layout of
:func:`mtg_judge.conformance.canonical.snapshot_text` (one event per line). syrupy fails a full run that
leaves snapshots unused, with or without ``-n auto``; ``--snapshot-update`` rewrites them and
deletes unused ones (``mtg-judge snapshots update`` does that serially and reports the
changes). A "full run" is ``pytest`` collecting from ``testpaths``: given a path argument
(``pytest conformance``), syrupy ignores snapshot files that match no collected test, so use
``pytest -o testpaths=conformance`` to check only the fixtures.
"""

from __future__ import annotations

import pytest
from syrupy.extensions.json import JSONSnapshotExtension

from mtg_judge.conformance.canonical import snapshot_text


class LogSnapshotExtension(JSONSnapshotExtension):
    """syrupy's JSON extension (a ``.json`` file per test, line diffs on failure), serializing
    an engine result with :func:`snapshot_text` so that each event is one line."""

    def serialize(self, data, **kwargs) -> str:
        return snapshot_text(data)


@pytest.fixture
def log_snapshot(snapshot):
    """syrupy's ``snapshot`` with :class:`LogSnapshotExtension`; compare with
    ``assert result == log_snapshot`` where ``result`` has ``events``/``state``/``checkpoints``."""
    return snapshot.use_extension(LogSnapshotExtension)
