"""Token copies of cards that aren't on the battlefield (CR 707.2, 111.10; docs/FORMAT.md §11.6).

Card data:

- ``{"type": "create_token_copy_of_card", "what": R}``: "create a token that's a copy of
  target creature card in your graveyard": for each card ``R`` names that is in a graveyard,
  the effect's controller creates a token with the card's copiable values, under the
  effect's controller's control. A card outside the battlefield has only its front face's
  characteristics, so a copy of a transforming double-faced card is a transforming token
  that enters front face up with both faces, and transforms when told to (ruling
  finalfantasy.transform.13: "a token created as a copy of … a transforming double-faced
  card in another zone is a transforming token"). A card that has left the zone it was
  targeted in is a new object and is not copied (CR 400.7).

Token copies of permanents are ``create_token_copy`` (engine/transform.py); both take the
copiable values from ``transform.copiable_faces``. Nothing here knows a particular card.
"""

from __future__ import annotations

from typing import Any

from . import transform

COPYABLE_ZONES = ("graveyard",)


def create_token_copy_of_card(ctx: Any, eff: dict[str, Any]) -> None:
    """The effect ``{"type": "create_token_copy_of_card", "what": ref}`` (CR 707.2, 111.10):
    a token copy of each card ``ref`` names in a graveyard, under the effect's
    controller; a transforming double-faced card's copy is a transforming token, front face
    up (ruling finalfantasy.transform.13). Logs ``token_created`` (the front face's name) and
    fires the token's enters-the-battlefield triggers. Cards elsewhere are skipped."""
    for src in ctx.objects(eff["what"]):
        if src.zone not in COPYABLE_ZONES:
            continue
        transform.create_copy_token(ctx, *transform.copiable_faces(src))


EFFECTS = {
    "create_token_copy_of_card": create_token_copy_of_card,  # CR 707.2, 111.10
}
