"""Equipment (CR 301.5), attaching (CR 701.3), equip (CR 702.6) and job select
(CR 702.182, Final Fantasy; rulings finalfantasy.job-select.01–06).

Card data (FORMAT §11.8):
- an Equipment is an artifact with the subtype ``Equipment``; its static abilities that say
  "equipped creature …" use the reference ``"equipped"`` (the permanent it is attached to,
  like ``"enchanted"`` for an Aura);
- equip is an ``activated`` ability with ``"timing": "sorcery"``, a target ``{"kind":
  "creature", "filter": {"controller": "you"}}`` and the effect ``attach`` (CR 702.6a:
  "[Cost]: Attach this permanent to target creature you control. Activate only as a
  sorcery.");
- job select is the keyword ``"job_select"``: the triggered ability ``JOB_SELECT`` of
  engine/job_select.py (a module of its own: engine/keywords.py imports it).

The effect ``{"type": "attach", "what": R, "to": R}`` attaches the permanent ``what`` to the
creature ``to`` (CR 701.3a). Nothing happens if the Equipment has left the battlefield (the
ability's ``"self"`` no longer names it, CR 400.7), if ``to`` is not a creature on the
battlefield, or if it is the Equipment itself (CR 301.5c); attached again to the permanent it
is attached to, nothing happens (CR 701.3b). If ``to`` names several creatures (two Hero
tokens created under a token doubler, finalfantasy.job-select.06), the controller chooses one
(a ``choose`` decision, reason ``attach_to``).

State-based action 704.5n: an Equipment attached to something that is no longer a creature
on the battlefield becomes unattached and stays on the battlefield (CR 301.5c;
finalfantasy.job-select.04): ``state_based_action`` ``704.5n`` then ``unattached``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from . import characteristics as ch
from .errors import IllegalAction

if TYPE_CHECKING:
    from .effects import Context
    from .game import Game
    from .objects import GameObject


def is_equipment(obj: "GameObject") -> bool:
    """CR 301.5: an artifact with the subtype Equipment."""
    return "Equipment" in obj.chars.subtypes


def attach(ctx: "Context", eff: dict[str, Any]) -> None:
    """CR 701.3a: attach ``what`` to ``to`` (see the module docstring for when nothing
    happens)."""
    g = ctx.game
    things = [o for o in ctx.objects(eff.get("what", "self")) if o.zone == "battlefield"]
    if not things:
        return
    equipment = things[0]
    hosts = [o for o in ctx.objects(eff["to"])
             if o.zone == "battlefield" and ch.is_type(o, "Creature") and o.ref != equipment.ref]
    if not hosts:
        return
    host = hosts[0]
    if len(hosts) > 1:  # finalfantasy.job-select.06: attached to only one of them
        refs = [h.ref for h in hosts]

        def pick(inp: dict[str, Any]) -> "GameObject":
            obj = g.find(choice_ref) if isinstance(choice_ref := inp.get("choice"), str) else None
            if obj is None or obj.ref not in refs:
                raise IllegalAction("invalid_choice", f"choose one of {refs} to attach {equipment.ref} to")
            return obj

        host = g.decide("choose", ctx.controller, "choose", pick, reason="attach_to", options=refs)
    if equipment.attached_to == host.ref:
        return  # CR 701.3b
    equipment.attached_to = host.ref
    equipment.timestamp = g.new_timestamp()  # CR 613.7e: it gets a new timestamp
    g.log("attached", object=equipment.ref, card=equipment.card, attached_to=host.ref)


def unattach_illegal(game: "Game") -> bool:
    """CR 704.5n, 301.5c: an Equipment attached to an object that is not a creature on the
    battlefield becomes unattached; it remains on the battlefield. True if any did."""
    done = False
    for perm in list(game.battlefield):
        if not perm.attached_to or not is_equipment(perm):
            continue
        host = game.objects.get(perm.attached_to)
        if host is not None and host.zone == "battlefield" and ch.is_type(host, "Creature") and host is not perm:
            continue
        game.log("state_based_action", rule="704.5n", object=perm.ref, card=perm.card)
        game.log("unattached", object=perm.ref, card=perm.card, attached_to=perm.attached_to)
        perm.attached_to = None
        done = True
    return done

