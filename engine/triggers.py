"""Matching trigger conditions against game events (CR 603.2).

An event is a dict built by the game: ``{"event": "enters_battlefield", "object": obj}``,
``{"event": "leaves_battlefield", "object": lki, "to": zone}``,
``{"event": "beginning_of_step", "step": step}``, ``{"event": "attacks", "object": obj}``,
``{"event": "blocks" | "becomes_blocked", "object": obj}``,
``{"event": "deals_damage", "source": ref, "target": obj_or_player, "combat": bool}``,
``{"event": "spell_cast", "spell": item, "player": pid}``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from . import characteristics as ch

if TYPE_CHECKING:
    from .game import Game
    from .objects import GameObject


def _object_ok(game: "Game", source: "GameObject", spec: Any, obj: "GameObject") -> bool:
    if spec in (None, "self"):
        return obj.ref == source.ref
    if isinstance(spec, dict):
        return ch.matches(game, obj, spec, source.controller, source)
    return False


def matches(game: "Game", source: "GameObject", trigger: dict, event: dict) -> bool:
    """Does ``trigger`` (a card's trigger spec) of ``source`` trigger on ``event``?"""
    kind = trigger["event"]
    ev = event["event"]
    if kind == "enters_battlefield":
        return ev == "enters_battlefield" and _object_ok(game, source, trigger.get("object", "self"), event["object"])
    if kind in ("dies", "leaves_battlefield"):
        if ev != "leaves_battlefield" or (kind == "dies" and event["to"] != "graveyard"):
            return False
        obj = event["object"]
        if kind == "dies" and not ch.is_type(obj, "Creature"):
            return False
        return _object_ok(game, source, trigger.get("object", "self"), obj)
    if kind == "beginning_of_step":
        if ev != "beginning_of_step" or event["step"] != trigger["step"]:
            return False
        who = trigger.get("player", "you")
        if who == "owner":
            return game.active == source.owner
        return who == "each" or (who == "you") == (game.active == source.controller)
    if kind == "put_into_graveyard":
        if ev != "leaves_battlefield" or event["to"] != "graveyard" or trigger.get("from", "battlefield") != "battlefield":
            return False
        return _object_ok(game, source, trigger.get("object", "self"), event["object"])
    if kind == "becomes_blocked_by":
        return (ev == kind and _object_ok(game, source, trigger.get("object", "self"), event["object"])
                and ch.matches(game, event["blocker"], trigger.get("blocker"), source.controller))
    if kind == "cycled":
        who = trigger.get("player", "you")
        if trigger.get("other") and event.get("cycled_card") == source.card:
            return False
        return ev == "cycled" and (who == "any" or (who == "you") == (event["player"] == source.controller))
    if kind == "discarded":
        who = trigger.get("player", "any")
        if ev != "discarded":
            return False
        return who == "any" or (who == "you") == (event["player"] == source.controller)
    if kind in ("attacks", "blocks", "becomes_blocked"):
        return ev == kind and _object_ok(game, source, trigger.get("object", "self"), event["object"])
    if kind == "deals_damage":
        if ev != "deals_damage" or trigger.get("source", "self") != "self" or event["source"] != source.ref:
            return False
        if trigger.get("combat") and not event["combat"]:
            return False
        to = trigger.get("to", "any")
        is_player = isinstance(event["target"], str)
        if to == "opponent":
            return is_player and event["target"] != source.controller
        return to == "any" or (to == "player") == is_player
    if kind == "spell_cast":
        if ev != "spell_cast":
            return False
        who = trigger.get("player", "any")
        if who == "you" and event["player"] != source.controller:
            return False
        if who == "opponent" and event["player"] == source.controller:
            return False
        return ch.matches(game, event["spell"], trigger.get("filter"), source.controller, source)
    return False


def condition_holds(game: "Game", source: "GameObject", cond: dict | None) -> bool:
    """An intervening "if" (CR 603.4) or a static ability's condition, for ``source``:
    ``came_under_control_since_last_upkeep`` (echo), ``suspended`` / ``in_exile``
    (suspend, CR 702.62b), ``kicked`` (an index), ``cards_in_graveyard_at_least`` /
    ``threshold`` (the controller's graveyard)."""
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
        elif key in ("cards_in_graveyard_at_least", "threshold"):
            who = current.controller or current.owner
            if len(game.players[who].graveyard) < want:
                return False
        else:
            raise ValueError(f"unknown condition {key!r}")
    return True


def event_info(event: dict) -> dict:
    """The part of an event an ability remembers, as refs: ``triggering_object``,
    ``triggering_card`` (the card alias, to find it in a new zone), ``blocking_creature``,
    ``storm_count``, ``spell``."""
    info: dict[str, Any] = {"event": event["event"]}
    for key in ("object", "spell"):
        if key in event:
            info["triggering_object"] = event[key].ref
            info["triggering_card"] = event[key].card
    if "blocker" in event:
        info["blocking_creature"] = event["blocker"].ref
    if "player" in event:
        info["triggering_player"] = event["player"]
    for key in ("storm_count", "spell_lki"):
        if key in event:
            info[key] = event[key]
    return info
