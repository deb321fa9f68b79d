"""Putting permanents into a library (CR 401.4; docs/FORMAT.md §11.6).

Card data:

- ``{"type": "put_on_library", "what": R, "position": "top"|"bottom"}``: "put target
  creature on top of its owner's library" (Griptide; ``bottom``: "on the bottom"): each
  permanent ``R`` names goes into its owner's library at that end (CR 400.7: a new object);
  so does a card in a graveyard it names (a dies trigger's ``triggering_card``: "when Chaos
  dies, put it on the bottom of its owner's library").

A melded permanent is two cards (ruling finalfantasy.meld.03, CR 712.4c): both go there,
and as two cards put into the same end of a library at once, their owner arranges them in
any order (CR 401.4): a ``choose`` decision with reason ``library_order`` whose options are
the two cards; the one chosen is the one nearer to that end (the top card for ``top``, the
bottom card for ``bottom``). Nothing here knows a particular card.
"""

from __future__ import annotations

from typing import Any

from .errors import IllegalAction

REASON = "library_order"


def put_on_library(ctx: Any, eff: dict[str, Any]) -> None:
    """The effect ``{"type": "put_on_library", "what": ref, "position": "top"|"bottom"}``
    (CR 401.4): each permanent ``ref`` names is put into its owner's library, on top (the
    default) or on the bottom. For a melded permanent both cards go, and their owner
    chooses their relative order (ruling finalfantasy.meld.03): ``choose`` with reason
    ``library_order`` and the two cards as ``options``; an answer that isn't one of them is
    rejected with ``invalid_choice``. A card in a graveyard goes too ("When Chaos dies, put it
    on the bottom of its owner's library": ``"what": "triggering_card"``, the card the dying
    permanent became, CR 400.7, 603.10a); an object in any other zone is skipped."""
    g = ctx.game
    position = eff.get("position", "top")
    for obj in ctx.objects(eff["what"]):
        if obj.zone not in ("battlefield", "graveyard"):
            continue
        partner = obj.melded_with[0] if obj.melded_with is not None else None
        new = g.move(obj, "library", position=position, cause=eff["type"])
        if partner is None:
            continue
        _arrange(g, new.owner, [new.card, partner], position)


def _arrange(g: Any, owner: str, cards: list[str], position: str) -> None:
    """CR 401.4: ``owner`` orders the two cards ``cards`` just put at ``position`` of their
    library; the chosen card ends nearest to that end."""
    library = g.players[owner].library
    pair = [o for o in library if o.card in cards]
    if len(pair) != 2:
        return
    options = [o.card for o in pair]

    def answer(inp: dict[str, Any]) -> str:
        choice = inp.get("choice")
        if not isinstance(choice, str) or choice not in options:
            raise IllegalAction("invalid_choice", f"choose which of {options} is put {position}most")
        return choice

    first = g.decide("choose", owner, "choose", answer, reason=REASON, options=options)
    near = next(o for o in pair if o.card == first)
    far = next(o for o in pair if o.card != first)
    for o in pair:
        library.remove(o)
    if position == "bottom":
        library.extend([far, near])
    else:
        library[0:0] = [near, far]


EFFECTS = {
    "put_on_library": put_on_library,  # CR 401.4
}
