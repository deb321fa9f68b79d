"""Returning a card of your choice from your graveyard (no target; docs/FORMAT.md §5).

Card data: ``{"type": "return_from_graveyard_to_hand", "filter": F}`` ("return a permanent
card from your graveyard to your hand", Vanille, Cheerful l'Cie's enters trigger): as the
effect resolves, its controller chooses a card in their own graveyard that matches ``F``
(relative to them) and puts it into their hand (``zone_changed``, cause
``return_from_graveyard``). The card is not targeted (CR 115.1: no "target"), so it is chosen
only now, among the cards there now, those an earlier effect of the same ability just put
there included (CR 608.2c: the effects happen in order: "mill two cards, then return …"). With
two or more cards to choose from, a ``choose`` with reason ``graveyard_card`` (``options``:
their card aliases, oldest first) asks which; another answer is ``invalid_choice``; with one
it is the one, and with none nothing happens. Nothing here knows a particular card.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from . import characteristics as ch
from .errors import IllegalAction

if TYPE_CHECKING:
    from .effects import Context

REASON = "graveyard_card"


def return_from_graveyard_to_hand(ctx: "Context", eff: dict[str, Any]) -> None:
    """The effect ``return_from_graveyard_to_hand`` (module docstring)."""
    g = ctx.game
    player = ctx.controller
    flt = eff["filter"]
    cards = [o for o in g.players[player].graveyard if ch.matches(g, o, flt, player)]
    if not cards:
        return
    options = [o.card for o in cards]

    def answer(inp: dict[str, Any]) -> str:
        choice = inp.get("choice")
        obj = g.find(choice) if isinstance(choice, str) else None
        card = obj.card if obj is not None else choice
        if card not in options:
            raise IllegalAction("invalid_choice", f"choose one of {options}")
        return str(card)

    chosen = options[0] if len(options) == 1 else g.decide("choose", player, "choose", answer, reason=REASON,
                                                            options=options)
    g.move(next(o for o in cards if o.card == chosen), "hand", cause=eff["type"])


EFFECTS = {"return_from_graveyard_to_hand": return_from_graveyard_to_hand}
