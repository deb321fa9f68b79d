"""Conditions of abilities: intervening "if" clauses of triggered abilities (CR 603.4) and
conditional static abilities such as threshold (CR 207.2c), checked against the game now."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from . import bookkeeping, event_conditions, game_end, transform
from .creature_types import card_has_subtype

if TYPE_CHECKING:
    from .game import Game
    from .objects import GameObject


def _card_has(card: "GameObject", quality: dict[str, Any]) -> bool:
    """A card (not a permanent: its printed characteristics, CR 109.3) with every card type
    in ``quality["types"]`` and every subtype in ``quality["subtypes"]``; a changeling
    creature card has every creature type here too (CR 702.73a, engine/creature_types.py)."""
    return (all(t in card.chars.types for t in quality.get("types", ()))
            and all(card_has_subtype(card, s) for s in quality.get("subtypes", ())))


def condition_holds(game: "Game", source: "GameObject", cond: dict[str, Any] | None, event: dict[str, Any] | None = None) -> bool:
    """An intervening "if" (CR 603.4) or a static ability's condition, for ``source``:
    ``came_under_control_since_last_upkeep`` (echo), ``suspended`` / ``in_exile``
    (suspend, CR 702.62b), ``kicked`` (an index), ``cast_from_hand`` (the spell, or the spell
    that became this permanent, was cast from a hand, CR 601.2a, 608.3), ``cards_in_graveyard_at_least`` /
    ``threshold`` (the controller's graveyard); the bookkeeping conditions of
    ``engine/bookkeeping.py`` (mana spent, life gained this turn; ``event``: the trigger
    event, for the spell that triggered the ability); the trigger-event, turn and step
    conditions of ``engine/event_conditions.py`` (``triggering_spell_targets``,
    ``triggering_object_matches``, ``your_turn``, ``step``)."""
    if not cond:
        return True
    current = game.objects.get(source.ref)
    gone = current is None  # the object has changed zones: it is a new object (CR 400.7)
    current = current or source
    for key, want in cond.items():
        if gone and key in ("came_under_control_since_last_upkeep", "suspended", "in_exile"):
            if want:
                return False
            continue
        if key == "came_under_control_since_last_upkeep":
            p = game.players[current.controller or current.owner]
            if (current.upkeep_mark >= p.upkeeps - 1) != want:
                return False
        elif key == "suspended":
            is_susp = (current.zone == "exile" and current.counters.get("time", 0) > 0
                       and any(k["keyword"] == "suspend" for k in current.chars.keywords))
            if is_susp != want:
                return False
        elif key == "in_exile":
            if (current.zone == "exile") != want:
                return False
        elif key == "kicked":
            if want not in current.kicked:
                return False
        elif key == "cast_from_hand":  # "if you didn't cast it from your hand" (Phage; CR 601.2a, 608.3)
            if (current.cast_from == "hand") != bool(want):
                return False
        elif key in ("cards_in_graveyard_at_least", "threshold"):
            who = current.controller or current.owner
            if len(game.players[who].graveyard) < want:
                return False
        elif key == "card_in_graveyard":  # "as long as there's a Lesson card in your graveyard"
            who = current.controller or current.owner
            if not any(_card_has(c, want) for c in game.players[who].graveyard):
                return False
        elif key in game_end.CONDITIONS:  # life_at_least (engine/game_end.py)
            if not game_end.condition(game, key, want, current.controller or current.owner):
                return False
        elif key in transform.CONDITIONS:
            if not transform.condition(game, key, want, current, gone):
                return False
        elif key in event_conditions.CONDITIONS:  # trigger event, turn and step (FORMAT §13.6)
            if not event_conditions.condition(game, key, want, controller=current.controller or current.owner,
                                              event=event):
                return False
        elif key in bookkeeping.CONDITIONS:
            if not bookkeeping.condition(game, key, want, own=current.mana_spent, event=event,
                                         controller=current.controller or current.owner,
                                         current=None if gone else current):
                return False
        else:
            raise ValueError(f"unknown condition {key!r}")
    return True
