"""Layer 1's values (CR 613.2, 707.2): the copiable values an object has, and the mana value
read from them (CR 202.3). Which definition an object has is decided where it changes: a face
cast (engine/faces.py, engine/adventure.py), a transforming card turned over, a copy that
entered or a melded permanent (engine/transform.py); the layers start from it.

- CR 202.3b: a transforming permanent with its back face up has the mana value of its front
  face (finalfantasy.transform.05, .08); a face cast as a spell (adventure, omen, prepare) has
  its own mana cost's (CR 715.3; finalfantasy.adventure.07);
- CR 202.3c: a melded permanent's mana value is that of the combined mana costs of the front
  faces of its cards (finalfantasy.meld.10);
- CR 708.2a: a face-down permanent's is 0.

Nothing here knows a particular card.
"""

from __future__ import annotations

from ..cards import CardDefinition
from ..objects import GameObject

__all__ = ["face_mana_value", "mana_value", "meld_pair", "melded_mana_value"]


def mana_value(obj: GameObject) -> int:
    """CR 202.3b: a transforming permanent with its back face up has the mana value of its
    front face; CR 202.3c: a melded permanent's mana value is the sum of its front faces';
    otherwise the mana value of the characteristics the object has now (a face-down
    permanent's is 0, CR 708.2a)."""
    if obj.face_down:
        return 0
    whole = obj.card_definition if obj.card_definition is not None else obj.definition
    if obj.melded_with is not None:
        return whole.mana_cost.mana_value() + obj.melded_with[1].mana_cost.mana_value()
    if obj.definition.face == "back" and obj.card_definition is not None:
        return obj.card_definition.mana_cost.mana_value()
    return obj.chars.mana_cost.mana_value()


def face_mana_value(card: CardDefinition, role: str | None = None) -> int:
    """The mana value of ``card`` with the face ``role`` up or cast (None: the main face).

    A transforming card's back face has no mana cost; with it up the permanent's mana value
    is the front face's (CR 202.3b, 712.8e; finalfantasy.transform.05, .08). A spell face
    (adventure, omen, prepare) cast as a spell has its own mana cost's mana value (CR
    715.3; finalfantasy.adventure.07). Raises KeyError when the card has no such face."""
    if role is None:
        return card.mana_cost.mana_value()
    face = card.get_face(role)
    if face is None:
        raise KeyError(f"{card.name} has no {role!r} face")
    if role == "back":
        return card.mana_cost.mana_value()
    return face.mana_cost.mana_value()


def meld_pair(result: CardDefinition, cards: dict[str, CardDefinition]) -> list[CardDefinition]:
    """The meld cards whose ``meld.result`` names ``result`` (CR 712.4), in name order."""
    return sorted((d for d in cards.values() if d.meld and d.meld.get("result") == result.name),
                  key=lambda d: d.name)


def melded_mana_value(result: CardDefinition, cards: dict[str, CardDefinition]) -> int:
    """CR 202.3c: a melded permanent's mana value is that of the combined mana costs of the
    front faces of the cards that represent it (finalfantasy.meld.10)."""
    return sum(d.mana_cost.mana_value() for d in meld_pair(result, cards))
