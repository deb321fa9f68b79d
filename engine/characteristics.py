"""Characteristics of objects after continuous effects (CR 613, the layer system), and
matching objects against filters and target specs (CR 115, 702.16 protection).

Implemented layers: 4 (creature types: :func:`creature_types_after_layer_4`, with the
``add_creature_types`` statics of Equipment and Auras; card types gained or
lost: engine/type_gain.py, engine/type_loss.py), 5 (colors set by resolved effects), 6
(ability adding and removing: statics and resolved effects in timestamp order, CR 613.7; a
permanent that has lost all abilities generates no static effect, CR 613.8a), 7b
(power/toughness set by resolved effects), 7c (power/toughness modifications, then counters:
sums, so the older rules' separate counters sublayer gives the same values). Layer 1 copy
effects are the object's ``definition`` (engine/transform.py). Control is current.
tests/test_layers_table.py checks the interactions against an oracle written from CR 613.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any, Iterable

from . import adventure
from . import keywords as keyword_abilities
from . import transform
from .conditions import condition_holds
from .creature_types import creature_types
from .objects import GameObject, StackItem

_PT_COUNTER = re.compile(r"^([+-]\d+)/([+-]\d+)$")

if TYPE_CHECKING:
    from .game import Game


def static_effects(game: "Game") -> list[tuple[GameObject, dict]]:
    """Every static ability's effect of every permanent on the battlefield, in timestamp
    order: ``[(source, effect dict)]``. A static ability with a ``condition`` (e.g.
    threshold, CR 207.2c) applies only while it holds."""
    # (a face-down permanent has no abilities, CR 708.2a)
    holders = [perm for perm in game.battlefield if not perm.face_down and perm.definition.static_abilities]
    if not holders:
        return []
    out = []
    for perm in sorted(holders, key=_timestamp):
        for ab in perm.chars.static_abilities:
            if condition_holds(game, perm, ab.get("condition")):
                out.append((perm, ab["effect"]))
    return _without_lost_abilities(game, out)


def _without_lost_abilities(game: "Game", out: list[tuple[GameObject, dict]]) -> list[tuple[GameObject, dict]]:
    """CR 613.1f, 613.8a: a permanent that a ``lose_all_abilities`` effect applies to has no
    static ability left to generate an effect (a lord under "creatures lose all abilities"
    gives no +1/+1 and no landwalk): the lord's effect depends on the lose-all effect, which
    is applied first whatever their timestamps. The lose-all effects themselves are kept."""
    losers = [(src, eff) for src, eff in out if eff.get("type") == "lose_all_abilities"]
    if not losers:
        return out
    return [(src, eff) for src, eff in out if eff.get("type") == "lose_all_abilities"
            or src.zone != "battlefield" or not any(src in affected_by_static(game, s, e) for s, e in losers)]


def _timestamp(obj: GameObject) -> int:
    return obj.timestamp


def triggered_abilities(game: "Game", obj: GameObject, statics: list | None = None) -> list[tuple[Any, dict]]:
    """The triggered abilities of a permanent: printed ones (keyed by their index in the
    card's abilities) and those of its keywords (keyed by the keyword, e.g. ``flanking``).
    A face-down permanent has none (CR 708.2a). ``statics``: :func:`static_effects` of the
    game as it is now, when the caller looks at many objects at once."""
    out: list[tuple[Any, dict]] = [(i, ab) for i, ab in enumerate(obj.chars.abilities) if ab.get("kind") == "triggered"]
    if out and obj.zone == "battlefield" and statics != [] and loses_all_abilities(game, obj, statics):
        out = []  # CR 613.1f
    if obj.zone == "battlefield":
        out += keyword_abilities.triggered_from_keywords(keywords(game, obj, statics))
    return out


def affected_by_static(game: "Game", source: GameObject, effect: dict) -> list[GameObject]:
    """The permanents a static effect applies to now (CR 611.3a: continuously re-evaluated)."""
    spec = effect.get("affected", "self")
    if spec == "self":
        return [source]
    if spec in ("enchanted", "equipped"):  # an Aura's or an Equipment's host (engine/equipment.py)
        target = game.objects.get(source.attached_to) if source.attached_to else None
        return [target] if target is not None and target.zone == "battlefield" else []
    if isinstance(spec, dict) and "all" in spec:
        _STATIC_DEPTH[0] += 1
        try:
            return [o for o in game.battlefield if matches(game, o, spec["all"], source.controller, source)]
        finally:
            _STATIC_DEPTH[0] -= 1
    return []


_STATIC_DEPTH = [0]  # >0 while deciding what a static ability affects


def loses_all_abilities(game: "Game", obj: GameObject, statics: list | None = None) -> bool:
    """CR 613.1f (layer 6): a ``lose_all_abilities`` static effect applies to the permanent
    (Dress Down): it has none of its printed abilities (keywords, triggered, activated,
    chapter abilities). Statics of the affected object itself still apply (not modelled)."""
    if obj.zone != "battlefield" or _STATIC_DEPTH[0]:
        return False
    for src, eff in (static_effects(game) if statics is None else statics):
        if eff.get("type") == "lose_all_abilities" and obj in affected_by_static(game, src, eff):
            return True
    return False


def keywords(game: "Game", obj: GameObject, statics: list | None = None) -> list[dict]:
    """The object's keyword abilities after layer 6 (printed, granted by statics, then by
    resolved effects in timestamp order). While the game works out which objects a static
    ability applies to, keyword conditions look at the other layers only (a static that
    grants a keyword to creatures "with" that keyword doesn't depend on itself, CR 613.8).
    ``statics``: :func:`static_effects` of the game as it is now, if the caller has it."""
    kws = [dict(k) for k in obj.chars.keywords]
    if obj.zone != "battlefield":
        return kws
    if _STATIC_DEPTH[0]:
        statics = []
    elif statics is None:
        statics = static_effects(game)
    for _, keywords_granted in _layer_6(game, obj, statics, "grant_keywords"):
        if keywords_granted is None:
            kws = []  # CR 613.1f: every keyword it has so far is lost; later grants still apply
        else:
            kws.extend(_norm(k) for k in keywords_granted)
    if obj.haste_from_suspend is not None and obj.haste_from_suspend == obj.controller:
        kws.append({"keyword": "haste"})  # CR 702.62a: haste while you control it
    return kws


def _layer_6(game: "Game", obj: GameObject, statics: list, grant: str) -> list[tuple[int, Any]]:
    """The layer-6 effects on ``obj`` in timestamp order (CR 613.7; a static ability's
    timestamp is its permanent's, an Aura's or Equipment's the time it became attached,
    613.7a, 613.7e): ``(timestamp, granted)``, ``granted`` None for a ``lose_all_abilities``
    effect (CR 613.1f: it removes what the object has at that point, not what later
    effects grant), else the keywords (``grant == "grant_keywords"``, also from resolved
    effects) or the abilities (``"grant_abilities"``) granted."""
    out: list[tuple[int, Any]] = []
    for src, eff in statics:
        kind = eff.get("type")
        if kind in ("lose_all_abilities", grant) and obj in affected_by_static(game, src, eff):
            out.append((src.timestamp, None if kind == "lose_all_abilities" else
                        eff.get("keywords" if grant == "grant_keywords" else "abilities", ())))
    if grant == "grant_keywords":
        out += [(ce.timestamp, ce.keywords) for ce in game.effects
                if ce.kind == "grant_keywords" and obj.ref in ce.affected]
    return sorted(out, key=lambda e: e[0])


def _norm(k: Any) -> dict:
    return {"keyword": k} if isinstance(k, str) else dict(k)


def has_keyword(game: "Game", obj: GameObject, name: str) -> bool:
    """True if the object has keyword ``name`` (``flying``, ``haste`` …)."""
    return any(k["keyword"] == name for k in keywords(game, obj))


def keyword_names(game: "Game", obj: GameObject) -> list[str]:
    """Sorted, de-duplicated keyword names for the state, e.g. ``["flying", "landwalk:Forest"]``."""
    names = set()
    for k in keywords(game, obj):
        if k["keyword"] == "landwalk":
            names.add(f"landwalk:{k['land_type']}")
        elif k["keyword"] == "protection":
            frm = k.get("from", {})
            names.add("protection:" + ",".join(list(frm.get("colors", ())) + list(frm.get("types", ()))))
        else:
            names.add(k["keyword"])
    return sorted(names)


def power_toughness(game: "Game", obj: GameObject) -> tuple[int, int]:
    """CR 613.4: printed values (7a), values set by resolved effects (7b: ``set_pt``, latest
    timestamp wins, engine/type_gain.py), modifications from statics and resolved effects
    (7c), then counters (7d). Returns (power, toughness); (0, 0) for a non-creature."""
    d = obj.chars
    p, t = (d.power or 0), (d.toughness or 0)
    if obj.zone == "battlefield":
        for ce in sorted(game.effects, key=lambda e: e.timestamp):
            if ce.kind == "set_pt" and obj.ref in ce.affected:  # layer 7b
                p, t = ce.power, ce.toughness
        for src, eff in static_effects(game):
            if eff.get("type") == "modify_pt" and obj in affected_by_static(game, src, eff):
                p += eff.get("power", 0)
                t += eff.get("toughness", 0)
        for ce in game.effects:
            if ce.kind == "modify_pt" and obj.ref in ce.affected:
                p += ce.power
                t += ce.toughness
        for kind, n in obj.counters.items():  # CR 122.1a: +N/+M counters, layer 7d
            m = _PT_COUNTER.match(kind)
            if m:
                p += int(m.group(1)) * n
                t += int(m.group(2)) * n
    return p, t


def colors(obj: GameObject | StackItem | None, game: "Game | None" = None) -> list[str]:
    """Color names of an object (CR 105.2), after color-setting effects of ``game`` (layer
    5, latest timestamp wins); an ability's color is its source's."""
    if obj is None:
        return []
    if isinstance(obj, StackItem):
        if obj.obj is not None:
            return colors(obj.obj, game)
        return colors(obj.source_lki, game) if obj.source_lki else []
    out = list(obj.chars.colors)
    if obj.zone == "battlefield" and game is not None:
        for ce in sorted(game.effects, key=lambda e: e.timestamp):
            if ce.kind == "set_colors" and obj.ref in ce.affected:
                out = list(ce.keywords)
    return out


def is_type(obj: GameObject, t: str) -> bool:
    return ((t in obj.chars.types or t in getattr(obj, "gained_card_types", ()))  # engine/type_gain.py
            and t not in getattr(obj, "lost_card_types", ()))  # engine/type_loss.py


def creature_types_after_layer_4(game: "Game", obj: GameObject) -> tuple[str, list[str]] | None:
    """The creature types of a creature after layer 4 (CR 613.1d), in timestamp order (CR
    613.7): ``(base, added)`` with ``base`` ``"printed"`` (its printed creature types),
    ``"all"`` (changeling, CR 702.73a, or "gains all creature types") or ``"none"`` ("loses
    all creature types"; "becomes the creature type of your choice" is ``("none", [X])``),
    and ``added`` the creature types it has "in addition to its other types" (CR 205.1b) from
    an ``add_creature_types`` static ability (an Equipment's or Aura's "equipped creature is a
    Monk in addition to its other types", Monk's Fist) applied after ``base``. An effect
    with a later timestamp overrides an earlier one: a creature that loses all creature types
    after its Equipment was attached isn't a Monk. None when nothing changes them, or for a
    non-creature (CR 205.3d: creature types are a creature's subtypes)."""
    if not is_type(obj, "Creature"):
        return None
    base = "all" if any(k["keyword"] == "changeling" for k in obj.chars.keywords) else "printed"
    added: list[str] = []
    changes = [(ce.timestamp, ce.kind, ce.keywords) for ce in game.effects
               if obj.ref in ce.affected and ce.kind in ("all_creature_types", "no_creature_types", "set_creature_type")]
    changes += [(ts, "add_creature_types", types) for ts, types in _added_creature_types(game, obj)]
    for _, kind, types in sorted(changes, key=lambda e: e[0]):
        if kind in ("all_creature_types", "no_creature_types"):
            base, added = ("all" if kind == "all_creature_types" else "none"), []
        elif kind == "set_creature_type":
            base, added = "none", [types[0]]
        else:
            added += [t for t in types if t not in added]
    if base == "printed" and not added:
        return None
    return base, added


_SUBTYPE_DEPTH = [0]  # >0 while working out what an add_creature_types static applies to


def _added_creature_types(game: "Game", obj: GameObject) -> list[tuple[int, tuple]]:
    """``[(timestamp, creature types)]`` of the ``add_creature_types`` static effects that
    apply to ``obj`` (CR 613.1d; the timestamp is the source's, an Equipment's or Aura's the
    time it became attached, CR 613.7e). While the game works out which objects such a
    static applies to (or whether its condition holds), added creature types are not
    counted, so a static that adds a creature type to the creatures of a type doesn't
    depend on itself (CR 613.8)."""
    if obj.zone != "battlefield" or _SUBTYPE_DEPTH[0]:
        return []
    if not any(perm.definition.adds_creature_types for perm in game.battlefield):
        return []
    _SUBTYPE_DEPTH[0] += 1
    try:
        return [(src.timestamp, tuple(eff.get("subtypes", ()))) for src, eff in static_effects(game)
                if eff.get("type") == "add_creature_types" and obj in affected_by_static(game, src, eff)]
    finally:
        _SUBTYPE_DEPTH[0] -= 1


def subtypes(game: "Game", obj: GameObject) -> list[str]:
    """The object's subtypes after layer 4: with all creature types, every creature type
    (engine/data/creature_types.json) plus its other subtypes; with none, only its
    non-creature subtypes; then the creature types added "in addition to its other types"
    (CR 205.1b), after the printed ones."""
    layer4 = creature_types_after_layer_4(game, obj)
    printed = list(obj.chars.subtypes)
    if layer4 is None:
        return printed
    base, added = layer4
    if base == "printed":
        return printed + [t for t in added if t not in printed]
    creature = all_creature_types()
    others = [t for t in printed if t not in creature]
    if base == "all":
        return others + sorted(creature)
    return others + added


def all_creature_types() -> frozenset[str]:
    """CR 205.3m: the creature types (as found on creature and kindred cards;
    :func:`engine.creature_types.creature_types`)."""
    return creature_types()


def has_subtype(game: "Game", obj: GameObject, subtype: str) -> bool:
    """Subtypes after type-changing effects (layer 4, CR 613.1d): changeling (CR 702.73a:
    every creature type), "gains/loses all creature types", "becomes the creature type of
    your choice" and "is a <type> in addition to its other types" (``add_creature_types``),
    in timestamp order. Creature types are the subtypes of a creature."""
    printed = subtype in obj.chars.subtypes
    layer4 = creature_types_after_layer_4(game, obj)
    if layer4 is None:
        return printed
    base, added = layer4
    if subtype in added or (base == "printed" and printed):
        return True
    is_creature_type = subtype in all_creature_types()
    if base == "all":
        return printed or is_creature_type
    return printed and not is_creature_type


def abilities(game: "Game", obj: GameObject, statics: list | None = None) -> list[dict]:
    """The object's abilities: printed ones (none while face down), then those granted by
    static abilities (CR 613.1f), in timestamp order. ``statics``: :func:`static_effects`
    of the game as it is now, if the caller has it."""
    out = list(obj.chars.abilities)
    if obj.zone == "battlefield":
        statics = static_effects(game) if statics is None else statics
        for _, granted in _layer_6(game, obj, statics, "grant_abilities"):
            out = [] if granted is None else out + list(granted)  # CR 613.1f, 613.7
    return out


def static_restrictions(game: "Game", obj: GameObject, kind: str) -> list[dict]:
    """Static effects of type ``kind`` (``cant_attack``, ``cant_block``,
    ``cant_be_blocked``, ``cant_be_blocked_except``) that apply to ``obj``."""
    return [eff for src, eff in static_effects(game)
            if eff.get("type") == kind and obj in affected_by_static(game, src, eff)]


def stack_mana_value(obj: GameObject | StackItem, target: GameObject) -> int:
    """The mana value of ``target`` (``obj``'s object, or ``obj`` itself): CR 202.3e: while
    a spell is on the stack, each {X} in its mana cost counts as the value chosen for X
    (``obj`` is its StackItem); elsewhere X is 0. A face-down spell's is 0 (CR 708.2a)."""
    mv = transform.mana_value(target)
    if isinstance(obj, StackItem) and obj.kind == "spell" and not target.face_down:
        mv += obj.x * target.chars.mana_cost.x
    return mv


def matches(game: "Game", obj: GameObject | StackItem, flt: dict | None,
            you: str | None, source: GameObject | None = None) -> bool:
    """Does ``obj`` satisfy filter ``flt`` (docs/FORMAT.md §5), seen by player ``you``
    from ``source``? ``types``/``colors``/``subtypes`` match any of the listed values;
    every key must hold."""
    if not flt:
        return True
    if isinstance(obj, StackItem):
        target = obj.obj
        if target is None:
            return False
        controller = obj.controller
    else:
        target = obj
        controller = obj.controller
    d = target.chars
    for key, want in flt.items():
        if key == "types" and not any(is_type(target, t) for t in want):  # after type-changing effects
            return False
        if key == "not_types" and any(is_type(target, t) for t in want):
            return False
        if key == "has_adventure" and adventure.has_adventure(target) != want:  # CR 715.2a
            return False
        if key == "subtypes" and not any(has_subtype(game, target, t) for t in want):
            return False
        if key == "not_subtypes" and any(has_subtype(game, target, t) for t in want):  # "non-Frog"
            return False
        if key == "mana_value" and stack_mana_value(obj, target) != want:
            return False
        if key == "mana_value_at_most" and stack_mana_value(obj, target) > want:
            return False
        if key == "face_down" and target.face_down != want:
            return False
        if key == "supertypes" and not any(t in d.supertypes for t in want):
            return False
        if key == "colors" and not any(c in colors(obj, game) for c in want):
            return False
        if key == "not_colors" and any(c in colors(obj, game) for c in want):
            return False
        if key == "colorless" and (not colors(obj, game)) != want:
            return False
        if key == "controller":
            if want == "you" and controller != you:
                return False
            if want == "opponent" and controller == you:
                return False
        if key == "keywords" and not all(has_keyword(game, target, k) for k in want):
            return False
        if key == "not_keywords" and any(has_keyword(game, target, k) for k in want):
            return False
        if key == "tapped" and target.tapped != want:
            return False
        if key == "attacking" and (target.ref in game.combat_attackers()) != want:
            return False
        if key == "blocking" and (target.ref in game.combat_blockers()) != want:
            return False
        if key == "attacking_or_blocking" and (target.ref in game.combat_attackers()
                                               or target.ref in game.combat_blockers()) != want:
            return False
        if key == "attacked_this_turn" and target.attacked_this_turn != want:
            return False
        if key == "other" and want and source is not None and target.ref == source.ref:
            return False
        if key == "name" and d.name != want:
            return False
        if key == "power_at_most" and (not is_type(target, "Creature") or power_toughness(game, target)[0] > want):
            return False  # "a creature with power N or less" (finalfantasy.job-select.03)
    return True


def protected_from(game: "Game", obj: GameObject, source: GameObject | StackItem | None) -> bool:
    """CR 702.16: does ``obj`` have protection from a quality ``source`` has?"""
    if source is None:
        return False
    src_colors = colors(source, game)
    src_obj = source.obj if isinstance(source, StackItem) else source
    if isinstance(source, StackItem) and src_obj is None:
        src_obj = source.source_lki
    for k in keywords(game, obj):
        if k["keyword"] != "protection":
            continue
        frm = k.get("from", {})
        if any(c in src_colors for c in frm.get("colors", ())):
            return True
        if src_obj is not None and any(t in src_obj.chars.types for t in frm.get("types", ())):
            return True
        if frm.get("everything"):
            return True
    return False


def target_kinds_match(game: "Game", spec: dict, target: Any, you: str,
                       source: GameObject | StackItem | None) -> bool:
    """Is ``target`` (a GameObject, StackItem or a player id str) a legal choice for the
    target spec ``spec`` (CR 115.2, 115.4), from ``source`` controlled by ``you``?
    Checks kind, filter, shroud, hexproof and protection (CR 702.18, 702.11b, 702.16b)."""
    kind = spec.get("kind", "any")
    flt = spec.get("filter")
    if isinstance(target, str):  # a player
        return kind in ("any", "player") and _player_filter(spec, target, you)
    if isinstance(target, StackItem):
        if kind == "ability":  # CR 115.1d; mana abilities never go on the stack
            kinds = (flt or {}).get("ability_kinds", ["activated", "triggered"])
            if target.kind != "ability":
                return False
            trig = target.trigger_event is not None
            return ("triggered" in kinds and trig) or ("activated" in kinds and not trig)
        if kind != "spell" or target.kind != "spell":
            return False
        return matches(game, target, flt, you)
    obj: GameObject = target
    if kind == "card":  # a card in another zone, e.g. "target instant card from your graveyard" (CR 115.1)
        return (obj.zone == spec.get("zone", "graveyard") and not obj.is_token
                and (spec.get("owner") != "you" or obj.owner == you) and matches(game, obj, flt, you))
    if obj.zone != "battlefield":
        return False
    type_for_kind = {"creature": "Creature", "land": "Land", "artifact": "Artifact",
                     "enchantment": "Enchantment", "any": "Creature", "planeswalker": "Planeswalker"}
    if kind in type_for_kind and not is_type(obj, type_for_kind[kind]) and not (
            kind == "any" and is_type(obj, "Planeswalker")):  # CR 115.4: any target includes planeswalkers
        return False
    if kind not in type_for_kind and kind != "permanent":
        return False
    if not matches(game, obj, flt, you, source if isinstance(source, GameObject) else None):
        return False
    if has_keyword(game, obj, "shroud"):
        return False
    if has_keyword(game, obj, "hexproof") and obj.controller != you:  # CR 702.11b
        return False
    if protected_from(game, obj, source):
        return False
    return True


def _player_filter(spec: dict, player: str, you: str) -> bool:
    who = (spec.get("filter") or {}).get("player")
    if who == "opponent":
        return player != you
    if who == "you":
        return player == you
    return True


def all_matching(game: "Game", objs: Iterable[GameObject], flt: dict, you: str,
                 source: GameObject | None = None) -> list[GameObject]:
    """The objects of ``objs`` that match ``flt``, in their given order."""
    return [o for o in objs if matches(game, o, flt, you, source)]
