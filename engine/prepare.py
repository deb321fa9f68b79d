"""Prepare (Secrets of Strixhaven): the "prepared" designation and the copy of a prepare
spell in exile (CR 722; rulings strixhaven.prepare.01–21; FORMAT §11.9). The rule's text
wasn't available: its number comes from XMage's pull requests #14846 and #15599, which quote
CR 722.3a (only a permanent with a prepare spell can become prepared) and 722.4 (its
controller may cast a copy of the prepare spell); docstrings cite the rulings.

- "Prepared" is a designation of a permanent (ruling strixhaven.prepare.04), kept on the
  object (``GameObject.prepared``). It is not a copiable value (.12) and doesn't depend on the
  permanent's abilities or types (.13, .14).
- A permanent becomes prepared only if it has a prepare spell (its card's ``"face":
  "prepare"``, .15) and isn't prepared already (.06, .16). As it does, its controller creates
  a copy of the prepare spell in exile (.09), linked to the permanent: reference
  ``prepared#N``, held in that player's exile, ``is_copy`` and ``prepared_for`` the permanent.
  The copy has the prepare face's characteristics only, whatever copy effects apply to the
  permanent (.20).
- Only the permanent's current controller may cast the copy (.10), paying its cost and with
  the timing of its type (.05); casting it isn't an alternative cost (.19). As it is cast the
  permanent becomes unprepared (.05, .09), even if the spell later doesn't resolve (.21).
- The copy ceases to exist when the permanent leaves the battlefield or becomes unprepared
  another way (.04, .17); it is not a copy that the state-based action for copies outside
  the stack removes (.11).

Nothing here knows a particular card.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from . import alternative_costs, faces
from .errors import IllegalAction
from .objects import GameObject

if TYPE_CHECKING:
    from .cards import CardDefinition
    from .effects import Context
    from .game import Game

# the face role of a prepare spell (FORMAT §5.1)
PREPARE_FACE = "prepare"


def prepare_spell(obj: GameObject) -> CardDefinition | None:
    """The prepare spell face of ``obj``'s card, or None (ruling strixhaven.prepare.15: a
    permanent without one can't become prepared). A permanent that became a copy of a prepare
    card has its prepare spell (.12: an alternative characteristic, copied; the designation
    isn't)."""
    d = faces.permanent_card(obj)
    if d.layout != PREPARE_FACE:
        return None
    return d.get_face(PREPARE_FACE)


def _create_copy(game: "Game", perm: GameObject) -> GameObject:
    """Ruling strixhaven.prepare.09: the permanent's controller creates a copy of its
    prepare spell in exile, linked to it (.20: from the face itself, whatever copy
    exceptions apply to the permanent)."""
    game.serial.setdefault("prepared", 0)
    ref = game.next_ref("prepared")
    face = prepare_spell(perm)
    assert face is not None  # become_prepared checked it
    owner = perm.controller or perm.owner
    copy = GameObject(ref=ref, card=ref, definition=face, owner=owner, zone="exile",
                      controller=owner, timestamp=game.new_timestamp(), is_copy=True, prepared_for=perm.ref,
                      layers=game.layers)
    game.objects[ref] = copy
    game.players[owner].exile.append(copy)
    perm.prepared, perm.prepared_copy = True, ref
    return copy


def become_prepared(game: "Game", perm: GameObject, cause: str = "effect") -> bool:
    """Rulings strixhaven.prepare.04, .09: ``perm`` becomes prepared and a copy of its
    prepare spell appears in exile. Nothing happens if it isn't on the battlefield, has no
    prepare spell (.15) or is prepared already (.06, .16: never a second copy). Logs
    ``became_prepared``; returns whether it became prepared."""
    if perm is None or perm.zone != "battlefield" or perm.prepared or prepare_spell(perm) is None:
        return False
    copy = _create_copy(game, perm)
    game.log("became_prepared", object=perm.ref, card=perm.card, player=copy.owner, copy=copy.ref,
             name=copy.name, cause=cause)
    return True


def setup_prepared(game: "Game", perm: GameObject) -> None:
    """A setup's battlefield entry ``"prepared": true`` (FORMAT §11.9): the permanent starts
    prepared, with its copy in exile, and nothing is logged."""
    if prepare_spell(perm) is None:
        raise IllegalAction("invalid_choice", f"{perm.name} has no prepare spell: it can't be prepared")
    _create_copy(game, perm)


def _copy_ceases(game: "Game", perm: GameObject, reason: str) -> None:
    """Rulings strixhaven.prepare.04, .17: the linked copy, if it is still in exile, ceases
    to exist."""
    ref = perm.prepared_copy
    copy = game.objects.get(ref) if ref else None
    if ref and copy is not None and copy.zone == "exile" and copy.prepared_for == perm.ref:
        lst = game.players[copy.owner].exile
        if copy in lst:
            lst.remove(copy)
        del game.objects[ref]
        game.log("copy_ceased_to_exist", object=ref, card=ref, after=reason)


def unprepare(game: "Game", perm: GameObject, cause: str = "effect") -> bool:
    """Ruling strixhaven.prepare.17: a prepared permanent stops being prepared and its copy
    in exile ceases to exist; if it isn't prepared, nothing happens. Logs ``unprepared``."""
    if perm is None or not perm.prepared:
        return False
    if cause != "cast":
        _copy_ceases(game, perm, "unprepared")
    perm.prepared, perm.prepared_copy = False, None
    game.log("unprepared", object=perm.ref, card=perm.card, cause=cause)
    return True


def leaves_battlefield(game: "Game", perm: GameObject) -> None:
    """Ruling strixhaven.prepare.04: when a prepared permanent leaves the battlefield, the
    copy of its prepare spell (if not cast) ceases to exist. The new object isn't prepared
    (CR 400.7)."""
    if perm.prepared:
        _copy_ceases(game, perm, "left_battlefield")


def enters(game: "Game", perm: GameObject) -> None:
    """"This creature enters prepared" (card field ``enters_prepared``, ruling
    strixhaven.prepare.09): it becomes prepared as it enters."""
    if (faces.permanent_card(perm).raw or {}).get("enters_prepared") and not perm.face_down:
        become_prepared(game, perm, cause="enters_prepared")


def is_prepared_copy(obj: GameObject) -> bool:
    return obj.prepared_for is not None and obj.zone == "exile"


def check_cast(game: "Game", obj: GameObject, player: str, alternative: str | None) -> GameObject:
    """Where-from check of casting a prepared copy (rulings strixhaven.prepare.05, .10,
    .19): its permanent is prepared and on the battlefield, and ``player`` controls it now
    (else ``not_controller``). Casting it is not casting it for an alternative cost, but an
    effect that lets a spell be cast for an alternative cost (a permanent's, such as Fist of
    Suns: ``alternative`` names it, checked with the total cost) may apply (strixhaven.prepare.19,
    CR 118.9); a keyword's (flashback, madness, harmonize, morph) or "without paying" with no
    permission is ``invalid_alternative``. Returns the permanent."""
    perm = game.objects.get(obj.prepared_for) if obj.prepared_for is not None else None
    if perm is None or perm.zone != "battlefield" or perm.prepared_copy != obj.ref:
        raise IllegalAction("not_in_hand", f"{obj.ref} is no longer linked to a prepared permanent")
    if perm.controller != player:
        raise IllegalAction("not_controller", f"only {perm.card}'s controller may cast {obj.ref} (strixhaven.prepare.10)")
    if alternative_costs.named(alternative) is not None:
        raise IllegalAction("invalid_alternative", f"{obj.ref} is cast for its own cost or one a permanent "
                            f"allows, not {alternative!r} (strixhaven.prepare.19)")
    return perm


def to_stack(game: "Game", obj: GameObject, player: str) -> GameObject:
    """The copy moves from exile to the stack as it is cast (the same object: a copy keeps
    its reference); logs ``zone_changed``."""
    lst = game.players[obj.owner].exile
    if obj in lst:
        lst.remove(obj)
    obj.zone, obj.controller = "stack", player
    game.log("zone_changed", object=obj.ref, new_object=obj.ref, card=obj.card, name=obj.name, owner=obj.owner,
             **{"from": game.zone_name("exile"), "to": "stack"})
    return obj


def cast_done(game: "Game", stack_obj: GameObject) -> None:
    """Rulings strixhaven.prepare.05, .09, .21: as the copy is cast, its permanent stops
    being prepared."""
    perm = game.objects.get(stack_obj.prepared_for) if stack_obj.prepared_for is not None else None
    if perm is not None:
        unprepare(game, perm, cause="cast")


def state_fields(perm: GameObject) -> dict[str, Any]:
    """The state's battlefield entry of a prepared permanent: ``prepared`` and its copy."""
    return {"prepared": True, "prepared_copy": perm.prepared_copy} if perm.prepared else {}


def _become_prepared_effect(ctx: Context, eff: dict[str, Any]) -> None:
    for obj in ctx.refs(eff.get("what", "self")):
        if isinstance(obj, GameObject):
            become_prepared(ctx.game, obj)


def _unprepare_effect(ctx: Context, eff: dict[str, Any]) -> None:
    for obj in ctx.refs(eff.get("what", "self")):
        if isinstance(obj, GameObject):
            unprepare(ctx.game, obj)


EFFECTS = {"become_prepared": _become_prepared_effect, "unprepare": _unprepare_effect}
