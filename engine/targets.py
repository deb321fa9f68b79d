"""Targets: checking chosen targets against target specs as a spell or ability is put on the
stack, and again as it resolves (CR 115, 601.2c, 603.3d, 608.2b)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from . import characteristics as ch
from .cards import describe
from .errors import IllegalAction
from .objects import GameObject, StackItem

if TYPE_CHECKING:
    from .game import Game


def filter_with_x(flt: Any, x: int) -> Any:
    """A filter (docs/FORMAT.md §5) with each ``"X"`` value (``mana_value``,
    ``mana_value_at_most``: "with mana value X or less") replaced by ``x``, the X chosen for
    the spell or ability (CR 107.3); the filter itself if it has none."""
    if not isinstance(flt, dict) or "X" not in flt.values():
        return flt
    return {k: (x if v == "X" else v) for k, v in flt.items()}


def with_x(spec: Any, x: int) -> Any:
    """A target spec with ``"X"`` in its filter replaced by the chosen X (Spell Blast)."""
    flt = spec.get("filter") if hasattr(spec, "get") else None
    if not flt or "X" not in flt.values():
        return spec
    return {**spec, "filter": {k: (x if v == "X" else v) for k, v in flt.items()}}


def target_spec_active(spec: Any, kicked: tuple[int, ...]) -> bool:
    """CR 601.2c / 702.33e: a target that depends on a kicker cost is chosen only if that
    kicker was declared (``"condition": {"kicked": i}`` on the target spec)."""
    cond = spec.get("condition") if hasattr(spec, "get") else None
    return not cond or cond.get("kicked") in kicked


def is_up_to(spec: Any) -> bool:
    """A target spec with ``"up_to": true`` ("up to one target creature"): its controller may
    choose no target for it (CR 601.2c: the player announces how many targets of a variable
    number they choose; CR 115.6: such a spell or ability is targeted only if it has one).
    A spell or ability left with no target at all is not countered on resolution: CR 608.2b
    counters one whose chosen targets are all illegal, and it has none (FORMAT §5)."""
    return bool(spec.get("up_to")) if hasattr(spec, "get") else False


def card_target_candidates(game: Game) -> list[GameObject]:
    """The cards a target kind ``card`` may name (CR 115.1, 400): cards in graveyards and
    in exile, each player's in turn order. A card in a hand or a library is never a
    target (it is hidden, CR 400.2)."""
    return [o for pid in game.order for zone in ("graveyard", "exile") for o in game.players[pid].zone(zone)]


def _same_target(game: Any, ref: Any, original: str) -> bool:
    """Does ``ref`` (an input's name) name the target ``original`` (a copied target's
    reference or player id)?"""
    if ref == original:
        return True
    target = game.resolve_target_ref(ref)
    return target is not None and not isinstance(target, str) and target is game.resolve_target_ref(original)


class Targeting:
    """Choosing and re-checking targets (a mixin of :class:`~.game.Game`)."""

    def choose_targets(self: Game, item: StackItem, specs: Any, chosen: Any, unchanged: list[str | None] | None = None) -> list[str | None]:
        """CR 601.2c / 602.2b / 603.3d: check the chosen targets against the target specs.
        ``unchanged``: a copy's targets as copied (one per spec), any of which its
        controller may leave unchanged even if it would be illegal now; only a changed
        target must be legal (CR 707.10c). An ``up_to`` spec's entry may be ``None`` (or left
        out at the end): no target for it (CR 601.2c). Returns the list of target refs (player
        ids for players; ``None`` for a target not chosen). Raises IllegalAction
        ``missing_targets`` or ``invalid_target``."""
        specs = [with_x(spec, item.x) for spec in (specs or ())]
        active = [i for i, spec in enumerate(specs) if target_spec_active(spec, item.kicked)]
        chosen = list(chosen or [])
        needed = [i for i in active if not is_up_to(specs[i])]
        if len(chosen) > len(active) or any(active.index(i) >= len(chosen) for i in needed):
            raise IllegalAction("missing_targets", f"{len(active)} target(s) needed, {len(chosen)} given"
                                if len(needed) == len(active) else
                                f"{len(needed)} to {len(active)} target(s) needed, {len(chosen)} given")
        chosen += [None] * (len(active) - len(chosen))  # "up to" targets left out at the end
        out: list[str | None] = [None] * len(specs)
        for i, ref in zip(active, chosen):
            spec = specs[i]
            if ref is None:  # CR 601.2c, 115.6: an "up to one" target may be left unchosen
                if not is_up_to(spec):
                    raise IllegalAction("missing_targets", f"target {i} ({describe(spec)}) must be chosen")
                continue
            before = unchanged[i] if unchanged is not None and i < len(unchanged) else None
            if before is not None and _same_target(self, ref, before):
                out[i] = before  # left unchanged, legal or not (CR 707.10c)
                continue
            target = self.resolve_target_ref(ref)
            if target is None:
                raise IllegalAction("invalid_target", f"no such object or player {ref!r}")
            source = item.obj if item.kind == "spell" else item.source_lki
            src_for_protection: Any = item if item.kind == "spell" else source
            if not ch.target_kinds_match(self, spec, target, item.controller, src_for_protection):
                raise IllegalAction("invalid_target", f"{ref} is not a legal target for {describe(spec)}")
            if isinstance(target, StackItem) and target is item:
                raise IllegalAction("invalid_target", "a spell can't target itself (CR 115.5)")
            out[i] = target if isinstance(target, str) else target.ref
            for j in spec.get("distinct_from", ()):
                if j < len(out) and out[j] is not None and out[j] == out[i]:
                    raise IllegalAction("invalid_target", f"target {i} must be another object than target {j}")
        return out

    def resolve_target_ref(self: Game, ref: Any) -> Any:
        """A script's target name → a player id, a StackItem or a GameObject (or None)."""
        if not isinstance(ref, str):
            return None
        if ref in self.players:
            return ref
        item = self.find_stack_item(ref)
        if item is not None:
            return item
        return self.find(ref)

    def target_still_legal(self: Game, item: StackItem, spec: Any, ref: str | None) -> bool:
        """CR 608.2b: is a chosen target still legal as the spell or ability resolves?
        (Gone, changed zones, or no longer matching the spec or protection.)"""
        spec = with_x(spec, item.x)
        if ref is None:
            return False
        if ref in self.players:
            return not self.players[ref].lost and ch.target_kinds_match(self, spec, ref, item.controller, item)
        stack_item = next((s for s in self.stack if s.ref == ref), None)
        if stack_item is not None:
            return ch.target_kinds_match(self, spec, stack_item, item.controller, item)
        obj = self.objects.get(ref)
        if obj is None:
            return False
        src: Any = item if item.kind == "spell" else item.source_lki
        return ch.target_kinds_match(self, spec, obj, item.controller, src)

    def _any_legal_targets(self: Game, item: StackItem, specs: list[dict[str, Any]]) -> bool:
        candidates: list[Any] = list(self.living()) + list(self.battlefield) + list(self.stack)
        candidates += card_target_candidates(self)  # CR 115.1: cards in graveyards and exile
        return all(is_up_to(spec) or any(ch.target_kinds_match(self, spec, c, item.controller, item.source_lki)
                                         for c in candidates)
                   for spec in specs)
