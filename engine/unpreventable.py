"""Damage that can't be prevented (CR 615.12; docs/FORMAT.md §5).

Card data: the effect ``{"type": "damage_cant_be_prevented", "duration": "end_of_turn"}``
("Damage can't be prevented this turn", Stomp): a continuous effect of kind
``damage_cant_be_prevented`` that affects no object but every damage event until it ends (the
cleanup step, CR 514.2). While it lasts, :meth:`~.actions.Actions.deal_damage` prevents
nothing: neither protection (CR 702.16e) nor prevention shields (CR 615.7) stop the damage,
and, as CR 615.12 says, existing shields are not reduced or used up by damage that can't be
prevented (they still protect once the effect has ended). Nothing here knows a particular
card.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .objects import ContinuousEffect, effect_duration

if TYPE_CHECKING:
    from .effects import Context
    from .game import Game

#: The effect type and the continuous effect's kind.
KIND = "damage_cant_be_prevented"


def make_damage_unpreventable(ctx: "Context", eff: dict[str, Any]) -> None:
    """The effect ``damage_cant_be_prevented``: damage can't be prevented until the effect
    ends (``duration``: this turn)."""
    g = ctx.game
    g.effects.append(ContinuousEffect(KIND, [], g.new_timestamp(), until=effect_duration(eff)))


def damage_cant_be_prevented(game: "Game") -> bool:
    """True while a ``damage_cant_be_prevented`` effect lasts (CR 615.12)."""
    return any(ce.kind == KIND for ce in game.effects)


EFFECTS = {KIND: make_damage_unpreventable}
