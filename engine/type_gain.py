"""Type-changing effects that add a card type until end of turn (layer 4, CR 613.1d, 205.1b):
"target permanent becomes a land in addition to its other types until end of turn". Needed
for ruling finalfantasy.landfall.03: a permanent already on the battlefield that becomes a
land doesn't enter the battlefield, so landfall ("whenever a land you control enters") doesn't
trigger (CR 603.6a: an enters-the-battlefield ability triggers on a permanent entering).

Card data: the effect ``{"type": "gain_card_types", "what": <ref>, "types": ["Land"],
"duration": "end_of_turn"}`` (docs/FORMAT.md §11.8), logged as ``types_changed`` with
``change: "gained_card_types"``. It mirrors engine/type_loss.py: the gained types are kept on
the object (``gained_card_types``, a tuple replaced, never changed in place; engine/rollback.py
copies objects' attributes); ``characteristics.is_type`` and the state's ``types`` read it; a
new object (CR 400.7) starts without it, and the cleanup step ends it (CR 514.2). It adds
no subtype and no ability.

``become_creature`` ("all lands become 2/2 creatures until end of turn; they're still lands",
Natural Affinity) reuses it for the card type Creature (layer 4) and adds a layer-7b ``set_pt``
continuous effect for the base power and toughness: ruling classic.g-creature-type.01 (lands
turned into creatures have no creature type).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from . import type_loss
from .characteristics import power_toughness
from .objects import ContinuousEffect

if TYPE_CHECKING:
    from .effects import Context
    from .game import Game
    from .objects import GameObject

ATTR = "gained_card_types"


def gain_card_types(ctx: "Context", eff: dict) -> None:
    """The affected permanents have the listed card types too until end of turn. Nothing
    enters the battlefield: no ``enters_battlefield`` event, no trigger."""
    refs = []
    for obj in ctx.objects(eff["what"]):
        if obj.zone != "battlefield":
            continue
        _gain(obj, eff.get("types", ()))
        refs.append(obj.ref)
    if refs:
        ctx.game.log("types_changed", objects=refs, change="gained_card_types")


def become_creature(ctx: "Context", eff: dict) -> None:
    """``{"type": "become_creature", "what": <ref>, "power": P, "toughness": T,
    "duration": "end_of_turn"}``: "<permanents> become P/T creatures until end of turn. They're
    still lands." (Natural Affinity; docs/FORMAT.md §11.8). Two continuous effects with one
    timestamp, the affected set locked in as it begins (CR 611.2c):

    - layer 4 (CR 613.1d, 205.1b): the permanents have the card type Creature in addition to
      their other types, kept like :func:`gain_card_types`'s gains (logged ``types_changed``,
      ``change: "gained_card_types"``). No creature type is added: such a land-creature has
      none (CR 205.3d: a creature's subtypes are creature types; its land types are not),
      so an effect that names a creature type doesn't apply to it;
    - layer 7b (CR 613.4b): its base power and toughness become P/T (a ``set_pt``
      continuous effect, read by ``characteristics.power_toughness``); one ``pt_changed``
      per permanent, with the result after every layer.

    Being a creature, it can attack, or use a {T} ability, only if its controller has
    controlled it continuously since their most recent turn began (CR 302.6): the
    permanent's own ``summoning_sick`` mark, set as it entered, decides that."""
    g = ctx.game
    objs = [o for o in ctx.objects(eff["what"]) if o.zone == "battlefield"]
    if not objs:
        return
    for obj in objs:
        _gain(obj, ("Creature",))
    refs = [o.ref for o in objs]
    g.log("types_changed", objects=refs, change="gained_card_types")
    g.effects.append(ContinuousEffect("set_pt", refs, g.new_timestamp(), power=ctx.amount(eff["power"]),
                                      toughness=ctx.amount(eff["toughness"]),
                                      until=eff.get("duration", "end_of_turn")))
    for obj in objs:
        p, t = power_toughness(g, obj)
        g.log("pt_changed", object=obj.ref, card=obj.card, power=p, toughness=t)


def _gain(obj: "GameObject", types: "tuple | list") -> None:
    """The object has ``types`` too from now on. Layer-4 effects apply in timestamp order
    (CR 613.7) and these all end at the same cleanup step, so the latest one decides: a type
    gained now overrides an earlier "isn't a <type>" (engine/type_loss.py) and vice versa."""
    setattr(obj, ATTR, tuple(sorted(set(getattr(obj, ATTR, ())) | set(types))))
    lost = tuple(t for t in getattr(obj, type_loss.ATTR, ()) if t not in types)
    if lost != getattr(obj, type_loss.ATTR, ()):
        setattr(obj, type_loss.ATTR, lost)


def gained(obj: "GameObject") -> tuple:
    """The card types an effect gave the object (none off the battlefield)."""
    return getattr(obj, ATTR, ())


def with_gained(types: list, obj: "GameObject") -> list:
    """``types`` (the object's card types now) plus the gained ones, in the order of the CR's
    card types list (CR 300.1) after the printed ones."""
    return list(types) + [t for t in gained(obj) if t not in types]


def end_of_turn(game: "Game") -> None:
    """CR 514.2: "until end of turn" effects end in the cleanup step."""
    for perm in game.battlefield:
        if ATTR in perm.__dict__:
            del perm.__dict__[ATTR]
