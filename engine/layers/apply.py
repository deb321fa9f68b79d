"""Applying the continuous effects of a game in layer order (CR 613.1-613.8), for every
object on the battlefield at once: the computation the layer system's cache keeps
(``engine/layers/system.py``).

Starting from each permanent's copiable values (layer 1: its definition, engine/transform.py;
a face-down 2/2, CR 708.2) and its controller (layer 2: current, no control-changing effect
is modelled; layer 3: no text-changing effect), the effects apply layer by layer:

- 4 (CR 613.1d): card types gained or lost ("becomes a land in addition to its other types",
  "isn't a creature", the card type of "becomes a 2/2 creature"), creature types ("gains all
  creature types", "loses all creature types", "becomes the creature type of your choice",
  "is a Monk in addition to its other types"), after changeling (a characteristic-defining
  ability, CR 613.3);
- 5 (CR 613.1e): colors set by resolved effects;
- 6 (CR 613.1f): keywords and abilities granted, "loses all abilities"; then haste from
  suspend (CR 702.62a);
- 7b, 7c (CR 613.4b-c): power and toughness set, then modified (statics and resolved
  effects); 7d: +N/+M counters (a sum: the older rules' separate counters sublayer gives the
  same values).

Within a layer effects apply in timestamp order (CR 613.7; a static ability's timestamp is
its permanent's, an Aura's or Equipment's the time it became attached, 613.7a, 613.7e) unless
one depends on another (CR 613.8a: applying the other would change whether it exists, what it
applies to or what it does): then it applies after the effect it depends on (613.8b), and
the effects of a dependency loop apply in timestamp order (613.8b). Dependencies are
re-examined after each effect applies (613.8c). A static ability of a permanent that lost all
its abilities generates no effect in the layers after the one where it lost them (CR 613.6:
one that started applying keeps applying; the lose-all effect itself is kept).

A resolved effect's set of affected objects was locked in as it began (CR 611.2c): it depends
on nothing. What a static ability applies to is decided as it applies, on the
characteristics the earlier layers and effects have given the objects (engine/layers/filters.py).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from ..conditions import condition_holds
from ..objects import ContinuousEffect, GameObject
from .filters import matches
from .values import Characteristics, Draft

if TYPE_CHECKING:
    from ..game import Game

__all__ = ["LAYER_OF", "LayerEffect", "LayerResult", "compute", "dependency_order"]

_PT_COUNTER = re.compile(r"^([+-]\d+)/([+-]\d+)$")

#: The layer or sublayer of each continuous effect kind (CR 613.1, 613.4); static effects of
#: other kinds (restrictions, cost changes …) are in no layer.
LAYER_OF: dict[str, str] = {
    "gain_card_types": "4", "lose_card_types": "4", "all_creature_types": "4", "no_creature_types": "4",
    "set_creature_type": "4", "add_creature_types": "4",
    "set_colors": "5",
    "grant_keywords": "6", "grant_abilities": "6", "lose_all_abilities": "6",
    "set_pt": "7b", "modify_pt": "7c",
}
LAYERS = ("4", "5", "6", "7b", "7c")

#: filter keys of static abilities that read state other than characteristics, zones and
#: timestamps (engine/layers/system.py keys a result that used one on every event)
VOLATILE_KEYS = frozenset({"tapped", "attacking", "blocking", "attacking_or_blocking", "attacked_this_turn"})


@dataclass(frozen=True)
class LayerEffect:
    """One continuous effect as the layers see it: from a static ability (``source`` and its
    effect dict ``static``) or from a resolved spell or ability (``resolved``). ``order``
    breaks timestamp ties (the order effects were found in)."""

    layer: str
    kind: str
    timestamp: int
    order: int
    source: GameObject | None = None
    static: dict[str, Any] | None = None
    resolved: ContinuousEffect | None = None

    def filtered(self) -> bool:
        """A static ability whose affected objects are chosen by a filter ("all Slivers")."""
        return self.static is not None and isinstance(self.static.get("affected"), dict)

    def __repr__(self) -> str:
        src = self.source.ref if self.source is not None else "resolved"
        return f"LayerEffect({self.kind}@{self.timestamp} from {src})"


class State:
    """The drafts of the participating objects while the layers apply, and a
    :class:`~engine.layers.filters.View` of them (objects not drafted yet have their base
    record)."""

    __slots__ = ("base", "drafts", "game", "participants")

    def __init__(self, game: Game, participants: Sequence[GameObject],
                 base: Callable[[GameObject], Characteristics]) -> None:
        self.game = game
        self.participants = participants
        self.base = base
        self.drafts: dict[int, Draft] = {}

    def draft(self, obj: GameObject) -> Draft:
        """The object's draft, made from its base record on first use."""
        d = self.drafts.get(id(obj))
        if d is None:
            chars = obj.chars
            d = Draft(self.base(obj), tuple(chars.types), any(k["keyword"] == "changeling" for k in chars.keywords))
            self.drafts[id(obj)] = d
        return d

    def clone(self) -> State:
        """An independent copy of the drafts (to try an effect out, CR 613.8a)."""
        new = State(self.game, self.participants, self.base)
        new.drafts = {k: d.clone() for k, d in self.drafts.items()}
        return new

    # the View protocol
    def types(self, obj: GameObject) -> Sequence[str]:
        d = self.drafts.get(id(obj))
        return d.types if d is not None else self.base(obj).types

    def has_subtype(self, obj: GameObject, subtype: str) -> bool:
        d = self.drafts.get(id(obj))
        if d is None:
            return self.base(obj).has_subtype(subtype)
        probe = Characteristics(types=(), printed_subtypes=d.printed_subtypes, layer4=d.layer4(), colors=(),
                                keywords=(), abilities=(), lost_all_abilities=False, power=0, toughness=0)
        return probe.has_subtype(subtype)

    def colors(self, obj: GameObject) -> Sequence[str]:
        d = self.drafts.get(id(obj))
        return d.colors if d is not None else self.base(obj).colors

    def keywords(self, obj: GameObject) -> Sequence[dict[str, Any]]:
        d = self.drafts.get(id(obj))
        return d.keywords if d is not None else self.base(obj).keywords

    def power(self, obj: GameObject) -> int:
        d = self.drafts.get(id(obj))
        return d.power if d is not None else self.base(obj).power

    def lost_all(self, obj: GameObject) -> bool:
        d = self.drafts.get(id(obj))
        return d.lost_all if d is not None else False


@dataclass
class LayerResult:
    """The layer system's result for one state of the game: ``records`` by ``id`` of the
    participating objects (kept alive in ``participants``), and ``statics``: the static
    abilities' effects that exist, ``[(source, effect dict)]`` in timestamp order; ``volatile``:
    it read state that changes without a change the layer system's key shows (a static
    ability's condition, a filter on tapped, attacking or blocking objects: :data:`VOLATILE_KEYS`)."""

    records: dict[int, Characteristics] = field(default_factory=dict)
    participants: list[GameObject] = field(default_factory=list)
    statics: list[tuple[GameObject, dict[str, Any]]] = field(default_factory=list)
    volatile: bool = False


def static_candidates(game: Game) -> list[tuple[GameObject, dict[str, Any]]]:
    """Every static ability's effect of every permanent on the battlefield whose condition
    holds (e.g. threshold, CR 207.2c), in timestamp order; a face-down permanent has no
    abilities (CR 708.2a)."""
    holders = [perm for perm in game.battlefield if not perm.face_down and perm.definition.static_abilities]
    holders.sort(key=lambda perm: perm.timestamp)
    return [(perm, ab["effect"]) for perm in holders for ab in perm.chars.static_abilities
            if condition_holds(game, perm, ab.get("condition"))]


def _volatile(game: Game) -> bool:
    """Does a static ability on the battlefield have a condition or a filter on
    :data:`VOLATILE_KEYS`?"""
    for perm in game.battlefield:
        if perm.face_down:
            continue
        for ab in perm.definition.static_abilities:
            spec = (ab.get("effect") or {}).get("affected")
            if ab.get("condition") or (isinstance(spec, dict) and isinstance(spec.get("all"), dict)
                                       and not VOLATILE_KEYS.isdisjoint(spec["all"])):
                return True
    return False


def affected(state: State, eff: LayerEffect) -> list[GameObject]:
    """The participating objects ``eff`` applies to now (CR 611.3a for statics; CR 611.2c:
    a resolved effect's locked-in set)."""
    if eff.resolved is not None:
        refs = eff.resolved.affected
        return [o for o in state.participants if o.ref in refs]
    assert eff.source is not None and eff.static is not None
    return static_affected(state, eff.source, eff.static)


def static_affected(view: State, source: GameObject, effect: dict[str, Any]) -> list[GameObject]:
    """The participating objects a static effect applies to, seen through ``view``: itself,
    its Aura's or Equipment's host (engine/equipment.py), or the objects a filter matches."""
    spec = effect.get("affected", "self")
    if spec == "self":
        return [source]
    game = view.game
    if spec in ("enchanted", "equipped"):
        target = game.objects.get(source.attached_to) if source.attached_to else None
        return [target] if target is not None and target.zone == "battlefield" else []
    if isinstance(spec, dict) and "all" in spec:
        return [o for o in view.participants if matches(game, view, o, spec["all"], source.controller, source)]
    return []


def exists(state: State, eff: LayerEffect) -> bool:
    """CR 613.6, 613.8a: a static ability of layer 6 or later exists while its source has
    not lost all its abilities ("loses all abilities" effects themselves are kept)."""
    if eff.source is None or eff.layer in ("4", "5") or eff.kind == "lose_all_abilities":
        return True
    return eff.source.zone != "battlefield" or not state.lost_all(eff.source)


def _norm(k: Any) -> dict[str, Any]:
    return {"keyword": k} if isinstance(k, str) else dict(k)


def apply_effect(state: State, eff: LayerEffect) -> None:
    """Apply one effect to the drafts of the objects it applies to now."""
    if not exists(state, eff):
        return
    kind = eff.kind
    ce = eff.resolved
    st = eff.static or {}
    for obj in affected(state, eff):
        d = state.draft(obj)
        if kind == "gain_card_types":
            assert ce is not None
            d.types += [t for t in ce.types if t not in d.types]
        elif kind == "lose_card_types":
            assert ce is not None
            d.types = [t for t in d.types if t not in ce.types]
        elif kind in ("all_creature_types", "no_creature_types"):
            d.creature_base, d.added = ("all" if kind == "all_creature_types" else "none"), []
        elif kind == "set_creature_type":
            assert ce is not None
            d.creature_base, d.added = "none", [ce.creature_type]
        elif kind == "add_creature_types":  # a static ability's, or a resolved effect's (CR 611.2)
            gained = ce.subtypes if ce is not None else st.get("subtypes", ())
            d.added += [t for t in gained if t not in d.added]
        elif kind == "set_colors":
            assert ce is not None
            d.colors = list(ce.colors)
        elif kind == "grant_keywords":
            d.keywords += [_norm(k) for k in (ce.keywords if ce is not None else st.get("keywords", ()))]
        elif kind == "grant_abilities":
            d.abilities += list(st.get("abilities", ()))
        elif kind == "lose_all_abilities":  # CR 613.1f: what it has so far; later grants still apply
            d.keywords, d.abilities, d.lost_all = [], [], True
        elif kind == "set_pt":
            assert ce is not None
            d.power, d.toughness = ce.power, ce.toughness
        elif kind == "modify_pt":
            d.power += ce.power if ce is not None else st.get("power", 0)
            d.toughness += ce.toughness if ce is not None else st.get("toughness", 0)


def depends(state: State, dependent: LayerEffect, other: LayerEffect) -> bool:
    """CR 613.8a: does ``dependent`` depend on ``other`` (same layer)? It does if applying
    ``other`` first would change whether ``dependent`` exists or what it applies to. A
    resolved effect (its set locked in, CR 611.2c, its values fixed) depends on nothing."""
    if dependent.source is None:
        return False
    trial = state.clone()
    apply_effect(trial, other)
    before = exists(state, dependent), [id(o) for o in affected(state, dependent)] if exists(state, dependent) else []
    after = exists(trial, dependent), [id(o) for o in affected(trial, dependent)] if exists(trial, dependent) else []
    return before != after


def _may_depend(eff: LayerEffect, pending: Sequence[LayerEffect]) -> bool:
    """Only a static ability can depend on another effect: through its filter, or, in layer 6,
    through its existence when a lose-all effect is pending."""
    if eff.source is None:
        return False
    return eff.filtered() or (eff.kind != "lose_all_abilities"
                              and any(p.kind == "lose_all_abilities" for p in pending if p is not eff))


def dependency_order(state: State, effects: Sequence[LayerEffect]) -> list[LayerEffect]:
    """Apply ``effects`` (one layer's, in timestamp order) to ``state`` and return the order
    they applied in: each time, the earliest effect that depends on no effect still to apply,
    except on those of its own dependency loop (CR 613.7, 613.8a-c)."""
    remaining = list(effects)
    done: list[LayerEffect] = []
    while remaining:
        if len(remaining) == 1 or not any(_may_depend(e, remaining) for e in remaining):
            for eff in remaining:
                apply_effect(state, eff)
            return done + remaining
        needs = {i: [j for j, other in enumerate(remaining) if j != i and depends(state, e, other)]
                 if _may_depend(e, remaining) else [] for i, e in enumerate(remaining)}
        pick = next((i for i in range(len(remaining)) if all(_reaches(needs, j, i) for j in needs[i])), 0)
        eff = remaining.pop(pick)
        apply_effect(state, eff)
        done.append(eff)
    return done


def _reaches(needs: dict[int, list[int]], start: int, goal: int) -> bool:
    """Is there a chain of dependencies from ``start`` to ``goal`` (a loop through both)?"""
    seen, todo = set(), [start]
    while todo:
        i = todo.pop()
        if i == goal:
            return True
        if i not in seen:
            seen.add(i)
            todo.extend(needs[i])
    return False


def collect(game: Game, candidates: Sequence[tuple[GameObject, dict[str, Any]]]) -> dict[str, list[LayerEffect]]:
    """The continuous effects of each layer, in timestamp order: the static abilities'
    (``candidates``) then the resolved effects of ``game.effects``."""
    by_layer: dict[str, list[LayerEffect]] = {layer: [] for layer in LAYERS}
    n = 0
    for src, eff in candidates:
        layer = LAYER_OF.get(eff.get("type", ""))
        if layer is not None:
            by_layer[layer].append(LayerEffect(layer, eff["type"], src.timestamp, n, source=src, static=eff))
            n += 1
    for ce in game.effects:
        layer = LAYER_OF.get(ce.kind)
        if layer is not None:
            by_layer[layer].append(LayerEffect(layer, ce.kind, ce.timestamp, n, resolved=ce))
            n += 1
    for effects in by_layer.values():
        effects.sort(key=lambda e: (e.timestamp, e.order))
    return by_layer


def compute(game: Game, base: Callable[[GameObject], Characteristics],
            extra: GameObject | None = None) -> LayerResult:
    """The characteristics of every permanent on the battlefield (and of ``extra``, an object
    not in the battlefield list, e.g. last known information, affected but generating
    nothing) after every layer. ``base(obj)``: its copiable values' record."""
    participants = list(game.battlefield)
    if extra is not None:
        participants.append(extra)
    state = State(game, participants, base)
    candidates = static_candidates(game)
    by_layer = collect(game, candidates)
    for layer in LAYERS:
        effects = by_layer[layer]
        if effects:
            dependency_order(state, effects)
        if layer == "6":
            for obj in participants:  # CR 702.62a: haste while its suspender controls it
                if obj.haste_from_suspend is not None and obj.haste_from_suspend == obj.controller:
                    state.draft(obj).keywords.append({"keyword": "haste"})
    for obj in participants:  # layer 7d (CR 613.4c; 122.1a)
        for kind, n in obj.counters.items():
            m = _PT_COUNTER.match(kind)
            if m:
                counted = state.draft(obj)
                counted.power += int(m.group(1)) * n
                counted.toughness += int(m.group(2)) * n
    result = LayerResult(participants=participants, volatile=_volatile(game))
    for obj in participants:
        d = state.drafts.get(id(obj))
        result.records[id(obj)] = d.freeze() if d is not None else base(obj)
    result.statics = [(src, eff) for src, eff in candidates
                      if eff.get("type") == "lose_all_abilities" or src.zone != "battlefield"
                      or not state.lost_all(src)]
    return result
