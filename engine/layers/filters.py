"""Matching an object against a filter (docs/FORMAT.md §5), seen through a view of the
characteristics: the layer system's result for the game's queries, or its draft while the
layers apply (CR 613.6, 613.8: what a static ability applies to is decided on the
characteristics the earlier layers and effects have given the objects so far).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, Protocol

from .. import adventure
from ..objects import GameObject, StackItem
from . import copiable

if TYPE_CHECKING:
    from ..game import Game

__all__ = ["View", "matches", "object_colors", "stack_mana_value"]


class View(Protocol):
    """Characteristics of game objects (``engine/layers/system.py`` or a draft)."""

    def types(self, obj: GameObject) -> Sequence[str]:
        """Card types (CR 300.1)."""

    def has_subtype(self, obj: GameObject, subtype: str) -> bool:
        """Subtypes after layer 4 (CR 613.1d)."""

    def colors(self, obj: GameObject) -> Sequence[str]:
        """Colors (CR 105.2)."""

    def keywords(self, obj: GameObject) -> Sequence[dict[str, Any]]:
        """Keyword abilities (CR 702)."""

    def power(self, obj: GameObject) -> int:
        """Power (CR 208)."""


def object_colors(view: View, obj: GameObject | StackItem | None) -> list[str]:
    """CR 105.2: the colors of an object; an ability's color is its source's (its last known
    information when it has left its zone)."""
    if obj is None:
        return []
    if isinstance(obj, StackItem):
        if obj.obj is not None:
            return object_colors(view, obj.obj)
        return object_colors(view, obj.source_lki) if obj.source_lki else []
    return list(view.colors(obj))


def stack_mana_value(obj: GameObject | StackItem, target: GameObject) -> int:
    """The mana value of ``target`` (``obj``'s object, or ``obj`` itself): CR 202.3e: while
    a spell is on the stack, each {X} in its mana cost counts as the value chosen for X
    (``obj`` is its StackItem); elsewhere X is 0. A face-down spell's is 0 (CR 708.2a)."""
    mv = copiable.mana_value(target)
    if isinstance(obj, StackItem) and obj.kind == "spell" and not target.face_down:
        mv += obj.x * target.chars.mana_cost.x
    return mv


def _has_keyword(view: View, obj: GameObject, name: str) -> bool:
    return any(k["keyword"] == name for k in view.keywords(obj))


def matches(game: Game, view: View, obj: GameObject | StackItem, flt: dict[str, Any] | None,
            you: str | None, source: GameObject | None = None) -> bool:
    """Does ``obj`` satisfy filter ``flt`` (docs/FORMAT.md §5), seen by player ``you`` from
    ``source``, with the characteristics ``view`` gives? ``types``/``colors``/``subtypes``
    match any of the listed values; every key must hold."""
    if not flt:
        return True
    target = obj.obj if isinstance(obj, StackItem) else obj
    if target is None:
        return False
    controller: str | None = obj.controller
    d = target.chars
    for key, want in flt.items():
        if key == "types" and not any(t in view.types(target) for t in want):  # after type-changing effects
            return False
        if key == "not_types" and any(t in view.types(target) for t in want):
            return False
        if key == "has_adventure" and adventure.has_adventure(target) != want:  # CR 715.2a
            return False
        if key == "subtypes" and not any(view.has_subtype(target, t) for t in want):
            return False
        if key == "not_subtypes" and any(view.has_subtype(target, t) for t in want):  # "non-Frog"
            return False
        if key == "mana_value" and stack_mana_value(obj, target) != want:
            return False
        if key == "mana_value_at_most" and stack_mana_value(obj, target) > want:
            return False
        if key == "face_down" and target.face_down != want:
            return False
        if key == "token" and target.is_token != want:  # "Warrior tokens you control" (CR 111.1)
            return False
        if key == "supertypes" and not any(t in d.supertypes for t in want):
            return False
        if key == "not_supertypes" and any(t in d.supertypes for t in want):  # "nonlegendary" (CR 205.4a)
            return False
        if key == "colors" and not any(c in object_colors(view, obj) for c in want):
            return False
        if key == "not_colors" and any(c in object_colors(view, obj) for c in want):
            return False
        if key == "colorless" and (not object_colors(view, obj)) != want:
            return False
        if key == "controller":
            if want == "you" and controller != you:
                return False
            if want == "opponent" and controller == you:
                return False
        if key == "keywords" and not all(_has_keyword(view, target, k) for k in want):
            return False
        if key == "not_keywords" and any(_has_keyword(view, target, k) for k in want):
            return False
        if key == "tapped" and target.tapped != want:
            return False
        if key == "attacking" and (target.ref in game.combat_attackers()) != want:
            return False
        if key == "blocking" and (target.ref in game.combat_blockers()) != want:
            return False
        if key == "attacking_or_blocking" and (target.ref in game.combat_attackers()
                                               or target.ref in game.combat_blockers()) != want:
            return False
        if key == "attacked_this_turn" and target.attacked_this_turn != want:
            return False
        if key == "other" and want and source is not None and target.ref == source.ref:
            return False
        if key == "name" and d.name != want:
            return False
        if key == "power_at_most" and ("Creature" not in view.types(target) or view.power(target) > want):
            return False  # "a creature with power N or less" (finalfantasy.job-select.03)
    return True
