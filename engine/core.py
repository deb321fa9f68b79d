"""The game's records and look-ups: the event log, references and timestamps of objects,
finding objects and players, turn order (CR 101.4 APNAP, 109, 400.7 references, 613.7
timestamps)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from . import characteristics as ch
from .cards import CardDefinition
from .objects import GameObject, StackItem

if TYPE_CHECKING:
    from .game import Game


class GameCore:
    """The bookkeeping every part of the game uses (a mixin of :class:`~.game.Game`, which
    holds the attributes)."""

    def log(self: Game, type_: str, **fields: Any) -> dict[str, Any]:
        """Append an event ``{"type": type_, **fields}`` to the log and return it."""
        ev = {"type": type_, **fields}
        self.events.append(ev)
        self.layers.logged(type_, fields)  # the layers' cache: a change of the game (engine/layers/system.py)
        return ev

    def zone_name(self: Game, zone: str) -> str:
        """The zone's name in the log under this ruleset (``exile`` or its old name)."""
        return self.rules.exile_zone_name if zone == "exile" else zone

    def new_timestamp(self: Game) -> int:
        """CR 613.7: a new, larger timestamp."""
        self.clock += 1
        return self.clock

    def next_ref(self: Game, kind: str) -> str:
        """A reference for an object created during play: ``token#1``, ``ability#2`` …"""
        self.serial[kind] += 1
        return f"{kind}#{self.serial[kind]}"

    def create_card_object(self: Game, alias: str, definition: CardDefinition, owner: str, zone: str) -> GameObject:
        """A card's first object (from the setup): its reference is its alias."""
        obj = GameObject(ref=alias, card=alias, definition=definition, owner=owner, zone=zone,
                         timestamp=self.new_timestamp(), layers=self.layers)
        self.incarnation[alias] = 1
        self.objects[alias] = obj
        self.by_card[alias] = obj
        return obj

    def find(self: Game, ref: str) -> GameObject | None:
        """The object a script names: a current reference (``bolt#2``) or a card alias
        (``bolt``: whatever object that card is now)."""
        if ref in self.objects:
            return self.objects[ref]
        return self.by_card.get(ref)

    def creature_power_toughness(self: Game, obj: GameObject | None) -> tuple[int, int] | None:
        """CR 613.4: a permanent's current power and toughness, or None if it is not a
        creature on the battlefield (for modules below the layers, e.g. increment's
        comparison in engine/bookkeeping.py)."""
        if obj is None or obj.zone != "battlefield" or not ch.is_type(obj, "Creature"):
            return None
        return ch.power_toughness(self, obj)

    def matches_filter(self: Game, obj: GameObject | StackItem, flt: dict[str, Any] | None, you: str | None) -> bool:
        """Does ``obj`` match filter ``flt`` seen by player ``you`` (docs/FORMAT.md §5;
        characteristics after every layer)? For modules below the layers, e.g. the trigger-event
        conditions of engine/event_conditions.py."""
        return ch.matches(self, obj, flt, you)

    def find_stack_item(self: Game, ref: str) -> StackItem | None:
        """A spell or ability on the stack by its reference or its card alias."""
        for item in self.stack:
            if item.ref == ref or (item.obj is not None and item.obj.card == ref):
                return item
        return None

    def opponents(self: Game, player: str) -> list[str]:
        """The player's opponents still in the game, in turn order (CR 102.2)."""
        return [p for p in self.order if p != player and not self.players[p].lost]

    def apnap(self: Game) -> list[str]:
        """CR 101.4: the active player, then the others in turn order."""
        i = self.order.index(self.active)
        return self.order[i:] + self.order[:i]

    def living(self: Game) -> list[str]:
        """The players who have not lost, in turn order (CR 104.3)."""
        return [p for p in self.order if not self.players[p].lost]

    def combat_attackers(self: Game) -> set[str]:
        """The refs of the attacking creatures (empty outside combat)."""
        return set(self.combat.attackers) if self.combat is not None else set()

    def combat_blockers(self: Game) -> set[str]:
        """The refs of the blocking creatures (empty outside combat)."""
        return set(self.combat.blockers) if self.combat is not None else set()
