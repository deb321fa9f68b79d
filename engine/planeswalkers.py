"""Planeswalkers (CR 306, 606): loyalty, loyalty abilities, damage to a planeswalker,
attacking a planeswalker and the state-based action for 0 loyalty (docs/FORMAT.md §12.1).

A planeswalker is a permanent with the card type ``Planeswalker`` and a printed
``loyalty`` (the card file's field). The rules here:

- CR 306.5b: it enters with that many loyalty counters (:func:`enters`); a planeswalker in a
  fixture's setup has them unless the setup lists its ``counters`` (:func:`setup_counters`);
- CR 606.3–606.6: a loyalty ability is an activated ability whose cost has ``loyalty`` (a
  signed integer: put that many loyalty counters on it, or remove them); it is activated
  only as a sorcery, only if none of that permanent's loyalty abilities has been activated
  this turn (:func:`check_activation`, rejection ``loyalty_ability_used``), and a negative
  cost can't remove more counters than it has (:func:`pay_loyalty`, ``cannot_pay``);
- CR 120.3c: damage dealt to a planeswalker removes that many loyalty counters
  (:func:`damage_removes_loyalty`);
- CR 704.5i: a planeswalker with 0 loyalty is put into its owner's graveyard
  (:func:`zero_loyalty`);
- CR 506.3, 508.1b: an attacking creature attacks a player or a planeswalker an opponent
  controls (:func:`attack_target`); the defending player is that planeswalker's controller
  (CR 506.2); unblocked, it deals its combat damage to the planeswalker
  (:func:`recipient`); if the planeswalker has left the battlefield, the creature is still
  attacking but deals no combat damage to anything (CR 506.4c).

Planeswalkers came into the game in 2007: under the 1999 and 2006 rulesets
(``Ruleset.planeswalkers`` False) a planeswalker card can't be cast (rejection
``not_in_ruleset``) and a fixture can't put one on the battlefield (a ScenarioError).

Nothing here knows a particular card.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from . import characteristics as ch
from . import sagas
from .errors import IllegalAction

if TYPE_CHECKING:
    from .game import Game
    from .objects import GameObject

LOYALTY = "loyalty"
SBA_RULE = "704.5i"


def is_planeswalker(obj: "GameObject") -> bool:
    """CR 306: the object has the card type Planeswalker now."""
    return ch.is_type(obj, "Planeswalker")


def printed_loyalty(obj: "GameObject") -> int | None:
    """The loyalty printed on the card (CR 209.1; the card file's ``loyalty``), or None."""
    return (obj.chars.raw or {}).get("loyalty") if not obj.face_down else None


def check_exists(game: "Game", obj: "GameObject") -> None:
    """Planeswalkers postdate the 1999 and 2006 rules: under a ruleset without them
    (``Ruleset.planeswalkers`` False) raise IllegalAction ``not_in_ruleset`` for a
    planeswalker card."""
    if not game.rules.planeswalkers and "Planeswalker" in obj.definition.types:
        raise IllegalAction("not_in_ruleset", f"{obj.definition.name} is a planeswalker: the "
                            f"{game.rules.name} rules have no planeswalkers (introduced in 2007)")


def setup_counters(obj: "GameObject") -> dict[str, Any]:
    """The counters a planeswalker has when a fixture's setup puts it on the battlefield
    without listing ``counters``: its printed loyalty (CR 306.5b); {} for anything else."""
    n = printed_loyalty(obj)
    return {LOYALTY: n} if n is not None and is_planeswalker(obj) and n > 0 else {}


def enters(game: "Game", obj: "GameObject") -> None:
    """CR 306.5b: a planeswalker enters with loyalty counters equal to its printed loyalty
    (logged as ``counters_added`` right after ``permanent_entered``). "Enters with" is a
    replacement effect, so counter doublers apply (CR 614.1c, 616.1); a loyalty cost's
    counters are not put by an effect (:func:`pay_loyalty`)."""
    n = printed_loyalty(obj)
    if n and is_planeswalker(obj) and game.rules.planeswalkers:
        sagas.put_counters(game, obj, LOYALTY, n)


def loyalty_cost(ability: Any) -> int | None:
    """The loyalty cost of an activated ability (``cost.loyalty``), or None if it is not a
    loyalty ability (CR 606.3)."""
    cost = ability.get("cost") if isinstance(ability, dict) else None
    return cost.get(LOYALTY) if cost else None


def check_activation(game: "Game", player: str, src: "GameObject", ability: Any) -> None:
    """CR 606.3: a loyalty ability may be activated only any time the player could cast a
    sorcery, and only if none of the permanent's loyalty abilities has been activated this
    turn. Raises IllegalAction ``sorcery_timing`` or ``loyalty_ability_used``; does nothing
    for other abilities."""
    if loyalty_cost(ability) is None:
        return
    if not game.sorcery_timing_ok(player):
        raise IllegalAction("sorcery_timing", "a loyalty ability is activated only as a sorcery (CR 606.3)")
    if game.loyalty_activations.get(src.ref) == game.turn:
        raise IllegalAction("loyalty_ability_used", f"a loyalty ability of {src.name} has already been "
                            "activated this turn (CR 606.3)")


def record_activation(game: "Game", src: "GameObject", ability: Any) -> None:
    """Remember that a loyalty ability of ``src`` was activated this turn (CR 606.3)."""
    if loyalty_cost(ability) is not None:
        game.loyalty_activations[src.ref] = game.turn


#: A loyalty cost of minus X (CR 606.4, 107.3: "[−X]", X chosen as the ability is activated).
MINUS_X = "-X"


def pay_loyalty(game: "Game", src: "GameObject", cost: "int | str", x: int = 0) -> None:
    """CR 606.4–606.6: pay a loyalty cost: put ``n`` loyalty counters on ``src`` (``n`` > 0)
    or remove ``-n`` (``n`` < 0); ``"-X"`` removes X, the value chosen (CR 107.3a). Raises
    IllegalAction ``cannot_pay`` when it has fewer loyalty counters than a negative cost
    removes (CR 606.6)."""
    n = -x if cost == MINUS_X else int(cost)
    if n > 0:
        sagas.put_counters(game, src, LOYALTY, n, by_effect=False)
    elif n < 0:
        if src.counters.get(LOYALTY, 0) < -n:
            raise IllegalAction("cannot_pay", f"{src.name} has fewer than {-n} loyalty counters (CR 606.6)")
        game.remove_counters(src, LOYALTY, -n)


def marks_damage(obj: "GameObject") -> bool:
    """Damage is marked on a creature (CR 120.3e) and on anything that is not a
    planeswalker; a planeswalker that is not a creature only loses loyalty (CR 120.3c)."""
    return ch.is_type(obj, "Creature") or not is_planeswalker(obj)


def damage_removes_loyalty(game: "Game", obj: "GameObject", dealt: int) -> None:
    """CR 120.3c: damage dealt to a planeswalker causes that many loyalty counters to be
    removed from it (``counters_removed``, after ``damage_dealt``)."""
    if dealt > 0 and is_planeswalker(obj) and obj.counters.get(LOYALTY):
        game.remove_counters(obj, LOYALTY, dealt)


def zero_loyalty(game: "Game") -> list[tuple[GameObject, str, bool]]:
    """CR 704.5i: the planeswalkers with 0 loyalty, as state-based actions
    ``(permanent, "704.5i", False)`` (put into the graveyard, not destroyed)."""
    if not game.rules.planeswalkers:
        return []
    return [(p, SBA_RULE, False) for p in game.battlefield
            if is_planeswalker(p) and p.counters.get(LOYALTY, 0) <= 0]


# ------------------------------------------------------------------ combat
def attackable(game: "Game", player: str) -> list[str]:
    """The references of the planeswalkers ``player``'s creatures could attack: those
    controlled by ``player``'s opponents (CR 506.3, 508.1b), in battlefield order."""
    opponents = game.opponents(player)
    return [p.ref for p in game.battlefield if is_planeswalker(p) and p.controller in opponents]


def attack_target(game: "Game", attacker: "GameObject", target: Any, default: str) -> tuple[str, "GameObject | None"]:
    """CR 508.1b: the player or planeswalker ``attacker`` attacks. ``target`` is the
    declaration's ``target`` (a player id, a planeswalker's reference or alias) or None
    (``default``: the defending player). Returns ``(defending player, planeswalker or
    None)``; the defending player of a planeswalker is its controller (CR 506.2). Raises
    IllegalAction ``cannot_attack`` for anything else (the attacking player, a permanent
    that is not a planeswalker an opponent controls)."""
    if target is None:
        return default, None
    if target in game.players:
        if target not in game.opponents(game.active):
            raise IllegalAction("cannot_attack", f"{attacker.name} can attack only an opponent or a planeswalker "
                                "an opponent controls (CR 508.1b)")
        return target, None
    pw = game.find(target) if isinstance(target, str) else None
    if pw is None or pw.ref not in attackable(game, game.active):
        raise IllegalAction("cannot_attack", f"{target!r} is not a player or a planeswalker an opponent controls: "
                            f"{attacker.name} can't attack it (CR 508.1b)")
    assert pw.controller is not None  # a permanent has a controller (CR 108.4)
    return pw.controller, pw


def attacked_planeswalker(game: "Game", attacker_ref: str) -> str | None:
    """The reference of the planeswalker the attacking creature attacks, or None."""
    return game.combat.attacked.get(attacker_ref) if game.combat is not None else None


def recipient(game: "Game", attacker_ref: str, defender: str) -> str | None:
    """Who an unblocked attacker deals its combat damage to (CR 510.1b): the defending
    player, or the planeswalker it attacks if that is still on the battlefield (its
    reference), or None when that planeswalker has left (CR 506.4c: no combat damage)."""
    pw_ref = attacked_planeswalker(game, attacker_ref)
    if pw_ref is None:
        return defender
    pw = game.objects.get(pw_ref)
    return pw_ref if pw is not None and pw.zone == "battlefield" else None


def as_damage_target(game: "Game", target: Any) -> Any:
    """A combat damage recipient as :meth:`Game.deal_damage` takes it: a planeswalker's
    reference becomes the object; players and objects are returned as they are."""
    if isinstance(target, str) and target not in game.players:
        return game.objects[target]
    return target


def combat_state_name(game: "Game", attacker_ref: str, defender: str) -> str:
    """What ``state.combat.attackers`` shows for an attacker: the player it attacks, or the
    card alias of the planeswalker it attacks (FORMAT §4)."""
    pw_ref = attacked_planeswalker(game, attacker_ref)
    if pw_ref is None:
        return defender
    pw = game.objects.get(pw_ref)
    return pw.card if pw is not None else pw_ref
