"""The ``priority`` decision for the legal-action generator (:mod:`.legal`, CR 117.1): pass,
play a land (CR 305.1-305.2, from the hand, an adventure, the top of the library), cast a
spell from wherever it may be cast (:mod:`.legal_casting`), the special actions (suspend CR
702.62a, turning a face-down permanent face up CR 702.37e), cycling from the hand (CR
702.29), and the activated and mana abilities of permanents and of cards in the graveyard
that work there (CR 602.2, 605, 113.6k), under split second only mana abilities and special
actions (CR 702.61a).
"""

from __future__ import annotations

import itertools
from typing import Any

from . import adventure, faces, graveyard_abilities, harmonize, library_top, planeswalkers, prepare
from . import characteristics as ch
from .errors import IllegalAction
from .legal_casting import cast_candidates, x_values
from .legal_common import Candidate, distinct, graveyard_exile_choices, keywords_by_name, spread
from .legal_mana import ManaSource, available_mana, can_tap, mana_sources, plan_payment, triggered_mana, with_payment
from .legal_targets import target_choices
from .mana import COLORS, ManaCost
from .objects import StackItem


def priority_candidates(game: Any, decision: dict[str, Any]) -> list[Candidate]:
    """CR 117.1: a player with priority may cast a spell, activate an ability, take a
    special action (play a land, CR 305.1; suspend, CR 702.62a; turn a face-down creature
    face up, CR 702.37e) or pass."""
    player = decision["player"]
    out = [Candidate({"action": "pass", "player": player}, "pass", "pass")]
    p = game.players[player]
    split = game.split_second_on_stack()  # CR 702.61a, as the engine judges it
    if game.sorcery_timing_ok(player) and p.lands_played < 1:  # CR 305.1–305.2
        for obj in distinct(o for o in p.hand if ch.is_type(o, "Land")):
            out.append(Candidate({"action": "play_land", "player": player, "card": obj.ref}, "land", "land"))
        for obj in adventure.exiled_adventurers(game, player):  # CR 715.3d: a land on an adventure
            if ch.is_type(obj, "Land"):
                out.append(Candidate({"action": "play_land", "player": player, "card": obj.ref}, "land", "land"))
        top = library_top.playable_top(game, player)  # Future Sight (engine/library_top.py)
        if top is not None and ch.is_type(top, "Land"):
            out.append(Candidate({"action": "play_land", "player": player, "card": top.ref}, "land", "land"))
    sources = mana_sources(game, player)
    if not split:
        for obj in distinct(o for o in p.hand if not ch.is_type(o, "Land")):
            out += cast_candidates(game, player, obj, sources)
            for face in faces.castable_faces(obj):  # an Omen's face (engine/faces.py)
                out += [faces.with_face(c, face)
                        for c in cast_candidates(game, player, faces.as_cast(obj, face), sources)]
        for obj in distinct(o for o in p.hand if ch.is_type(o, "Land")):  # a Town's Adventure, CR 715.3
            for face in faces.castable_faces(obj):
                out += [faces.with_face(c, face)
                        for c in cast_candidates(game, player, faces.as_cast(obj, face), sources)]
        for obj in distinct(o for o in p.graveyard if "flashback" in keywords_by_name(o)):
            out += cast_candidates(game, player, obj, sources, alternatives=["flashback"])
        for obj in distinct(o for o in p.graveyard if "harmonize" in keywords_by_name(o)):  # CR 702.180a
            out += cast_candidates(game, player, obj, sources, alternatives=["harmonize"])
            tap = harmonize.best_tap(game, player)  # and tapping a creature to reduce the cost
            if tap is not None:
                out += [Candidate(dict(c.input, harmonize_tap=tap.ref), c.group, c.kind)
                        for c in cast_candidates(game, player, obj, mana_sources(game, player, [tap.ref]),
                                                  alternatives=["harmonize"], reduce_with=tap)]
        for obj in adventure.exiled_adventurers(game, player):  # CR 715.3d: the permanent only
            if not ch.is_type(obj, "Land"):
                out += cast_candidates(game, player, obj, sources)
        top = library_top.playable_top(game, player)  # Future Sight: the top card (engine/library_top.py)
        if top is not None:
            out += cast_candidates(game, player, top, sources)
        for obj in distinct(o for o in p.exile if o.may_cast_free_by == player):
            out += cast_candidates(game, player, obj, sources, alternatives=["without_paying"])
        for pid in game.order:
            if pid == player:
                continue
            for obj in game.players[pid].exile:
                if obj.may_cast_free_by == player:  # Spelljack: the spell's owner may be another
                    out += cast_candidates(game, player, obj, sources, alternatives=["without_paying"])
        for pid in game.order:  # a prepared permanent's copy: its current controller (strixhaven.prepare.10)
            for obj in game.players[pid].exile:
                if prepare.is_prepared_copy(obj) and getattr(game.objects.get(obj.prepared_for), "controller", None) == player:
                    out += cast_candidates(game, player, obj, sources)
        out += _suspend_candidates(game, player, sources)
        out += _cycling_candidates(game, player, sources)
    out += _face_up_candidates(game, player, sources)
    out += _ability_candidates(game, player, split)
    return out


def _suspend_candidates(game: Any, player: str, sources: list[ManaSource]) -> list[Candidate]:
    """CR 702.62a / 116.2f: exile a card with suspend from the hand with its time counters,
    paying its suspend cost, any time its owner could cast it."""
    out = []
    for obj in distinct(game.players[player].hand):
        kw = keywords_by_name(obj).get("suspend")
        if kw is None:
            continue
        try:
            game.check_can_cast(player, obj)
        except IllegalAction:
            continue
        pay = plan_payment(game, player, ManaCost.parse(kw["cost"]), sources=sources)
        if pay is not None:
            out.append(Candidate(with_payment({"action": "suspend", "player": player, "card": obj.ref}, pay),
                                 f"suspend:{obj.definition.name}", "special"))
    return out


def _cycling_candidates(game: Any, player: str, sources: list[ManaSource]) -> list[Candidate]:
    """CR 702.29a: cycling and landcycling are activated from the hand (not while players
    can't cycle, CR 702.29e; not under split second, CR 702.61a)."""
    if ch.cant_cycle(game, player):
        return []
    out = []
    for obj in distinct(game.players[player].hand):
        for k in obj.chars.keywords:
            if k["keyword"] not in ("cycling", "landcycling"):
                continue
            pay = plan_payment(game, player, ManaCost.parse(k["cost"]), sources=sources)
            if pay is not None:
                inp = {"action": "activate", "player": player, "source": obj.ref, "ability": k["keyword"]}
                out.append(Candidate(with_payment(inp, pay), f"cycle:{obj.definition.name}", "activate"))
    return out


def _face_up_candidates(game: Any, player: str, sources: list[ManaSource]) -> list[Candidate]:
    """CR 702.37e: turn a face-down permanent you control face up by paying its morph cost
    (a special action: any time you have priority, even under split second)."""
    out = []
    for perm in game.battlefield:
        if perm.controller != player or not perm.face_down:
            continue
        kw = keywords_by_name(perm).get("morph")
        if kw is None:
            continue
        pay = plan_payment(game, player, ManaCost.parse(kw["cost"]), exclude=[perm.ref], sources=sources)
        if pay is not None:
            out.append(Candidate(with_payment({"action": "turn_face_up", "player": player, "card": perm.ref}, pay),
                                 f"face_up:{perm.ref}", "special"))
    return out


def _ability_candidates(game: Any, player: str, split: bool) -> list[Candidate]:
    """CR 602.2 / 605: activated and mana abilities of permanents ``player`` controls, with
    their costs ({T}, {Q}, mana, sacrifice, life, discard, counters) and timing
    restrictions ("activate only as a sorcery"); only mana abilities under split second."""
    out = []
    hand = game.players[player].hand
    triggered = triggered_mana(game, player)
    # renew: abilities of cards in the player's graveyard that work there (CR 113.6k, 602.2)
    for src in list(game.battlefield) + graveyard_abilities.graveyard_sources(game, player):
        if src.zone == "battlefield" and src.controller != player:
            continue
        abilities = ch.abilities(game, src)
        for idx, ab in enumerate(abilities):
            kind = ab.get("kind")
            if kind not in ("activated", "mana") or (split and kind != "mana"):
                continue
            if (graveyard_abilities.ability_zone(ab) if kind == "activated" else "battlefield") != src.zone:
                continue  # renew works only from the graveyard, the rest only on the battlefield (CR 113.6k)
            if kind == "activated" and ab.get("timing") == "sorcery" and not game.sorcery_timing_ok(player):
                continue
            if kind == "activated" and ab.get("timing") == "your_turn" and player != game.active:
                continue  # "activate only during your turn" (CR 602.5d)
            cost = dict(ab.get("cost", {}))
            if cost.get("tap") and not can_tap(game, src):
                continue
            if cost.get("untap") and not src.tapped:
                continue
            if cost.get("pay_life") and game.players[player].life < cost["pay_life"]:
                continue
            discards: list[Any] = [None]
            if cost.get("discard"):
                n = cost["discard"]
                if len(hand) < n:
                    continue
                discards = [[o.ref for o in c] for c in spread(list(itertools.combinations(hand, n)), 3)]
            exiles: list[Any] = [None]
            if cost.get("exile_from_graveyard"):  # "exile N cards from your graveyard" (CR 118.3)
                exiles = graveyard_exile_choices(game, player, cost["exile_from_graveyard"], exclude=src.ref)
                if not exiles:
                    continue
            mana = ManaCost.parse(cost.get("mana", ""))
            exclude = [src.ref]
            sources = mana_sources(game, player, exclude)
            xs = [0]
            rc = cost.get("remove_counters")
            if rc:
                have = src.counters.get(rc["counter"], 0)
                if rc.get("count") == "X":
                    xs = list(range(1, have + 1))[:3] or []
                elif have < int(rc.get("count", 1)):
                    continue
            elif mana.x:
                avail = available_mana(game, player, exclude)
                xs = x_values(mana, mana.x, avail)
            minus_x = cost.get("loyalty") == planeswalkers.MINUS_X  # "[−X]": X up to its loyalty (CR 606.6)
            if minus_x:
                xs = spread(list(range(src.counters.get(planeswalkers.LOYALTY, 0) + 1)), 3)
            for x in xs:
                pay = plan_payment(game, player, mana.with_x(x), sources=sources) if mana.mana_value() or mana.x else []
                if pay is None:
                    continue
                base = {"action": "activate", "player": player, "source": src.ref, "ability": idx}
                if rc and rc.get("count") == "X" or mana.x or minus_x:
                    base["x"] = x
                if kind == "mana":
                    choices = _mana_choices(ab.get("add"), x)
                    if cost.get("tap") and triggered.get(src.ref, ({}, 0))[1]:
                        # the color of the triggered mana (Fertile Ground, CR 605.1b)
                        choices = [dict(c, extra_color=e) for c in choices for e in COLORS]
                    for extra in choices:
                        inp = dict(base, **extra)
                        out.append(Candidate(with_payment(inp, list(pay)), "mana", "mana"))
                    continue
                item = StackItem(ref="ability#probe", kind="ability", controller=player, ability=ab, source=src.ref,
                                 source_card=src.card, source_lki=src, ability_index=idx, x=x)
                for targets in target_choices(game, item, ab.get("targets", ())):
                    for discard, exile in itertools.product(discards, exiles):
                        inp = dict(base)
                        if targets:
                            inp["targets"] = targets
                        if discard is not None:
                            inp["discard"] = discard
                        if exile is not None:
                            inp["exile"] = exile
                        out.append(Candidate(with_payment(inp, list(pay)), f"ability:{src.ref}:{idx}", "activate"))
    return out


def _mana_choices(add: Any, x: int) -> list[dict[str, Any]]:
    """The color choices of a mana ability (CR 106.1b, 605.3): none, one of its options,
    any color, or a combination of colors adding X mana (storage lands)."""
    if isinstance(add, str):
        return [{}]
    if "one_of" in add:
        return [{"color": o.strip("{}")} for o in add["one_of"]]
    if "any_color" in add:
        return [{"color": c} for c in COLORS]
    if "combination_of" in add:
        kinds = list(add["combination_of"])
        amount = x if add.get("amount") == "X" else int(add.get("amount", 1))
        out = [{"produce": {k: amount}} for k in kinds]
        if len(kinds) > 1 and amount > 1:
            out.append({"produce": {kinds[0]: amount - amount // 2, kinds[1]: amount // 2}})
        return out
    return []
