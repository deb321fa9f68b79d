"""Creatures that assign no combat damage, and "attacks and isn't blocked" triggers.

"[This creature] assigns no combat damage this turn" (CR 510.1a: a creature assigns combat
damage equal to its power, unless an effect says otherwise) is not the same as dealing 0
damage, nor as preventing it: the creature takes part in combat as usual (it is attacking,
blocked or blocking, other creatures deal their damage to it), but it assigns none of its own,
so nothing is dealt, nothing is prevented, and "whenever … deals combat damage" abilities
don't trigger. Its power is unchanged (1999 rulebook glossary, "Danno da combattimento").

Card data: the effect ``{"type": "assign_no_combat_damage", "what": <objects>, "duration":
"end_of_turn"}`` (docs/FORMAT.md §5), a continuous effect of kind ``no_combat_damage``; and
the trigger ``{"event": "attacks_and_isnt_blocked", "object": "self" | <filter>}``, fired for
each attacking creature no blocker was declared for, once blockers are declared (CR 509.3).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .objects import ContinuousEffect, effect_duration

if TYPE_CHECKING:
    from .effects import Context
    from .game import Game
    from .objects import GameObject


def assign_no_combat_damage(ctx: "Context", eff: dict[str, Any]) -> None:
    """The effect ``assign_no_combat_damage``: the objects ``eff["what"]`` names (on the
    battlefield) assign no combat damage until the effect ends (``duration``, this turn)."""
    g = ctx.game
    refs = [o.ref for o in ctx.objects(eff["what"]) if o.zone == "battlefield"]
    if refs:
        g.effects.append(ContinuousEffect("no_combat_damage", refs, g.new_timestamp(),
                                          until=effect_duration(eff)))


def assigns_no_combat_damage(game: "Game", obj: "GameObject") -> bool:
    """True if an ``assign_no_combat_damage`` effect applies to ``obj`` (CR 510.1a)."""
    return any(ce.kind == "no_combat_damage" and obj.ref in ce.affected for ce in game.effects)


def fire_unblocked_triggers(game: "Game") -> None:
    """After blockers are declared: "whenever … attacks and isn't blocked" triggers for each
    attacking creature that no creature was declared to block (CR 509.3)."""
    for a_ref in list(game.combat.attackers):
        obj = game.objects.get(a_ref)
        if obj is not None and a_ref not in game.combat.blocked:
            game.fire_triggers({"event": "attacks_and_isnt_blocked", "object": obj})


EFFECTS = {"assign_no_combat_damage": assign_no_combat_damage}
