"""Bookkeeping the 2025–26 mechanics share (docs/FORMAT.md §11.1).

- **Mana spent to cast a spell** (CR 601.2h: the total cost is paid; converge, increment
  and opus count what was actually spent): the casting records the mana it spent, by
  symbol, on the spell's object (``GameObject.mana_spent``); the permanent the spell
  becomes keeps the record (CR 608.3 — "the spell that became this permanent"). It holds
  only the mana spent to *cast* the spell, additional and alternative costs included
  (rulings ``strixhaven.converge.02``, ``.06``; ``strixhaven.opus.02``); mana spent later,
  e.g. for a ward cost, is not mana spent to cast it. A copy of a spell was not cast: no
  mana was spent on it (CR 707.10, ruling ``strixhaven.converge.08``); ``None`` (no record)
  counts as nothing spent.
- **Life gained this turn** per player (``Player.life_gained_this_turn``, CR 119.3 and
  ruling ``strixhaven.infusion.02``): every life gain adds to it, whatever is lost; it goes
  back to 0 as each turn begins (CR 500).
- **Per-mode additional costs** (CR 700.2h, 601.2b, 601.2f; tiered, ruling
  ``finalfantasy.tiered.01``): a mode of a modal spell may carry an ``additional_cost``
  (a cost object: ``mana``, ``pay_life``, ``discard``); choosing the mode adds it to the
  total cost. The mana value is never changed (CR 202.3).

Card data reads the records through conditions (:data:`CONDITIONS`) and amounts
(:func:`is_amount`); the engine's condition and amount interpreters delegate here.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .mana import COLORS, ManaCost

if TYPE_CHECKING:
    from .game import Game
    from .objects import GameObject

#: Condition keys this module answers (FORMAT §11.1).
CONDITIONS = (
    "mana_spent_at_least",
    "mana_spent_colors_at_least",
    "triggering_spell_mana_spent_at_least",
    "triggering_spell_mana_spent_colors_at_least",
    "triggering_spell_mana_spent_exceeds_power_or_toughness",
    "gained_life_this_turn",
)

#: Cost parts a mode's ``additional_cost`` may have besides ``mana``.
MODE_COST_PARTS = ("pay_life", "discard")

# Increment (ruling strixhaven.increment.01): "Whenever you cast a spell, if the amount of
# mana you spent is greater than this creature's power or toughness, put a +1/+1 counter on
# this creature." The intervening "if" is checked as it triggers and again on resolution
# (CR 603.4, ruling strixhaven.increment.03); it holds only while the permanent is a creature
# (ruling strixhaven.increment.08).
INCREMENT: dict[str, Any] = {
    "kind": "triggered", "trigger": {"event": "spell_cast", "player": "you"},
    "condition": {"triggering_spell_mana_spent_exceeds_power_or_toughness": True},
    "effects": [{"type": "add_counters", "what": "self", "counter": "+1/+1", "count": 1}],
}


def spent_total(spent: dict[str, Any] | None) -> int:
    """The amount of mana in a record of mana spent (CR 601.2h); ``None`` is nothing."""
    return sum((spent or {}).values())


def spent_colors(spent: dict[str, Any] | None) -> int:
    """The number of colors of mana in a record of mana spent: 0 to 5, colorless is not a
    color (CR 105.1, 106.1b; ruling ``strixhaven.converge.04``)."""
    return sum(1 for c in COLORS if (spent or {}).get(c, 0) > 0)


def record(paid: dict[str, Any] | None) -> dict[str, Any]:
    """The record kept on a spell for the mana ``paid`` to cast it (CR 601.2h; a fresh dict,
    symbols in ``C W U B R G`` order, zero amounts dropped)."""
    return {k: n for k, n in (paid or {}).items() if n}


def triggering_spell_spent(event: dict[str, Any] | None) -> dict[str, Any] | None:
    """The mana spent to cast the spell whose casting triggered an ability: read from the
    live trigger event (``{"event": "spell_cast", "spell": item}``) or from the information
    a triggered ability remembers (``spell_mana_spent``, see :func:`event_info`; rulings
    ``strixhaven.opus.01``, ``strixhaven.increment.01``)."""
    if not event:
        return None
    spell = event.get("spell")
    if spell is not None and getattr(spell, "obj", None) is not None:
        spent: dict[str, Any] | None = spell.obj.mana_spent
        return spent
    remembered: dict[str, Any] | None = event.get("spell_mana_spent")
    return remembered


def event_info(event: dict[str, Any]) -> dict[str, Any]:
    """What a triggered ability remembers of a spell-cast event: the mana spent to cast the
    spell, as it was when the spell was cast (ruling ``strixhaven.opus.04``: the ability
    resolves even if the spell has left the stack)."""
    spell = event.get("spell")
    if spell is not None and getattr(spell, "obj", None) is not None:
        return {"spell_mana_spent": dict(spell.obj.mana_spent or {})}
    return {}


def condition(game: "Game", key: str, want: int, *, own: dict[str, Any] | None, event: dict[str, Any] | None,
              controller: str | None, current: "GameObject | None") -> bool:
    """Whether one bookkeeping condition holds (FORMAT §11.1; an intervening "if", CR 603.4,
    or a static ability's condition).

    ``own``: the mana spent to cast this spell (or the spell that became this permanent);
    ``event``: the trigger event (for ``triggering_spell_*``); ``controller``: "you";
    ``current``: the source as it is now (increment compares its power and toughness)."""
    if key == "mana_spent_at_least":
        return spent_total(own) >= want
    if key == "mana_spent_colors_at_least":
        return spent_colors(own) >= want
    if key == "triggering_spell_mana_spent_at_least":
        return spent_total(triggering_spell_spent(event)) >= want
    if key == "triggering_spell_mana_spent_colors_at_least":
        return spent_colors(triggering_spell_spent(event)) >= want
    if key == "triggering_spell_mana_spent_exceeds_power_or_toughness":
        pt = game.creature_power_toughness(current)
        spent = spent_total(triggering_spell_spent(event))
        holds = pt is not None and (spent > pt[0] or spent > pt[1])
        return holds == bool(want)
    if key == "gained_life_this_turn":
        gained = controller is not None and game.players[controller].life_gained_this_turn > 0
        return gained == bool(want)
    raise ValueError(f"unknown condition {key!r}")


def is_amount(value: Any) -> bool:
    """Is ``value`` an amount this module computes (FORMAT §11.1): ``{"mana_spent": "total" |
    "colors", "spell": "this" | "triggering"}`` (CR 601.2h) or ``{"life_gained_this_turn":
    "you"}`` (CR 119.3)?"""
    return isinstance(value, dict) and ("mana_spent" in value or "life_gained_this_turn" in value)


def amount(game: "Game", value: dict[str, Any], *, own: dict[str, Any] | None, event: dict[str, Any] | None, controller: str) -> int:
    """Compute a bookkeeping amount (FORMAT §11.1): the amount or the number of colors of
    mana spent to cast this spell / the spell that became this permanent (``"spell":
    "this"``, the default) or the spell that triggered the ability (``"triggering"``);
    or the life ``controller`` gained this turn."""
    if "life_gained_this_turn" in value:
        return game.players[controller].life_gained_this_turn
    spent = triggering_spell_spent(event) if value.get("spell", "this") == "triggering" else own
    kind = value["mana_spent"]
    if kind == "total":
        return spent_total(spent)
    if kind == "colors":
        return spent_colors(spent)
    raise ValueError(f"unknown mana_spent amount {kind!r}")


def mode_additional_costs(spell: dict[str, Any] | None, modes: list[int]) -> tuple[ManaCost | None, dict[str, Any]]:
    """CR 700.2h, 601.2b: the additional costs of the chosen ``modes`` of a modal spell: the
    sum of their mana (``None`` if no mode has any) and their other parts (``pay_life``
    summed, ``discard`` summed). Tiered: ruling ``finalfantasy.tiered.01``."""
    mana: ManaCost | None = None
    other: dict[str, Any] = {}
    all_modes = (spell or {}).get("modes") or []
    for m in modes:
        extra = (all_modes[m].get("additional_cost") if m < len(all_modes) else None) or {}
        if "mana" in extra:
            mc = ManaCost.parse(extra["mana"])
            mana = mc if mana is None else mana.add(mc)
        for part in MODE_COST_PARTS:
            if part in extra:
                other[part] = other.get(part, 0) + extra[part]
    return mana, other


def begin_turn(game: "Game") -> None:
    """CR 500: "this turn" starts over: no player has gained life this turn yet."""
    for p in game.players.values():
        p.life_gained_this_turn = 0


def life_gained(game: "Game", player: str, n: int) -> None:
    """Note that ``player`` gained ``n`` life (CR 119.3), for "if you gained life this turn"."""
    game.players[player].life_gained_this_turn += n
