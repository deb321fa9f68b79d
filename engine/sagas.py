"""Sagas (CR 714): lore counters, chapter abilities, the Saga state-based action; and the
counter-placing replacement that doubles counters (Doubling Season, CR 614.1a).

A Saga's chapter abilities are card data ``{"kind": "chapter", "chapters": [1, 2], ...}``
(docs/FORMAT.md §5.1). A chapter ability with several chapter numbers ("I, II — …") is one
chapter ability per number (CR 714.2b): it triggers once for each of its numbers that the
lore counters reach or pass.

Rule text is that of the Comprehensive Rules pinned in FORMAT §11 (effective September 25,
2026): CR 714.3a (a Saga without read ahead has "This Saga enters with a lore counter on
it", a replacement effect), CR 714.3c (the turn-based action of the precombat main phase;
CR 505.4), CR 714.2d (final chapter number) and CR 714.4 (the state-based action). The
Final Fantasy change (finalfantasy.saga-creature.07): the turn-based action and the
state-based action apply only to Sagas with one or more chapter abilities. Sagas exist only
in the ``modern`` ruleset's era, so no ruleset switch is involved.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from . import characteristics as ch

if TYPE_CHECKING:
    from .game import Game
    from .objects import GameObject

LORE = "lore"


def is_saga(obj: "GameObject") -> bool:
    """CR 714.1: a Saga is an enchantment (here: any permanent) with the subtype Saga."""
    return not obj.face_down and "Saga" in obj.chars.subtypes


def chapter_abilities(game: "Game", obj: "GameObject") -> list[tuple[int, Any]]:
    """CR 714.2: the object's chapter abilities as ``(index in abilities, ability)`` pairs;
    none while it has lost all abilities (CR 613.1f: a ``lose_all_abilities`` effect)."""
    if obj.face_down or ch.loses_all_abilities(game, obj):
        return []
    return [(i, ab) for i, ab in enumerate(obj.chars.abilities) if ab.get("kind") == "chapter"]


def final_chapter(game: "Game", obj: "GameObject") -> int:
    """CR 714.2d: the greatest chapter number among its chapter abilities; 0 with none."""
    return max((n for _, ab in chapter_abilities(game, obj) for n in ab["chapters"]), default=0)


def counters_to_put(game: "Game", obj: "GameObject", n: int, by_effect: bool = True) -> int:
    """CR 614.1a, 616.1: how many counters are put on ``obj`` when an effect would put ``n``:
    each ``double_counters`` static ability of a permanent its controller controls doubles
    the number (Doubling Season). A turn-based action is not an effect (CR 714.3c and
    finalfantasy.saga-creature.04): ``by_effect`` False puts exactly ``n``."""
    if not by_effect or n <= 0 or obj.zone != "battlefield":
        return n
    for src, eff in ch.static_effects(game):
        if eff.get("type") == "double_counters" and src.controller == obj.controller:
            n *= 2
    return n


def put_counters(game: "Game", obj: "GameObject", counter: str, n: int, by_effect: bool = True) -> int:
    """Put ``n`` counters of kind ``counter`` on ``obj`` (after :func:`counters_to_put`);
    log ``counters_added``; lore counters on a Saga trigger its chapter abilities (CR
    714.2b). Returns the number put."""
    n = counters_to_put(game, obj, n, by_effect)
    if n <= 0:
        return 0
    before = obj.counters.get(counter, 0)
    obj.counters[counter] = before + n
    game.log("counters_added", object=obj.ref, card=obj.card, counter=counter, count=n)
    if counter == LORE:
        lore_counters_added(game, obj, before, before + n)
    return n


def lore_counters_added(game: "Game", obj: "GameObject", before: int, after: int) -> None:
    """CR 714.2b: a chapter ability triggers when lore counters put on the Saga make their
    number go from less than its chapter number to at least it: several at once when
    several counters are put on together (finalfantasy.saga-creature.04), never a chapter
    already passed (saga-creature.10), again after counters were removed
    (saga-creature.13). The ability on the stack is independent of the Saga afterwards
    (saga-creature.11). Logged as ``ability_triggered`` with ``trigger: "chapter"`` and
    ``chapter``."""
    if not is_saga(obj) or obj.zone != "battlefield":
        return
    hits = sorted((n, i, ab) for i, ab in chapter_abilities(game, obj) for n in ab["chapters"]
                  if before < n <= after)
    for n, i, ab in hits:
        ability = {"kind": "triggered", "trigger": {"event": "chapter", "chapter": n},
                   "effects": ab["effects"], "chapter": n}
        if ab.get("targets"):
            ability["targets"] = ab["targets"]
        if ab.get("optional"):
            ability["optional"] = True
        game.add_trigger(obj, i, ability, {"event": "lore_counters", "object": obj})
        game.events[-1]["chapter"] = n


def enters(game: "Game", obj: "GameObject") -> None:
    """CR 714.3a: a Saga enters with a lore counter on it (its intrinsic ability's
    replacement effect, so a counter-doubling effect applies; not a triggered ability: no
    stack). A Saga that has lost all abilities as it enters has no such ability."""
    if is_saga(obj) and not ch.loses_all_abilities(game, obj):
        put_counters(game, obj, LORE, 1)


def precombat_main_begins(game: "Game") -> None:
    """CR 714.3c, 505.4: as the active player's precombat main phase begins, they put a lore
    counter on each Saga they control with one or more chapter abilities: a turn-based
    action (no stack; not an effect, so counter doublers don't apply). Only the precombat
    (first) main phase (finalfantasy.saga-creature.03, .08); a Saga with no chapter
    abilities gets none (finalfantasy.saga-creature.07)."""
    sagas = [p for p in game.battlefield if p.controller == game.active and is_saga(p)
             and chapter_abilities(game, p)]
    for perm in sorted(sagas, key=lambda p: p.timestamp):
        put_counters(game, perm, LORE, 1, by_effect=False)


def _chapter_pending(game: "Game", obj: "GameObject") -> bool:
    """CR 714.4: a chapter ability of ``obj`` has triggered but not yet left the stack."""
    for t in game.pending_triggers:
        if t["source"].ref == obj.ref and t["ability"].get("trigger", {}).get("event") == "chapter":
            return True
    for item in game.stack:
        if (item.kind == "ability" and item.source == obj.ref and isinstance(item.ability, dict)
                and item.ability.get("trigger", {}).get("event") == "chapter"):
            return True
    return False


def sacrifice_finished_sagas(game: "Game") -> bool:
    """CR 714.4 (state-based action, rule ``714.4`` in the log): a Saga with one or more
    chapter abilities whose lore counters are at least its final chapter number, and that is
    not the source of a chapter ability that has triggered but not yet left the stack, is
    sacrificed by its controller (finalfantasy.saga-creature.03, .14). A Saga with no chapter
    abilities is not (finalfantasy.saga-creature.07). Returns True if one was."""
    doomed = []
    for perm in game.battlefield:
        if not is_saga(perm):
            continue
        last = final_chapter(game, perm)
        if (last and perm.counters.get(LORE, 0) >= last and not _chapter_pending(game, perm)
                and not ch.cant_be_sacrificed(game, perm)):  # one that can't be sacrificed stays (CR 701.17)
            doomed.append(perm)
    for perm in doomed:
        game.log("state_based_action", rule="714.4", object=perm.ref, card=perm.card)
        game.sacrifice(perm)
    return bool(doomed)


def tokens_to_create(game: "Game", controller: str, n: int) -> int:
    """CR 614.1a: how many tokens an effect creates under ``controller``'s control when it
    would create ``n``: each ``double_tokens`` static ability of a permanent they control
    doubles the number (Doubling Season)."""
    for src, eff in ch.static_effects(game):
        if eff.get("type") == "double_tokens" and src.controller == controller:
            n *= 2
    return n
