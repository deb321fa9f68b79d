"""The alternative costs a spell may be cast for, by the name a cast input gives as
``alternative`` (CR 118.9, 601.2b, 601.2f), and the casts a resolving ability forces.

One table that the casting code reads (engine/casting.py ``Game.cast`` and
``Game._total_cost``, engine/library_top.py, engine/prepare.py, the move generator) instead of
comparing the name wherever a rule differs. An ``alternative`` that is not one of these names
names a permanent whose static ability offers an alternative cost (Fist of Suns, an
``alternative_cost`` static; checked with the total cost).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .harmonize import EXILE_RULE as HARMONIZE_EXILE_RULE


@dataclass(frozen=True)
class AlternativeCost:
    """One named alternative cost (CR 118.9).

    - ``name``: the ``alternative`` of a cast input and of the ``spell_cast`` event;
    - ``keyword``: the keyword ability the card must have to be cast this way (``None``:
      any card, given a permission);
    - ``cost``: its fixed cost (morph's {3}, CR 702.37c; "" for "without paying its mana
      cost"); ``None``: the keyword's own ``cost`` (flashback, madness, harmonize);
    - ``from_graveyard``: it lets its owner cast the card from their graveyard (flashback, CR
      702.34a; harmonize, CR 702.180a);
    - ``any_zone``: it may be chosen wherever the card may be cast from, a hand or the top of
      a library (morph); the others need a permission of their own (flashback and harmonize
      a graveyard, madness its trigger, "without paying" an effect);
    - ``face_down``: the spell is cast face down (morph, CR 702.37c, 708.2a: a colorless 2/2);
    - ``exiled_from_stack``: the spell is exiled whenever it would leave the stack
      (flashback, CR 702.34a; harmonize, CR 702.180a), by ``exile_rule`` when set (the
      rule the ``replacement_applied`` event cites; default 702.34a, engine/zones.py);
    - ``taps_for_reduction``: up to one creature may be tapped to reduce the cost by its power
      (harmonize, CR 702.180a; engine/harmonize.py).
    """

    name: str
    keyword: str | None = None
    cost: str | None = None
    from_graveyard: bool = False
    any_zone: bool = False
    face_down: bool = False
    exiled_from_stack: bool = False
    exile_rule: str | None = None
    taps_for_reduction: bool = False

    def mana_cost(self, keywords: dict[str, Any]) -> str:
        """The cost in mana symbols (``"{1}{R}"``): the fixed ``cost``, or that of the
        card's keyword (``keywords``: the card's keyword abilities by keyword). Raises
        KeyError if the card lacks the keyword."""
        if self.cost is not None:
            return self.cost
        return str(keywords[str(self.keyword)]["cost"])


FLASHBACK = AlternativeCost("flashback", keyword="flashback", from_graveyard=True, exiled_from_stack=True)
MADNESS = AlternativeCost("madness", keyword="madness")
HARMONIZE = AlternativeCost("harmonize", keyword="harmonize", from_graveyard=True, exiled_from_stack=True,
                            exile_rule=HARMONIZE_EXILE_RULE, taps_for_reduction=True)
MORPH = AlternativeCost("morph", keyword="morph", cost="{3}", any_zone=True, face_down=True)
WITHOUT_PAYING = AlternativeCost("without_paying", cost="")

#: The named alternative costs, by name.
ALTERNATIVE_COSTS: dict[str, AlternativeCost] = {
    a.name: a for a in (FLASHBACK, MADNESS, HARMONIZE, MORPH, WITHOUT_PAYING)}

@dataclass(frozen=True)
class ForcedCast:
    """A cast a resolving ability offers (``Game.cast(forced=kind)``, timing ignored): the
    ``alternative`` cost it is cast for, and whether a creature spell cast so gains haste
    (``haste``: suspend, CR 702.62a)."""

    alternative: str
    haste: bool = False


#: The casts resolving abilities offer, by kind. Suspend (CR 702.62a) and a paradigm copy
#: (strixhaven.paradigm.01) are cast without paying their mana cost; madness for its madness
#: cost (CR 702.35a). Another kind is cast for the input's ``alternative``.
FORCED_CASTS: dict[str, ForcedCast] = {
    "suspend": ForcedCast(WITHOUT_PAYING.name, haste=True),
    "madness": ForcedCast(MADNESS.name),
    "paradigm": ForcedCast(WITHOUT_PAYING.name),
}


def paid_as(forced: str | None, alternative: Any) -> Any:
    """The alternative cost a cast is made for: the forced cast's (``forced``: its kind, or
    None), else ``alternative`` (the input's)."""
    cast = FORCED_CASTS.get(forced) if forced is not None else None
    return cast.alternative if cast is not None else alternative


def named(alternative: Any) -> AlternativeCost | None:
    """The named alternative cost ``alternative`` is, or None (no alternative cost, or a
    permanent's reference)."""
    return ALTERNATIVE_COSTS.get(alternative) if isinstance(alternative, str) else None
