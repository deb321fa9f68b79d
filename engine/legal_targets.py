"""Targets for the legal-action generator (:mod:`.legal`): everything a target can be (CR
115.1), the legal target lists of a spell or ability (CR 601.2c, 602.2b, 603.3d, 115.5), and
the ``choose_targets`` decision: the triggered ability being put on the stack or the copy of a
spell whose targets are asked (CR 603.3d, 707.10c), its candidates and their check.
"""

from __future__ import annotations

import itertools
from typing import Any

from . import characteristics as ch
from . import keywords as keyword_abilities
from .errors import IllegalAction
from .legal_common import TARGET_LIMIT, Candidate, resolving_item, spread
from .objects import StackItem
from .targets import card_target_candidates, is_up_to, target_spec_active, with_x


def target_pool(game: Any) -> list[Any]:
    """Everything a target can be (CR 115.1): players, permanents, spells and abilities on
    the stack, and cards in graveyards (target kind ``card``, FORMAT §11.2)."""
    return (list(game.order) + list(game.battlefield) + list(game.stack)
            + card_target_candidates(game))  # graveyards and exile (engine/targets.py)


def target_choices(game: Any, item: StackItem, specs: Any, limit: int | None = TARGET_LIMIT) -> list[list[str | None]]:
    """Legal target lists for ``item`` (a spell or ability as it would be on the stack)
    and its target specs (CR 601.2c, 602.2b, 603.3d): each spec's candidates are the
    objects and players it may target now (kind, filter, shroud, protection; a kicker-only
    target only if that kicker is paid, CR 702.33e), and each combination must pass
    ``Game.choose_targets`` (distinct targets, not itself, CR 115.5). An ``up_to`` target may
    also be left unchosen (``None``; trailing ones are left out of the list, CR 601.2c).
    ``[[]]`` when there is nothing to target; ``[]`` when some target has no legal candidate."""

    raw = list(specs or ())
    specs_x = [with_x(s, item.x) for s in raw]
    active = [i for i, s in enumerate(specs_x) if target_spec_active(s, item.kicked)]
    if not active:
        return [[]]
    src = item if item.kind == "spell" else item.source_lki
    pool = target_pool(game)
    per = []
    for i in active:
        cands: list[Any] = [t for t in pool if t is not item
                            and ch.target_kinds_match(game, specs_x[i], t, item.controller, src)]
        up_to = is_up_to(specs_x[i])
        if not cands and not up_to:
            return []
        cands = cands if len(active) == 1 else spread(cands, limit)
        per.append([None, *cands] if up_to else cands)  # "up to one": no target is a choice too (CR 601.2c)
    out = []
    for combo in itertools.product(*per):
        names: list[str | None] = [_ref(t) if t is not None else None for t in combo]
        while names and names[-1] is None:  # unchosen "up to" targets at the end are left out
            names.pop()
        try:
            game.choose_targets(item, raw, names)
        except IllegalAction:
            continue
        out.append(names)
        if len(active) > 1 and limit is not None and len(out) >= limit:
            break
    return out


def _ref(target: Any) -> str:
    """The reference naming target candidate ``target`` (a player id or an object)."""
    return target if isinstance(target, str) else target.ref


def pending_target_item(game: Any, decision: dict[str, Any]) -> tuple[StackItem, list[Any]] | None:
    """The stack item whose targets a ``choose_targets`` decision asks for, and its target
    specs: a triggered ability being put on the stack (found by its ``ability_triggered``
    event, CR 603.3d) or a copy of a spell (storm, Twincast: the copied spell's specs,
    CR 707.10c). None if it can't be found."""

    ref: Any = decision.get("ability")
    player = decision["player"]
    if decision.get("reason") == "copy_targets":
        copy_obj = game.objects.get(ref)
        top = resolving_item(game)
        if copy_obj is None or top is None:
            return None
        original = None
        if top.kind == "spell":
            original = next((it for t in top.targets for it in game.stack if it.ref == t and it.kind == "spell"), None)
        else:
            info = top.trigger_event or {}
            original = next((it for it in game.stack if it.ref == info.get("triggering_object")), None) \
                or info.get("spell_lki")
        if original is None:
            return None
        item = StackItem(ref=ref, kind="spell", controller=player, ability=original.ability, obj=copy_obj,
                         x=original.x, modes=list(original.modes), kicked=original.kicked, cast=False,
                         targets=list(original.targets))  # as copied: they may stay (CR 707.10c)
        return item, list(original.ability.get("targets", ()))
    ev = next((e for e in reversed(game.events) if e["type"] == "ability_triggered" and e["object"] == ref), None)
    if ev is None:
        return None
    # a source that left the zone it triggered from (a dies trigger, CR 603.10a) is its last
    # known information there: a melded permanent's, not one of its cards' (finalfantasy.meld.03)
    now = game.objects.get(ev["source"])
    src = now if now is not None and now.zone == "battlefield" else (
        game.last_known.get(ev["source"]) or now or game.find(ev["source_card"]))
    if src is None:
        return None
    key = ev["ability"]
    if isinstance(key, int):
        abilities = list(src.definition.abilities)
        if not 0 <= key < len(abilities):
            return None
        ab = abilities[key]
    else:
        ab = next((a for k, a in keyword_abilities.triggered_from_keywords(ch.keywords(game, src)) if k == key), None)
        if ab is None:
            return None
    item = StackItem(ref=ref, kind="ability", controller=player, ability=ab, source=src.ref,
                     source_card=src.card, source_lki=src, ability_index=key)
    return item, list(ab.get("targets", ()))


def target_candidates(game: Any, decision: dict[str, Any]) -> list[Candidate]:
    """CR 603.3d / 707.10c: targets for a triggered ability as it is put on the stack, or
    for a copy of a spell (the same or new targets)."""
    found = pending_target_item(game, decision)
    if found is None:
        return []
    item, specs = found
    choices = target_choices(game, item, specs)
    if decision.get("reason") == "copy_targets":  # the copied targets, even if illegal now (CR 707.10c)
        same: list[str | None] = [t for i, t in enumerate(item.targets)  # one per target chosen (CR 601.2c)
                                  if i < len(specs) and target_spec_active(specs[i], item.kicked)]
        while same and same[-1] is None:  # an "up to" target left unchosen
            same.pop()
        choices = [same] + [t for t in choices if t != same]
    return [Candidate({"action": "choose_targets", "player": decision["player"], "targets": t}, "targets", "choice")
            for t in choices]


