"""Returning a card of the player's choice from their graveyard, untargeted (docs/FORMAT.md §5).

Card data:

- ``{"type": "return_from_graveyard", "filter": F}``: "return a permanent card from your
  graveyard to your hand" (Vanille, Cheerful l'Cie, after "mill two cards"). Nothing is
  targeted (CR 115.1: no "target"), so the card is chosen as the effect is applied (CR
  608.2c: the instructions are followed in order, so a card milled by the earlier "mill two
  cards" may be chosen; CR 608.2d: the choice is made on resolution). The effect's controller
  answers a ``choose`` with reason ``graveyard_card`` whose ``options`` are the references of
  the cards in their graveyard that match ``F`` (relative to that player), in graveyard
  order; another answer is ``invalid_choice``. The card goes to its owner's hand (a new
  object, CR 400.7; ``zone_changed`` with cause ``return_from_graveyard``). With no such
  card, nothing happens and nothing is asked. Nothing here knows a particular card.
"""

from __future__ import annotations

from typing import Any

from . import characteristics as ch
from .errors import IllegalAction

REASON = "graveyard_card"


def return_from_graveyard(ctx: Any, eff: dict[str, Any]) -> None:
    """The effect ``{"type": "return_from_graveyard", "filter": F}`` (module docstring):
    the controller chooses a card matching ``F`` in their graveyard, which goes to their
    hand. Raises IllegalAction ``invalid_choice`` for an answer that isn't one of the
    options."""
    g = ctx.game
    player = ctx.controller
    graveyard = g.players[player].graveyard
    eligible = [o for o in graveyard if ch.matches(g, o, eff["filter"], player)]
    if not eligible:
        return
    options = [o.ref for o in eligible]

    def answer(inp: dict[str, Any]) -> Any:
        choice = inp.get("choice")
        found = next((o for o in eligible if isinstance(choice, str) and choice in (o.ref, o.card)), None)
        if found is None:
            raise IllegalAction("invalid_choice", f"choose one of {options} (a card in {player}'s graveyard "
                                "that the effect allows)")
        return found

    chosen = g.decide("choose", player, "choose", answer, reason=REASON, options=options)
    g.move(chosen, "hand", cause="return_from_graveyard")


EFFECTS = {"return_from_graveyard": return_from_graveyard}
