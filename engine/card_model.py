"""Characteristics the 2025–26 card model defines across faces (docs/FORMAT.md §5.1): the
mana value of a face, of a transforming card's back face and of a melded permanent.

Nothing here knows a particular card.
"""

from __future__ import annotations

from .cards import CardDefinition


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
