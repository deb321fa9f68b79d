"""Ending the turn (CR 723, "Ending the Turn": Time Stop, Sundial of the Infinite).

The section keeps its content but moves as sections are added before it (509 in the 2004
rules, 713 in 2011; 723 here): 723.1a exile the stack, b end combat, c check state-based
actions, d skip to the cleanup step; 723.2 the waiting triggers and CR 514.3a. The 2004–2008
text "removes from the game" what is now exiled: the same move (the ``exile`` zone, named
as the ruleset names it).

Card data (docs/FORMAT.md §13): the effect ``{"type": "end_the_turn"}``. As it happens
(CR 723.1a–d):

- a. every object on the stack is exiled, the resolving one included; spells that can't be
  countered too (exiling isn't countering). A spell card goes to exile (``zone_changed``
  with cause ``end_the_turn``); a copy of a spell ceases to exist (CR 707.10a); an ability
  on the stack is removed (``ability_removed`` with reason ``end_the_turn``); combat damage
  on the stack (1999/2006 rules) is not dealt (``combat_damage_not_dealt``, reason
  ``end_the_turn``);
- b. a combat ends: every creature is removed from combat;
- c. state-based actions are checked; no player gets priority and no triggered ability is
  put on the stack (they wait);
- d. the current step ends (mana empties, CR 500.4) and the game skips straight to the
  cleanup step: every phase and step between them is skipped, additional ones included.
  In the cleanup step, if state-based actions happen or abilities triggered (those that
  waited too), players get priority and another cleanup step follows (CR 514.3a).

Logged as ``turn_ending`` (``turn``, ``object``, ``card``: what ended it; for an ability,
``source_card``: its source) before a.

The effect raises :class:`TurnEnded`; ``TurnStructure.play`` catches it between steps and
calls :func:`skip_to_cleanup`. Nothing here knows a particular card.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .late_binding import late_handler

if TYPE_CHECKING:
    from .game import Game


class TurnEnded(Exception):
    """Raised by the ``end_the_turn`` effect once the stack is exiled and state-based
    actions are checked (CR 723.1a–c): the rest of the current step doesn't happen."""


def end_the_turn(ctx: Any, eff: dict[str, Any]) -> None:
    """CR 723.1a–c: exile the stack (the resolving object included), end combat, check
    state-based actions without giving priority. Raises :class:`TurnEnded` (CR 723.1d)."""
    g = ctx.game
    g.log("turn_ending", turn=g.turn, object=ctx.item.ref, card=ctx.item.card,
          **({"source_card": ctx.item.source_card} if ctx.item.kind == "ability" else {}))
    for item in reversed(list(g.stack)):  # CR 723.1a: top first
        if item not in g.stack:
            continue
        if item.kind == "spell" and item.obj is not None:
            g.leave_stack(item, "exile", cause="end_the_turn")
        elif item.kind == "combat_damage":  # 1999/2006 rules: combat damage on the stack
            g.stack.remove(item)
            for part in item.ability["combat_damage"]:
                g.log("combat_damage_not_dealt", source=part["source"].ref, target=part["target"],
                      reason="end_the_turn")
        else:
            g.stack.remove(item)
            g.log("ability_removed", object=item.ref, card=item.card, reason="end_the_turn")
    g.combat = None  # CR 723.1b: every creature is removed from combat
    g.check_state()  # CR 723.1c: no priority, triggers wait
    raise TurnEnded()


def skip_to_cleanup(game: "Game") -> None:
    """CR 723.1d: the current step ends (mana empties, CR 500.4) and the next step is the
    cleanup step; nothing between them happens."""
    game.priority = None
    game.plan = [game.step, "cleanup"]
    game.end_step()
    game.plan = ["cleanup"]
    game.step = "cleanup"


def _late(name: str) -> Any:
    """This module's function ``name`` as an effect handler bound at call time (mutations)."""
    return late_handler(globals(), name)


#: The effect handlers of this module, by effect type (``engine/effects.py`` HANDLERS).
EFFECTS = {"end_the_turn": _late("end_the_turn")}  # CR 723.1
