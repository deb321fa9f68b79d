"""The characteristics an object has after the layer system (CR 613.1): one immutable record
per object, :class:`Characteristics`, and the mutable draft the layers write while they apply
(:class:`Draft`).

Copiable values (layer 1) are the object's ``chars``: its card definition, a face, a copied
card's values (CR 707.2, engine/transform.py) or a face-down 2/2 (CR 708.2). Nothing here reads
the game.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..creature_types import creature_types

__all__ = ["Characteristics", "Draft", "printed"]

#: ``layer4``'s first item (CR 613.1d): the creature types a creature starts with before the
#: types added "in addition to its other types": its printed ones, every creature type
#: (changeling, CR 702.73a; "gains all creature types") or none.
CreatureTypes = tuple[str, tuple[str, ...]]


@dataclass(frozen=True)
class Characteristics:
    """What the game sees of an object once every continuous effect applies (CR 613.1).

    ``types``: card types (CR 300.1) in the order printed, then those gained, sorted;
    ``printed_subtypes``: the copiable subtypes; ``layer4``: ``(base, added)`` when layer 4
    changed its creature types (``base`` ``"printed"``, ``"all"`` or ``"none"``, ``added`` the
    creature types it has in addition, CR 205.1b), None otherwise or for a non-creature (CR
    205.3d); ``colors`` (CR 105.2), ``keywords`` (dicts such as ``{"keyword": "flying"}``, never
    changed in place), ``abilities`` (ability dicts), ``lost_all_abilities`` (a "loses all
    abilities" effect applies to it, CR 613.1f), ``power`` and ``toughness`` (CR 613.4).
    """

    types: tuple[str, ...]
    printed_subtypes: tuple[str, ...]
    layer4: CreatureTypes | None
    colors: tuple[str, ...]
    keywords: tuple[dict[str, Any], ...]
    abilities: tuple[dict[str, Any], ...]
    lost_all_abilities: bool
    power: int
    toughness: int

    def is_type(self, card_type: str) -> bool:
        """Has it the card type ``card_type`` (``"Creature"``, ``"Land"`` …)?"""
        return card_type in self.types

    def has_subtype(self, subtype: str) -> bool:
        """CR 205.3, 613.1d: its subtypes after layer 4 include ``subtype``."""
        printed = subtype in self.printed_subtypes
        if self.layer4 is None:
            return printed
        base, added = self.layer4
        if subtype in added or (base == "printed" and printed):
            return True
        is_creature_type = subtype in creature_types()
        if base == "all":
            return printed or is_creature_type
        return printed and not is_creature_type

    def subtypes(self) -> list[str]:
        """Its subtypes after layer 4: with all creature types, its other subtypes then every
        creature type (sorted); with none, only its other subtypes; then the added ones."""
        printed = list(self.printed_subtypes)
        if self.layer4 is None:
            return printed
        base, added = self.layer4
        if base == "printed":
            return printed + [t for t in added if t not in printed]
        every = creature_types()
        others = [t for t in printed if t not in every]
        if base == "all":
            return others + sorted(every)
        return others + list(added)


class Draft:
    """One object's characteristics while the layers apply (mutable; :meth:`freeze` gives the
    record). ``creature_base``/``added``: layer 4's creature types (see
    :attr:`Characteristics.layer4`)."""

    __slots__ = (
        "abilities",
        "added",
        "colors",
        "creature_base",
        "keywords",
        "lost_all",
        "power",
        "printed_subtypes",
        "printed_types",
        "toughness",
        "types",
    )

    def __init__(self, base: Characteristics, printed_types: tuple[str, ...], changeling: bool) -> None:
        self.types: list[str] = list(base.types)
        self.printed_types = printed_types
        self.printed_subtypes = base.printed_subtypes
        self.creature_base = "all" if changeling else "printed"  # CR 613.3: a CDA applies first
        self.added: list[str] = []
        self.colors: list[str] = list(base.colors)
        self.keywords: list[dict[str, Any]] = list(base.keywords)
        self.abilities: list[dict[str, Any]] = list(base.abilities)
        self.lost_all = False
        self.power = base.power
        self.toughness = base.toughness

    def clone(self) -> Draft:
        """An independent copy (to try an effect out, CR 613.8a)."""
        new = Draft.__new__(Draft)
        for name in Draft.__slots__:
            value = getattr(self, name)
            setattr(new, name, list(value) if type(value) is list else value)
        return new

    def layer4(self) -> CreatureTypes | None:
        """The ``layer4`` of the record (CR 205.3d: only a creature has creature types)."""
        if "Creature" not in self.types or (self.creature_base == "printed" and not self.added):
            return None
        return self.creature_base, tuple(self.added)

    def freeze(self) -> Characteristics:
        """The immutable record; card types in printed order, then gained ones sorted."""
        have = set(self.types)
        types = tuple([t for t in self.printed_types if t in have] + sorted(have - set(self.printed_types)))
        return Characteristics(types=types, printed_subtypes=self.printed_subtypes, layer4=self.layer4(),
                               colors=tuple(self.colors), keywords=tuple(self.keywords),
                               abilities=tuple(self.abilities), lost_all_abilities=self.lost_all,
                               power=self.power, toughness=self.toughness)


def _norm(k: Any) -> dict[str, Any]:
    return {"keyword": k} if isinstance(k, str) else dict(k)


def printed(chars: Any) -> Characteristics:
    """The record of copiable values ``chars`` (a CardDefinition) with only the
    characteristic-defining ability changeling applied (CR 604.3, 702.73a: in every zone)."""
    changeling = any(k["keyword"] == "changeling" for k in chars.keywords)
    types = tuple(chars.types)
    layer4: CreatureTypes | None = ("all", ()) if changeling and "Creature" in types else None
    return Characteristics(types=types, printed_subtypes=tuple(chars.subtypes), layer4=layer4,
                           colors=tuple(chars.colors), keywords=tuple(_norm(k) for k in chars.keywords),
                           abilities=tuple(chars.abilities), lost_all_abilities=False,
                           power=chars.power or 0, toughness=chars.toughness or 0)
