"""Type-changing effects that take a card type away until end of turn (layer 4, CR 613.1d):
"target creature isn't a creature until end of turn" — it keeps its other types and its
abilities. Needed for ruling strixhaven.increment.08 (increment triggers only while its
permanent is a creature, and does nothing if it isn't one as the ability resolves).

Card data: the effect ``{"type": "lose_card_types", "what": <ref>, "types": ["Creature"],
"duration": "end_of_turn"}`` (docs/FORMAT.md §11.10), logged as ``types_changed`` with
``change: "lost_card_types"``. It is a continuous effect in the game's effect list
(``ContinuousEffect`` kind ``lose_card_types``, its objects locked in, CR 611.2c), applied by
the layer system in layer 4 in timestamp order with the effects that add card types
(engine/type_gain.py; CR 613.7: the later one wins); the cleanup step ends it (CR 514.2).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .objects import ContinuousEffect, effect_duration

if TYPE_CHECKING:
    from .effects import Context


def lose_card_types(ctx: "Context", eff: dict[str, Any]) -> None:
    """The affected permanents stop having the listed card types (default: Creature) until
    end of turn (a layer-4 ``lose_card_types`` continuous effect)."""
    g = ctx.game
    refs = [obj.ref for obj in ctx.objects(eff["what"]) if obj.zone == "battlefield"]
    if refs:
        g.effects.append(ContinuousEffect("lose_card_types", refs, g.new_timestamp(),
                                          types=tuple(eff.get("types", ("Creature",))),
                                          until=effect_duration(eff)))
        g.log("types_changed", objects=refs, change="lost_card_types")
