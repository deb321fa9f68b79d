"""Casting spells for the legal-action generator (:mod:`.legal`, CR 601.2): every cast of a
card that can be cast now, with its alternative costs (morph, a permanent granting one,
flashback, harmonize, without paying), modes (CR 700.2), kicker (CR 702.33) and buyback,
behold (CR 701.4a), X values (CR 107.3), targets and a payment; and the ``may_cast``
decision, a cast offered by a resolving ability (suspend CR 702.62a, madness CR 702.35a).
"""

from __future__ import annotations

import itertools
from typing import Any

from . import alternative_costs, endure_behold, harmonize
from . import characteristics as ch
from .errors import IllegalAction
from .legal_common import Candidate, keywords_by_name
from .legal_mana import ManaSource, mana_sources, plan_payment, with_payment
from .legal_targets import target_choices
from .mana import ManaCost
from .objects import GameObject, StackItem


def spell_parts(game: Any, player: str, obj: GameObject, alternative: Any, modes: Any,
                kicked: list[int]) -> tuple[dict[str, Any], list[Any]]:
    """The spell ability ``cast`` would put on the stack (CR 601.2b–c): the chosen modes'
    parts (CR 700.2), plus the parts of the kicker costs paid (CR 702.33d); a face-down
    spell has none (CR 702.37c). Raises IllegalAction ``invalid_mode``."""
    if alternative == "morph":
        return {"targets": [], "effects": []}, []
    return game.spell_ability(obj.definition, modes, kicked)  # type: ignore[no-any-return]


def x_values(cost: ManaCost, x_symbols: int, available: int) -> list[int]:
    """X choices (CR 107.3a): 0, 1 and the largest X the player can pay."""
    if not x_symbols:
        return [0]
    room = available - cost.mana_value()
    if room < 0:
        return []
    if not cost.x:  # X in the mana cost, paid by an alternative cost without X: 0 (CR 107.3b)
        return [0]
    top = room // cost.x
    return sorted({0, min(1, top), top})


def cast_candidates(game: Any, player: str, obj: GameObject, sources: list[ManaSource],
                     alternatives: list[Any] | None = None, forced: str | None = None,
                     reduce_with: GameObject | None = None) -> list[Candidate]:
    """Casts of ``obj`` (CR 601.2): every alternative cost that applies (none, morph, a
    permanent granting one such as Fist of Suns, flashback, without paying), modes, kicker
    and buyback choices, X values, targets; a payment from the pool and ``sources``.
    ``reduce_with``: the creature tapped for harmonize, whose power reduces the total cost
    (CR 702.180a)."""
    d = obj.definition
    kws = keywords_by_name(obj)
    if ch.is_type(obj, "Land"):
        return []
    if alternatives is None:
        alternatives = [None]
        if "morph" in kws:
            alternatives.append("morph")
        for src, eff in ch.static_effects(game):
            if eff.get("type") == "alternative_cost" and src.controller == player:
                alternatives.append(src.ref)
    out = []
    avail = game.players[player].pool.total() + sum(max(sum(m.values()) for m, _ in s.options) for s in sources)
    group = f"cast:{obj.definition.name}"
    for alt in alternatives:
        face_down = alt == "morph"
        try:
            game.check_can_cast(player, obj, ignore_timing=forced is not None, face_down=face_down)
        except IllegalAction:
            continue
        spell = d.spell or {}
        mode_sets: list[Any] = [None]
        if not face_down and "modes" in spell and d.enchant is None:
            choose = spell.get("choose", 1)
            mode_sets = [list(m) for m in itertools.combinations(range(len(spell["modes"])), choose)]
        kicker_sets: list[Any] = [[]]
        if "kicker" in kws and not face_down and forced is None:
            n = len(kws["kicker"].get("costs", ()))
            kicker_sets = [list(s) for r in range(n + 1) for s in itertools.combinations(range(n), r)]
        buybacks = [False, True] if "buyback" in kws and not face_down and forced is None else [False]
        beholds = endure_behold.behold_options(game, player, obj) if not face_down else [(None, None)]  # CR 701.4a
        for modes, kicked, buyback, (behold, behold_mana) in itertools.product(mode_sets, kicker_sets, buybacks,
                                                                               beholds):
            try:
                ability, modes_used = spell_parts(game, player, obj, alt, modes, kicked)
                # as ``Game.cast`` decides the cost: suspend and a paradigm copy cast without
                # paying (CR 702.62a, strixhaven.paradigm.01), madness for its madness cost (CR
                # 702.35a), otherwise the alternative chosen
                paid_as = alternative_costs.paid_as(forced, alt)
                cost = game.total_cost(player, obj, paid_as, kws, kicked, buyback, extra=behold_mana)
            except IllegalAction:
                continue
            if not cost.present:
                continue
            xs = x_values(cost, d.mana_cost.x, avail) if forced is None else [0]
            for x in xs:
                # CR 601.2f: X's value is in the total cost before reductions
                cost_x = game.total_cost(player, obj, paid_as, kws, kicked, buyback, extra=behold_mana, x=x)
                to_pay = cost_x if reduce_with is None else harmonize.reduced_cost(game, cost_x, x, reduce_with)
                pay = plan_payment(game, player, to_pay, sources=sources)
                if pay is None:
                    continue
                probe = StackItem(ref=obj.ref, kind="spell", controller=player, ability=ability, obj=obj, x=x,
                                  modes=modes_used, kicked=tuple(kicked))
                if face_down:
                    probe.obj = obj.copy()
                    probe.obj.face_down = True
                for targets in target_choices(game, probe, ability.get("targets", ())):
                    inp: dict[str, Any] = {"action": "cast", "player": player, "card": obj.ref}
                    if targets:
                        inp["targets"] = targets
                    if modes is not None:
                        inp["modes"] = modes
                    if d.mana_cost.x:
                        inp["x"] = x
                    if kicked:
                        inp["kicker"] = kicked
                    if buyback:
                        inp["buyback"] = True
                    if behold is not None:
                        inp["behold"] = behold
                    if alt is not None and forced is None:
                        inp["alternative"] = alt
                    out.append(Candidate(with_payment(inp, pay), group, "cast"))
    return out


def may_cast_candidates(game: Any, decision: dict[str, Any]) -> list[Candidate]:
    """CR 702.62a (suspend: cast it without paying its mana cost) and 702.35a (madness: cast
    it for its madness cost) as the trigger resolves, or decline (``choose no``)."""
    player, reason = decision["player"], decision.get("reason")
    obj = game.find(decision.get("card"))
    # declining is refused when the 2006 rules make the cast mandatory (502.59a): the engine's
    # answer says so (``legal.accepts``)
    out = [Candidate({"action": "choose", "player": player, "choice": "no"}, "decline", "decline")]
    if obj is not None and obj.zone == "exile":
        out += cast_candidates(game, player, obj, mana_sources(game, player), alternatives=[None], forced=reason)
    return out


