"""Type-changing effects that add a card type (or creature types: ``add_creature_types``, at the
end) until end of turn (layer 4, CR 613.1d, 205.1b):
"target permanent becomes a land in addition to its other types until end of turn". Needed
for ruling finalfantasy.landfall.03: a permanent already on the battlefield that becomes a
land doesn't enter the battlefield, so landfall ("whenever a land you control enters") doesn't
trigger (CR 603.6a: an enters-the-battlefield ability triggers on a permanent entering).

Card data: the effect ``{"type": "gain_card_types", "what": <ref>, "types": ["Land"],
"duration": "end_of_turn"}`` (docs/FORMAT.md §11.8), logged as ``types_changed`` with
``change: "gained_card_types"``. It is a continuous effect in the game's effect list
(``ContinuousEffect`` kind ``gain_card_types``, its set of objects locked in, CR 611.2c) that
the layer system applies in layer 4 in timestamp order with "isn't a <type>" effects
(engine/type_loss.py; CR 613.7: the later one wins); the cleanup step ends it (CR 514.2), and a
new object (CR 400.7) has another reference, so it doesn't apply to it. It adds no subtype and
no ability.

``become_creature`` ("all lands become 2/2 creatures until end of turn; they're still lands",
Natural Affinity) is the same layer-4 effect for the card type Creature with a layer-7b
``set_pt`` effect for the base power and toughness: ruling classic.g-creature-type.01 (lands
turned into creatures have no creature type).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .characteristics import power_toughness
from .objects import ContinuousEffect, effect_duration

if TYPE_CHECKING:
    from .effects import Context


def gain_card_types(ctx: "Context", eff: dict[str, Any]) -> None:
    """The affected permanents have the listed card types too until end of turn (a layer-4
    ``gain_card_types`` continuous effect). Nothing enters the battlefield: no
    ``enters_battlefield`` event, no trigger."""
    g = ctx.game
    refs = [obj.ref for obj in ctx.objects(eff["what"]) if obj.zone == "battlefield"]
    if refs:
        g.effects.append(ContinuousEffect("gain_card_types", refs, g.new_timestamp(),
                                          types=tuple(eff.get("types", ())), until=effect_duration(eff)))
        g.log("types_changed", objects=refs, change="gained_card_types")


def become_creature(ctx: "Context", eff: dict[str, Any]) -> None:
    """``{"type": "become_creature", "what": <ref>, "power": P, "toughness": T,
    "duration": "end_of_turn"}``: "<permanents> become P/T creatures until end of turn. They're
    still lands." (Natural Affinity; docs/FORMAT.md §11.8). Two continuous effects with one
    timestamp, the affected set locked in as it begins (CR 611.2c):

    - layer 4 (CR 613.1d, 205.1b): the permanents have the card type Creature in addition to
      their other types (logged ``types_changed``, ``change: "gained_card_types"``). No
      creature type is added: such a land-creature has none (CR 205.3d: a creature's subtypes
      are creature types; its land types are not), so an effect that names a creature type
      doesn't apply to it;
    - layer 7b (CR 613.4b): its base power and toughness become P/T (``set_pt``); one
      ``pt_changed`` per permanent, with the result after every layer.

    Being a creature, it can attack, or use a {T} ability, only if its controller has
    controlled it continuously since their most recent turn began (CR 302.6): the
    permanent's own ``summoning_sick`` mark, set as it entered, decides that."""
    g = ctx.game
    objs = [o for o in ctx.objects(eff["what"]) if o.zone == "battlefield"]
    if not objs:
        return
    refs = [o.ref for o in objs]
    until = effect_duration(eff)
    ts = g.new_timestamp()
    g.effects.append(ContinuousEffect("gain_card_types", refs, ts, types=("Creature",), until=until))
    g.log("types_changed", objects=refs, change="gained_card_types")
    g.effects.append(ContinuousEffect("set_pt", refs, ts, power=ctx.amount(eff["power"]),
                                      toughness=ctx.amount(eff["toughness"]), until=until))
    for obj in objs:
        p, t = power_toughness(g, obj)
        g.log("pt_changed", object=obj.ref, card=obj.card, power=p, toughness=t)


def add_creature_types(ctx: "Context", eff: dict[str, Any]) -> None:
    """``{"type": "add_creature_types", "what": <ref>, "subtypes": ["Dragon"], "duration":
    "end_of_turn"}``: "until end of turn, Sarkhan becomes a Dragon in addition to its other
    types" (Sarkhan, Dragon Ascendant; docs/FORMAT.md §5). A one-shot effect that creates a
    continuous effect (CR 611.2), with a timestamp and its set of objects locked in as it
    begins (CR 611.2c), which the layer system applies in layer 4 (CR 613.1d, 205.1b) in
    timestamp order with the static ``add_creature_types`` and the other creature-type
    effects (CR 613.7: a later "loses all creature types" removes the gained type, an earlier
    one doesn't). Logged as ``types_changed`` with ``change: "gained_creature_types"``. The
    permanent has the types after its printed subtypes (the state's ``subtypes``, every
    filter); a non-creature gets none (CR 205.3d). The cleanup step ends it (CR 514.2), and a
    new object (CR 400.7) has another reference, so it doesn't apply to it."""
    g = ctx.game
    refs = [obj.ref for obj in ctx.objects(eff["what"]) if obj.zone == "battlefield"]
    if refs:
        g.effects.append(ContinuousEffect("add_creature_types", refs, g.new_timestamp(),
                                          subtypes=tuple(eff["subtypes"]), until=effect_duration(eff)))
        g.log("types_changed", objects=refs, change="gained_creature_types")
