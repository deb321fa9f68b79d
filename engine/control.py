"""Control-changing effects (CR 108.4, 613.1b layer 2): a permanent's controller changes, and
"until end of turn" control changes end in the cleanup step (CR 611.2a, 514.2).

The effect ``{"type": "gain_control", "what": <ref>, "duration": "end_of_turn"}``
(engine/effects.py ``_gain_control``) calls :func:`set_controller` and records a continuous
effect of kind ``control`` (``player``, ``previous``); ``Game.cleanup_step`` ends the
``end_of_turn`` ones and calls :func:`restore_control`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Sequence

from .objects import ContinuousEffect, GameObject

if TYPE_CHECKING:
    from .game import Game


def set_controller(g: "Game", obj: GameObject, player: str) -> None:
    """``player`` now controls permanent ``obj`` (CR 108.4): it is new to them for summoning
    sickness (CR 302.6) and echo (CR 702.30a), and gets a new timestamp; logged as
    ``control_changed``."""
    obj.controller = player
    obj.summoning_sick = True
    obj.upkeep_mark = g.players[player].upkeeps  # echo, CR 702.30a
    obj.timestamp = g.new_timestamp()
    g.log("control_changed", object=obj.ref, card=obj.card, controller=player)


def restore_control(g: "Game", ended: Sequence[ContinuousEffect]) -> None:
    """The control-changing effects ``ended`` (kind ``control``, no longer in ``g.effects``)
    have ended (CR 514.2). Each permanent they applied to that is still the same object on
    the battlefield (CR 400.7) is then controlled by the player of the latest control effect
    still applying to it (timestamp order, CR 613.7, layer 2), else by whoever controlled it
    before the earliest of the ended ones."""
    for ref in sorted({ce.affected[0] for ce in ended}):
        obj = g.objects.get(ref)
        if obj is None or obj.zone != "battlefield":
            continue
        remaining = [e for e in g.effects if e.kind == "control" and e.affected == [ref]]
        earliest = min((e for e in ended if e.affected == [ref]), key=lambda e: e.timestamp)
        player = max(remaining, key=lambda e: e.timestamp).player if remaining else earliest.previous
        if obj.controller != player:
            set_controller(g, obj, player)
