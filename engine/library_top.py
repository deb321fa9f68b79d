"""Playing the top card of a library (Future Sight: "You may play lands and cast spells from
the top of your library", CR 401.5, 601.2a, 305.1).

A permanent with the static effect ``{"type": "play_from_library_top"}`` lets its controller
cast the top card of their own library as they could cast it from their hand — for its mana
cost or an alternative cost such as morph (CR 702.37c: morph works from any zone the card
could be cast from; rulings timespiral.morph.01, .02) — with its usual timing, and play it as
their land play for the turn if it is a land (CR 305.2). Only the top card: the card under it
becomes playable once the top one has left. Flashback, madness, harmonize and "without paying
its mana cost" give no permission here (``invalid_alternative``).

The static may take a ``filter`` (Garruk's Horde: "You may cast creature spells from the top
of your library", ``{"types": ["Creature"]}``): then only a spell matching it may be cast
from there, and a land is played from there only if it matches. The spell is judged as it
would be cast (CR 601.3e: the characteristics it would have on the stack), so a card cast as
its Omen is judged by the Omen alone (ruling tarkir.omen.08: a permission for creature spells
lets the Dragon be cast, not its instant or sorcery Omen).

"Play with the top card of your library revealed" is the static effect ``{"type":
"reveal_library_top"}`` (CR 401.5): while its source is on the battlefield, the top card of
its controller's library is revealed to every player; the state names it
(``players.<id>.library_top_revealed``, :func:`revealed_top`). As the top card leaves, the
next one is revealed (CR 401.5: a new top card is revealed once the spell that took the old
one is cast; the state is read between actions, never while a spell is being cast).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from . import alternative_costs
from . import characteristics as ch
from .errors import IllegalAction

if TYPE_CHECKING:
    from .game import Game
    from .objects import GameObject

#: The static effect type (FORMAT §10).
STATIC = "play_from_library_top"
#: "Play with the top card of your library revealed" (CR 401.5; FORMAT §10).
REVEAL = "reveal_library_top"


def _permissions(game: "Game", player: str) -> list[tuple["GameObject", dict[str, Any]]]:
    """The static ``play_from_library_top`` effects of permanents ``player`` controls, with
    their sources."""
    return [(src, eff) for src, eff in ch.static_effects(game) if eff.get("type") == STATIC and src.controller == player]


def playable_top(game: "Game", player: str) -> "GameObject | None":
    """The top card of ``player``'s library if a static ``play_from_library_top`` of a
    permanent ``player`` controls may let them play it (CR 401.5), else None. A static
    with a ``filter`` lets only what matches it be cast or played (:func:`check_filter`,
    :func:`land`)."""
    library = game.players[player].library
    if not library or not _permissions(game, player):
        return None
    return library[0]


def revealed_top(game: "Game", player: str) -> "GameObject | None":
    """The top card of ``player``'s library if it is revealed now: a permanent ``player``
    controls has the static ``reveal_library_top`` ("play with the top card of your library
    revealed", CR 401.5); None if none has or the library is empty."""
    library = game.players[player].library
    if not library:
        return None
    if not any(eff.get("type") == REVEAL and src.controller == player for src, eff in ch.static_effects(game)):
        return None
    return library[0]


def check_filter(game: "Game", cast_obj: "GameObject", player: str) -> None:
    """CR 601.3e: the top card cast as ``cast_obj`` (the spell it would be, e.g. an Omen,
    ruling tarkir.omen.08) must match the ``filter`` of some permission (a static without one
    permits any spell). Raises IllegalAction ``not_in_hand``."""
    if not any(ch.matches(game, cast_obj, eff.get("filter"), player, src) for src, eff in _permissions(game, player)):
        raise IllegalAction("not_in_hand", f"{cast_obj.definition.name} is not a spell {player} may cast from the "
                            "top of their library")


def may_cast(game: "Game", obj: "GameObject", player: str) -> bool:
    """``obj`` is the top card of ``player``'s library and ``player`` may play it now."""
    return obj.zone == "library" and obj.owner == player and playable_top(game, player) is obj


def check_alternative(obj: "GameObject", alternative: Any) -> None:
    """A spell cast from the top of a library is cast for its mana cost or an alternative
    cost that works from any zone (morph, a permanent's alternative cost); flashback,
    madness, harmonize and "without paying its mana cost" need another permission (CR
    702.34a, 702.35a, 702.180a). Raises IllegalAction ``invalid_alternative``."""
    named = alternative_costs.named(alternative)
    if named is not None and not named.any_zone:
        raise IllegalAction("invalid_alternative", f"{obj.definition.name} can't be cast from a library with "
                            f"alternative {alternative!r}")


def land(game: "Game", player: str, ref: Any) -> "GameObject | None":
    """The card ``ref`` if it is the top card of ``player``'s library and they may play it
    (a land play, CR 305.2), else None."""
    obj = game.find(ref) if isinstance(ref, str) else None
    if obj is None or not may_cast(game, obj, player):
        return None
    if not any(ch.matches(game, obj, eff.get("filter"), player, src) for src, eff in _permissions(game, player)):
        return None  # Garruk's Horde lets only creature spells be cast from there, no land be played
    return obj
