"""mtg-judge's reference rules engine (pure Python, deterministic).

Public API::

    from mtg_judge.engine import run_scenario, load_card_db, RULESETS
    result = run_scenario(fixture_dict, ruleset="modern")
    result["events"], result["state"], result["checkpoints"]

See docs/FORMAT.md for the fixture, card, event and state formats.
"""

from .cards import CardDefinition, load_card_db
from .errors import IllegalAction, ScenarioError, ScriptError
from .game import Game
from .rulesets import RULESETS, Ruleset, get_ruleset
from .scenario import boards, build_game, probe, run_scenario, setup_state

__all__ = [
    "CardDefinition", "Game", "IllegalAction", "RULESETS", "Ruleset", "ScenarioError", "ScriptError",
    "boards", "build_game", "get_ruleset", "load_card_db", "probe", "run_scenario", "setup_state",
]
