"""The layer system of one game: the result of ``engine/layers/apply.py`` computed once per
change of the game and read by every characteristic query (CR 613).

Invalidation. The result is kept with the key it was computed for,
``(generation, len(effects), len(battlefield))``. The game's one choke point for changes,
``Game.log``, calls :meth:`LayerSystem.logged` with each event: any event but those of
:data:`UNCHANGING_EVENTS` (priority, mana, steps, damage, life, the stack, cards drawn: events
that record no change to what the layers read) and zone changes that don't touch the
battlefield bumps ``generation`` (a permanent entering or leaving, counters, an Aura attached
with its new timestamp (CR 613.7e), a control change, turning face up, transforming …), and
so does any change made behind the rules' back (tests) through :meth:`LayerSystem.invalidate`.
Adding or ending a continuous effect and moving a permanent change the key by themselves. A
result that read volatile state (a static ability with a condition, e.g. threshold, or a
filter on tapped or attacking creatures) is also keyed on the length of the log, so any event
invalidates it. A rollback of an illegal action (``Game.transaction``, ``Game.dry_run``) puts
back the result kept when the state was saved (:meth:`checkpoint`, :meth:`resume`): the
restored state is that one. ``generation`` lives in this object, which a rollback does not
copy, so it only grows.

Checking mode: with the environment variable ``MTG_JUDGE_CHECK_LAYERS=1`` (read when the game
is built) every query also recomputes the layers from scratch and raises
:class:`LayerCacheError` if the kept result differs (tests/test_layers_cache.py runs the suite
and self-play so).
"""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from ..objects import GameObject
from .apply import LayerResult, compute
from .values import Characteristics, printed

if TYPE_CHECKING:
    from ..game import Game

__all__ = ["CHECK_ENV", "LayerCacheError", "LayerSystem"]

#: environment variable that turns the checking mode on (``1``)
CHECK_ENV = "MTG_JUDGE_CHECK_LAYERS"

Key = tuple[int, int, int]

#: Event types that record no change to anything the layers read (docs/FORMAT.md §6): the
#: turn's structure, priority, mana, the stack, damage and life. Tapping and combat matter only
#: to a volatile result (see the module docstring), which any event invalidates.
UNCHANGING_EVENTS = frozenset({
    "priority_received", "priority_passed", "mana_ability_activated", "mana_added", "mana_emptied", "mana_burn",
    "step_began", "step_ended", "turn_began", "turn_ending", "phases_added", "spell_cast", "spell_resolved",
    "ability_activated", "ability_triggered", "ability_put_on_stack", "ability_resolved", "ability_declined",
    "cast_declined", "damage_dealt", "damage_prevented", "life_lost", "life_gained", "combat_damage_assigned",
    "combat_damage_put_on_stack", "combat_damage_resolved", "combat_damage_not_dealt", "tapped", "untapped",
    "attackers_declared", "blockers_declared", "removed_from_combat", "action_rejected", "card_revealed",
    "random_outcome", "library_shuffled", "regeneration_shield_created", "prevention_shield_created",
    "pt_changed", "card_drawn", "card_discarded", "game_started", "deck_checked", "spell_copied", "cost_paid",
    "destroyed", "sacrificed", "spell_countered", "regenerated", "replacement_applied",
})

#: Events that change what the layers read only when a permanent is involved: a zone change
#: to or from the battlefield (a card drawn, cast or discarded changes no permanent)
_ZONE_EVENTS = frozenset({"zone_changed"})


class LayerCacheError(AssertionError):
    """Checking mode: the kept layer result differs from a fresh computation (a change of
    the game that did not invalidate the cache)."""


class LayerSystem:
    """The characteristics of a game's objects after continuous effects (CR 613), one
    computation per change of the game. A :class:`~engine.layers.filters.View`.

    ``of(obj)``: an object's :class:`Characteristics` (on the battlefield after every layer;
    elsewhere its copiable values with changeling, CR 604.3); ``statics()``: the static
    abilities' effects that exist now. Raises :class:`LayerCacheError` in checking mode when
    the cache was stale.
    """

    __slots__ = ("_busy", "_events", "_extra", "_key", "_memo", "_memo_result", "_printed", "_result", "check", "game", "generation")

    def __init__(self, game: Game, check: bool | None = None) -> None:
        self.game = game
        self.generation = 0
        self.check = os.environ.get(CHECK_ENV) == "1" if check is None else check
        self._key: Key | None = None
        self._events = 0
        self._result: LayerResult | None = None
        self._printed: dict[int, tuple[Any, Characteristics]] = {}
        self._extra: dict[int, tuple[GameObject, Characteristics]] = {}
        self._busy = False
        self._memo: dict[tuple[str, int], tuple[Any, Any]] = {}
        self._memo_result: dict[tuple[str, int], tuple[Any, Any]] = {}  # emptied with each new result

    def __repr__(self) -> str:  # the same for every game: not game state (tests/test_rollback.py)
        return "LayerSystem()"

    def invalidate(self) -> None:
        """The game changed in a way the key may not show (a test's direct edit): the next
        query recomputes."""
        self.generation += 1

    def logged(self, event_type: str, fields: dict[str, Any]) -> None:
        """``Game.log`` logged an event of this type with these fields: unless it is one of
        :data:`UNCHANGING_EVENTS`, or a zone change that neither starts nor ends on the
        battlefield, the next query recomputes."""
        if event_type in UNCHANGING_EVENTS:
            return
        if event_type in _ZONE_EVENTS and "battlefield" not in (fields.get("from"), fields.get("to")):
            return
        self.generation += 1

    def _current_key(self) -> Key:
        g = self.game
        return (self.generation, len(g.effects), len(g.battlefield))

    def checkpoint(self) -> LayerResult | None:
        """The kept result if it is the game's now (before a rollback saves the state)."""
        r = self._result
        if r is None or self._key != self._current_key() or (r.volatile and self._events != len(self.game.events)):
            return None
        return r

    def resume(self, kept: LayerResult | None) -> None:
        """The state saved with ``kept`` (:meth:`checkpoint`) was just restored: keep that
        result again, or recompute at the next query if there was none."""
        self.generation += 1
        self._result = kept
        self._extra = {}
        self._memo_result = {}
        self._key = self._current_key() if kept is not None else None
        self._events = len(self.game.events)

    def memo(self, kind: str, of: Any, fn: Callable[[Any], Any]) -> Any:
        """``fn(of)`` for an immutable ``of``, computed once: a card definition's for the
        whole game, a record's (:class:`Characteristics`) while the result it belongs to is
        kept; e.g. the triggered abilities a record's keywords stand for."""
        memo = self._memo_result if type(of) is Characteristics else self._memo
        hit = memo.get((kind, id(of)))
        if hit is None or hit[0] is not of:
            hit = (of, fn(of))
            memo[(kind, id(of))] = hit
        return hit[1]

    def printed(self, obj: GameObject) -> Characteristics:
        """The record of the object's copiable values (cached per card definition, which is
        immutable)."""
        chars = obj.chars
        hit = self._printed.get(id(chars))
        if hit is None or hit[0] is not chars:
            hit = (chars, printed(chars))
            self._printed[id(chars)] = hit
        return hit[1]

    def _compute(self, extra: GameObject | None = None) -> LayerResult:
        if self._busy:
            raise RuntimeError("a characteristic was asked for while the layers were being applied")
        self._busy = True
        try:
            return compute(self.game, self.printed, extra)
        finally:
            self._busy = False

    def result(self) -> LayerResult:
        """The layer result for the game as it is now (computed if the game changed)."""
        r = self._result
        g = self.game
        if (r is None or self._key != (self.generation, len(g.effects), len(g.battlefield))
                or (r.volatile and self._events != len(g.events))):
            r = self._result = self._compute()
            self._extra = {}
            self._memo_result = {}
            self._key = self._current_key()
            self._events = len(g.events)
        return r

    def of(self, obj: GameObject) -> Characteristics:
        """The object's characteristics now. A permanent on the battlefield has them after
        every layer; an object whose zone is the battlefield but that the battlefield doesn't
        hold (last known information, CR 113.7a) is affected by the effects as if it were
        there, unless it is a copy equal to the permanent it was taken from."""
        if obj.zone != "battlefield":
            chars = obj.chars
            hit = self._printed.get(id(chars))
            return hit[1] if hit is not None and hit[0] is chars else self.printed(obj)
        r = self._result
        g = self.game
        k = self._key  # compared part by part: this is the hottest query of the engine
        if (r is None or k is None or k[0] != self.generation or k[1] != len(g.effects)
                or k[2] != len(g.battlefield) or (r.volatile and self._events != len(g.events))):
            r = self.result()
        rec = r.records.get(id(obj))
        if rec is None:
            rec = self._of_extra(obj, r)
        if self.check:
            self._verify(obj, rec)
        return rec

    def _of_extra(self, obj: GameObject, result: LayerResult) -> Characteristics:
        hit = self._extra.get(id(obj))
        if hit is not None and hit[0] is obj:
            return hit[1]
        live = self.game.objects.get(obj.ref)
        if live is not None and id(live) in result.records and live == obj:
            rec = result.records[id(live)]
        else:
            rec = self._compute(extra=obj).records[id(obj)]
        self._extra[id(obj)] = (obj, rec)
        return rec

    def statics(self) -> list[tuple[GameObject, dict[str, Any]]]:
        """The static abilities' effects that exist now, ``[(source, effect dict)]`` in
        timestamp order (CR 611.3; none from a permanent that lost all abilities, CR 613.1f)."""
        out = self.result().statics
        if self.check:
            fresh = self._compute().statics
            if [(id(s), e) for s, e in fresh] != [(id(s), e) for s, e in out]:
                raise LayerCacheError(f"static abilities: kept {out!r}, fresh {fresh!r} (key {self._key})")
        return out

    def _verify(self, obj: GameObject, rec: Characteristics) -> None:
        fresh = self._compute()
        want = fresh.records.get(id(obj))
        if want is None:
            live = self.game.objects.get(obj.ref)
            if live is not None and id(live) in fresh.records and live == obj:
                want = fresh.records[id(live)]
            else:
                want = self._compute(extra=obj).records[id(obj)]
        if want != rec:
            raise LayerCacheError(f"{obj.ref}: kept {rec!r}, fresh {want!r} (key {self._key})")

    # the View protocol (engine/layers/filters.py)
    def types(self, obj: GameObject) -> Sequence[str]:
        """Card types after layer 4."""
        return self.of(obj).types

    def has_subtype(self, obj: GameObject, subtype: str) -> bool:
        """Subtypes after layer 4."""
        return self.of(obj).has_subtype(subtype)

    def colors(self, obj: GameObject) -> Sequence[str]:
        """Colors after layer 5."""
        return self.of(obj).colors

    def keywords(self, obj: GameObject) -> Sequence[dict[str, Any]]:
        """Keywords after layer 6."""
        return self.of(obj).keywords

    def power(self, obj: GameObject) -> int:
        """Power after layer 7."""
        return self.of(obj).power
