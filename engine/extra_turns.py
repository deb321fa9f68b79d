"""Extra turns, additional phases and additional steps (CR 500.7–500.10).

Card data (docs/FORMAT.md §13):

- ``{"type": "extra_turn", "player": R}`` (default ``"controller"``): each player ``R``
  names takes an extra turn after this one (Time Walk, Time Warp). CR 500.7: extra turns
  are added directly after the current turn one at a time; the one added last is taken
  first (last in, first out). Logged as ``extra_turn_added``; an extra turn begins with
  ``turn_began`` whose ``extra`` is true. An extra turn is a turn like any other (its turn
  number is the next one); after the extra turns, the turn order goes on after the normal
  turn they were added to (Time Warp on the opponent in your turn: they take the extra turn,
  then their own turn).
- ``{"type": "additional_phase", "phase": "beginning"|"combat"|"main", "then_main": bool}``:
  after the current phase there is an additional phase of that kind (CR 500.8; with
  ``then_main`` an additional main phase follows it, as after an additional combat phase,
  Relentless Assault). An additional beginning phase has an untap, an upkeep and a draw
  step (Sphinx of the Second Sun); the turn-based actions and "at the beginning of" triggers
  of each happen again. Logged as ``phases_added``.
- ``{"type": "additional_step", "step": S}``: an additional step ``S`` directly after the
  current step (CR 500.9, 500.10: e.g. an additional upkeep step). Logged as ``steps_added``.

Nothing here knows a particular card.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .late_binding import late_handler

if TYPE_CHECKING:
    from .game import Game

#: CR 500.1: the steps of each phase (a main phase is a phase with no steps).
PHASE_STEPS = {
    "beginning": ["untap", "upkeep", "draw"],
    "combat": ["beginning_of_combat", "declare_attackers", "declare_blockers",
               "first_strike_damage", "combat_damage", "end_of_combat"],
    "main": ["postcombat_main"],
    "ending": ["end", "cleanup"],
}
_PHASE_OF = {step: phase for phase, steps in PHASE_STEPS.items() if phase != "main" for step in steps}


def pending(game: "Game") -> list[str]:
    """The extra turns still to be taken, oldest first (``Game.extra_turns``)."""
    return game.extra_turns


def extra_turn(ctx: Any, eff: dict[str, Any]) -> None:
    """CR 500.7: add an extra turn for each player the effect names, after this turn."""
    g = ctx.game
    for p in ctx.players(eff.get("player", "controller")):
        g.extra_turns = pending(g) + [p]
        g.log("extra_turn_added", player=p)


def next_turn(game: "Game") -> str | None:
    """CR 500.7: the player whose extra turn comes next (the most recently added one),
    removed from the list; None when no extra turn is pending. A player who has left the
    game takes no turn (CR 800.4a)."""
    waiting = list(pending(game))
    if waiting and game.normal_turn_player is None:
        game.normal_turn_player = game.active  # the turn they were added to is a normal one
    while waiting:
        player = waiting.pop()
        game.extra_turns = waiting
        if player in game.living():
            return player
    return None


def record_turn(game: "Game", active: str, extra: bool) -> None:
    """Remember whose turn the last turn of the normal turn order was (an extra turn is
    added after the current turn, CR 500.7: the turn order goes on after the normal turn
    it followed, not after the extra turn's player)."""
    if not extra:
        game.normal_turn_player = active


def last_normal_turn(game: "Game") -> str:
    """The active player of the last turn of the normal turn order (the current player
    if no turn has begun in this game yet)."""
    return game.normal_turn_player if game.normal_turn_player is not None else game.active


def _current_phase_end(game: "Game") -> int:
    """The index in ``game.plan`` of the last step of the current phase (the steps of one
    phase are contiguous; a main phase has one)."""
    plan = game.plan
    i = plan.index(game.step)
    phase = _PHASE_OF.get(game.step)
    if phase is None:  # a main phase
        return i
    while i + 1 < len(plan) and _PHASE_OF.get(plan[i + 1]) == phase and plan[i + 1] != PHASE_STEPS[phase][0]:
        i += 1
    return i


def additional_phase(ctx: Any, eff: dict[str, Any]) -> None:
    """CR 500.8: an additional phase directly after the current phase (an additional main
    phase after it with ``then_main``)."""
    g = ctx.game
    kind = eff["phase"]
    steps = list(PHASE_STEPS[kind])
    phases = [kind if kind != "main" else "postcombat_main"]
    if eff.get("then_main") and kind != "main":
        steps.append("postcombat_main")
        phases.append("postcombat_main")
    at = _current_phase_end(g) + 1
    g.plan[at:at] = steps
    g.log("phases_added", phases=phases)


def additional_step(ctx: Any, eff: dict[str, Any]) -> None:
    """CR 500.10: an additional step directly after the current step."""
    g = ctx.game
    at = g.plan.index(g.step) + 1
    g.plan[at:at] = [eff["step"]]
    g.log("steps_added", steps=[eff["step"]])


def _late(name: str) -> Any:
    """This module's function ``name`` as an effect handler bound at call time (mutations)."""
    return late_handler(globals(), name)


#: The effect handlers of this module, by effect type (``engine/effects.py`` HANDLERS).
EFFECTS = {
    "extra_turn": _late("extra_turn"),  # CR 500.7
    "additional_phase": _late("additional_phase"),  # CR 500.8
    "additional_step": _late("additional_step"),  # CR 500.10
}
