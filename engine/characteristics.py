"""Characteristics of objects after continuous effects, as the layer system computes them
(CR 613; engine/layers/: every effect applied in layer order once per change of the game, with
timestamps and dependency, CR 613.7-613.8), and matching objects against filters and target
specs (CR 115, 702.16 protection). Every function here reads the layer system's result; none
applies an effect itself. tests/test_layers_table.py checks the interactions against an
oracle written from CR 613.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Iterable

from . import keywords as keyword_abilities
from .creature_types import creature_types
from .layers import Characteristics, filters, printed
from .objects import GameObject, StackItem

if TYPE_CHECKING:
    from .game import Game


def _of(game: "Game | None", obj: GameObject) -> Characteristics:
    """The object's characteristics: from ``game``'s layer system, else from the one the
    object belongs to, else (an object outside any game) its copiable values."""
    layers = game.layers if game is not None else obj.layers
    if layers is None:
        return printed(obj.chars)
    return layers.of(obj)




def static_effects(game: "Game") -> list[tuple[GameObject, dict[str, Any]]]:
    """Every static ability's effect that exists now, of every permanent on the battlefield,
    in timestamp order: ``[(source, effect dict)]``. A static ability with a ``condition``
    (e.g. threshold, CR 207.2c) applies only while it holds; a face-down permanent has none
    (CR 708.2a), nor has a permanent that lost all its abilities (CR 613.1f, 613.8a; the
    lose-all effects themselves are kept)."""
    return game.layers.statics()


def cant_cycle(game: "Game", player: str) -> bool:
    """Can't ``player`` cycle cards now (CR 702.29e)? True while a ``cant_cycle`` static
    ability applies to them: its ``affected`` is ``each_player`` (the default, Stabilizer),
    ``each_opponent`` (the source's controller's opponents) or ``controller``."""
    for src, eff in static_effects(game):
        if eff.get("type") != "cant_cycle":
            continue
        who = eff.get("affected", "each_player")
        if who == "each_player" or (who == "controller") == (player == src.controller):
            return True
    return False


def triggered_abilities(game: "Game", obj: GameObject, statics: list[Any] | None = None) -> list[tuple[Any, dict[str, Any]]]:
    """The triggered abilities a permanent has: ``[(key, ability dict)]``, read from the
    layer system's layer-6 result (CR 613.1f, 603.2): its printed ones (keyed by their index
    in the card's abilities), those granted by static abilities ("equipped creature has
    'whenever you cast …'", ``grant_abilities``; keyed ``"granted.N"``, N counting the granted
    triggered abilities in layer order), and those of its keywords (keyed by the keyword,
    e.g. ``flanking``). A face-down permanent has none (CR 708.2a); one that lost all
    abilities keeps only those granted after (CR 613.1f). ``statics`` is accepted for
    callers that have :func:`static_effects` at hand (the layer system's result is kept
    anyway). Off the battlefield: the printed ones."""
    layers = game.layers
    printed_ones = layers.memo("triggered", obj.chars, _printed_triggered)
    if obj.zone != "battlefield":
        return list(printed_ones)
    rec = layers.of(obj)
    from_keywords = layers.memo("keyword_triggered", rec, _keyword_triggered)
    printed_ids = {id(ab) for _, ab in printed_ones}
    granted = [(f"granted.{n}", ab) for n, ab in enumerate(
        ab for ab in rec.abilities if ab.get("kind") == "triggered" and id(ab) not in printed_ids)]
    if rec.lost_all_abilities:
        return [*granted, *from_keywords]  # CR 613.1f
    return [*printed_ones, *granted, *from_keywords]


def _printed_triggered(chars: Any) -> tuple[tuple[Any, dict[str, Any]], ...]:
    return tuple((i, ab) for i, ab in enumerate(chars.abilities) if ab.get("kind") == "triggered")


def _keyword_triggered(rec: Characteristics) -> tuple[tuple[Any, dict[str, Any]], ...]:
    return tuple(keyword_abilities.triggered_from_keywords([dict(k) for k in rec.keywords]))


def affected_by_static(game: "Game", source: GameObject, effect: dict[str, Any]) -> list[GameObject]:
    """The permanents a static effect applies to now (CR 611.3a: continuously re-evaluated),
    on the characteristics after every layer."""
    spec = effect.get("affected", "self")
    if spec == "self":
        return [source]
    if spec in ("enchanted", "equipped"):  # an Aura's or an Equipment's host (engine/equipment.py)
        target = game.objects.get(source.attached_to) if source.attached_to else None
        return [target] if target is not None and target.zone == "battlefield" else []
    if isinstance(spec, dict) and "all" in spec:
        return [o for o in game.battlefield if filters.matches(game, game.layers, o, spec["all"], source.controller,
                                                               source)]
    return []


def loses_all_abilities(game: "Game", obj: GameObject, statics: list[Any] | None = None) -> bool:
    """CR 613.1f (layer 6): a ``lose_all_abilities`` static effect applies to the permanent
    (Dress Down): it has none of its printed abilities (keywords, triggered, activated,
    chapter abilities)."""
    return obj.zone == "battlefield" and _of(game, obj).lost_all_abilities


def keywords(game: "Game", obj: GameObject, statics: list[Any] | None = None) -> list[dict[str, Any]]:
    """The object's keyword abilities after layer 6 (printed, then granted by statics and by
    resolved effects in timestamp order, CR 613.7; "loses all abilities" removes those it has
    so far, CR 613.1f; haste from suspend, CR 702.62a), as fresh dicts."""
    return [dict(k) for k in _of(game, obj).keywords]


def has_keyword(game: "Game", obj: GameObject, name: str) -> bool:
    """True if the object has keyword ``name`` (``flying``, ``haste`` …)."""
    if obj.zone != "battlefield":
        return any(k["keyword"] == name for k in obj.chars.keywords)
    return any(k["keyword"] == name for k in game.layers.of(obj).keywords)


def keyword_names(game: "Game", obj: GameObject) -> list[str]:
    """Sorted, de-duplicated keyword names for the state, e.g. ``["flying", "landwalk:Forest"]``."""
    names = set()
    for k in _of(game, obj).keywords:
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
    timestamp wins), modifications from statics and resolved effects (7c), then counters
    (7d). Returns (power, toughness); the printed values (0 for none) off the battlefield."""
    rec = _of(game, obj)
    return rec.power, rec.toughness


def colors(obj: GameObject | StackItem | None, game: "Game | None" = None) -> list[str]:
    """Color names of an object (CR 105.2), after color-setting effects (layer 5, latest
    timestamp wins); an ability's color is its source's."""
    if obj is None:
        return []
    if isinstance(obj, StackItem):
        if obj.obj is not None:
            return colors(obj.obj, game)
        return colors(obj.source_lki, game) if obj.source_lki else []
    return list(_of(game, obj).colors)


def is_type(obj: GameObject, t: str, game: "Game | None" = None) -> bool:
    """Has the object card type ``t`` now (CR 300.1), after type-changing effects (layer 4,
    CR 613.1d: "becomes a land in addition to its other types", "isn't a creature", an
    animated land)? Without ``game``, the object's own game is asked."""
    if obj.zone != "battlefield":
        return t in obj.chars.types
    layers = game.layers if game is not None else obj.layers
    return t in (layers.of(obj) if layers is not None else printed(obj.chars)).types


def card_types(game: "Game", obj: GameObject) -> list[str]:
    """The object's card types after layer 4, in printed order, then the gained ones."""
    return list(_of(game, obj).types)


def subtypes(game: "Game", obj: GameObject) -> list[str]:
    """The object's subtypes after layer 4: with all creature types, every creature type
    (engine/data/creature_types.json) plus its other subtypes; with none, only its
    non-creature subtypes; then the creature types added "in addition to its other types"
    (CR 205.1b), after the printed ones."""
    return _of(game, obj).subtypes()


def all_creature_types() -> frozenset[str]:
    """CR 205.3m: the creature types (as found on creature and kindred cards;
    :func:`engine.creature_types.creature_types`)."""
    return creature_types()


def has_subtype(game: "Game", obj: GameObject, subtype: str) -> bool:
    """Subtypes after type-changing effects (layer 4, CR 613.1d): changeling (CR 702.73a:
    every creature type), "gains/loses all creature types", "becomes the creature type of
    your choice" and "is a <type> in addition to its other types" (``add_creature_types``),
    in timestamp order and dependency order (CR 613.7, 613.8)."""
    return _of(game, obj).has_subtype(subtype)


def abilities(game: "Game", obj: GameObject, statics: list[Any] | None = None) -> list[dict[str, Any]]:
    """The object's abilities: printed ones (none while face down), then those granted by
    static abilities (CR 613.1f), in timestamp order."""
    if obj.zone != "battlefield":
        return list(obj.chars.abilities)
    return list(_of(game, obj).abilities)


def static_restrictions(game: "Game", obj: GameObject, kind: str) -> list[dict[str, Any]]:
    """Static effects of type ``kind`` (``cant_attack``, ``cant_block``,
    ``cant_be_blocked``, ``cant_be_blocked_except``, ``cant_be_sacrificed``) that apply to
    ``obj``."""
    return [eff for src, eff in static_effects(game)
            if eff.get("type") == kind and obj in affected_by_static(game, src, eff)]


def cant_be_sacrificed(game: "Game", obj: GameObject) -> bool:
    """CR 701.17, 101.2: a static ``cant_be_sacrificed`` effect applies to the permanent
    ("This token can't be sacrificed", Zurgo, Thunder's Decree): a sacrifice does nothing to
    it and a cost that would sacrifice it can't be paid (CR 118.3)."""
    return bool(static_restrictions(game, obj, "cant_be_sacrificed"))


def stack_mana_value(obj: GameObject | StackItem, target: GameObject) -> int:
    """The mana value of ``target`` (``obj``'s object, or ``obj`` itself): CR 202.3e: while
    a spell is on the stack, each {X} in its mana cost counts as the value chosen for X
    (``obj`` is its StackItem); elsewhere X is 0. A face-down spell's is 0 (CR 708.2a)."""
    return filters.stack_mana_value(obj, target)


def matches(game: "Game", obj: GameObject | StackItem, flt: dict[str, Any] | None,
            you: str | None, source: GameObject | None = None) -> bool:
    """Does ``obj`` satisfy filter ``flt`` (docs/FORMAT.md §5), seen by player ``you``
    from ``source``? ``types``/``colors``/``subtypes`` match any of the listed values;
    every key must hold. Characteristics after every layer (engine/layers/filters.py)."""
    return filters.matches(game, game.layers, obj, flt, you, source)


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


def target_kinds_match(game: "Game", spec: dict[str, Any], target: Any, you: str,
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
    if kind in type_for_kind and not is_type(obj, type_for_kind[kind], game) and not (
            kind == "any" and is_type(obj, "Planeswalker", game)):  # CR 115.4: any target includes planeswalkers
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


def _player_filter(spec: dict[str, Any], player: str, you: str) -> bool:
    who = (spec.get("filter") or {}).get("player")
    if who == "opponent":
        return player != you
    if who == "you":
        return player == you
    return True


def all_matching(game: "Game", objs: Iterable[GameObject], flt: dict[str, Any], you: str,
                 source: GameObject | None = None) -> list[GameObject]:
    """The objects of ``objs`` that match ``flt``, in their given order."""
    return [o for o in objs if matches(game, o, flt, you, source)]
