"""The game: one class composed of the rules' parts, each in its own module (CR 100–104 the
game, its players and its end).

The game is driven by inputs: whenever a player must decide, the game asks its input source
(``Game.ask``), which answers from a script (``scenario.py``), a protocol client or a
self-play driver. An illegal answer is rejected with a typed code and logged; the game state
is left unchanged (CR 732-style reversal, done by a transaction, ``rollback.py``).

Where the rules live, in the order of the Comprehensive Rules:

- ``core.py``: the log, references, timestamps, look-ups, turn order (CR 101.4, 109, 613.7);
- ``decisions.py``: asking players, rejecting and reversing illegal answers (CR 732);
- ``zones.py``: zone changes (CR 400);
- ``actions.py``: keyword actions, life, damage (CR 119–122, 701);
- ``special_actions.py``: playing lands, suspend, turning face up (CR 116, 305);
- ``priority.py``: priority and the stack (CR 117, 405);
- ``turn.py``: phases and steps (CR 500–514); combat in ``combat.py`` (CR 506–511);
- ``casting.py``, ``targets.py``, ``costs.py``, ``mana_abilities.py``: casting spells and
  activating abilities (CR 601, 602, 115, 118, 605);
- ``resolution.py``: resolving and countering (CR 608, 701.6); effects in ``effects.py``;
- ``triggers.py``: triggered abilities (CR 603); ``conditions.py``: their conditions;
- ``characteristics.py``: continuous effects and the layers (CR 613);
- ``sba.py``: state-based actions (CR 704).
"""

from __future__ import annotations

from typing import Any

from .actions import Actions
from .cards import CardDefinition, describe
from .casting import Casting
from .core import GameCore
from .costs import Costs
from .decisions import Decisions, Question
from .layers import LayerSystem
from .mana_abilities import ManaAbilities
from .objects import ContinuousEffect, GameObject, Player, Shield, StackItem
from .priority import PRIORITY_ACTIONS, Priority
from .resolution import Resolution
from .rng import SplitMix64
from .rulesets import Ruleset
from .sba import StateBasedActions
from .special_actions import SpecialActions
from .state import snapshot
from .targets import Targeting, target_spec_active, with_x
from .triggers import TriggeredAbilities
from .turn import (
    COMBAT_STEPS,
    MAIN_PHASES,
    NO_PRIORITY_STEPS,
    PHASE_OF,
    STEPS,
    TurnStructure,
)
from .zones import Zones

# names other modules have imported from here
__all__ = ["COMBAT_STEPS", "Game", "MAIN_PHASES", "NO_PRIORITY_STEPS", "PHASE_OF", "PRIORITY_ACTIONS", "STEPS",
           "describe", "target_spec_active", "with_x"]


class Game(TurnStructure, Priority, Casting, SpecialActions, Targeting, Costs, ManaAbilities, Resolution,
           TriggeredAbilities, StateBasedActions, Actions, Zones, Decisions, GameCore):
    """One game of Magic between two or more players.

    Build it with ``scenario.build_game`` (from a fixture's setup) and drive it with
    ``play()``. Everything observable is in ``events`` (the log, docs/FORMAT.md §6) and
    ``state()`` (docs/FORMAT.md §4). The rules are in the mixins it is composed of (see the
    module docstring); this class holds the game's attributes.
    """

    def __init__(self, cards: dict[str, CardDefinition], ruleset: Ruleset, seed: int, inputs: Any) -> None:
        self.cards = cards
        self.rules = ruleset
        self.rng = SplitMix64(seed)
        self.seed = seed
        self.inputs = inputs
        self.players: dict[str, Player] = {}
        self.order: list[str] = []
        self.battlefield: list[GameObject] = []
        self.stack: list[StackItem] = []
        self.objects: dict[str, GameObject] = {}
        self.by_card: dict[str, GameObject] = {}
        self.incarnation: dict[str, int] = {}
        self.serial = {"token": 0, "ability": 0, "copy": 0, "combat_damage": 0}
        self.clock = 0
        self.effects: list[ContinuousEffect] = []
        self.shields: list[Shield] = []
        self.pending_triggers: list[dict[str, Any]] = []
        self.events: list[dict[str, Any]] = []
        self.turn = 1
        self.active = ""
        self.step = "precombat_main"
        self.phase = "precombat_main"
        self.plan: list[str] = []
        self.step_serial = 0
        self.priority: str | None = None
        self.combat: Any = None
        self.over = False
        self.result: dict[str, Any] | None = None
        self.start_of_game: dict[str, Any] | None = None  # {"deck_rules": ...} until CR 103 is done
        self.spells_cast_this_turn = 0  # CR 702.40a (storm counts them)
        self.pending_cast: list[dict[str, Any]] = []  # casts offered as a resolving ability finishes
        self.delayed_triggers: list[dict[str, Any]] = []  # CR 603.7 (delayed_triggers.py)
        self.extra_turns: list[str] = []  # CR 500.7: players of pending extra turns (extra_turns.py)
        #: the last normal turn's player, once an extra turn is pending (None before; extra_turns.py)
        self.normal_turn_player: str | None = None
        #: (player, spell name) pairs of the paradigm spells resolved (paradigm.py; replaced, never changed in place)
        self.paradigm_resolved: tuple[tuple[str, str | None], ...] = ()
        self.spells_cast_by: dict[str, int] = {}  # spells cast this turn per player (turn_records.py)
        self.loyalty_activations: dict[str, int] = {}  # CR 606.3: permanent ref -> turn (planeswalkers.py)
        #: CR 608.2h, 113.7a: the last known information of each object that left a public zone,
        #: by its old reference (a copy taken as it left; engine/zones.py, read by effects' amounts)
        self.last_known: dict[str, GameObject] = {}
        self.asking: Question | None = None  # the decision waiting for an answer (Decisions.until_answered)
        self.layers = LayerSystem(self)  # CR 613: characteristics after continuous effects (engine/layers/)

    def state(self) -> dict[str, Any]:
        """The observable state (docs/FORMAT.md §4)."""
        return snapshot(self)
