"""pytest configuration of the project's own tests (tests/).

The tests marked ``slow`` (pyproject.toml) are moved to the front of the run, in their
collected order, the other tests keeping theirs: when a session selects them with the rest
(``.ci/run``: ``pytest -n auto -m "slow or not slow"``), xdist hands them out first and
the short tests fill the other workers meanwhile, instead of a minutes-long test starting
last and running alone (issue 21 item 5). Nothing else changes: the same tests run, each
on its own data; a session without slow tests keeps its order.
"""

from __future__ import annotations

import pytest


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Stable partition of ``items``: those marked ``slow`` first."""
    slow = [item for item in items if item.get_closest_marker("slow") is not None]
    if slow and len(slow) < len(items):
        chosen = set(map(id, slow))
        items[:] = slow + [item for item in items if id(item) not in chosen]
