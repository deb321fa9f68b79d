"""Mana for the legal-action generator (:mod:`.legal`): the untapped sources a player can
tap for mana now and what each adds (CR 605, 302.6, triggered mana abilities CR 605.1b), an
upper bound of the mana available, and a deterministic ``pay_with`` plan for a cost (CR
601.2g-h, hybrid symbols CR 107.4e).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Iterable

from . import characteristics as ch
from .mana import COLORS, ManaCost, parse_mana_symbols
from .objects import GameObject


@dataclass
class ManaSource:
    """A mana source :func:`mana_sources` found: its reference, its ``options`` (see there),
    whether it is a creature, and whether it makes a choice of color."""

    ref: str
    options: list[Any]  # [(produced mana dict, pay_with fields: {} or {"color": c, "extra_color": e})]
    creature: bool
    choice: bool


def mana_sources(game: Any, player: str, exclude: Iterable[str] = ()) -> list[ManaSource]:
    """Untapped permanents ``player`` controls whose first mana ability (the one
    ``pay_with`` activates) costs only {T} and can be activated now (CR 605, 302.6), in
    the order they would be tapped: lands and other non-creatures first, single-color
    sources before sources of a color of choice.

    Each source's ``options`` are ``(mana added, pay_with fields)`` pairs: the mana
    includes what triggered mana abilities add when it is tapped for mana (an Aura like
    Fertile Ground, CR 605.1b), and the fields name the colors chosen (``color`` for the
    ability, ``extra_color`` for a triggered one that adds mana of any color).
    """
    excluded = set(exclude)
    triggered = triggered_mana(game, player)
    out = []
    for perm in game.battlefield:
        if perm.controller != player or perm.ref in excluded:
            continue
        ab = next((a for a in ch.abilities(game, perm) if a.get("kind") == "mana"), None)
        if ab is None or dict(ab.get("cost", {})) != {"tap": True} or not can_tap(game, perm):
            continue
        add = ab.get("add")
        options: list[tuple[dict[str, int], dict[str, str]]]
        if isinstance(add, str):
            options = [(parse_mana_symbols(add), {})]
        elif isinstance(add, dict) and "one_of" in add:
            options = [(parse_mana_symbols(o), {"color": o.strip("{}")}) for o in add["one_of"]]
        elif isinstance(add, dict) and "any_color" in add:
            options = [({c: add["any_color"]}, {"color": c}) for c in COLORS]
        else:
            continue
        if perm.ref in triggered:
            fixed, any_color = triggered[perm.ref]
            options = [(_mana_sum(m, fixed), f) for m, f in options]
            if any_color:
                options = [(_mana_sum(m, {e: any_color}), dict(f, extra_color=e)) for m, f in options for e in COLORS]
        out.append(ManaSource(perm.ref, options, ch.is_type(perm, "Creature"), len(options) > 1))
    out.sort(key=lambda s: (s.creature, s.choice))
    return out


def _mana_sum(a: dict[str, Any], b: dict[str, Any]) -> dict[str, Any]:
    """The sum of two mana amounts (``{color: amount}``)."""
    out = dict(a)
    for k, n in b.items():
        out[k] = out.get(k, 0) + n
    return out


def triggered_mana(game: Any, player: str) -> dict[str, tuple[dict[str, Any], int]]:
    """Permanent ref → (fixed mana, amount of mana of one color of the player's choice)
    that the triggered mana abilities of :meth:`Game.mana_triggers` give ``player`` when
    that permanent is tapped for mana (CR 605.1b; Fertile Ground: ``{"any_color": 1}``,
    named by ``extra_color``). Only ``player``'s permanents with such triggers appear."""
    triggers = game.mana_triggers()
    out: dict[str, tuple[dict[str, Any], int]] = {}
    if not triggers:
        return out
    for perm in game.battlefield:
        if perm.controller != player:
            continue
        fixed: dict[str, Any] = {}
        any_color = 0
        for _, eff, who in game.mana_triggered_by(triggers, perm):
            mana = eff.get("mana")
            if who != player:
                continue
            if isinstance(mana, str):
                fixed = _mana_sum(fixed, parse_mana_symbols(mana))
            elif isinstance(mana, dict) and "any_color" in mana:
                any_color += mana["any_color"]
        if fixed or any_color:
            out[perm.ref] = (fixed, any_color)
    return out


def available_mana(game: Any, player: str, exclude: Iterable[str] = ()) -> int:
    """Mana in the pool plus what the usable mana sources would add (an upper bound of
    what ``player`` can spend now)."""
    total: int = game.players[player].pool.total()
    for s in mana_sources(game, player, exclude):
        total += max(sum(m.values()) for m, _ in s.options)
    return total


def plan_payment(game: Any, player: str, cost: ManaCost, exclude: Iterable[str] = (),
                 sources: list[ManaSource] | None = None) -> list[Any] | None:
    """A ``pay_with`` list that pays ``cost`` (X already fixed) together with the mana in
    the pool, or None if the pool and the usable sources can't (CR 601.2g–h). The pool is
    used first; colored symbols are matched with single-color sources before sources of a
    color of choice (a source's option that covers most of the colored symbols still needed);
    generic mana takes the remaining sources in order. Deterministic; no
    mana is left floating unless a source adds more than needed."""
    if not cost.present:
        return None
    if cost.hybrid:  # CR 107.4e: the first way to pay the hybrid symbols that can be planned
        for choice in cost.hybrid_choices():
            planned = plan_payment(game, player, choice, exclude, sources)
            if planned is not None:
                return planned
        return None
    pool = dict(game.players[player].pool.mana)
    need = {}
    for c, n in cost.colored:
        take = min(n, pool.get(c, 0))
        pool[c] = pool.get(c, 0) - take
        if n - take:
            need[c] = n - take
    generic = max(0, cost.generic - sum(pool.values()))
    srcs = mana_sources(game, player, exclude) if sources is None else sources
    used: set[Any] = set()
    pay: list[Any] = []
    surplus = 0
    for c in [c for c in ("C",) + COLORS if c in need]:
        while need[c] > 0:
            src = next((s for s in srcs if s.ref not in used and any(m.get(c) for m, _ in s.options)), None)
            if src is None:
                return None
            # the option covering most of what is still needed (a source adding two colors,
            # like a land enchanted with Fertile Ground, may pay two symbols); first on a tie
            options = [(m, f) for m, f in src.options if m.get(c)]
            produced, fields = max(options, key=lambda o: sum(min(n, need.get(k, 0)) for k, n in o[0].items()))
            used.add(src.ref)
            pay.append({"source": src.ref, **fields} if fields else src.ref)
            for k, n in produced.items():
                take = min(n, need.get(k, 0))
                if take:
                    need[k] -= take
                surplus += n - take
    generic = max(0, generic - surplus)
    for src in srcs:
        if generic <= 0:
            break
        if src.ref in used:
            continue
        produced, fields = src.options[0]
        used.add(src.ref)
        pay.append({"source": src.ref, **fields} if fields else src.ref)
        generic -= sum(produced.values())
    if generic > 0:
        return None
    return pay


def with_payment(inp: dict[str, Any], pay: list[Any]) -> dict[str, Any]:
    """``inp`` with ``pay_with`` set to ``pay`` when ``pay`` is not empty (returns ``inp``)."""
    if pay:
        inp["pay_with"] = pay
    return inp


def can_tap(game: Any, obj: GameObject) -> bool:
    """CR 302.6: {T} in a cost needs an untapped permanent; a creature also needs to have
    been controlled since the turn began, or haste."""
    if obj.tapped:
        return False
    return not (ch.is_type(obj, "Creature") and obj.summoning_sick and not ch.has_keyword(game, obj, "haste"))
