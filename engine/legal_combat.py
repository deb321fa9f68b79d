"""Combat declarations for the legal-action generator (:mod:`.legal`): attackers (CR 508.1,
planeswalkers CR 508.1b), blockers (CR 509.1, a few random legal declarations from a
SplitMix64 seeded by the game) and the assignment of combat damage (CR 510.1c-d, trample CR
702.19b), with the check of an assignment.
"""

from __future__ import annotations

from typing import Any

from . import characteristics as ch
from . import combat, combat_effects, planeswalkers
from .errors import IllegalAction
from .legal_common import BLOCK_SAMPLES, Candidate
from .rng import SplitMix64


def attack_candidates(game: Any, decision: dict[str, Any]) -> list[Candidate]:
    """CR 508.1: no attack, each creature that can attack alone, all of them; and all of
    them attacking each planeswalker an opponent controls (CR 508.1b, FORMAT §12.1)."""
    player = decision["player"]
    able = []
    for obj in game.battlefield:
        if obj.controller != player or not ch.is_type(obj, "Creature"):
            continue
        try:
            combat.can_attack(game, obj, player)
        except IllegalAction:
            continue
        able.append(obj.ref)
    # CR 508.1d: every declaration includes the creatures that must attack (engine/combat_effects.py)
    required = [o.ref for o in combat_effects.required_attackers(
        game, player, lambda o: combat.able_to_attack(game, o, player))]
    sets = []
    for s in [[]] + [[r] for r in able] + ([list(able)] if len(able) > 1 else []):
        s = s + [r for r in required if r not in s]
        if s not in sets:
            sets.append(s)
    out = [Candidate({"action": "declare_attackers", "player": player, "attackers": s},
                     "attack:none" if not s else "attack:all" if len(s) > 1 else "attack:one", "attack")
           for s in sets]
    for pw in planeswalkers.attackable(game, player) if able else ():
        out.append(Candidate({"action": "declare_attackers", "player": player,
                              "attackers": [{"attacker": r, "target": pw} for r in able]},
                             "attack:planeswalker", "attack"))
    return out


def block_candidates(game: Any, decision: dict[str, Any]) -> list[Candidate]:
    """CR 509.1: no block; each able blocker on the first attacker it can block; every able
    blocker on one attacker with menace; a few random legal declarations (blockers checked
    with ``combat.can_block``; several blockers may block one attacker, CR 509.1a); those
    that break a restriction on the whole declaration (menace blocked by one creature, CR
    702.111b: ``combat.check_block_counts``) are left out."""
    player = decision["player"]
    attackers = [game.objects[a] for a in game.combat.attackers if a in game.objects]
    options: dict[str, list[str]] = {}
    for b in game.battlefield:
        if b.controller != player or not ch.is_type(b, "Creature"):
            continue
        ok = []
        for a in attackers:
            try:
                combat.can_block(game, b, a, player)
            except IllegalAction:
                continue
            ok.append(a.ref)
        if ok:
            options[b.ref] = ok
    decls: list[list[Any]] = [[]]
    if options:
        decls.append([{"blocker": b, "attacker": a[0]} for b, a in options.items()])
        for a in attackers:  # every able blocker on one attacker: a legal block of a menace creature
            gang = [{"blocker": b, "attacker": a.ref} for b, ok in options.items() if a.ref in ok]
            if len(gang) > 1 and ch.has_keyword(game, a, "menace"):
                decls.append(gang)
        rng = SplitMix64(game.seed ^ (len(game.events) * 0x9E3779B97F4A7C15))
        for _ in range(BLOCK_SAMPLES):
            decl = []
            for b, ok in options.items():
                pick = rng.below(len(ok) + 1)
                if pick < len(ok):
                    decl.append({"blocker": b, "attacker": ok[pick]})
            decls.append(decl)
    seen, out = set(), []
    for decl in decls:
        key = repr(decl)
        if key in seen or not _counts_allowed(game, decl):
            continue
        seen.add(key)
        out.append(Candidate({"action": "declare_blockers", "player": player, "blocks": decl},
                             "block:none" if not decl else "block:some", "block"))
    return out


def _counts_allowed(game: Any, decl: list[dict[str, str]]) -> bool:
    """Does the declaration meet the restrictions on it as a whole (menace, CR 702.111b)?"""
    try:
        combat.check_block_counts(game, [(game.objects[d["blocker"]], game.objects[d["attacker"]]) for d in decl])
    except IllegalAction:
        return False
    return True


def _damage_context(game: Any, decision: dict[str, Any]) -> tuple[Any, ...]:
    """What ``combat.combat_damage_step`` passes to its assignment check (CR 510.1c–d)."""
    a_ref = decision["attacker"]
    attacker = game.objects[a_ref]
    defender = game.combat.attackers[a_ref]
    blockers = [game.objects[b] for b in game.combat.blockers_of(a_ref) if b in game.objects]
    power, _ = ch.power_toughness(game, attacker)
    trample = ch.has_keyword(game, attacker, "trample")
    return attacker, blockers, defender, power, trample


def damage_assignment_candidates(game: Any, decision: dict[str, Any]) -> list[Candidate]:
    """CR 510.1c–d, 702.19b: lethal damage to each blocker in turn and the rest to the last
    one (or, with trample, to the player); all to the first or the last blocker; an even
    split."""
    player = decision["player"]
    attacker, blockers, defender, power, trample = _damage_context(game, decision)
    plans = []
    left, plan = power, {}
    for b in blockers:
        n = min(left, combat.lethal_damage(game, b, attacker))
        plan[b.ref] = n
        left -= n
    if left:
        if trample:
            plan[defender] = left
        elif blockers:
            plan[blockers[-1].ref] = plan.get(blockers[-1].ref, 0) + left
    plans.append(plan)
    if blockers:
        plans.append({blockers[0].ref: power})
        plans.append({blockers[-1].ref: power})
        even = {b.ref: power // len(blockers) for b in blockers}
        even[blockers[0].ref] += power - sum(even.values())
        plans.append(even)
    seen, out = set(), []
    for plan in plans:
        plan = {k: v for k, v in plan.items() if v} or plan
        key = repr(sorted(plan.items()))
        if key in seen or not plan:
            continue
        seen.add(key)
        out.append(Candidate({"action": "assign_damage", "player": player, "attacker": attacker.ref,
                              "assignment": plan}, "assign", "choice"))
    return out


