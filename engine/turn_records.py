"""What happened this turn, per player, for abilities that count it: spells cast this turn
(flurry, "whenever you cast your second spell each turn", docs/FORMAT.md §11.4).

Kept in ``Game.spells_cast_by`` ({player id: spells that player cast this turn}), reset as
each turn begins (CR 500); a rollback restores it with the game's other dicts. Spells put
on the stack without being cast (copies, CR 707.10) are not counted.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .game import Game


def reset(game: "Game") -> None:
    """A new turn begins: no spells have been cast this turn (CR 500)."""
    game.spells_cast_by = {}


def record_spell_cast(game: "Game", player: str) -> int:
    """``player`` cast a spell (CR 601.2i): count it and return how many spells that
    player has cast this turn, this one included (rulings tarkir.flurry.01–03)."""
    n = game.spells_cast_by.get(player, 0) + 1
    game.spells_cast_by = {**game.spells_cast_by, player: n}
    return n


def spells_cast_this_turn(game: "Game", player: str) -> int:
    """How many spells ``player`` has cast this turn."""
    return game.spells_cast_by.get(player, 0)
