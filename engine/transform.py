"""Transforming double-faced cards and meld (Final Fantasy; docs/FORMAT.md §5.1, §11.6).

CR 712 (double-faced cards), 701.28 (transform), 701.42 (meld), 202.3b–c (mana values):

- A transforming double-faced card (``layout: "transform"``) has its front face (the card
  definition) in every zone but the battlefield; on the battlefield the face that is up
  (CR 712.8a, 712.8d–e; rulings finalfantasy.transform.03, .06, .07). A transformed
  permanent's ``definition`` is the back face and its ``card_definition`` the whole card:
  when it leaves the battlefield ``Zones.move`` builds the new object from the whole card
  (front face up again, CR 712.8a).
- Transforming (CR 701.28a) turns the permanent over: it is the same object, so counters,
  Auras, damage and continuous effects stay (finalfantasy.transform.04). A permanent that
  isn't a transforming double-faced card is not transformed (CR 701.28c).
- Put onto the battlefield transformed (CR 712.14a; finalfantasy.transform.11, .12): the
  back face up; a card that isn't a transforming double-faced card stays where it is.
- Mana value (CR 202.3b; finalfantasy.transform.05, .08): the front face's, whichever face is
  up; a melded permanent's is the sum of its fronts' (CR 202.3c; finalfantasy.meld.10):
  engine/layers/copiable.py.
- Meld (CR 701.42a–c, 712.4; finalfantasy.meld.01–09): the two cards are exiled, then, if
  they are a meld pair, both exiled cards and still in exile, put onto the battlefield as one
  new permanent with the characteristics of the combined back face (the ``meld_result`` card),
  untapped, with no counters, Auras or effects of the objects they were. Otherwise they stay
  in exile (CR 701.42c; finalfantasy.meld.05). The melded permanent (``melded_with``: the
  other card) leaves the battlefield as two cards, both going to the same zone
  (CR 712.4c? — finalfantasy.meld.01, .12).

Nothing here knows a particular card.
"""

from __future__ import annotations

import dataclasses
from typing import TYPE_CHECKING, Any

from .errors import IllegalAction, ScenarioError
from .late_binding import late_handler
from .objects import FACE_DOWN, GameObject

if TYPE_CHECKING:
    from .cards import CardDefinition
    from .game import Game


def is_transforming_card(card: "CardDefinition | None") -> bool:
    """CR 712.1, 712.2: a transforming double-faced card (a front face and a back face)."""
    return card is not None and card.layout == "transform" and card.get_face("back") is not None


def whole_card(obj: "GameObject") -> "CardDefinition":
    """The card the object is (its front face for a double-faced card)."""
    return obj.card_definition if obj.card_definition is not None else obj.definition


def is_transformed(obj: "GameObject") -> bool:
    """The permanent has its back face up (CR 712.8e)."""
    return obj.definition.face == "back" and obj.card_definition is not None


def state_fields(obj: "GameObject") -> dict[str, Any]:
    """Fields the state gives a permanent (FORMAT §11.6): ``"face": "back"`` while a
    transforming permanent's back face is up; ``"melded": [card, card]`` for a melded
    permanent. Nothing for any other permanent."""
    if obj.melded_with is not None:
        return {"melded": [obj.card, obj.melded_with[0]]}
    if is_transformed(obj):
        return {"face": "back"}
    return {}


def turn_over(game: "Game", obj: "GameObject") -> bool:
    """CR 701.28a: transform the permanent (the same object, CR 712.9? finalfantasy.transform.04).
    Logs ``transformed`` (``object``, ``card``, ``name`` of the face now up, ``face``).
    CR 701.28c: a permanent that isn't a transforming double-faced card doesn't transform
    (nothing happens, nothing is logged). Returns whether it transformed."""
    if obj.zone != "battlefield" or obj.face_down or obj.melded_with is not None:
        return False
    card = whole_card(obj)
    if not is_transforming_card(card):
        return False
    if is_transformed(obj):
        obj.definition, obj.card_definition = card, None
        face = "front"
    else:
        obj.definition, obj.card_definition = _face(card, "back", obj.is_token), card
        face = "back"
    game.log("transformed", object=obj.ref, card=obj.card, name=obj.name, face=face)
    return True


def transform_effect(ctx: Any, eff: dict[str, Any]) -> None:
    """The effect ``{"type": "transform", "what": ref}`` (CR 701.28a): each permanent it
    names transforms; one that isn't a transforming double-faced card doesn't (CR 701.28c;
    finalfantasy.transform.12's rule for permanents)."""
    for obj in ctx.objects(eff["what"]):
        turn_over(ctx.game, obj)


def put_onto_battlefield_transformed(ctx: Any, eff: dict[str, Any]) -> None:
    """The effect ``{"type": "put_onto_battlefield_transformed", "what": ref}`` ("return this
    card from your graveyard to the battlefield transformed"): CR 712.14a, the card enters
    with its back face up (finalfantasy.transform.11) under the effect's controller. A card
    that isn't a transforming double-faced card isn't put onto the battlefield: it stays in
    its zone (finalfantasy.transform.12)."""
    g = ctx.game
    for obj in ctx.objects(eff["what"]):
        if obj.zone in ("battlefield", "stack"):
            continue
        card = whole_card(obj)
        if not is_transforming_card(card) or obj.is_token:
            continue
        g.move(obj, "battlefield", controller=ctx.controller, cause=eff["type"],
               init={"definition": card.get_face("back"), "card_definition": card})


def setup_transformed(obj: "GameObject", path: str) -> None:
    """A setup battlefield entry with ``"transformed": true``: the permanent has its back face
    up. Raises ScenarioError when the card isn't a transforming double-faced card."""
    card = whole_card(obj)
    if not is_transforming_card(card):
        raise ScenarioError(f"{path}.transformed", f"{card.name} is not a transforming double-faced card")
    back = card.get_face("back")
    assert back is not None  # a transforming double-faced card has a back face (CR 712.1)
    obj.definition, obj.card_definition = back, card


def _face(card: "CardDefinition", role: str, token: bool) -> "CardDefinition":
    """A face of ``card``; a token's faces are a token's (CR 111.1, 712.x: a transforming
    token has both faces)."""
    face = card.get_face(role)
    assert face is not None, f"{card.name} has no {role} face"
    return dataclasses.replace(face, is_token=True) if token and not face.is_token else face


def copiable_faces(src: "GameObject") -> tuple[Any, ...]:
    """What a token copy of ``src`` is (CR 707.2): ``(definition, card_definition)``. A copy
    of a transforming permanent has both faces and the copied permanent's face up (ruling
    finalfantasy.transform.13); of a melded permanent, only the melded face (ruling
    finalfantasy.meld.10); of a face-down permanent, a face-up nameless 2/2 creature with no
    text, no subtypes, no colors and no mana cost (CR 707.2, 708.2: the face-down values are
    its copiable values; timespiral.morph.02, .05); otherwise its characteristics as printed."""
    if src.face_down:
        return dataclasses.replace(FACE_DOWN, is_token=True), None
    card = whole_card(src)
    if src.melded_with is None and is_transforming_card(card):
        whole = dataclasses.replace(card, is_token=True)
        definition = _face(whole, "back", True) if is_transformed(src) else whole
        card_definition = whole if is_transformed(src) else None
        return definition, card_definition
    return dataclasses.replace(src.definition, is_token=True), None


# layouts whose second set of characteristics is an alternative one, part of the copiable
# values (CR 707.2; adventurer, Omen and prepare cards, FORMAT §5.1)
ALTERNATIVE_LAYOUTS = ("adventure", "omen", "prepare")

# the copy exceptions create_token_copy takes (CR 707.9b: they become copiable values)
COPY_EXCEPTIONS = ("power", "toughness", "colors", "subtypes")


def with_exceptions(definition: "CardDefinition", exceptions: dict[str, Any] | None) -> "CardDefinition":
    """CR 707.9, 707.9b: a copy effect's exceptions ("except it's a 1/1 green Frog":
    ``{"power": 1, "toughness": 1, "colors": ["green"], "subtypes": ["Frog"]}``) replace those
    characteristics of the copy and become part of its copiable values. They change only the
    copy's own characteristics, not its alternative ones (a prepare spell, ruling
    strixhaven.prepare.20). ``None``: the definition unchanged."""
    if not exceptions:
        return definition
    changes: dict[str, Any] = {k: (tuple(v) if isinstance(v, list) else v) for k, v in exceptions.items() if k in COPY_EXCEPTIONS}
    return dataclasses.replace(definition, **changes)


def create_token_copy(ctx: Any, eff: dict[str, Any]) -> None:
    """The effect ``{"type": "create_token_copy", "what": ref}`` ("create a token that's a copy
    of target creature you control", CR 707.2, 111.10): a token with the copiable values of the
    permanent, under the effect's controller. A copy of a transforming permanent is a
    transforming token with both faces, entering with the face up that the permanent has
    (ruling finalfantasy.transform.13; it may transform later). A copy of a melded permanent
    has only the melded face's characteristics, and so mana value 0 (ruling
    finalfantasy.meld.10). ``"except"`` (CR 707.9b): copy exceptions, ``with_exceptions``.
    Logs ``token_created`` (the name of the face up)."""
    for src in ctx.objects(eff["what"]):
        if src.zone != "battlefield":
            continue
        definition, card_definition = copiable_faces(src)
        create_copy_token(ctx, with_exceptions(definition, eff.get("except")), card_definition)  # CR 707.9b


def create_copy_token(ctx: Any, definition: "CardDefinition", card_definition: "CardDefinition | None") -> GameObject:
    """Put onto the battlefield a token with these copiable values (``copiable_faces``)
    under the effect's controller (CR 111.10, 707.2): summoning sick, a new timestamp, in the
    game's layer system. Logs ``token_created`` (the name of the face up), fires its
    enters-the-battlefield triggers and returns it. Used by ``create_token_copy`` and
    engine/token_copies.py."""
    g = ctx.game
    ref = g.next_ref("token")
    obj = GameObject(ref=ref, card=ref, definition=definition, owner=ctx.controller, zone="battlefield",
                     controller=ctx.controller, timestamp=g.new_timestamp(), summoning_sick=True,
                     layers=g.layers)
    obj.card_definition = card_definition
    g.battlefield.append(obj)
    g.objects[ref] = obj
    ctx.created.append(ref)
    g.log("token_created", object=ref, card=ref, name=obj.name, controller=ctx.controller)
    g.fire_triggers({"event": "enters_battlefield", "object": obj})
    return obj


def exile_and_return(ctx: Any, eff: dict[str, Any]) -> None:
    """The effect ``{"type": "exile_and_return", "what": ref}`` ("exile target creature you
    control, then return that card to the battlefield under your control", CR 610.3): the
    permanent is exiled, then the card it became returns under the effect's controller as a
    new object, front face up (CR 712.14a). A melded permanent is exiled as its two cards and
    "that card" is both of them: both return, as two permanents (ruling finalfantasy.meld.12).
    A token ceases to exist in exile (CR 111.7): nothing returns."""
    g = ctx.game
    for obj in ctx.objects(eff["what"]):
        if obj.zone != "battlefield":
            continue
        partner = obj.melded_with[0] if obj.melded_with is not None else None
        controller = obj.owner if eff.get("under") == "owner" else ctx.controller
        exiled = [g.move(obj, "exile", cause=eff["type"])]
        if partner is not None:
            exiled.append(g.by_card[partner])
        for card in exiled:
            if card.is_token or g.objects.get(card.ref) is not card or card.zone != "exile":
                continue
            if eff.get("transformed"):  # CR 712.14a; finalfantasy.transform.11, .12
                whole = whole_card(card)
                if not is_transforming_card(whole):
                    continue  # not a transforming double-faced card: it stays in exile
                g.move(card, "battlefield", controller=controller, cause=eff["type"],
                       init={"definition": whole.get_face("back"), "card_definition": whole})
            else:
                g.move(card, "battlefield", controller=controller, cause=eff["type"])


def _is_creature(game: "Game", obj: "GameObject") -> bool:
    """A creature now, after type-changing effects (layer 4, engine/layers/): "any creature
    on the battlefield" includes a land animated into a creature and excludes a creature
    that "isn't a creature until end of turn" (CR 707.2 copies the copiable values only)."""
    return game.layers.of(obj).is_type("Creature")


def copy_of_permanent(src: GameObject) -> "CardDefinition":
    """What a permanent becoming a copy of ``src`` (entering as a copy, or becoming one until
    end of turn, engine/copy_effects.py) gets as its copiable values (CR 707.2): ``src``'s face
    up only, a face-down permanent's being a nameless 2/2 (CR 708.2); an adventurer's, Omen's
    or prepare card's alternative characteristics are part of them."""
    face = FACE_DOWN if src.face_down else src.definition  # CR 707.2, 708.2
    if face.layout in ALTERNATIVE_LAYOUTS:  # CR 707.2: alternative characteristics are copied
        return dataclasses.replace(face, is_token=False)
    return dataclasses.replace(face, layout="normal", faces=(), meld=None, face=None, is_token=False)


def enter_as_copy(game: "Game", obj: "GameObject") -> None:
    """The card field ``"as_enters": {"choose": "copy"}`` ("you may have this creature enter as
    a copy of any creature on the battlefield", CR 707.2, 614.1c): as the permanent enters, its
    controller chooses a creature (a ``choose`` with reason ``copy``: an alias, or ``no``). The
    permanent has the copiable values of that creature's face up only: a card that copies a
    transforming permanent is not a double-faced card (it can't transform or enter transformed,
    CR 701.28c, 712.14a), one that copies a back face or a melded permanent has mana value 0.
    Copying a face-down creature, it is a face-up nameless colorless 2/2 with no abilities and
    no mana cost (CR 707.2, 708.2; timespiral.morph.02, .05). A copy of an adventurer, Omen or
    prepare card keeps its alternative characteristics (CR 707.2; finalfantasy.adventure.14,
    strixhaven.prepare.12), but not the prepared designation (a fresh object's).
    Logs ``entered_as_copy`` (``object``, ``card``, ``copied``, ``name``) before the zone change."""
    spec = (obj.definition.raw or {}).get("as_enters") if not obj.face_down else None
    if not spec or spec.get("choose") != "copy" or obj.card_definition is not None:
        return
    options = [o for o in game.battlefield if o is not obj and _is_creature(game, o)]
    if not options:
        return

    def valid(inp: dict[str, Any]) -> "GameObject | None":
        choice = inp.get("choice")
        if choice == "no":
            return None
        for o in options:
            if choice in (o.card, o.ref):
                return o
        raise IllegalAction("invalid_choice", f"choose one of {[o.card for o in options]} or no")

    assert obj.controller is not None  # a permanent has a controller (CR 108.4)
    src = game.decide("choose", obj.controller, "choose", valid, reason="copy", options=[o.card for o in options] + ["no"])
    if src is None:
        return
    copied = copy_of_permanent(src)
    obj.definition, obj.card_definition = copied, whole_card(obj)
    game.log("entered_as_copy", object=obj.ref, card=obj.card, copied=src.card, name=copied.name or None)


# ---------------------------------------------------------------------------------------
# meld


def is_meld_pair(a: "CardDefinition", b: "CardDefinition") -> bool:
    """CR 712.4a: two meld cards each naming the other as its pair, with the same result."""
    ma, mb = a.meld or {}, b.meld or {}
    return (a.layout == "meld" and b.layout == "meld" and ma.get("pair") == b.name and mb.get("pair") == a.name
            and ma.get("result") is not None and ma.get("result") == mb.get("result"))


def meld_effect(ctx: Any, eff: dict[str, Any]) -> None:
    """The effect ``{"type": "meld", "what": "self", "with": {"name": N}}`` ("exile them, then
    meld them into …", CR 701.42a): exile the source and one permanent named N that its
    controller both owns and controls (with several, a ``choose`` with reason
    ``meld_partner``: ruling finalfantasy.meld.02), then meld them (:func:`meld`)."""
    g = ctx.game
    me = ctx.objects(eff.get("what", "self"))
    me = [o for o in me if o.zone == "battlefield"]
    name = eff["with"]["name"]
    ctrl = ctx.controller
    mates: list[GameObject] = [o for o in g.battlefield if o.name == name and o.controller == ctrl and o.owner == ctrl
             and o not in me]
    partner = None
    if len(mates) == 1:
        partner = mates[0]
    elif len(mates) > 1:
        options = [o.card for o in mates]

        def valid(inp: dict[str, Any]) -> "GameObject":
            choice = inp.get("choice")
            for o in mates:
                if choice in (o.card, o.ref):
                    return o
            raise IllegalAction("invalid_choice", f"choose one of {options}")

        partner = g.decide("choose", ctrl, "choose", valid, reason="meld_partner", options=options)
    exiled = [g.move(o, "exile", cause="meld") for o in me + ([partner] if partner else [])]
    meld(g, exiled, ctrl)


def meld(game: "Game", exiled: list[GameObject], controller: str) -> "GameObject | None":
    """CR 701.42a–c: meld the exiled cards: only two cards (not tokens) of one meld pair,
    both still in exile, become one new permanent (ruling finalfantasy.meld.03: a new,
    untapped object with no relation to the objects that left; .05: otherwise they stay in
    exile). Logs a ``zone_changed`` exile → battlefield for each card (both with the new
    permanent as ``new_object``, ``"melded": true``), ``melded`` (``object``, ``card``,
    ``cards``, ``name``), then ``permanent_entered`` once."""
    if len(exiled) != 2:
        return None
    a, b = exiled
    if a.is_token or b.is_token or any(game.objects.get(o.ref) is not o or o.zone != "exile" for o in (a, b)):
        return None
    ca, cb = whole_card(a), whole_card(b)
    if not is_meld_pair(ca, cb):
        return None
    result = game.cards.get(ca.meld["result"])
    if result is None or result.layout != "meld_result":
        return None
    for o in (a, b):
        game.players[o.owner].exile.remove(o)
        del game.objects[o.ref]
        game.incarnation[o.card] += 1
    new = GameObject(ref=f"{a.card}#{game.incarnation[a.card]}", card=a.card, definition=result, owner=a.owner,
                     zone="battlefield", timestamp=game.new_timestamp(), layers=game.layers)
    new.card_definition = ca
    new.melded_with = (b.card, cb)
    new.controller = controller
    new.summoning_sick = True
    new.upkeep_mark = game.players[controller].upkeeps
    game.battlefield.append(new)
    game.objects[new.ref] = new
    game.by_card[a.card] = new
    game.by_card[b.card] = new
    for o in (a, b):
        game.log("zone_changed", object=o.ref, new_object=new.ref, card=o.card, name=new.name, owner=o.owner,
                 **{"from": game.zone_name("exile"), "to": "battlefield"}, cause="meld", melded=True)
    game.log("melded", object=new.ref, card=new.card, cards=[a.card, b.card], name=new.name)
    game.log("permanent_entered", object=new.ref, card=new.card, name=new.name, controller=new.controller)
    game.fire_triggers({"event": "enters_battlefield", "object": new})
    return new


def partner_leaves(game: "Game", old: "GameObject", to: str, position: str, cause: str | None) -> None:
    """Ruling finalfantasy.meld.01 (CR 712.4c–d): a melded permanent that leaves the
    battlefield is two cards, both put into the new zone; the other card becomes a new object
    there too (front face up, CR 712.8a). Called by ``Zones.move`` after the first card's
    move. A melded permanent going to the battlefield or the stack isn't modelled."""
    assert old.melded_with is not None  # called for a melded permanent only
    alias, card = old.melded_with
    game.incarnation[alias] += 1
    zone = to if to not in ("battlefield", "stack") else "exile"
    new = GameObject(ref=f"{alias}#{game.incarnation[alias]}", card=alias, definition=card, owner=old.owner,
                     zone=zone, timestamp=game.new_timestamp(), layers=game.layers)
    player = game.players[old.owner]
    if zone == "library" and position == "bottom":
        player.library.append(new)
    elif zone == "library":
        player.library.insert(1 if player.library and player.library[0].card == old.card else 0, new)
    else:
        player.zone(zone).append(new)
    game.objects[new.ref] = new
    game.by_card[alias] = new
    game.log("zone_changed", object=old.ref, new_object=new.ref, card=alias, name=new.name, owner=old.owner,
             **{"from": "battlefield", "to": game.zone_name(zone)}, **({"cause": cause} if cause else {}),
             melded=True)


# ---------------------------------------------------------------------------------------
# conditions

CONDITIONS = ("own_and_control_named",)


def condition(game: "Game", key: str, want: Any, current: "GameObject", gone: bool) -> bool:
    """``{"own_and_control_named": N}``: the source is on the battlefield and its
    controller both owns and controls it and a creature named N (Vanille's intervening "if",
    CR 603.4)."""
    if gone or current.zone != "battlefield" or current.controller != current.owner:
        return False
    p = current.controller
    return any(o is not current and o.name == want and o.controller == p and o.owner == p
               and "Creature" in o.chars.types for o in game.battlefield)


def _late(name: str) -> Any:
    """This module's function ``name`` as an effect handler bound at call time (mutations)."""
    return late_handler(globals(), name)


#: The effect handlers of this module, by effect type (``engine/effects.py`` HANDLERS).
EFFECTS = {
    "transform": _late("transform_effect"),  # CR 701.28a
    "put_onto_battlefield_transformed": _late("put_onto_battlefield_transformed"),  # CR 712.14a
    "meld": _late("meld_effect"),  # CR 701.42a
    "create_token_copy": _late("create_token_copy"),  # CR 707.2, 111.10
    "exile_and_return": _late("exile_and_return"),  # CR 610.3
}
