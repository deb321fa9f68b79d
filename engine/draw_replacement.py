"""Draw replacements (CR 614.1a, 614.11): "If you would draw a card while your library has no
cards in it, you win the game instead" (Laboratory Maniac).

A permanent's ability ``{"kind": "replacement", "event": "draw", "affected": "controller",
"condition": C?, "instead": {"effects": [...]}}`` replaces each card draw of its controller
for which its condition holds (engine/conditions.py, read for the permanent: "your library" is
its controller's, CR 109.5). The condition is checked as the draw would happen, and the
replacement applies even when the library is empty (CR 614.11: "applied even if no cards could
be drawn"), so the player does not lose for drawing from an empty library (CR 704.5b): no draw
was attempted. The effects run at once, not on the stack (a replacement is not an ability that
uses the stack, CR 614.6), with the permanent as their source and its controller as theirs.
Of several that apply, the one of the earliest timestamp does (CR 616.1: the affected player
would choose; no card of the pool gives two).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from . import characteristics as ch
from . import effects
from .conditions import condition_holds
from .objects import StackItem

if TYPE_CHECKING:
    from .game import Game
    from .objects import GameObject

#: The replacement event name (FORMAT §12.2).
EVENT = "draw"


def draw_replacements(game: "Game", player: str) -> list[tuple["GameObject", dict[str, Any]]]:
    """The draw replacements that would apply to a card draw of ``player`` now: ``[(permanent,
    ability)]`` of the permanents ``player`` controls, in timestamp order, whose replacement
    condition holds."""
    found = []
    for perm in sorted(game.battlefield, key=lambda o: o.timestamp):
        if perm.controller != player:
            continue
        for ab in ch.abilities(game, perm):
            if (ab.get("kind") == "replacement" and ab.get("event") == EVENT
                    and ab.get("affected", "controller") == "controller"
                    and condition_holds(game, perm, ab.get("condition"))):
                found.append((perm, ab))
    return found


def replace_draw(game: "Game", player: str) -> bool:
    """Replace one card draw of ``player`` if a draw replacement applies (logged
    ``replacement_applied`` with ``rule`` 614.11 and ``instead`` ``effects``, then the
    effects' own events). Returns True when the draw was replaced (nothing is drawn)."""
    found = draw_replacements(game, player)
    if not found:
        return False
    perm, ab = found[0]
    game.log("replacement_applied", object=perm.ref, card=perm.card, rule="614.11", instead="effects")
    item = StackItem(ref=perm.ref, kind="ability", controller=player, ability=ab, source=perm.ref,
                     source_card=perm.card, source_lki=perm.copy())
    effects.run(effects.Context(game, item, []), ab["instead"]["effects"])
    return True


__all__ = ["EVENT", "draw_replacements", "replace_draw"]
