"""Effect handlers bound by name at call time (the engine's mechanic modules use it for their
``EFFECTS`` tables).

A handler table built at import time holds function objects; ``conformance/mutants.py``
replaces a module's function by name while a mutation runs. A handler made here looks its
function up in the module's namespace each time it is called, so the mutated function is the
one the effect runs. No rule lives here.
"""

from __future__ import annotations

from typing import Any, Callable


def late_handler(namespace: dict[str, Any], name: str) -> Callable[[Any, dict[str, Any]], None]:
    """An effect handler ``(ctx, effect dict) -> None`` that calls ``namespace[name]`` (a
    module's ``globals()``) when it runs. Raises KeyError at call time if the module has no
    such function."""
    def handler(ctx: Any, eff: dict[str, Any]) -> None:
        namespace[name](ctx, eff)
    handler.__name__ = name
    return handler
