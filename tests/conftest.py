"""pytest configuration of the project's own tests (tests/).

The tests marked ``slow`` (pyproject.toml) are moved to the front of the run, in their
collected order, the other tests keeping theirs: when a session selects them with the rest
(``pytest -n auto``, the README's command and ``.ci/run``'s), xdist hands them out first and
the short tests fill the other workers meanwhile, instead of a minutes-long test starting
last and running alone (issue 21 item 5). Nothing else changes: the same tests run, each
on its own data; a session without slow tests keeps its order.

With ``PYTHONDONTWRITEBYTECODE`` set, Python caches no bytecode, and each of the suite's
subprocesses (the CLI runs, the pytest runs of tests/test_plugin.py, the packaging test's
environment) compiles the package again while pytest rewrites its plugins' modules from
source (tests/test_plugin.py: 55 s CPU against 31 s). The subprocesses of the session (the
xdist workers too) then keep their bytecode in ``pycache/`` of the project's cache folder
(``PYTHONPYCACHEPREFIX``; :func:`mtg_judge.conformance.collection_cache.cache_dir`, off when
``$MTG_JUDGE_CACHE_DIR`` is empty): the checkout gets no ``__pycache__`` folder, as the
variable asks, and the package is compiled once.
"""

from __future__ import annotations

import os

import pytest

from mtg_judge.conformance.collection_cache import cache_dir


def pytest_configure(config: pytest.Config) -> None:
    """Bytecode caching for the session's subprocesses outside the checkout (module
    docstring), when ``PYTHONDONTWRITEBYTECODE`` is set and no prefix is chosen already."""
    folder = cache_dir()
    if os.environ.get("PYTHONDONTWRITEBYTECODE") and not os.environ.get("PYTHONPYCACHEPREFIX") \
            and folder is not None:
        del os.environ["PYTHONDONTWRITEBYTECODE"]
        os.environ["PYTHONPYCACHEPREFIX"] = str(folder / "pycache")


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Stable partition of ``items``: those marked ``slow`` first."""
    slow = [item for item in items if item.get_closest_marker("slow") is not None]
    if slow and len(slow) < len(items):
        chosen = set(map(id, slow))
        items[:] = slow + [item for item in items if id(item) not in chosen]
