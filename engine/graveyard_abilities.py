"""Activated abilities that work from a graveyard, such as renew (Tarkir: Dragonstorm).

Renew is an ability word (CR 207.2c): it has no rules meaning of its own. Every renew
ability is an activated ability whose cost includes "Exile this card from your graveyard"
and which can be activated only as a sorcery (rulings ``tarkir.renew.01``); because its cost
moves the card out of the graveyard, it functions only there (CR 113.6k), and as the card
has no controller there, its owner activates it (CR 602.2).

Card data (docs/FORMAT.md §11.3): an ``activated`` ability with ``"zone": "graveyard"``, the
cost part ``"exile_self": true`` and ``"timing": "sorcery"`` (``"ability_word": "renew"`` is
informational). An ability without ``zone`` works on the battlefield, as before.

The exile is part of the cost (CR 602.2b, 601.2h): it happens as the ability is activated,
so the card is gone even if the ability is countered or its targets become illegal.
"""

from __future__ import annotations

from typing import Any

from .errors import IllegalAction
from .objects import GameObject


def ability_zone(ab: dict[str, Any]) -> str:
    """Where an activated ability can be activated: ``battlefield`` (CR 113.6) unless the
    ability says ``graveyard`` (CR 113.6k: its cost exiles the card from there)."""
    zone: str = ab.get("zone", "battlefield")
    return zone


def graveyard_ability_indexes(obj: GameObject) -> list[int]:
    """The indexes of the object's activated abilities that work from a graveyard."""
    return [i for i, ab in enumerate(obj.chars.abilities)
            if ab.get("kind") == "activated" and ability_zone(ab) == "graveyard"]


def check_source_zone(game: Any, player: str, src: GameObject, idx: Any) -> None:
    """CR 113.6, 113.6k, 602.2: may ``player`` activate ability ``idx`` of ``src`` where it
    is? An ability of a card in a graveyard that works there is activated by the card's
    owner; an ability that works only from the graveyard can't be activated on the
    battlefield. Raises IllegalAction ``not_on_battlefield`` (an ordinary ability of a card
    off the battlefield), ``not_controller`` (another player's graveyard), ``no_such_ability``
    (a graveyard ability of a permanent)."""
    abilities = list(src.chars.abilities)
    ab = abilities[idx] if (isinstance(idx, int) and not isinstance(idx, bool)
                            and 0 <= idx < len(abilities)) else None
    if src.zone == "graveyard" and ab is not None and ab.get("kind") == "activated" \
            and ability_zone(ab) == "graveyard":
        if src.owner != player:
            raise IllegalAction("not_controller", f"only {src.owner} can activate abilities of "
                                f"{src.name} in their graveyard (CR 602.2)")
        return
    if src.zone != "battlefield":
        raise IllegalAction("not_on_battlefield", f"{src.name} is not on the battlefield")
    if ab is not None and ab.get("kind") == "activated" and ability_zone(ab) != "battlefield":
        raise IllegalAction("no_such_ability", f"{src.name}'s ability {idx} works only from a "
                            f"{ability_zone(ab)} (CR 113.6k)")


def pay_exile_self(game: Any, source: GameObject | None) -> None:
    """CR 602.2b, 601.2h: the cost "exile this card from your graveyard" (or "exile this
    permanent" for an ability that works on the battlefield): the source must still be in the
    zone its ability works in (activating checked which); it is exiled. Raises IllegalAction
    ``cannot_pay``."""
    if source is None:
        return
    if source.zone not in ("graveyard", "battlefield"):
        raise IllegalAction("cannot_pay", f"{source.name} is not in a graveyard or on the battlefield")
    game.move(source, "exile", cause="cost")


def cards_to_exile_from_graveyard(game: Any, player: str, n: int, refs: Any) -> list[GameObject]:
    """The cards that pay the cost "exile N cards from your graveyard" (CR 118.3, 601.2h:
    ``{"exile_from_graveyard": n}``): ``refs`` (the input's ``exile``) names exactly ``n``
    distinct cards in ``player``'s graveyard. Nothing is moved yet. Raises IllegalAction
    ``cannot_pay``."""
    if not isinstance(refs, list) or len(refs) != n or len(set(map(str, refs))) != n:
        raise IllegalAction("cannot_pay", f"exile {n} card(s) from your graveyard: name {n} distinct cards in 'exile'")
    cards = []
    for ref in refs:
        obj = game.find(ref) if isinstance(ref, str) else None
        if obj is None or obj.zone != "graveyard" or obj.owner != player:
            raise IllegalAction("cannot_pay", f"{ref!r} is not a card in {player}'s graveyard")
        cards.append(obj)
    return cards


def exile_cards_for_cost(game: Any, cards: list[GameObject]) -> None:
    """Exile the cards :func:`cards_to_exile_from_graveyard` chose (``zone_changed`` to
    exile, cause ``cost``)."""
    for obj in cards:
        game.move(obj, "exile", cause="cost")


def graveyard_sources(game: Any, player: str) -> list[GameObject]:
    """The cards in ``player``'s graveyard with an activated ability that works there (for
    the legal-action generator, ``mtg_judge.engine.legal``)."""
    return [o for o in game.players[player].graveyard if graveyard_ability_indexes(o)]
