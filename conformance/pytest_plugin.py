"""pytest plugin of mtg-judge (loaded by ``-p conformance.pytest_plugin`` in pyproject.toml).

Provides the ``log_snapshot`` fixture: a syrupy snapshot stored as one JSON file per test
(``conformance/__snapshots__/test_fixtures/<test name>.json``, DESIGN §8). syrupy fails a full
run that leaves snapshots unused; ``--snapshot-update`` rewrites them and deletes unused ones
(``mtg-judge snapshots update`` does that serially and reports the changes).
"""

from __future__ import annotations

import pytest


@pytest.fixture
def log_snapshot(snapshot):
    """syrupy's ``snapshot`` with the JSON extension (readable line diffs on failure)."""
    from syrupy.extensions.json import JSONSnapshotExtension

    return snapshot.use_extension(JSONSnapshotExtension)
