"""Cards with a spell face: casting an Omen (Tarkir: Dragonstorm; CR 715-style alternative
characteristics, rulings tarkir.omen.01–14), the characteristics such a spell has on the
stack, and where it goes as it resolves.

A card with ``layout: "omen"`` has its creature characteristics in every zone (its card
definition). Cast with ``"face": "omen"``, the spell on the stack has only the Omen face's
characteristics (name, mana cost, colors, types with subtype Omen, spell ability): the
stack object's ``definition`` is the face, ``card_definition`` the whole card, and
``cast_face`` says which face was cast. When it leaves the stack it is the whole card again
(``Zones.move`` builds the new object from :func:`card_of`). A resolving Omen spell is
shuffled into its owner's library instead of going to the graveyard; a copy of it is an
Omen too ("shuffled": the library is shuffled, the copy ceases to exist, CR 707.10a).

Nothing here knows a particular card.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .cards import CardDefinition
from .errors import IllegalAction
from .objects import GameObject, StackItem
from .rng import shuffle_library

if TYPE_CHECKING:
    from .game import Game

# the faces a player may choose to cast (FORMAT §11.2); a layout name for each
CASTABLE_FACES = {"omen": "omen", "adventure": "adventure"}  # adventure: engine/adventure.py


def card_of(obj: GameObject) -> CardDefinition:
    """The whole card an object is: the definition a card has in every zone but the stack
    (ruling tarkir.omen.06: an Omen card is a creature card everywhere else). For a spell
    cast as a face, that is ``card_definition``; otherwise the object's own definition."""
    return obj.card_definition if obj.card_definition is not None else obj.definition


def permanent_card(obj: GameObject) -> CardDefinition:
    """The card whose characteristics, alternative ones included, an object has: on the
    battlefield its own definition (a permanent that became a copy has the copied card's,
    with its Adventure or prepare spell: CR 707.2, rulings finalfantasy.adventure.14,
    strixhaven.prepare.12), elsewhere ``card_of``."""
    return obj.definition if obj.zone == "battlefield" else card_of(obj)


def as_cast(obj: GameObject, face: Any) -> GameObject:
    """The object as the spell it would be if cast with ``face`` (rulings tarkir.omen.03,
    .05, .08: the player chooses the face while casting, and only that face's
    characteristics decide whether it can be cast: timing, "can't be cast" effects, targets
    and cost). ``face`` None: the object itself (the card's normal characteristics).
    Raises IllegalAction ``invalid_choice`` when the card has no such face."""
    if face is None:
        return obj
    d = card_of(obj)
    spell_face = d.get_face(face) if face in CASTABLE_FACES and d.layout == CASTABLE_FACES[face] else None
    if spell_face is None:
        raise IllegalAction("invalid_choice", f"{d.name} has no {face!r} face to cast (FORMAT §11.2)")
    probe = obj.copy()
    probe.definition = spell_face
    probe.card_definition = d
    probe.cast_face = face
    return probe


def stack_init(cast_obj: GameObject) -> dict[str, Any]:
    """What the spell object on the stack remembers of the face it was cast as (passed to
    ``Zones.move`` as ``init``): nothing for a normal cast."""
    if cast_obj.cast_face is None:
        return {}
    return {"definition": cast_obj.definition, "card_definition": cast_obj.card_definition,
            "cast_face": cast_obj.cast_face}


def face_fields(obj: GameObject | None) -> dict[str, Any]:
    """Fields an event or the state gives a spell cast as a face: ``{"face": "omen"}``."""
    if obj is None or obj.cast_face is None:
        return {}
    return {"face": obj.cast_face}


def shuffles_on_resolution(item: StackItem) -> bool:
    """Ruling tarkir.omen.09 (and .12 for copies): an Omen spell that resolves is shuffled
    into its owner's library instead of being put into its owner's graveyard. Only on
    resolution (tarkir.omen.10, .11: countered, or all targets illegal, or leaving the
    stack another way, it is not shuffled)."""
    return item.kind == "spell" and item.obj is not None and item.obj.cast_face == "omen"


def shuffle_into_library(game: "Game", item: StackItem) -> None:
    """Ruling tarkir.omen.09: the resolved Omen spell's controller shuffles it into its
    owner's library (CR 701.20). Ruling tarkir.omen.12: a copy is shuffled too: its owner
    still shuffles their library, and the copy ceases to exist (CR 707.10a, 704.5e)."""
    if item in game.stack:
        game.stack.remove(item)
    obj = item.obj
    assert obj is not None  # a spell on the stack has its card (CR 112.1a)
    if obj.is_copy:
        shuffle_library(game, obj.owner)
        game.copy_ceases_to_exist(item, after="shuffled_into_library")
        return
    game.move(obj, "library", cause="omen")
    shuffle_library(game, obj.owner)


def card_with_face_named(cards: dict[str, CardDefinition], name: Any) -> CardDefinition | None:
    """Ruling tarkir.omen.13: a player choosing a card name may choose an Omen's name; the
    face named (only its characteristics count), or None."""
    if not isinstance(name, str):
        return None
    for d in cards.values():
        for f in d.faces:
            if f.name == name and (f.face in CASTABLE_FACES or f.face == "prepare"):  # strixhaven.prepare.18
                return f
    return None


def castable_faces(obj: GameObject) -> list[str]:
    """The faces a player may choose to cast ``obj`` as besides its normal one (ruling
    tarkir.omen.05): ``["omen"]`` for an Omen card, else none."""
    d = card_of(obj)
    return [f for f, layout in CASTABLE_FACES.items() if d.layout == layout and d.get_face(f) is not None]


def with_face(candidate: Any, face: str) -> Any:
    """A legal-move candidate (``engine/legal.py``) cast as ``face``: its input says so."""
    candidate.input["face"] = face
    return candidate
