"""Creature types of cards in any zone: changeling (CR 702.73a) as a card's printed
characteristic, for rules that read a card's printed characteristics rather than a
permanent's (``card_in_graveyard`` conditions, engine/conditions.py).

CR 702.73a: changeling is a characteristic-defining ability, "This object is every creature
type"; it functions in every zone (CR 604.3), so a changeling creature card in a graveyard
is an Elf card, a Dragon card… The engine models changeling on creatures (its kindred
spells are not modelled: validate refuses changeling on an instant or sorcery).
"""

from __future__ import annotations

import json
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .objects import GameObject


@lru_cache(maxsize=1)
def creature_types() -> frozenset[str]:
    """CR 205.3m: the creature types (engine/data/creature_types.json)."""
    data = json.loads((Path(__file__).parent / "data" / "creature_types.json").read_text(encoding="utf-8"))
    return frozenset(data["creature_types"])


def card_has_subtype(card: "GameObject", subtype: str) -> bool:
    """Does the card have ``subtype`` as printed, counting changeling (CR 702.73a: a
    changeling creature card is every creature type, in every zone)?"""
    if subtype in card.chars.subtypes:
        return True
    return ("Creature" in card.chars.types and subtype in creature_types()
            and any(k["keyword"] == "changeling" for k in card.chars.keywords))
