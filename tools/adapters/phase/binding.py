"""The phase-python bindings (import name ``phase``) and the one way the adapter builds a
phase action (:func:`action`). ``phase`` is ``None`` when the package is not installed: the
handshake then reports its absence as an error (:func:`.protocol.implementation`).
"""

from __future__ import annotations

from typing import Any

try:  # the engine is optional: the handshake reports its absence as an error
    import phase
except ImportError:  # pragma: no cover - exercised only without phase-python
    phase = None  # type: ignore[assignment]


def action(kind: str, data: Any = None) -> Any:
    """A ``phase.GameAction`` from its tagged dict form."""
    return phase.GameAction.from_dict({"type": kind, "data": data} if data is not None
                                      else {"type": kind})
