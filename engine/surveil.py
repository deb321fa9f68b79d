"""Surveil (CR 701.25; docs/FORMAT.md §5).

Card data: ``{"type": "surveil", "player": R, "count": N}`` ("surveil 1", Garland, Knight of
Cornelia): each player ``R`` names looks at the top N cards of their library (as many as there
are, if fewer), puts any number of them into their graveyard and the rest back on top in any
order (CR 701.25a). Two ``choose`` decisions of that player (PROTOCOL §10.2):

- reason ``surveil`` (``options``: the cards looked at, by card alias, top first): the
  ``choice`` is the list of the cards put into the graveyard (a single alias for one, ``none``
  or ``[]`` for none); a card not among the options, or one named twice, is
  ``invalid_choice``;
- reason ``surveil_order``, only when two or more cards stay on top (``options``: them): the
  ``choice`` lists them all, top first; another answer is ``invalid_choice``.

Logged: ``surveilled`` (``player``, ``count``: the cards looked at, ``graveyard``: the aliases
put there, in the order named), then a ``zone_changed`` to the graveyard (cause ``surveil``)
for each; the state's ``library`` shows the order kept. A player with no card in their
library looks at nothing: no decision and no event. Nothing here knows a particular card.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .errors import IllegalAction

if TYPE_CHECKING:
    from .effects import Context
    from .game import Game
    from .objects import GameObject

REASON = "surveil"
ORDER_REASON = "surveil_order"


def _named(choice: Any, options: list[str]) -> list[str]:
    """The cards a ``surveil`` answer puts into the graveyard. Raises IllegalAction
    ``invalid_choice``."""
    if choice in ("none", []):
        return []
    picked = [choice] if isinstance(choice, str) else choice
    if not isinstance(picked, list) or not all(isinstance(c, str) and c in options for c in picked):
        raise IllegalAction("invalid_choice", f"surveil: name the cards put into the graveyard among {options}, "
                            "or none")
    if len(set(picked)) != len(picked):
        raise IllegalAction("invalid_choice", "surveil: a card is named twice")
    return list(picked)


def _order(choice: Any, options: list[str]) -> list[str]:
    """The order (top first) a ``surveil_order`` answer gives the cards kept on top. Raises
    IllegalAction ``invalid_choice``."""
    if not isinstance(choice, list) or sorted(map(str, choice)) != sorted(options):
        raise IllegalAction("invalid_choice", f"surveil: order all of {options}, top first")
    return list(choice)


def surveil(game: "Game", player: str, n: int) -> None:
    """CR 701.25a: ``player`` surveils ``n`` (module docstring)."""
    library = game.players[player].library
    looked: list["GameObject"] = library[:max(n, 0)]
    if not looked:
        return
    options = [o.card for o in looked]
    to_graveyard = game.decide("choose", player, "choose", lambda inp: _named(inp.get("choice"), options),
                               reason=REASON, options=options)
    kept = [c for c in options if c not in to_graveyard]
    game.log("surveilled", player=player, count=len(looked), graveyard=to_graveyard)
    by_card = {o.card: o for o in looked}
    for card in to_graveyard:
        game.move(by_card[card], "graveyard", cause=REASON)
    if len(kept) < 2:
        return
    order = game.decide("choose", player, "choose", lambda inp: _order(inp.get("choice"), kept),
                        reason=ORDER_REASON, options=kept)
    top = [by_card[c] for c in order]
    rest = [o for o in library if o not in top]
    library[:] = top + rest


def surveil_effect(ctx: "Context", eff: dict[str, Any]) -> None:
    """The effect ``{"type": "surveil", "player": R, "count": N}``: each player ``R`` names
    surveils N (:func:`surveil`)."""
    n = ctx.amount(eff["count"])
    for p in ctx.players(eff["player"]):
        surveil(ctx.game, p, n)


EFFECTS = {"surveil": surveil_effect}
