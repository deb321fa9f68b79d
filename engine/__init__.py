"""mtg-judge's reference rules engine (pure Python, deterministic).

Public API::

    from mtg_judge.engine import run_scenario, load_card_db, RULESETS
    result = run_scenario(fixture_dict, ruleset=DEFAULT_RULESET)
    result["events"], result["state"], result["checkpoints"]

See docs/FORMAT.md for the fixture, card, event and state formats.

The names below are imported on first use (PEP 562 ``__getattr__``): the harness reads the
ruleset names from :mod:`mtg_judge.engine.rulesets` without loading the whole engine.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .cards import CardDefinition, load_card_db
    from .errors import IllegalAction, ScenarioError, ScriptError
    from .game import Game
    from .rulesets import DEFAULT_RULESET, RULESETS, Ruleset, get_ruleset
    from .scenario import boards, build_game, probe, run_scenario, setup_state

#: Where each public name is defined (a module of this package).
_PUBLIC = {
    "CardDefinition": "cards", "load_card_db": "cards",
    "IllegalAction": "errors", "ScenarioError": "errors", "ScriptError": "errors",
    "Game": "game",
    "DEFAULT_RULESET": "rulesets", "RULESETS": "rulesets", "Ruleset": "rulesets", "get_ruleset": "rulesets",
    "boards": "scenario", "build_game": "scenario", "probe": "scenario", "run_scenario": "scenario",
    "setup_state": "scenario",
}

__all__ = [
    "CardDefinition", "DEFAULT_RULESET", "Game", "IllegalAction", "RULESETS", "Ruleset", "ScenarioError",
    "ScriptError", "boards", "build_game", "get_ruleset", "load_card_db", "probe", "run_scenario",
    "setup_state",
]


def __getattr__(name: str) -> Any:
    """A public name of the engine (imported from its module on first use), or a submodule.
    Raises AttributeError for any other name."""
    module = _PUBLIC.get(name)
    if module is None:
        try:
            return importlib.import_module(f"{__name__}.{name}")
        except ModuleNotFoundError as exc:
            if exc.name != f"{__name__}.{name}":  # the submodule exists and failed to import
                raise
            raise AttributeError(f"module {__name__!r} has no attribute {name!r}") from None
    value = getattr(importlib.import_module(f"{__name__}.{module}"), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__))
