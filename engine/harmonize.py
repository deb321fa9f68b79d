"""Harmonize (Tarkir: Dragonstorm; CR 702.180 of the Comprehensive Rules of April 4, 2025).

CR 702.180a: harmonize represents three static abilities. "Harmonize [cost]" means "You may
cast this card from your graveyard by paying [cost] and tapping up to one untapped creature
you control rather than paying this spell's mana cost," "If you cast this spell using its
harmonize ability, its total cost is reduced by an amount of generic mana equal to the
tapped creature's power," and "If the harmonize cost was paid, exile this card instead of
putting it anywhere else any time it would leave the stack."

Card data: ``{"keyword": "harmonize", "cost": "{4}{G}"}``. Cast input: ``"alternative":
"harmonize"`` and, optionally, ``"harmonize_tap": "<alias>"`` (the untapped creature the
caster taps as part of the cost; docs/FORMAT.md §11.3).

The hooks in ``casting.py`` call :func:`tap_choice`, :func:`reduced_cost` and
:func:`pay_tap`; ``legal.py`` offers harmonize casts with and without :func:`best_tap`. Timing permissions still
apply (a sorcery only at sorcery speed; ruling ``tarkir.harmonize.05``), and the mana value
stays that of the mana cost (``tarkir.harmonize.06``): nothing here changes either.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from . import characteristics as ch
from .errors import IllegalAction
from .mana import ManaCost
from .objects import GameObject

if TYPE_CHECKING:
    from .game import Game

#: The rule the exile replacement of a harmonized spell logs (``replacement_applied``).
EXILE_RULE = "702.180a"


def harmonize_keyword(obj: GameObject) -> dict[str, Any] | None:
    """The object's harmonize keyword data (``{"keyword": "harmonize", "cost": ...}``), or
    None (CR 702.180a)."""
    return next((dict(k) for k in obj.chars.keywords if k.get("keyword") == "harmonize"), None)


def tap_choice(game: Game, player: str, alternative: Any, inp: dict[str, Any]) -> GameObject | None:
    """The creature named by the cast input's ``harmonize_tap`` (CR 702.180a: "tapping up to
    one untapped creature you control", an optional part of the harmonize cost), or None when
    the input names none. Checked before anything changes (CR 601.2b: the choice is
    announced with the alternative cost).

    Raises IllegalAction: ``invalid_alternative`` (``harmonize_tap`` without casting with
    harmonize), ``unknown_object``, ``not_on_battlefield``, ``not_controller`` (a creature
    another player controls), ``invalid_payment`` (not a creature), ``already_tapped``.
    Summoning sickness does not matter: this is not a {T} ability of the creature (CR 302.6)."""
    ref = inp.get("harmonize_tap")
    if ref is None:
        return None
    if alternative != "harmonize":
        raise IllegalAction("invalid_alternative", "harmonize_tap is part of the harmonize cost: cast with "
                            "alternative 'harmonize' (CR 702.180a)")
    creature = game.find(ref) if isinstance(ref, str) else None
    if creature is None:
        raise IllegalAction("unknown_object", f"no object {ref!r}")
    if creature.zone != "battlefield":
        raise IllegalAction("not_on_battlefield", f"{ref} is not on the battlefield")
    if creature.controller != player:
        raise IllegalAction("not_controller", f"harmonize taps a creature you control; {player} doesn't "
                            f"control {creature.name} (CR 702.180a)")
    if not ch.is_type(creature, "Creature"):
        raise IllegalAction("invalid_payment", f"{creature.name} is not a creature (CR 702.180a)")
    if creature.tapped:
        raise IllegalAction("already_tapped", f"{creature.name} is already tapped: harmonize taps an "
                            "untapped creature (CR 702.180a)")
    return creature


def reduced_cost(game: Game, cost: ManaCost, x: int, creature: GameObject | None) -> ManaCost:
    """CR 702.180a, 601.2f: the total cost (alternative cost plus increases, already in
    ``cost``) with X's value included, then reduced by an amount of generic mana equal to the
    tapped creature's power: generic mana only, X included, never colored mana and never
    below zero (rulings ``tarkir.harmonize.02``, ``.04``, ``.06``). The result has no X
    left (``with_x`` already applied), so paying it with any X changes nothing."""
    total = cost.with_x(x)
    if creature is None:
        return total
    power = max(0, ch.power_toughness(game, creature)[0])
    return ManaCost(max(0, total.generic - power), total.colored, 0, total.present, total.hybrid)


def pay_tap(game: Game, creature: GameObject | None) -> None:
    """CR 601.2h: tap the creature chosen for harmonize as the cost is paid (after the mana
    abilities of ``pay_with``: a creature tapped for mana can't also be tapped for
    harmonize). Raises IllegalAction ``already_tapped``."""
    if creature is None:
        return
    if creature.tapped:
        raise IllegalAction("already_tapped", f"{creature.name} is already tapped")
    game.tap(creature)


def best_tap(game: Game, player: str) -> GameObject | None:
    """The creature a legal-action generator offers to tap for harmonize (CR 702.180a): the
    untapped creature of greatest power ``player`` controls (ties: the first on the
    battlefield), or None if there is none with power above 0."""
    creatures = [c for c in game.battlefield if c.controller == player and ch.is_type(c, "Creature")
                 and not c.tapped]
    if not creatures:
        return None
    best = max(creatures, key=lambda c: ch.power_toughness(game, c)[0])
    return best if ch.power_toughness(game, best)[0] > 0 else None
