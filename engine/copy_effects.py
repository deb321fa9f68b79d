"""A permanent already on the battlefield becoming a copy of another until end of turn
("Choose a nonlegendary creature on the battlefield. Target creature becomes a copy of that
creature until end of turn.", Cytoshape; CR 707.2, 613.2a, 611.2a, 514.2; FORMAT §11.6).

The effect ``{"type": "become_copy", "what": <ref>, "nonlegendary": true}`` asks the
resolving spell's controller to choose a creature on the battlefield (a ``choose`` with
reason ``copy``: an alias; with ``nonlegendary``, not a legendary one) and gives each
affected permanent that creature's copiable values, exactly as a permanent entering as a
copy gets them (``transform.copy_of_permanent``, as ``enter_as_copy``: the face up only; an
adventurer's, Omen's or prepare card's alternative characteristics are copied, CR 707.2).
The permanent stays the same object: its counters, damage, designations such as
"prepared" (ruling strixhaven.prepare.14: it stays prepared, and its copy in exile stays
castable, even as a copy of a permanent without a prepare spell) and other effects on it are
kept; effects of later layers still apply over the copied values (CR 613.2a, layer 1).

The values it had are kept on the object (the declared field ``copy_effect_saved``: its
``definition`` and ``card_definition``) and put back in the cleanup step (CR 514.2), unless it
left the battlefield (a new object has none of it, CR 400.7). Putting them back logs nothing,
so it tells the layer system (engine/layers/system.py) that the copiable values changed. Logs ``became_copy`` (``object``,
``card``, ``copied``, ``name``).

Nothing here knows a particular card.
"""

from __future__ import annotations

import dataclasses
from typing import TYPE_CHECKING, Any

from . import transform
from .characteristics import is_type
from .errors import IllegalAction
from .objects import GameObject
from .transform import whole_card

if TYPE_CHECKING:
    from .game import Game


def become_copy(ctx: Any, eff: dict[str, Any]) -> None:
    """Resolve ``become_copy`` (CR 707.2, 611.2a): the controller chooses the creature to
    copy (``invalid_choice`` for one not on the battlefield, not a creature, or legendary
    when ``nonlegendary``); each affected permanent on the battlefield becomes a copy of it
    until end of turn. With no creature to choose, nothing happens."""
    g = ctx.game
    affected = [o for o in ctx.refs(eff["what"]) if isinstance(o, GameObject) and o.zone == "battlefield"]
    options: list[GameObject] = [o for o in g.battlefield if is_type(o, "Creature")
               and not (eff.get("nonlegendary") and "Legendary" in o.chars.supertypes)]
    if not affected or not options:
        return

    def valid(inp: dict[str, Any]) -> GameObject:
        choice = inp.get("choice")
        for o in options:
            if choice in (o.card, o.ref):
                return o
        raise IllegalAction("invalid_choice", f"choose one of {[o.card for o in options]}")

    src = g.decide("choose", ctx.controller, "choose", valid, reason="copy", options=[o.card for o in options])
    copied = transform.copy_of_permanent(src)
    for obj in affected:
        if obj.copy_effect_saved is None:
            obj.copy_effect_saved = (obj.definition, obj.card_definition)
        # a token that becomes a copy is still a token (CR 111.1, 707.2: being a token is not a
        # copiable value; the self-play conservation invariant found a Cytoshaped token lose it)
        obj.definition, obj.card_definition = dataclasses.replace(copied, is_token=obj.is_token), whole_card(obj)
        g.log("became_copy", object=obj.ref, card=obj.card, copied=src.card, name=copied.name or None)


def end_of_turn(game: Game) -> None:
    """CR 514.2: the copy effects "until end of turn" end in the cleanup step; each permanent
    gets back the values it had."""
    for perm in game.battlefield:
        saved = perm.copy_effect_saved
        if saved is not None:
            perm.copy_effect_saved = None
            perm.definition, perm.card_definition = saved
            game.layers.invalidate()  # layer 1's input changed (CR 613.2a)


EFFECTS = {"become_copy": become_copy}
