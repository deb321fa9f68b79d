"""Matching trigger conditions against game events (CR 603.2).

An event is a dict built by the game: ``{"event": "enters_battlefield", "object": obj}``,
``{"event": "leaves_battlefield", "object": lki, "to": zone}``,
``{"event": "beginning_of_step", "step": step}``, ``{"event": "attacks", "object": obj}``,
``{"event": "blocks" | "becomes_blocked" | "becomes_untapped" | "attacks_and_isnt_blocked", "object": obj}``,
``{"event": "deals_damage", "source": ref, "target": obj_or_player, "combat": bool,
"source_object": obj, "amount": n}``,
``{"event": "spell_cast", "spell": item, "player": pid}``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from . import bookkeeping, delayed_triggers, event_conditions, paradigm, ward
from . import characteristics as ch
from . import keywords as kw
from .conditions import condition_holds
from .errors import IllegalAction
from .objects import StackItem

if TYPE_CHECKING:
    from .game import Game
    from .objects import GameObject


def _object_ok(game: "Game", source: "GameObject", spec: Any, obj: "GameObject") -> bool:
    if spec in (None, "self"):
        return obj.ref == source.ref
    if isinstance(spec, dict):
        return ch.matches(game, obj, spec, source.controller, source)
    return False


def _damage_source_matches(game: "Game", source: "GameObject", spec: Any, event: dict[str, Any]) -> bool:
    """A ``deals_damage`` trigger whose ``source`` is a filter (Essence Sliver: "whenever a
    Sliver deals damage"): the object that dealt the damage, as it was then, matches it
    (relative to the trigger's controller)."""
    obj = event.get("source_object")
    return isinstance(spec, dict) and obj is not None and ch.matches(game, obj, spec, source.controller, source)


def matches(game: "Game", source: "GameObject", trigger: dict[str, Any], event: dict[str, Any]) -> bool:
    """Does ``trigger`` (a card's trigger spec) of ``source`` trigger on ``event``?"""
    kind = trigger["event"]
    ev = event["event"]
    you = source.controller or source.owner  # CR 109.5: a card with no controller (exiled): its owner
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
        return bool(who == "each" or (who == "you") == (game.active == you))
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
        return bool(ev == "cycled" and (who == "any" or (who == "you") == (event["player"] == you)))
    if kind == "discarded":
        who = trigger.get("player", "any")
        if ev != "discarded":
            return False
        return bool(who == "any" or (who == "you") == (event["player"] == you))
    if kind in ("attacks", "blocks", "becomes_blocked", "becomes_untapped", "attacks_and_isnt_blocked"):
        return ev == kind and _object_ok(game, source, trigger.get("object", "self"), event["object"])
    if kind == "deals_damage":
        spec = trigger.get("source", "self")
        if ev != "deals_damage":
            return False
        if spec == "self":
            if event["source"] != source.ref:
                return False
        elif not _damage_source_matches(game, source, spec, event):  # "whenever a Sliver deals damage"
            return False
        if trigger.get("combat") and not event["combat"]:
            return False
        to = trigger.get("to", "any")
        is_player = isinstance(event["target"], str)
        if to == "opponent":
            return is_player and event["target"] != source.controller
        return bool(to == "any" or (to == "player") == is_player)
    if kind == "becomes_target":  # ward (engine/ward.py)
        return ward.matches(source, trigger, event,
                            lambda obj: _object_ok(game, source, trigger.get("object", "self"), obj))
    if kind == "spell_cast":
        if ev != "spell_cast":
            return False
        who = trigger.get("player", "any")
        if who == "you" and event["player"] != you:
            return False
        if who == "opponent" and event["player"] == you:
            return False
        if "nth_this_turn" in trigger and event.get("nth_this_turn") != trigger["nth_this_turn"]:
            return False  # "your second spell each turn" (flurry): the caster's count, turn_records.py
        if "targeting" in trigger and not paradigm.targets_match(game, event["spell"], trigger["targeting"],
                                                                 source.controller):
            return False  # repartee: "a spell that targets a creature" (engine/paradigm.py)
        return ch.matches(game, event["spell"], trigger.get("filter"), source.controller, source)
    return False


def event_info(event: dict[str, Any]) -> dict[str, Any]:
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
    for key in ("storm_count", "spell_lki", "remembered"):
        if key in event:
            info[key] = event[key]
    if event["event"] == "deals_damage":  # "that much" life, for "its controller" (Essence Sliver)
        dealt_to = event.get("target")  # "that player" / "that creature": who was dealt the damage (Phage)
        if isinstance(dealt_to, str):
            info["triggering_player"] = dealt_to
        elif dealt_to is not None:
            info["triggering_object"] = dealt_to.ref
        src = event.get("source_object")
        info["damage_dealt"] = event.get("amount", 0)
        info["damage_source_controller"] = (src.controller or src.owner) if src is not None else None
    info.update(bookkeeping.event_info(event))  # the mana spent to cast a triggering spell
    info.update(ward.event_info(event))  # the spell or ability that targeted the permanent
    info.update(event_conditions.event_info(event))  # the triggering spell's targets as it was cast
    return info


class TriggeredAbilities:
    """Triggered abilities: noticing events, waiting, going on the stack (a mixin of
    :class:`~.game.Game`)."""

    def fire_triggers(self: Game, event: dict[str, Any], lki: list[GameObject] | None = None) -> None:
        """CR 603.2: check every triggered ability of permanents on the battlefield (and,
        for leaves-the-battlefield events, of the objects that left, CR 603.10a; for the
        beginning of a step, of suspended cards in exile, CR 702.62a) against the event.
        Each one that triggers, and whose intervening "if" holds (CR 603.4), waits in
        ``pending_triggers`` until a player would receive priority."""
        sources = list(self.battlefield) + [o for o in (lki or []) if o not in self.battlefield]
        statics = ch.static_effects(self)
        candidates = [(src, key, ab) for src in sources for key, ab in ch.triggered_abilities(self, src, statics)
                      if ab.get("zone", "battlefield") == "battlefield" and not ab.get("mana_ability")]
        for pid in self.order:
            for obj in self.players[pid].exile:
                # abilities that work in exile (CR 113.6b): suspend's upkeep trigger, and
                # printed ones marked "zone": "exile"
                candidates += [(obj, i, ab) for i, ab in enumerate(obj.chars.abilities)
                               if ab.get("kind") == "triggered" and ab.get("zone") == "exile"]
                if event["event"] == "beginning_of_step":
                    candidates += [(obj, key, ab) for key, ab in kw.exile_triggered_from_keywords(
                        [dict(k) for k in obj.chars.keywords])]
        for src, key, ab in candidates:
            if matches(self, src, ab["trigger"], event) and condition_holds(
                    self, src, ab.get("condition"), event=event):
                self.add_trigger(src, key, ab, event)
        delayed_triggers.fire_delayed_triggers(self, event, matches)  # CR 603.7c

    def add_trigger(self: Game, src: GameObject, key: Any, ab: Any, event: dict[str, Any]) -> None:
        """Record that ability ``ab`` (printed index or keyword name ``key``) of ``src``
        triggered on ``event``; logged as ``ability_triggered``."""
        ref = self.next_ref("ability")
        controller = src.controller or src.owner
        info = event_info(event)
        self.pending_triggers.append({"ref": ref, "source": src.copy(), "ability": ab,
                                      "index": key, "controller": controller, "event": info})
        self.log("ability_triggered", controller=controller, object=ref, source=src.ref,
                 source_card=src.card, ability=key, trigger=ab["trigger"]["event"],
                 **({"delayed": True} if ab.get("delayed") else {}))

    def put_triggers_on_stack(self: Game) -> None:
        """CR 603.3b: the active player puts their triggered abilities on the stack in the
        order they choose, then each other player in turn order; targets are chosen as each
        is put on the stack (CR 603.3d), and one with no legal target is removed."""
        self.pending_triggers: list[dict[str, Any]]  # declared for the type checker (Game.__init__)
        pending, self.pending_triggers = self.pending_triggers, []
        for pid in self.apnap():
            mine = [t for t in pending if t["controller"] == pid]
            if len(mine) > 1:
                mine = self.decide("order_triggers", pid, "order_triggers",
                                   lambda inp, mine=mine: self._trigger_order(inp, mine),
                                   options=[t["ref"] for t in mine])
            for t in mine:
                item = StackItem(ref=t["ref"], kind="ability", controller=pid, ability=t["ability"],
                                 source=t["source"].ref, source_card=t["source"].card, source_lki=t["source"],
                                 ability_index=t["index"], trigger_event=t["event"])
                specs = list(t["ability"].get("targets", ()))
                if specs:
                    if not self._any_legal_targets(item, specs):
                        self.log("ability_removed", object=item.ref, card=item.ref, reason="no_legal_targets")
                        continue
                    item.targets = self.decide("choose_targets", pid, "choose_targets",
                                               lambda inp, item=item, specs=specs:
                                               self.choose_targets(item, specs, inp.get("targets")),
                                               ability=item.ref)
                self.stack.append(item)
                self.log("ability_put_on_stack", controller=pid, object=item.ref, card=item.ref,
                         source=item.source, targets=[t for t in item.targets if t is not None])
                ward.fire_becomes_target(self, item)  # CR 702.21a

    def _trigger_order(self: Game, inp: dict[str, Any], mine: list[dict[str, Any]]) -> list[dict[str, Any]]:
        order = inp.get("order")
        if not isinstance(order, list) or len(order) != len(mine):
            raise IllegalAction("invalid_order", f"order all {len(mine)} triggers")
        left = list(mine)
        out = []
        for ref in order:
            t = next((t for t in left if t["ref"] == ref), None) or next(
                (t for t in left if t["source"].card == ref or t["source"].ref == ref), None)
            if t is None:
                raise IllegalAction("invalid_order", f"{ref!r} is not one of the pending triggers")
            left.remove(t)
            out.append(t)
        return out
