"""Saving a game's mutable state and putting it back in place, so that an illegal action is
reversed as if it never happened (CR 732.1: ``Game.transaction`` and ``Game.dry_run``).

A saved state is a shallow copy of every mutable thing the rules change: the game's own
attributes, its lists and dicts, and each player, mana pool, object, stack item,
continuous effect, shield, the combat and the PRNG, each copied one level deep (their
lists, dicts and sets). Card data is immutable and shared. Restoring writes the saved
contents back into the *same* Python objects, so a reference held across the rollback
(a caller's ``obj``) still names the object the game has. Far cheaper than
``copy.deepcopy`` of the game, which was most of the engine's time.

This module must know every container the engine mutates in place; ``tests/test_rollback.py``
checks a restore against a deep comparison on real games.

The bookkeeping records of ``engine/bookkeeping.py`` need nothing more: a player's
``life_gained_this_turn`` is an int in the player's ``__dict__``, and an object's
``mana_spent`` is a dict that is replaced, never changed in place (FORMAT §11.1).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .game import Game
    from .objects import GameObject

# attributes of the game a rollback does not copy: the input source and the card database
# are not game state; the log is truncated instead
_NOT_COPIED = ("inputs", "cards", "events")


class Saved:
    """One saved state of a game (:func:`save`); :meth:`restore` puts it back, once."""

    __slots__ = ("game", "attrs", "n_events", "instances", "lists", "dicts", "sets")

    def __init__(self, game: "Game") -> None:
        self.game = game
        self.attrs: dict[str, Any] = {}
        self.n_events = 0
        self.instances: list[tuple[Any, dict[str, Any]]] = []
        self.lists: list[tuple[list[Any], list[Any]]] = []
        self.dicts: list[tuple[dict[Any, Any], dict[Any, Any]]] = []
        self.sets: list[tuple[set[Any], set[Any]]] = []

    def restore(self) -> None:
        """Put the saved state back into the game's own objects and truncate the log to
        its saved length."""
        for obj, saved in self.instances:
            d = obj.__dict__
            d.clear()
            d.update(saved)
        for lst, saved_list in self.lists:
            lst[:] = saved_list
        for dct, saved_dict in self.dicts:
            dct.clear()
            dct.update(saved_dict)
        for st, saved_set in self.sets:
            st.clear()
            st.update(saved_set)
        d = self.game.__dict__
        d.clear()
        d.update(self.attrs)
        del self.game.events[self.n_events:]


def _save_object(out: Saved, obj: "GameObject") -> None:
    out.instances.append((obj, obj.__dict__.copy()))
    out.dicts.append((obj.counters, obj.counters.copy()))


def save(game: "Game") -> Saved:
    """Save everything :meth:`Saved.restore` needs to put ``game`` back as it is now."""
    out = Saved(game)
    attrs = game.__dict__.copy()
    out.attrs = attrs
    out.n_events = len(game.events)
    instances, lists, dicts = out.instances, out.lists, out.dicts
    for name, value in attrs.items():
        if name in _NOT_COPIED:
            continue
        if type(value) is list:
            lists.append((value, value.copy()))
        elif type(value) is dict:
            dicts.append((value, value.copy()))
    instances.append((game.rng, game.rng.__dict__.copy()))
    for p in game.players.values():
        instances.append((p, p.__dict__.copy()))
        lists.append((p.library, p.library.copy()))
        lists.append((p.hand, p.hand.copy()))
        lists.append((p.graveyard, p.graveyard.copy()))
        lists.append((p.exile, p.exile.copy()))
        pool = p.pool
        instances.append((pool, pool.__dict__.copy()))
        dicts.append((pool.mana, pool.mana.copy()))
    for obj in game.objects.values():  # _save_object, inlined: the loop that matters
        instances.append((obj, obj.__dict__.copy()))
        dicts.append((obj.counters, obj.counters.copy()))
    for item in game.stack:
        instances.append((item, item.__dict__.copy()))
        lists.append((item.targets, item.targets.copy()))
        lists.append((item.modes, item.modes.copy()))
        if item.obj is not None and game.objects.get(item.obj.ref) is not item.obj:
            _save_object(out, item.obj)
        if item.source_lki is not None:
            _save_object(out, item.source_lki)
    for trigger in game.pending_triggers:
        dicts.append((trigger, trigger.copy()))
        _save_object(out, trigger["source"])
    for eff in game.effects:
        instances.append((eff, eff.__dict__.copy()))
        lists.append((eff.affected, eff.affected.copy()))
    for shield in game.shields:
        instances.append((shield, shield.__dict__.copy()))
    combat = game.combat
    if combat is not None:
        instances.append((combat, combat.__dict__.copy()))
        dicts.append((combat.attackers, combat.attackers.copy()))
        dicts.append((combat.blockers, combat.blockers.copy()))
        dicts.append((combat.attacked, combat.attacked.copy()))
        out.sets.append((combat.blocked, combat.blocked.copy()))
        out.sets.append((combat.dealt_first_strike, combat.dealt_first_strike.copy()))
    return out
