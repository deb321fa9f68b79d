"""Type-changing effects that take a card type away until end of turn (layer 4, CR 613.1d):
"target creature isn't a creature until end of turn" — it keeps its other types and its
abilities. Needed for ruling strixhaven.increment.08 (increment triggers only while its
permanent is a creature, and does nothing if it isn't one as the ability resolves).

Card data: the effect ``{"type": "lose_card_types", "what": <ref>, "types": ["Creature"],
"duration": "end_of_turn"}`` (docs/FORMAT.md §11.10), logged as ``types_changed`` with
``change: "lost_card_types"``. The lost types are kept on the object (``lost_card_types``,
a tuple replaced, never changed in place; engine/rollback.py copies objects' attributes);
``characteristics.is_type`` reads it; a new object (CR 400.7) starts without it, and the
cleanup step ends it (CR 514.2).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .effects import Context
    from .game import Game
    from .objects import GameObject

ATTR = "lost_card_types"
GAINED_ATTR = "gained_card_types"  # engine/type_gain.py's ATTR


def lose_card_types(ctx: "Context", eff: dict) -> None:
    """The affected permanents stop having the listed card types until end of turn."""
    refs = []
    for obj in ctx.objects(eff["what"]):
        if obj.zone != "battlefield":
            continue
        types = set(eff.get("types", ("Creature",)))
        setattr(obj, ATTR, tuple(sorted(set(getattr(obj, ATTR, ())) | types)))
        # CR 613.7: the latest layer-4 effect decides; an earlier gain of the type (engine/
        # type_gain.py's mark, named here to keep this module free of imports) is overridden
        gained = tuple(t for t in getattr(obj, GAINED_ATTR, ()) if t not in types)
        if gained != getattr(obj, GAINED_ATTR, ()):
            setattr(obj, GAINED_ATTR, gained)
        refs.append(obj.ref)
    if refs:
        ctx.game.log("types_changed", objects=refs, change="lost_card_types")


def card_types(obj: "GameObject") -> list:
    """The object's card types now: the printed ones less those an effect took away."""
    lost = getattr(obj, ATTR, ())
    return [t for t in obj.chars.types if t not in lost]


def end_of_turn(game: "Game") -> None:
    """CR 514.2: "until end of turn" effects end in the cleanup step."""
    for perm in game.battlefield:
        if ATTR in perm.__dict__:
            del perm.__dict__[ATTR]
