"""Conditions read from the trigger event and from the turn (issue 23 item 1; docs/FORMAT.md
§13.6). They are evaluated in every position a condition is accepted (an intervening "if",
CR 603.4; a static ability's condition, CR 611.3; a ``conditional`` effect, CR 608.2c), by
``engine/conditions.py``, which asks :func:`condition` for the keys of :data:`CONDITIONS`.

- ``{"triggering_spell_targets": {"permanent"?: F, "player"?: "any" | "you" | "opponent"}}``
  (CR 115.1, 603.4): the spell whose casting triggered the ability has a target that is a
  permanent matching filter F (``{}``: any permanent) or a player of that kind ("if it
  targets a permanent or player": both; "if that spell targets a creature you control":
  ``permanent`` only). Read from the spell on the stack, or, once it has left the stack, from
  the targets it had as it was cast (remembered by :func:`event_info`). A target object
  counts while it is a permanent (on the battlefield) or was one when it was last seen.
- ``{"triggering_object_matches": F}`` (CR 603.4, 608.2h): the object of the trigger event
  (the discarded card, the spell cast, the permanent that entered, …) matches filter F, as it
  is now, or as it last existed if it has left its zone ("whenever you discard a card, if it
  has madness": ``{"keywords": ["madness"]}``, Anje Falkenrath).
- ``{"your_turn": bool}`` (CR 102.1, 500): it is (``false``: it isn't) the turn of the
  source's controller ("if it's your turn", "as long as it's your turn").
- ``{"step": S}`` (CR 500.1): the game is in step S now (a step name of FORMAT §2; main
  phases by their phase name). "During your end step" is ``{"your_turn": true, "step":
  "end"}``.

Both trigger-event conditions need a trigger event: ``validate`` refuses them outside a
triggered ability (conformance/card_semantics.py ``TRIGGER_CONDITIONS``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .objects import StackItem

if TYPE_CHECKING:
    from .game import Game
    from .objects import GameObject

#: Condition keys this module answers (engine/conditions.py asks it).
CONDITIONS = ("triggering_spell_targets", "triggering_object_matches", "your_turn", "step")


def event_info(event: dict[str, Any]) -> dict[str, Any]:
    """What a triggered ability remembers of a spell-cast event for
    ``triggering_spell_targets``: the spell's targets as it was cast (refs and player ids)."""
    spell = event.get("spell")
    if isinstance(spell, StackItem):
        return {"spell_targets": [t for t in spell.targets if t is not None]}
    return {}


def _spell_targets(game: "Game", event: dict[str, Any] | None) -> list[str]:
    """The targets of the triggering spell: from the live event (as the ability triggers),
    from the spell still on the stack, else those remembered as it was cast."""
    if not event:
        return []
    spell = event.get("spell")
    if isinstance(spell, StackItem):
        return [t for t in spell.targets if t is not None]
    ref = event.get("triggering_object")
    item = next((it for it in game.stack if it.ref == ref and it.kind == "spell"), None) if ref else None
    if item is not None:
        return [t for t in item.targets if t is not None]
    remembered: list[str] = list(event.get("spell_targets") or ())
    return remembered


def _as_known(game: "Game", ref: str) -> "GameObject | None":
    """The object ``ref`` names now, or as it last existed (CR 608.2h)."""
    return game.objects.get(ref) or game.last_known.get(ref)


def _targets_match(game: "Game", spec: dict[str, Any], event: dict[str, Any] | None, controller: str) -> bool:
    for ref in _spell_targets(game, event):
        if ref in game.players:
            who = spec.get("player")
            if who == "any" or (who == "you" and ref == controller) or (who == "opponent" and ref != controller):
                return True
            continue
        if "permanent" not in spec:
            continue
        obj = game.objects.get(ref)
        if obj is None or obj.zone != "battlefield":
            obj = game.last_known.get(ref)
        if obj is not None and obj.zone == "battlefield" and game.matches_filter(obj, spec["permanent"], controller):
            return True
    return False


def _triggering_object(game: "Game", event: dict[str, Any] | None) -> "GameObject | StackItem | None":
    """The object of the trigger event: live (as it triggers) or by its remembered ref."""
    if not event:
        return None
    for key in ("object", "spell"):
        live = event.get(key)
        if live is not None and not isinstance(live, str):
            found: GameObject | StackItem = live
            return found
    ref = event.get("triggering_object")
    return _as_known(game, ref) if isinstance(ref, str) else None


def condition(game: "Game", key: str, want: Any, *, controller: str, event: dict[str, Any] | None) -> bool:
    """Whether one condition of :data:`CONDITIONS` holds for a source controlled by
    ``controller`` (module docstring); ``event``: the trigger event, live or remembered."""
    if key == "triggering_spell_targets":
        return _targets_match(game, want, event, controller)
    if key == "triggering_object_matches":
        obj = _triggering_object(game, event)
        return obj is not None and game.matches_filter(obj, want, controller)
    if key == "your_turn":
        return (game.active == controller) == bool(want)
    if key == "step":
        return bool(game.step == want)
    raise ValueError(f"unknown condition {key!r}")
