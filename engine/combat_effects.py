"""Combat-long effects (issue 23 item 2; docs/FORMAT.md §13.6).

- The duration ``"end_of_combat"`` ("until end of combat", "this combat"; CR 611.2b): a
  continuous effect that ends as the end of combat step ends (CR 511.3: after the end of
  combat step, "until end of combat" effects end), e.g. Murk Dwellers' "+2/+0 until end of
  combat". Every effect with a ``duration`` may have it; an effect of that duration created
  outside combat lasts until the next end of combat step ends.
- The effect ``{"type": "attacks_if_able", "what": R, "duration": "end_of_combat" |
  "end_of_turn"}`` ("attacks this combat if able", Legion Warboss; "attacks this turn if
  able", Boiling Blood): a requirement on the declaration of attackers (CR 508.1d). The
  declaration must obey as many requirements as it can without breaking a restriction: each
  creature under such an effect that its controller could declare as an attacker (untapped,
  not summoning sick or with haste, no defender or "can't attack", CR 508.1a-c) must be
  declared; one that can't attack is not required to (CR 508.1d). A declaration that leaves
  one out is rejected with ``attack_requirement`` (docs/FORMAT.md §8). The requirement
  doesn't make a creature able to attack, and it says nothing about whom it attacks.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable

from .control import restore_control
from .errors import IllegalAction
from .objects import ContinuousEffect, effect_duration

if TYPE_CHECKING:
    from .effects import Context
    from .game import Game
    from .objects import GameObject

#: The ``until`` of a continuous effect that ends with the end of combat step (CR 511.3).
END_OF_COMBAT = "end_of_combat"

#: The kind of the continuous effect of ``attacks_if_able`` (no layer: a requirement, CR 508.1d).
MUST_ATTACK = "must_attack"


def attacks_if_able(ctx: "Context", eff: dict[str, Any]) -> None:
    """The effect ``attacks_if_able``: each creature ``eff["what"]`` names (on the
    battlefield) attacks this combat / this turn if able (``duration``; absent: for the rest
    of the game, CR 611.2a)."""
    g = ctx.game
    refs = [o.ref for o in ctx.objects(eff["what"]) if o.zone == "battlefield"]
    if refs:
        g.effects.append(ContinuousEffect(MUST_ATTACK, refs, g.new_timestamp(), until=effect_duration(eff)))


def must_attack(game: "Game", obj: "GameObject") -> bool:
    """True if an ``attacks_if_able`` effect applies to ``obj`` now."""
    return any(ce.kind == MUST_ATTACK and obj.ref in ce.affected for ce in game.effects)


def required_attackers(game: "Game", player: str, can_attack: Callable[["GameObject"], bool]) -> list["GameObject"]:
    """CR 508.1d: the creatures ``player`` controls that must attack and could
    (``can_attack``: the restrictions of CR 508.1a-c), in battlefield order."""
    return [o for o in game.battlefield
            if o.controller == player and must_attack(game, o) and can_attack(o)]


def check_requirements(game: "Game", player: str, chosen: list["GameObject"],
                       can_attack: Callable[["GameObject"], bool]) -> None:
    """CR 508.1d: raise IllegalAction ``attack_requirement`` if the declaration ``chosen``
    leaves out a creature that must attack and could."""
    left_out = [o for o in required_attackers(game, player, can_attack) if o not in chosen]
    if left_out:
        names = ", ".join(o.name or o.ref for o in left_out)  # a face-down creature has no name
        raise IllegalAction("attack_requirement", f"{names} must attack if able (CR 508.1d)")


def end_of_combat(game: "Game") -> None:
    """CR 511.3: as the end of combat step ends, the "until end of combat" effects end (a
    control change among them returns the permanent, engine/control.py)."""
    ended = [e for e in game.effects if e.until == END_OF_COMBAT]
    if ended:
        game.effects = [e for e in game.effects if e.until != END_OF_COMBAT]
        restore_control(game, [e for e in ended if e.kind == "control"])


EFFECTS = {"attacks_if_able": attacks_if_able}
