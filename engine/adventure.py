"""Adventurer cards (CR 715; rulings finalfantasy.adventure.01–16): casting the Adventure,
exiling it as it resolves ("on an adventure"), and casting the permanent — or playing the
land — from exile afterwards.

A card with ``layout: "adventure"`` is its permanent (creature, or a Final Fantasy Town land)
in every zone (CR 715.4; finalfantasy.adventure.05, .06). Cast with ``"face": "adventure"``
it is a spell with only the Adventure face's characteristics (CR 715.3, 715.3b;
finalfantasy.adventure.07, .08): that part reuses the face machinery of ``engine/faces.py``.
This module adds what is the Adventure's own:

- CR 715.3d: as an Adventure spell resolves, its controller exiles it instead of putting it
  into its owner's graveyard; while it stays exiled, that player may cast the permanent (not
  the Adventure) or play the land (a land play, CR 305.2; finalfantasy.adventure.04, .09).
  The permission is ``GameObject.adventure_by`` on the exiled card (a new object: any later
  zone change ends it, CR 400.7). Only on resolution: countered, or all targets illegal,
  it goes to the graveyard without the permission (finalfantasy.adventure.09); a card
  exiled any other way gets none (finalfantasy.adventure.10). Timing still applies
  (finalfantasy.adventure.11).
- A copy of an Adventure spell is exiled as it resolves and then ceases to exist (CR
  707.10a, 704.5e; finalfantasy.adventure.12): ``copy_ceased_to_exist`` with
  ``"after": "exiled"``.

Nothing here knows a particular card.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .errors import IllegalAction
from .faces import permanent_card
from .objects import GameObject, StackItem

if TYPE_CHECKING:
    from .game import Game

FACE = "adventure"


def exiles_on_resolution(item: StackItem) -> bool:
    """CR 715.3d: a resolving spell cast as an Adventure is exiled instead of going to the
    graveyard (finalfantasy.adventure.03, .09). Only on resolution."""
    return item.kind == "spell" and item.obj is not None and item.obj.cast_face == FACE


def exile_on_adventure(game: "Game", item: StackItem) -> None:
    """CR 715.3d: the controller exiles the resolved Adventure spell (``zone_changed`` stack
    → exile, ``cause: "adventure"``); its controller may later cast it as the permanent or
    play it as the land (``adventure_by``). A copy ceases to exist instead (CR 707.10a;
    finalfantasy.adventure.12)."""
    if item in game.stack:
        game.stack.remove(item)
    obj = item.obj
    assert obj is not None  # a spell on the stack has its card (CR 112.1a)
    if obj.is_copy:
        game.copy_ceases_to_exist(item, after="exiled")
        return
    new = game.move(obj, "exile", cause="adventure")
    new.adventure_by = item.controller


def on_adventure(obj: GameObject | None, player: str) -> bool:
    """The card is in exile, exiled by its own resolution as an Adventure that ``player``
    controlled (CR 715.3d)."""
    return obj is not None and obj.zone == "exile" and obj.adventure_by == player


def check_cast_from_exile(obj: GameObject, face: Any) -> None:
    """CR 715.3d, finalfantasy.adventure.04: from exile the card may be cast only as its
    permanent, not as the Adventure again: ``not_in_hand`` (the permission doesn't cover
    the Adventure)."""
    if face is not None:
        raise IllegalAction("not_in_hand", f"{obj.name} may be cast from exile only as its permanent, "
                                           "not as the Adventure (CR 715.3d)")


def land_in_exile(game: "Game", player: str, ref: Any) -> GameObject | None:
    """The card ``ref`` if it is on an adventure for ``player`` (a land card there may be
    played: a land play, CR 305.2, 715.3d; finalfantasy.adventure.04), else None."""
    obj = game.find(ref) if isinstance(ref, str) else None
    return obj if on_adventure(obj, player) else None


def exiled_adventurers(game: "Game", player: str) -> list[GameObject]:
    """The cards ``player`` may cast or play from exile as their permanent (legal moves)."""
    return [o for p in game.order for o in game.players[p].exile if o.adventure_by == player]


def has_adventure(obj: GameObject) -> bool:
    """CR 715.2a (finalfantasy.adventure.13): a card, spell or permanent "has an Adventure"
    when it has the alternative characteristics of an adventurer card, even if it doesn't
    use them now and was never cast as an Adventure (the filter key ``has_adventure``). A
    permanent that is a copy of one has an Adventure too (finalfantasy.adventure.14)."""
    d = permanent_card(obj)
    return d.layout == "adventure" and d.get_face(FACE) is not None
