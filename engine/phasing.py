"""Phasing (CR 702.26): permanents that phase out are treated as though they don't exist
until they phase in again, in their controller's next untap step.

- The effect ``{"type": "phase_out", "what": ref}`` ("enchanted creature phases out",
  Vanishing): the permanent phases out, and so do the Auras and Equipment attached to it,
  *indirectly* (CR 702.26g): they phase in with it, not on their own. Phasing is not a zone
  change (CR 702.26d): no object is new, nothing leaves or enters the battlefield, no leaves-
  or enters-the-battlefield ability triggers; the permanent keeps its counters, status,
  attachments and timestamp (CR 702.26e). While phased out it is in no list of the
  battlefield (the engine keeps it aside, ``zone`` ``"phased_out"``): no rule, target, state-
  based action, combat or static ability sees it, and it leaves combat (CR 506.4).
- CR 502.1: as the untap step begins, before anything untaps, the permanents that phased out
  directly under the active player's control phase in (with those that phased out indirectly
  with them). At the same time, the permanents with the keyword phasing (CR 702.26a) that
  the active player controls phase out (those that phase in then don't phase out again).
- Ruleset switch ``phasing_in_is_coming_under_control`` (2006: ruling timespiral.echo.04,
  echo triggers for a permanent that phased in since its controller's last upkeep): a
  permanent that phases in counts as having come under its controller's control then.
- CR 708.9 (ruling timespiral.morph.15): a face-down card that is phased out is revealed
  when the game ends, like a face-down permanent (engine/sba.py).

Logs ``phased_out`` (``object``, ``card``, ``controller``; ``indirectly: true`` for an
attachment) and ``phased_in`` (``object``, ``card``, ``controller``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from . import characteristics as ch

if TYPE_CHECKING:
    from .game import Game
    from .objects import GameObject

#: The pseudo-zone of a phased-out permanent (it is still on the battlefield, CR 702.26d,
#: but treated as though it doesn't exist).
PHASED_OUT = "phased_out"


def phased_out_objects(game: "Game") -> list["GameObject"]:
    """Every phased-out permanent, in timestamp order."""
    return sorted((o for o in game.objects.values() if o.zone == PHASED_OUT), key=lambda o: o.timestamp)


def phase_out(game: "Game", obj: "GameObject", indirectly: bool = False) -> None:
    """``obj`` phases out (CR 702.26d), then the Auras and Equipment attached to it phase out
    indirectly (CR 702.26g). Nothing happens to a permanent not on the battlefield."""
    if obj.zone != "battlefield" or obj not in game.battlefield:
        return
    attached = [o for o in game.battlefield if o.attached_to == obj.ref]
    game.battlefield.remove(obj)
    obj.zone = PHASED_OUT
    obj.phased_out_under = obj.controller
    obj.phased_out_indirectly = indirectly
    if game.combat is not None:
        game.combat.remove(obj.ref)  # CR 506.4: it is removed from combat
    game.log("phased_out", object=obj.ref, card=obj.card, controller=obj.controller,
             **({"indirectly": True} if indirectly else {}))
    for att in attached:
        phase_out(game, att, indirectly=True)


def _phase_in(game: "Game", obj: "GameObject") -> None:
    obj.zone = "battlefield"
    obj.controller = obj.phased_out_under or obj.controller
    obj.phased_out_under, obj.phased_out_indirectly = None, False
    assert obj.controller is not None  # a permanent has a controller (CR 108.4)
    game.battlefield.append(obj)
    if obj.controller == game.active:
        obj.summoning_sick = False  # under its controller's control since the turn began
    if game.rules.phasing_in_is_coming_under_control:  # ruling timespiral.echo.04 (2006)
        obj.upkeep_mark = game.players[obj.controller].upkeeps
    game.log("phased_in", object=obj.ref, card=obj.card, controller=obj.controller)
    for att in [o for o in phased_out_objects(game) if o.phased_out_indirectly and o.attached_to == obj.ref]:
        _phase_in(game, att)  # CR 702.26g: it phases in with the permanent it is attached to


def untap_step_phasing(game: "Game") -> None:
    """CR 502.1, 702.26a: the phasing turn-based action of the active player's untap step,
    before anything untaps, all at once: the phased-in permanents with phasing they control
    phase out, and the permanents that phased out directly under their control phase in.
    Both sets are taken before either happens, so a permanent phasing in now is not phased
    out again. Logged: the ``phased_out`` events (timestamp order), then the ``phased_in``."""
    active = game.active
    outs = [o for o in sorted(game.battlefield, key=lambda o: o.timestamp)
            if o.controller == active and ch.has_keyword(game, o, "phasing")]
    ins = [o for o in phased_out_objects(game) if o.phased_out_under == active and not o.phased_out_indirectly]
    for obj in outs:
        phase_out(game, obj)
    for obj in ins:
        _phase_in(game, obj)


def phase_out_effect(ctx: Any, eff: dict[str, Any]) -> None:
    """The effect ``{"type": "phase_out", "what": ref}`` (CR 702.26d): each permanent ``ref``
    names phases out (:func:`phase_out`)."""
    for obj in ctx.objects(eff["what"]):
        phase_out(ctx.game, obj)


#: The effect handlers of this module, by effect type (``engine/effects.py`` HANDLERS).
EFFECTS = {"phase_out": lambda ctx, eff: phase_out_effect(ctx, eff)}
