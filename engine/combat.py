"""The combat phase (CR 506–511): declaring attackers and blockers, evasion, combat damage
with first strike and trample."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from . import characteristics as ch
from . import combat_effects, no_combat_damage, planeswalkers
from .errors import IllegalAction
from .objects import StackItem

if TYPE_CHECKING:
    from .game import Game
    from .objects import GameObject


@dataclass
class Combat:
    """Who attacks whom and who blocks whom in this combat.

    ``attackers``: {attacker ref: defending player id}, in declaration order;
    ``blockers``: {blocker ref: attacker ref}; ``blocked``: attacker refs that became
    blocked (they stay blocked even if their blockers leave, CR 509.1h);
    ``dealt_first_strike``: refs that dealt combat damage in the first-strike step;
    ``declared``: attackers were declared (CR 508.8: otherwise the blockers and damage
    steps are skipped); ``attacked``: {attacker ref: ref of the planeswalker it attacks}
    (its defending player, in ``attackers``, is that planeswalker's controller, CR 506.2;
    engine/planeswalkers.py).
    """

    declared: bool = False
    attackers: dict[str, Any] = field(default_factory=dict)
    blockers: dict[str, Any] = field(default_factory=dict)
    blocked: set[str] = field(default_factory=set)
    dealt_first_strike: set[str] = field(default_factory=set)
    attacked: dict[str, Any] = field(default_factory=dict)

    def remove(self, ref: str) -> bool:
        """CR 506.4: remove a creature from combat; return True if it was in combat."""
        was = ref in self.attackers or ref in self.blockers
        self.attackers.pop(ref, None)
        self.blockers.pop(ref, None)
        self.attacked.pop(ref, None)
        return was

    def blockers_of(self, attacker: str) -> list[str]:
        return [b for b, a in self.blockers.items() if a == attacker]

    def any_first_strike(self, game: "Game") -> bool:
        refs = list(self.attackers) + list(self.blockers)
        return any(_strikes_first(game, game.objects[r]) for r in refs if r in game.objects)


def _strikes_first(game: "Game", obj: "GameObject") -> bool:
    return ch.has_keyword(game, obj, "first_strike") or ch.has_keyword(game, obj, "double_strike")


# ------------------------------------------------------------------ attackers
def declare_attackers_step(game: "Game") -> None:
    """CR 508.1: the active player declares attackers (a turn-based action)."""
    game.decide("declare_attackers", game.active, "declare_attackers",
                lambda inp: _declare_attackers(game, inp), transactional=True)


def can_attack(game: "Game", obj: "GameObject", player: str) -> None:
    """CR 508.1a: raise IllegalAction ``cannot_attack`` or ``summoning_sick`` unless
    ``obj`` is an untapped creature ``player`` controls, without defender (CR 702.3b) or a
    "can't attack" effect, and controlled continuously since the turn began or with haste
    (CR 302.6)."""
    if obj.zone != "battlefield" or not ch.is_type(obj, "Creature"):
        raise IllegalAction("cannot_attack", f"{obj.ref} is not a creature on the battlefield")
    if obj.controller != player:
        raise IllegalAction("not_controller", f"{player} doesn't control {obj.name}")
    if obj.tapped:
        raise IllegalAction("cannot_attack", f"{obj.name} is tapped")
    if obj.summoning_sick and not ch.has_keyword(game, obj, "haste"):
        raise IllegalAction("summoning_sick", f"{obj.name} hasn't been under {player}'s control since the turn began")
    if ch.has_keyword(game, obj, "defender"):
        raise IllegalAction("cannot_attack", f"{obj.name} has defender")
    if game.rules.walls_cant_attack and ch.has_subtype(game, obj, "Wall"):
        raise IllegalAction("cannot_attack", f"{obj.name} is a Wall: Walls can't attack (1999 rules)")
    if ch.static_restrictions(game, obj, "cant_attack"):
        raise IllegalAction("cannot_attack", f"{obj.name} can't attack")


def able_to_attack(game: "Game", obj: "GameObject", player: str) -> bool:
    """Could ``player`` declare ``obj`` as an attacker now (:func:`can_attack` doesn't raise)?"""
    try:
        can_attack(game, obj, player)
    except IllegalAction:
        return False
    return True


def _declare_attackers(game: "Game", inp: dict[str, Any]) -> None:
    refs = inp.get("attackers") or []
    defenders = game.opponents(game.active)
    chosen: list["GameObject"] = []
    targets = []
    for ref in refs:
        name = ref.get("attacker") if isinstance(ref, dict) else ref
        obj = game.find(name) if isinstance(name, str) else None
        if obj is None:
            raise IllegalAction("unknown_object", f"no object {name!r}")
        if obj in chosen:
            raise IllegalAction("cannot_attack", f"{obj.name} is declared twice")
        can_attack(game, obj, game.active)
        chosen.append(obj)  # CR 508.1b: the player or planeswalker it attacks (default: the first opponent)
        targets.append(planeswalkers.attack_target(game, obj, ref.get("target") if isinstance(ref, dict) else None,
                                                   defenders[0]))
    combat_effects.check_requirements(game, game.active, chosen, lambda o: able_to_attack(game, o, game.active))
    out = []
    game.combat.declared = bool(chosen)
    for obj, (defender, pw) in zip(chosen, targets):
        game.combat.attackers[obj.ref] = defender
        if pw is not None:
            game.combat.attacked[obj.ref] = pw.ref
        obj.attacked_this_turn = True
        if not ch.has_keyword(game, obj, "vigilance"):
            game.tap(obj)  # CR 508.1f
        out.append({"object": obj.ref, "card": obj.card, "defender": defender,
                    **({"planeswalker": pw.ref, "planeswalker_card": pw.card} if pw is not None else {})})
    game.log("attackers_declared", player=game.active, attackers=out)
    for obj in chosen:
        game.fire_triggers({"event": "attacks", "object": obj})


def put_onto_battlefield_attacking(game: "Game", obj: "GameObject") -> str | None:
    """CR 508.4: a creature put onto the battlefield attacking (mobilize's tokens,
    rulings tarkir.mobilize.03–05): its controller chooses which defending player it
    attacks (with one opponent, that one; with several, a ``choose`` decision, reason
    ``attack_target``, answered with a player id; it need not be the player the other
    attackers attack, ruling tarkir.mobilize.04). It is an attacking creature, but it was
    never declared as an attacker: nothing triggers on its attacking and it hasn't
    "attacked" this turn. Only the attacking (active) player's creatures can be put onto
    the battlefield attacking, and only during combat (CR 506.3d, 506.4 "attacking creatures
    don't exist outside combat"); otherwise the creature just enters the battlefield.
    Returns the defending player it attacks, or None."""
    combat = game.combat
    if (combat is None or obj.controller != game.active or not ch.is_type(obj, "Creature")
            or game.step not in ("declare_attackers", "declare_blockers", "first_strike_damage", "combat_damage",
                                 "end_of_combat")):
        return None
    # a player or a planeswalker an opponent controls (tarkir.mobilize.04, engine/planeswalkers.py)
    options = game.opponents(obj.controller) + planeswalkers.attackable(game, obj.controller)
    if not options:
        return None
    defender = options[0]
    if len(options) > 1:
        def valid(inp: dict[str, Any]) -> str:
            choice = inp.get("choice")
            found = game.find(choice) if isinstance(choice, str) and choice not in game.players else None
            choice = found.ref if found is not None else choice
            if choice not in options:
                raise IllegalAction("invalid_choice", f"choose the player or planeswalker {obj.ref} attacks: "
                                    f"one of {options}")
            return choice
        defender = game.decide("choose", obj.controller, "choose", valid, reason="attack_target",
                               object=obj.ref, options=options)
    if defender not in game.players:  # a planeswalker: its controller is the defending player (CR 506.2)
        combat.attacked[obj.ref] = defender
        combat.attackers[obj.ref] = game.objects[defender].controller
        combat.declared = True
        return defender
    combat.attackers[obj.ref] = defender
    combat.declared = True  # CR 508.8: creatures put onto the battlefield attacking count too
    return defender


# ------------------------------------------------------------------- blockers
def declare_blockers_step(game: "Game") -> None:
    """CR 509.1: the defending player declares blockers (a turn-based action)."""
    defender = next(iter(game.combat.attackers.values()), None)
    if defender is None:
        return
    game.decide("declare_blockers", defender, "declare_blockers",
                lambda inp: _declare_blockers(game, defender, inp), transactional=True)


def can_block(game: "Game", blocker: "GameObject", attacker: "GameObject", player: str) -> None:
    """CR 509.1a–b: raise IllegalAction unless ``blocker`` may block ``attacker``:
    an untapped creature of the defending player, with no "can't block" effect; evasion:
    flying (CR 702.9b, blocked only by flying or reach), landwalk (CR 702.14c),
    protection (CR 702.16f), "can't be blocked" and "can't be blocked except by"."""
    if blocker.zone != "battlefield" or not ch.is_type(blocker, "Creature"):
        raise IllegalAction("cannot_block", f"{blocker.ref} is not a creature on the battlefield")
    if blocker.controller != player:
        raise IllegalAction("not_controller", f"{player} doesn't control {blocker.name}")
    if blocker.tapped:
        raise IllegalAction("cannot_block", f"{blocker.name} is tapped")
    if ch.static_restrictions(game, blocker, "cant_block"):
        raise IllegalAction("cannot_block", f"{blocker.name} can't block")
    if ch.has_keyword(game, attacker, "shadow") and not ch.has_keyword(game, blocker, "shadow"):
        raise IllegalAction("cannot_block", f"{attacker.name} has shadow; {blocker.name} doesn't (CR 702.28b)")
    if ch.has_keyword(game, blocker, "shadow") and not ch.has_keyword(game, attacker, "shadow"):
        raise IllegalAction("cannot_block", f"{blocker.name} has shadow: it can block only creatures with shadow")
    if ch.has_keyword(game, attacker, "fear") and not (
            ch.is_type(blocker, "Artifact") or "black" in ch.colors(blocker, game)):
        raise IllegalAction("cannot_block", f"{attacker.name} has fear: only artifact or black creatures can block it")
    if ch.has_keyword(game, attacker, "flying") and not (
            ch.has_keyword(game, blocker, "flying") or ch.has_keyword(game, blocker, "reach")):
        raise IllegalAction("cannot_block", f"{attacker.name} has flying; {blocker.name} has neither flying nor reach")
    for kw in ch.keywords(game, attacker):
        if kw["keyword"] == "landwalk":
            if any(p.controller == player and kw["land_type"] in p.chars.subtypes and ch.is_type(p, "Land")
                   for p in game.battlefield):
                raise IllegalAction("cannot_block", f"{attacker.name} has {kw['land_type'].lower()}walk and "
                                    f"{player} controls a {kw['land_type']}")
    if ch.protected_from(game, attacker, blocker):
        raise IllegalAction("cannot_block", f"{attacker.name} has protection from {blocker.name}")
    if ch.static_restrictions(game, attacker, "cant_be_blocked"):
        raise IllegalAction("cannot_block", f"{attacker.name} can't be blocked")
    for eff in ch.static_restrictions(game, attacker, "cant_be_blocked_except"):
        if not any(ch.matches(game, blocker, f, player) for f in eff.get("blockers", ())):
            raise IllegalAction("cannot_block", f"{attacker.name} can't be blocked except as its effect allows")
    if ch.static_restrictions(game, blocker, "can_block_only_flying") and not ch.has_keyword(game, attacker, "flying"):
        raise IllegalAction("cannot_block", f"{blocker.name} can block only creatures with flying")


def check_block_counts(game: "Game", pairs: list[tuple["GameObject", "GameObject"]]) -> None:
    """CR 509.1b-c: restrictions on the declaration as a whole, checked once every block is
    known. Menace (CR 702.111b): a creature with menace can't be blocked except by two or
    more creatures; blocked by exactly one, the declaration is illegal (``cannot_block``).
    Unblocked, it is fine. ``pairs``: (blocker, attacker) of each block."""
    counts: dict[str, int] = {}
    for _, a in pairs:
        counts[a.ref] = counts.get(a.ref, 0) + 1
    for _, a in pairs:
        if counts[a.ref] == 1 and ch.has_keyword(game, a, "menace"):
            raise IllegalAction("cannot_block", f"{a.name} has menace: it can't be blocked except by two or "
                                "more creatures (CR 702.111b)")


def _declare_blockers(game: "Game", defender: str, inp: dict[str, Any]) -> None:
    blocks = inp.get("blocks") or []
    pairs: list[tuple["GameObject", "GameObject"]] = []
    for entry in blocks:
        if not isinstance(entry, dict):
            raise IllegalAction("invalid_block", "each block is {\"blocker\": …, \"attacker\": …}")
        b = game.find(blocker_ref) if isinstance(blocker_ref := entry.get("blocker"), str) else None
        a = game.find(attacker_ref) if isinstance(attacker_ref := entry.get("attacker"), str) else None
        if b is None or a is None:
            raise IllegalAction("unknown_object", f"no such blocker or attacker in {entry}")
        if a.ref not in game.combat.attackers:
            raise IllegalAction("invalid_block", f"{a.name} is not attacking")
        if any(b is pb for pb, _ in pairs):
            raise IllegalAction("invalid_block", f"{b.name} can block only one creature (CR 509.1a)")
        can_block(game, b, a, defender)
        pairs.append((b, a))
    check_block_counts(game, pairs)
    out = []
    for b, a in pairs:
        game.combat.blockers[b.ref] = a.ref
        game.combat.blocked.add(a.ref)
        out.append({"blocker": b.ref, "blocker_card": b.card, "attacker": a.ref, "attacker_card": a.card})
    game.log("blockers_declared", player=defender, blocks=out)
    for b, a in pairs:
        game.fire_triggers({"event": "blocks", "object": b})
    for a_ref in dict.fromkeys(a.ref for _, a in pairs):
        game.fire_triggers({"event": "becomes_blocked", "object": game.objects[a_ref]})
    for b, a in pairs:  # flanking triggers once per blocking creature (CR 702.25a)
        game.fire_triggers({"event": "becomes_blocked_by", "object": a, "blocker": b})
    no_combat_damage.fire_unblocked_triggers(game)  # "attacks and isn't blocked" (CR 509.3)


# --------------------------------------------------------------------- damage
def _deals_damage_now(game: "Game", obj: "GameObject", first_strike_step: bool) -> bool:
    """CR 510.4: in the first-strike step only first/double strikers deal damage; in the
    regular step those that didn't, plus double strikers."""
    strikes_first = _strikes_first(game, obj)
    if first_strike_step:
        return strikes_first
    return obj.ref not in game.combat.dealt_first_strike or ch.has_keyword(game, obj, "double_strike")


def lethal_damage(game: "Game", obj: "GameObject", source: "GameObject | None" = None) -> int:
    """CR 510.1c–d, 702.19c: the damage that is lethal for ``obj`` considering damage already
    marked on it (not prevention or other effects that would change the damage dealt);
    CR 702.2c: any nonzero amount assigned by a ``source`` with deathtouch is lethal."""
    _, t = ch.power_toughness(game, obj)
    left = max(0, t - obj.damage)
    if source is not None and ch.has_keyword(game, source, "deathtouch"):
        return min(1, left)
    return left


def combat_damage_step(game: "Game", first_strike: bool) -> None:
    """CR 510.1–510.2: each attacking and blocking creature assigns combat damage equal to
    its power; the active player divides an attacker's damage among several blockers (or,
    with trample, onto the player, CR 702.19b); then all of it is dealt simultaneously."""
    combat = game.combat
    assignments: list[tuple["GameObject", Any, int]] = []
    for a_ref, defender in list(combat.attackers.items()):
        attacker = game.objects.get(a_ref)
        if attacker is None or not _deals_damage_now(game, attacker, first_strike):
            continue
        power, _ = ch.power_toughness(game, attacker)
        if power <= 0 or no_combat_damage.assigns_no_combat_damage(game, attacker):
            continue  # CR 510.1a: it assigns no combat damage (which isn't 0 damage)
        blockers = [game.objects[b] for b in combat.blockers_of(a_ref) if b in game.objects]
        trample = ch.has_keyword(game, attacker, "trample")
        defender = planeswalkers.recipient(game, a_ref, defender)  # or the planeswalker it attacks
        if defender is None:  # the planeswalker it attacked has left: no combat damage (CR 506.4c)
            if a_ref not in combat.blocked or not blockers:
                continue
            trample = False
        if a_ref not in combat.blocked:
            assignments.append((attacker, defender, power))
        elif not blockers:
            if trample:  # CR 702.19e: all its damage to the player
                assignments.append((attacker, defender, power))
        elif len(blockers) == 1 and not trample:
            assignments.append((attacker, blockers[0], power))
        else:
            def check(inp: dict[str, Any], attacker: "GameObject" = attacker, defender: str | None = defender
                      ) -> list[tuple["GameObject | str", int]]:
                return _check_assignment(game, inp, attacker, blockers, defender, power, trample)
            chosen = game.decide("assign_damage", game.active, "assign_damage", check, attacker=a_ref)
            game.log("combat_damage_assigned", attacker=a_ref, card=attacker.card,
                     assignment={(t if isinstance(t, str) else t.ref): n for t, n in chosen})
            assignments += [(attacker, t, n) for t, n in chosen if n > 0]
    for b_ref, a_ref in list(combat.blockers.items()):
        blocker = game.objects.get(b_ref)
        attacker = game.objects.get(a_ref)
        if blocker is None or attacker is None or a_ref not in combat.attackers:
            continue
        if not _deals_damage_now(game, blocker, first_strike):
            continue
        power, _ = ch.power_toughness(game, blocker)
        if power > 0 and not no_combat_damage.assigns_no_combat_damage(game, blocker):
            assignments.append((blocker, attacker, power))
    if first_strike:
        combat.dealt_first_strike |= {src.ref for src, _, _ in assignments}
        for ref in list(combat.attackers) + list(combat.blockers):
            obj = game.objects.get(ref)
            if obj is not None and _strikes_first(game, obj):
                combat.dealt_first_strike.add(ref)
    if game.rules.combat_damage_uses_stack and assignments:
        put_combat_damage_on_stack(game, assignments)
        return
    for src, target, n in assignments:
        game.deal_damage(src, planeswalkers.as_damage_target(game, target), n, combat=True)


def put_combat_damage_on_stack(game: "Game", assignments: list[tuple["GameObject", "GameObject | str", int]]) -> None:
    """1999/2006 rules: assigned combat damage is put on the stack as one object; players
    get priority; it is dealt when that object resolves (``resolve_combat_damage``)."""
    ref = game.next_ref("combat_damage")
    parts: list[dict[str, Any]] = [{"source": src.copy(), "target": t if isinstance(t, str) else t.ref, "amount": n}
             for src, t, n in assignments]
    item = StackItem(ref=ref, kind="combat_damage", controller=game.active,
                     ability={"targets": [], "effects": [], "combat_damage": parts})
    game.stack.append(item)
    game.log("combat_damage_put_on_stack", object=ref, assignments=[
        {"source": p["source"].ref, "source_card": p["source"].card, "target": p["target"], "amount": p["amount"]}
        for p in parts])


def resolve_combat_damage(game: "Game", item: Any) -> None:
    """Deal combat damage that was on the stack: a source that has left play still deals
    it (as it last existed); damage to a creature no longer in play is not dealt (1999
    rulebook, "Danno da combattimento")."""
    game.log("combat_damage_resolved", object=item.ref)
    for part in item.ability["combat_damage"]:
        target = part["target"]
        if target not in game.players:
            obj = game.objects.get(target)
            if obj is None or obj.zone != "battlefield":
                game.log("combat_damage_not_dealt", source=part["source"].ref, target=target,
                         reason="target_left_play")
                continue
            target = obj
        src = game.objects.get(part["source"].ref) or part["source"]
        game.deal_damage(src, target, part["amount"], combat=True)


def _check_assignment(game: "Game", inp: dict[str, Any], attacker: "GameObject", blockers: list["GameObject"],
                      defender: str | None, power: int, trample: bool) -> list[tuple["GameObject | str", int]]:
    """Validate an ``assign_damage`` input (CR 510.1c–d, 702.19b): the attacker named, the
    amounts whole and adding up to its power, only its blockers (and, with trample, the
    defending player once every blocker has lethal damage)."""
    if game.find(inp.get("attacker", "")) is not attacker:
        raise IllegalAction("invalid_damage_assignment", f"assign damage for {attacker.ref} now")
    assignment = inp.get("assignment")
    if not isinstance(assignment, dict):
        raise IllegalAction("invalid_damage_assignment", "assignment is {blocker or player: amount}")
    out: list[tuple["GameObject | str", int]] = []
    total = 0
    to_player = 0
    for key, n in assignment.items():
        if not isinstance(n, int) or isinstance(n, bool) or n < 0:
            raise IllegalAction("invalid_damage_assignment", f"bad amount {n!r}")
        if key == defender:
            if not trample:
                raise IllegalAction("invalid_damage_assignment", f"{attacker.name} has no trample")
            to_player = n
            out.append((key, n))  # key == defender
        else:
            obj = game.find(key)
            if obj is None or obj not in blockers:
                raise IllegalAction("invalid_damage_assignment", f"{key} is not blocking {attacker.name}")
            out.append((obj, n))
        total += n
    # canonical order (blockers as declared, then the player), whatever the input's key order
    rank = {b.ref: i for i, b in enumerate(blockers)}
    out.sort(key=lambda tn: len(blockers) if isinstance(tn[0], str) else rank[tn[0].ref])
    if total != power:
        raise IllegalAction("invalid_damage_assignment", f"assign exactly {power} damage, not {total}")
    if to_player:
        to_blocker = dict((t.ref, n) for t, n in out if not isinstance(t, str))
        for b in blockers:
            if to_blocker.get(b.ref, 0) < lethal_damage(game, b, attacker):
                raise IllegalAction("invalid_damage_assignment",
                                    "lethal damage to every blocker before the player (CR 702.19c, 702.2c)")
    return out
