"""Winning and losing the game by an effect (CR 104.2b, 104.3e; docs/FORMAT.md §12.2).

"You win the game" and "target player loses the game" are one-shot effects, not
state-based actions: the game ends (or the player leaves it) immediately, as the effect
happens, without waiting for a player to receive priority (CR 104.1; compare CR 104.3b,
704.5a, which wait for the next state-based action check).

- ``{"type": "lose_game", "player": R}``: each player R names loses the game (CR 104.3e):
  ``player_lost`` with ``reason`` ``effect``; if one player is left, they win
  (``game_ended``, CR 104.2a).
- ``{"type": "win_game", "player": R}``: the player R names wins the game (CR 104.2b): the
  game ends at once: ``player_won`` (``reason`` ``effect``), then ``game_ended`` with that
  player the winner and every other player still in the game a loser (no ``player_lost``
  for them: they did not lose by a rule of CR 104.3, the game ended; in a two-player game
  they lose, CR 104.1).
- The condition ``life_at_least: N`` (the source's controller has N or more life: Felidar
  Sovereign's "if you have 40 or more life").

Nothing here knows a particular card.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .game import Game

#: the conditions this module answers (engine/conditions.py asks it)
CONDITIONS = ("life_at_least", "life_at_most", "library_at_most")


def lose_game(game: "Game", player: str) -> None:
    """CR 104.3e: ``player`` loses the game now (nothing if they already have). Raises
    GameOver when one or no player is left (CR 104.2a, 104.4a)."""
    p = game.players[player]
    if p.lost or game.over:
        return
    p.lost = True
    game.log("player_lost", player=player, reason="effect")
    game.check_game_over()


def win_game(game: "Game", player: str) -> None:
    """CR 104.2b: ``player`` wins the game now; it ends (CR 104.1): every other player
    still in it loses. Raises GameOver (through ``Game.check_game_over``). Nothing happens if ``player`` has already lost the
    game (CR 104.3: a player who left the game can't win it)."""
    if game.players[player].lost or game.over:
        return
    for pid in game.order:
        if pid != player:
            game.players[pid].lost = True
    game.log("player_won", player=player, reason="effect")
    game.check_game_over()  # game_ended (and CR 708.9's reveals); raises GameOver


def condition(game: "Game", key: str, want: int, controller: str) -> bool:
    """The conditions of :data:`CONDITIONS` for a source controlled by ``controller``:
    ``life_at_least`` (their life total is ``want`` or more), ``life_at_most`` (``want``
    or less: "if your life total is less than or equal to half your starting life total",
    the card giving the number, CR 103.4), ``library_at_most`` (their library has ``want``
    cards or fewer: "while your library has no cards in it", 0; Laboratory Maniac)."""
    if key == "library_at_most":
        return len(game.players[controller].library) <= want
    if key == "life_at_least":
        return game.players[controller].life >= want
    if key == "life_at_most":
        return _life_at_most(game.players[controller].life, want)
    raise ValueError(f"unknown condition {key!r}")


def _lose_game(ctx: Any, eff: dict[str, Any]) -> None:
    for player in ctx.players(eff["player"]):
        lose_game(ctx.game, player)


def _win_game(ctx: Any, eff: dict[str, Any]) -> None:
    for player in ctx.players(eff["player"]):
        win_game(ctx.game, player)


#: the effect types of this module, for engine/effects.py's HANDLERS
EFFECTS = {"lose_game": _lose_game, "win_game": _win_game}


def _life_at_most(life: int, most: int) -> bool:
    """``life_at_most``: ``life`` is ``most`` or less (a function of its own so that
    conformance/mutants.py can switch it)."""
    return life <= most
