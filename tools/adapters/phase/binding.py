"""The phase-python bindings (import name ``phase``) and the one way the adapter builds a
phase action (:func:`action`). ``phase`` is ``None`` when the package is not installed: the
handshake then reports its absence as an error (:func:`.protocol.implementation`).
"""

from __future__ import annotations

from importlib import metadata
from typing import Any

try:  # the engine is optional: the handshake reports its absence as an error
    import phase
except ImportError:  # pragma: no cover - exercised only without phase-python
    phase = None  # type: ignore[assignment]

try:
    #: the installed phase-python's version, named in the skip messages that say what phase
    #: lacks (pinned in pyproject.toml)
    PHASE_VERSION = metadata.version("phase-python")
except metadata.PackageNotFoundError:  # pragma: no cover - exercised only without phase-python
    PHASE_VERSION = "not installed"


def action(kind: str, data: Any = None) -> Any:
    """A ``phase.GameAction`` from its tagged dict form."""
    return phase.GameAction.from_dict({"type": kind, "data": data} if data is not None
                                      else {"type": kind})
