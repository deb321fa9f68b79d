"""Legal actions: the inputs that answer a pending decision and are legal now.

The game asks its input source ``next(game, decision)`` whenever a player must decide
(``Game.ask``); ``decision`` is ``{"kind", "player", **info}`` (kinds: ``priority``,
``declare_attackers``, ``declare_blockers``, ``assign_damage``, ``order_triggers``,
``choose_targets``, ``discard``, ``choose``, ``may_cast``, ``mulligan``). This module answers
the question a random player, a fuzzer or a user interface asks at that moment: *what may I
answer?*

- :func:`legal_actions` returns the inputs (script input dicts, docs/FORMAT.md §3.2) that are
  legal now. For priority (CR 117.1) it offers ``pass`` and candidate ``play_land``,
  ``cast`` (from the hand; flashback from the graveyard, CR 702.34a; a card exiled by
  Spelljack), ``activate`` (activated and mana abilities of permanents, cycling from the
  hand, CR 602, 605, 702.29), ``suspend`` and ``turn_face_up`` (special actions, CR 116.2)
  inputs, each with its targets enumerated from the legal candidates (players,
  permanents, spells and abilities on the stack, CR 115) and its payment named by
  ``pay_with`` (a simple deterministic choice among untapped mana sources, CR 601.2g–h).
  Every priority candidate is kept only if the engine accepts it on a dry run
  (``Game.dry_run``: the game, restored afterwards). Declarations get a reasonable set (no
  attack, each single attacker, all attackers, CR 508.1; no block, every blocker on
  something, a few random legal blocks, CR 509.1); choices get their options.
- :func:`candidate_actions` is the same enumeration without the dry runs, grouped
  (``Candidate.group``), for drivers that verify lazily: pick one, check it with
  :func:`accepts`, pick again if it was refused.
- :func:`accepts` tells whether the engine would accept an input now, without changing
  the game: ``(True, None)`` or ``(False, code)`` with the rejection code
  (docs/FORMAT.md §8). It never changes ``game``.

Everything is deterministic: the same game state and decision give the same list (no
global ``random``; the few random block declarations come from a SplitMix64 seeded with the
game's seed and the length of its log).

Cheap filters run before any dry run: timing (CR 307.1, 305.1, 702.8 flash), split
second (CR 702.61a), whether the total cost (CR 601.2f) can be covered by the pool plus the
untapped mana sources, whether every target has a legal candidate.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass
from typing import Any, Callable, Iterable, Iterator

from . import characteristics as ch
from . import combat
from . import adventure, faces, library_top, prepare
from . import endure_behold, graveyard_abilities, harmonize, planeswalkers, proliferate
from . import keywords as keyword_abilities
from .errors import IllegalAction
from .inputs import shape_problem
from .mana import COLORS, COLOR_NAMES, ManaCost, parse_mana_symbols
from .objects import GameObject, StackItem
from .rng import SplitMix64
from .targets import card_target_candidates, target_spec_active, with_x

#: The documented decision kinds (``Game.ask``) and the input ``action`` each accepts.
DECISION_ACTIONS: dict[str, tuple[str, ...]] = {
    "priority": ("pass", "cast", "activate", "play_land", "suspend", "turn_face_up"),
    "declare_attackers": ("declare_attackers",),
    "declare_blockers": ("declare_blockers",),
    "assign_damage": ("assign_damage",),
    "order_triggers": ("order_triggers",),
    "choose_targets": ("choose_targets",),
    "discard": ("discard",),
    "choose": ("choose",),
    "may_cast": ("cast", "choose"),
    "mulligan": ("keep", "mulligan"),
}

#: Target combinations offered per spell or ability variant when it has two or more
#: targets (a single target offers every legal candidate).
TARGET_LIMIT = 12
#: Subsets offered for a discard, orders for a trigger ordering, random block declarations.
CHOICE_LIMIT = 8
BLOCK_SAMPLES = 4


@dataclass
class Candidate:
    """One candidate input. ``group`` gathers the variants of one choice (one card cast
    with different targets or payments, one creature's ability …) so that a driver can
    pick a group first; ``kind`` is a coarse category (``pass``, ``land``, ``cast``,
    ``activate``, ``mana``, ``special``, ``attack``, ``block``, ``choice``, ``keep``,
    ``mulligan``, ``decline``)."""

    input: dict
    group: str
    kind: str


class NeedsInput(Exception):
    """Raised by the probe input source of a dry run: the probed action got past every
    check and now asks a further question (a madness choice while a cost is paid …), so
    the engine accepted it."""


class _ProbeInputs:
    def next(self, game: Any, decision: dict) -> dict:
        raise NeedsInput(decision.get("kind"))


# ---------------------------------------------------------------------------- public API
def legal_actions(game: Any, decision: dict, *, verify: bool = True) -> list[dict]:
    """The inputs that answer ``decision`` (``{"kind", "player", **info}`` as passed to the
    input source) and are legal now, as script input dicts (docs/FORMAT.md §3.2).

    With ``verify`` (the default) each candidate is checked with :func:`accepts` (priority
    actions and declarations on a dry run of the engine, choices against the rules the
    engine applies); without it the cheap enumeration of :func:`candidate_actions` is
    returned as is. Never changes ``game``. Raises ValueError for an unknown decision kind.
    """
    out = []
    for cand in candidate_actions(game, decision):
        if not verify or accepts(game, decision, cand.input)[0]:
            out.append(cand.input)
    return out


def candidate_actions(game: Any, decision: dict) -> list[Candidate]:
    """The candidate answers to ``decision``, pre-filtered by cheap checks but not dry-run
    (see the module docstring). Deterministic; never changes ``game``."""
    if game.over:
        return []
    kind = decision.get("kind")
    fn = _ENUMERATORS.get(kind)
    if fn is None:
        raise ValueError(f"unknown decision kind {kind!r}")
    return fn(game, decision)


def accepts(game: Any, decision: dict, inp: dict) -> tuple[bool, str | None]:
    """Would the engine accept ``inp`` as the answer to ``decision`` now? Returns
    ``(True, None)`` or ``(False, code)`` (a rejection code, docs/FORMAT.md §8).

    Priority actions (CR 117), declarations (CR 508.1, 509.1) and casts offered by a
    resolving ability (CR 702.62a, 702.35a) run on the game, restored afterwards
    (``Game.dry_run``); the other answers are checked against the same rules the engine
    applies to them. Never changes ``game``. An exception other than IllegalAction from
    the engine propagates: the engine crashed on this input.
    """

    kind = decision.get("kind")
    player = decision.get("player")
    if shape_problem(inp) is not None:  # ``Game.ask`` refuses it before the rules see it
        return False, "bad_input"
    if game.over:
        return False, "game_over"
    action = inp.get("action")
    if kind == "priority":
        if action not in DECISION_ACTIONS["priority"]:
            return False, "wrong_decision"
        if inp.get("player", player) != player:
            return False, "not_your_priority"
        if action == "pass":
            return True, None
        method = {"cast": "cast", "activate": "activate", "play_land": "play_land",
                  "suspend": "special_action", "turn_face_up": "special_action"}[action]
        return _dry(game, lambda g: getattr(g, method)(player, inp))
    if kind == "may_cast":
        return _accepts_may_cast(game, decision, inp)
    if kind == "mulligan":
        return _check(lambda: _validate_mulligan(game, decision, inp))
    expected = DECISION_ACTIONS.get(kind)
    if expected is None:
        raise ValueError(f"unknown decision kind {kind!r}")
    if action != expected[0] or inp.get("player", player) != player:
        return False, "wrong_decision"
    if kind == "declare_attackers":
        return _dry(game, lambda g: combat._declare_attackers(g, inp))
    if kind == "declare_blockers":
        return _dry(game, lambda g: combat._declare_blockers(g, player, inp))
    validator = _VALIDATORS[kind]
    return _check(lambda: validator(game, decision, inp))


def _dry(game: Any, fn: Callable[[Any], Any]) -> tuple[bool, str | None]:
    def run(clone: Any) -> None:
        clone.inputs = _ProbeInputs()
        fn(clone)
    try:
        game.dry_run(run)
    except IllegalAction as err:
        return False, err.code
    except NeedsInput:
        return True, None
    return True, None


def _check(fn: Callable[[], Any]) -> tuple[bool, str | None]:
    try:
        fn()
    except IllegalAction as err:
        return False, err.code
    return True, None


# ------------------------------------------------------------------------------- helpers
def _distinct(objs: Iterable[GameObject]) -> list[GameObject]:
    """One object per card name and face (cards of a zone with the same name are
    interchangeable for legality)."""
    seen: set = set()
    out = []
    for o in objs:
        key = (o.definition.name, o.face_down)
        if key not in seen:
            seen.add(key)
            out.append(o)
    return out


def _spread(seq: list, k: int | None) -> list:
    """At most ``k`` elements of ``seq``, evenly spaced, first and last included."""
    if k is None or len(seq) <= k:
        return list(seq)
    if k == 1:
        return [seq[0]]
    n = len(seq)
    return [seq[round(i * (n - 1) / (k - 1))] for i in range(k)]


def _ref(target: Any) -> str:
    return target if isinstance(target, str) else target.ref


def _keywords(obj: GameObject) -> dict:
    return {k["keyword"]: dict(k) for k in obj.definition.keywords}


def _split_second(game: Any) -> bool:
    """CR 702.61a: a spell with split second is on the stack."""
    return any(k["keyword"] == "split_second" for it in game.stack if it.kind == "spell" and it.obj is not None
               for k in ch.keywords(game, it.obj))


def _can_tap(game: Any, obj: GameObject) -> bool:
    """CR 302.6: {T} in a cost needs an untapped permanent; a creature also needs to have
    been controlled since the turn began, or haste."""
    if obj.tapped:
        return False
    return not (ch.is_type(obj, "Creature") and obj.summoning_sick and not ch.has_keyword(game, obj, "haste"))


def resolving_item(game: Any) -> StackItem | None:
    """The spell or ability resolving now (its ``*_resolved`` event is the last one and it
    is still on the stack while its effects run, CR 608.2)."""
    for ev in reversed(game.events):
        if ev["type"] in ("spell_resolved", "ability_resolved"):
            return next((it for it in game.stack if it.ref == ev["object"]), None)
    return None


def _find_effect(effects: Iterable, type_: str) -> dict | None:
    for eff in effects or ():
        if eff.get("type") == type_:
            return eff
        for key in ("then", "else", "effects"):
            found = _find_effect(eff.get(key, ()), type_)
            if found is not None:
                return found
    return None


# ---------------------------------------------------------------------------------- mana
@dataclass
class _Source:
    ref: str
    options: list  # [(produced mana dict, pay_with fields: {} or {"color": c, "extra_color": e})]
    creature: bool
    choice: bool


def mana_sources(game: Any, player: str, exclude: Iterable[str] = ()) -> list[_Source]:
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
    triggered = _triggered_mana(game, player)
    out = []
    for perm in game.battlefield:
        if perm.controller != player or perm.ref in excluded:
            continue
        ab = next((a for a in ch.abilities(game, perm) if a.get("kind") == "mana"), None)
        if ab is None or dict(ab.get("cost", {})) != {"tap": True} or not _can_tap(game, perm):
            continue
        add = ab.get("add")
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
        out.append(_Source(perm.ref, options, ch.is_type(perm, "Creature"), len(options) > 1))
    out.sort(key=lambda s: (s.creature, s.choice))
    return out


def _mana_sum(a: dict, b: dict) -> dict:
    out = dict(a)
    for k, n in b.items():
        out[k] = out.get(k, 0) + n
    return out


def _triggered_mana(game: Any, player: str) -> dict[str, tuple[dict, int]]:
    """Permanent ref → (fixed mana, amount of mana of one color of the player's choice)
    that the triggered mana abilities of :meth:`Game.mana_triggers` give ``player`` when
    that permanent is tapped for mana (CR 605.1b; Fertile Ground: ``{"any_color": 1}``,
    named by ``extra_color``). Only ``player``'s permanents with such triggers appear."""
    triggers = game.mana_triggers()
    out: dict[str, tuple[dict, int]] = {}
    if not triggers:
        return out
    for perm in game.battlefield:
        if perm.controller != player:
            continue
        fixed: dict = {}
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
    total = game.players[player].pool.total()
    for s in mana_sources(game, player, exclude):
        total += max(sum(m.values()) for m, _ in s.options)
    return total


def plan_payment(game: Any, player: str, cost: ManaCost, exclude: Iterable[str] = (),
                 sources: list[_Source] | None = None) -> list | None:
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
            pay = plan_payment(game, player, choice, exclude, sources)
            if pay is not None:
                return pay
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
    used: set = set()
    pay: list = []
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


def _with_payment(inp: dict, pay: list) -> dict:
    if pay:
        inp["pay_with"] = pay
    return inp


# ------------------------------------------------------------------------------- targets
def target_pool(game: Any) -> list:
    """Everything a target can be (CR 115.1): players, permanents, spells and abilities on
    the stack, and cards in graveyards (target kind ``card``, FORMAT §11.2)."""
    return (list(game.order) + list(game.battlefield) + list(game.stack)
            + card_target_candidates(game))  # graveyards and exile (engine/targets.py)


def target_choices(game: Any, item: StackItem, specs: Any, limit: int | None = TARGET_LIMIT) -> list[list[str]]:
    """Legal target lists for ``item`` (a spell or ability as it would be on the stack)
    and its target specs (CR 601.2c, 602.2b, 603.3d): each spec's candidates are the
    objects and players it may target now (kind, filter, shroud, protection; a kicker-only
    target only if that kicker is paid, CR 702.33e), and each combination must pass
    ``Game.choose_targets`` (distinct targets, not itself, CR 115.5). ``[[]]`` when there is
    nothing to target; ``[]`` when some target has no legal candidate."""

    raw = list(specs or ())
    specs_x = [with_x(s, item.x) for s in raw]
    active = [i for i, s in enumerate(specs_x) if target_spec_active(s, item.kicked)]
    if not active:
        return [[]]
    src = item if item.kind == "spell" else item.source_lki
    pool = target_pool(game)
    per = []
    for i in active:
        cands = [t for t in pool if t is not item and ch.target_kinds_match(game, specs_x[i], t, item.controller, src)]
        if not cands:
            return []
        per.append(cands if len(active) == 1 else _spread(cands, limit))
    out = []
    for combo in itertools.product(*per):
        names = [_ref(t) for t in combo]
        try:
            game.choose_targets(item, raw, names)
        except IllegalAction:
            continue
        out.append(names)
        if len(active) > 1 and limit is not None and len(out) >= limit:
            break
    return out


# ------------------------------------------------------------------------------ priority
def _priority(game: Any, decision: dict) -> list[Candidate]:
    """CR 117.1: a player with priority may cast a spell, activate an ability, take a
    special action (play a land, CR 305.1; suspend, CR 702.62a; turn a face-down creature
    face up, CR 702.37e) or pass."""
    player = decision["player"]
    out = [Candidate({"action": "pass", "player": player}, "pass", "pass")]
    p = game.players[player]
    split = _split_second(game)
    if game.sorcery_timing_ok(player) and p.lands_played < 1:  # CR 305.1–305.2
        for obj in _distinct(o for o in p.hand if ch.is_type(o, "Land")):
            out.append(Candidate({"action": "play_land", "player": player, "card": obj.ref}, "land", "land"))
        for obj in adventure.exiled_adventurers(game, player):  # CR 715.3d: a land on an adventure
            if ch.is_type(obj, "Land"):
                out.append(Candidate({"action": "play_land", "player": player, "card": obj.ref}, "land", "land"))
        top = library_top.playable_top(game, player)  # Future Sight (engine/library_top.py)
        if top is not None and ch.is_type(top, "Land"):
            out.append(Candidate({"action": "play_land", "player": player, "card": top.ref}, "land", "land"))
    sources = mana_sources(game, player)
    if not split:
        for obj in _distinct(o for o in p.hand if not ch.is_type(o, "Land")):
            out += _cast_candidates(game, player, obj, sources)
            for face in faces.castable_faces(obj):  # an Omen's face (engine/faces.py)
                out += [faces.with_face(c, face)
                        for c in _cast_candidates(game, player, faces.as_cast(obj, face), sources)]
        for obj in _distinct(o for o in p.hand if ch.is_type(o, "Land")):  # a Town's Adventure, CR 715.3
            for face in faces.castable_faces(obj):
                out += [faces.with_face(c, face)
                        for c in _cast_candidates(game, player, faces.as_cast(obj, face), sources)]
        for obj in _distinct(o for o in p.graveyard if "flashback" in _keywords(o)):
            out += _cast_candidates(game, player, obj, sources, alternatives=["flashback"])
        for obj in _distinct(o for o in p.graveyard if "harmonize" in _keywords(o)):  # CR 702.180a
            out += _cast_candidates(game, player, obj, sources, alternatives=["harmonize"])
            tap = harmonize.best_tap(game, player)  # and tapping a creature to reduce the cost
            if tap is not None:
                out += [Candidate(dict(c.input, harmonize_tap=tap.ref), c.group, c.kind)
                        for c in _cast_candidates(game, player, obj, mana_sources(game, player, [tap.ref]),
                                                  alternatives=["harmonize"], reduce_with=tap)]
        for obj in adventure.exiled_adventurers(game, player):  # CR 715.3d: the permanent only
            if not ch.is_type(obj, "Land"):
                out += _cast_candidates(game, player, obj, sources)
        top = library_top.playable_top(game, player)  # Future Sight: the top card (engine/library_top.py)
        if top is not None:
            out += _cast_candidates(game, player, top, sources)
        for obj in _distinct(o for o in p.exile if o.may_cast_free_by == player):
            out += _cast_candidates(game, player, obj, sources, alternatives=["without_paying"])
        for pid in game.order:
            if pid == player:
                continue
            for obj in game.players[pid].exile:
                if obj.may_cast_free_by == player:  # Spelljack: the spell's owner may be another
                    out += _cast_candidates(game, player, obj, sources, alternatives=["without_paying"])
        for pid in game.order:  # a prepared permanent's copy: its current controller (strixhaven.prepare.10)
            for obj in game.players[pid].exile:
                if prepare.is_prepared_copy(obj) and getattr(game.objects.get(obj.prepared_for), "controller", None) == player:
                    out += _cast_candidates(game, player, obj, sources)
        out += _suspend_candidates(game, player, sources)
        out += _cycling_candidates(game, player, sources)
    out += _face_up_candidates(game, player, sources)
    out += _ability_candidates(game, player, split)
    return out


def spell_parts(game: Any, player: str, obj: GameObject, alternative: Any, modes: Any,
                kicked: list[int]) -> tuple[dict, list]:
    """The spell ability ``cast`` would put on the stack (CR 601.2b–c): the chosen modes'
    parts (CR 700.2), plus the parts of the kicker costs paid (CR 702.33d); a face-down
    spell has none (CR 702.37c). Raises IllegalAction ``invalid_mode``."""
    d = obj.definition
    if alternative == "morph":
        return {"targets": [], "effects": []}, []
    ability, modes = game._spell_ability(d, modes)
    for k in kicked:
        for e in (d.spell or {}).get("kicker_effects", ()):
            if e.get("kicker", 0) == k:
                ability = {"targets": list(ability.get("targets", ())) + list(e.get("targets", ())),
                           "effects": list(ability.get("effects", ())) + list(e.get("effects", ()))}
    return ability, modes


def _x_values(cost: ManaCost, x_symbols: int, available: int) -> list[int]:
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


def _cast_candidates(game: Any, player: str, obj: GameObject, sources: list[_Source],
                     alternatives: list | None = None, forced: str | None = None,
                     reduce_with: GameObject | None = None) -> list[Candidate]:
    """Casts of ``obj`` (CR 601.2): every alternative cost that applies (none, morph, a
    permanent granting one such as Fist of Suns, flashback, without paying), modes, kicker
    and buyback choices, X values, targets; a payment from the pool and ``sources``.
    ``reduce_with``: the creature tapped for harmonize, whose power reduces the total cost
    (CR 702.180a)."""
    d = obj.definition
    kws = _keywords(obj)
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
        mode_sets: list = [None]
        if not face_down and "modes" in spell and d.enchant is None:
            choose = spell.get("choose", 1)
            mode_sets = [list(m) for m in itertools.combinations(range(len(spell["modes"])), choose)]
        kicker_sets: list = [[]]
        if "kicker" in kws and not face_down and forced is None:
            n = len(kws["kicker"].get("costs", ()))
            kicker_sets = [list(s) for r in range(n + 1) for s in itertools.combinations(range(n), r)]
        buybacks = [False, True] if "buyback" in kws and not face_down and forced is None else [False]
        beholds = endure_behold.behold_options(game, player, obj) if not face_down else [(None, None)]  # CR 701.4a
        for modes, kicked, buyback, (behold, behold_mana) in itertools.product(mode_sets, kicker_sets, buybacks,
                                                                               beholds):
            try:
                ability, modes_used = spell_parts(game, player, obj, alt, modes, kicked)
                # as ``Game.cast`` decides the cost: suspend casts without paying, madness
                # for its madness cost (CR 702.62a, 702.35a), otherwise the alternative chosen
                paid_as = {"suspend": "without_paying", "madness": "madness"}.get(forced, alt)
                cost = game._total_cost(player, obj, paid_as, kws, kicked, buyback, extra=behold_mana)
            except IllegalAction:
                continue
            if not cost.present:
                continue
            xs = _x_values(cost, d.mana_cost.x, avail) if forced is None else [0]
            for x in xs:
                # CR 601.2f: X's value is in the total cost before reductions
                cost_x = game._total_cost(player, obj, paid_as, kws, kicked, buyback, extra=behold_mana, x=x)
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
                    inp: dict = {"action": "cast", "player": player, "card": obj.ref}
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
                    out.append(Candidate(_with_payment(inp, pay), group, "cast"))
    return out


def _suspend_candidates(game: Any, player: str, sources: list[_Source]) -> list[Candidate]:
    """CR 702.62a / 116.2f: exile a card with suspend from the hand with its time counters,
    paying its suspend cost, any time its owner could cast it."""
    out = []
    for obj in _distinct(game.players[player].hand):
        kw = _keywords(obj).get("suspend")
        if kw is None:
            continue
        try:
            game.check_can_cast(player, obj)
        except IllegalAction:
            continue
        pay = plan_payment(game, player, ManaCost.parse(kw["cost"]), sources=sources)
        if pay is not None:
            out.append(Candidate(_with_payment({"action": "suspend", "player": player, "card": obj.ref}, pay),
                                 f"suspend:{obj.definition.name}", "special"))
    return out


def _cycling_candidates(game: Any, player: str, sources: list[_Source]) -> list[Candidate]:
    """CR 702.29a: cycling and landcycling are activated from the hand (not while players
    can't cycle, CR 702.29e; not under split second, CR 702.61a)."""
    if any(eff.get("type") == "cant_cycle" for _, eff in ch.static_effects(game)):
        return []
    out = []
    for obj in _distinct(game.players[player].hand):
        for k in obj.chars.keywords:
            if k["keyword"] not in ("cycling", "landcycling"):
                continue
            pay = plan_payment(game, player, ManaCost.parse(k["cost"]), sources=sources)
            if pay is not None:
                inp = {"action": "activate", "player": player, "source": obj.ref, "ability": k["keyword"]}
                out.append(Candidate(_with_payment(inp, pay), f"cycle:{obj.definition.name}", "activate"))
    return out


def _face_up_candidates(game: Any, player: str, sources: list[_Source]) -> list[Candidate]:
    """CR 702.37e: turn a face-down permanent you control face up by paying its morph cost
    (a special action: any time you have priority, even under split second)."""
    out = []
    for perm in game.battlefield:
        if perm.controller != player or not perm.face_down:
            continue
        kw = _keywords(perm).get("morph")
        if kw is None:
            continue
        pay = plan_payment(game, player, ManaCost.parse(kw["cost"]), exclude=[perm.ref], sources=sources)
        if pay is not None:
            out.append(Candidate(_with_payment({"action": "turn_face_up", "player": player, "card": perm.ref}, pay),
                                 f"face_up:{perm.ref}", "special"))
    return out


def _ability_candidates(game: Any, player: str, split: bool) -> list[Candidate]:
    """CR 602.2 / 605: activated and mana abilities of permanents ``player`` controls, with
    their costs ({T}, {Q}, mana, sacrifice, life, discard, counters) and timing
    restrictions ("activate only as a sorcery"); only mana abilities under split second."""
    out = []
    hand = game.players[player].hand
    triggered = _triggered_mana(game, player)
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
            if cost.get("tap") and not _can_tap(game, src):
                continue
            if cost.get("untap") and not src.tapped:
                continue
            if cost.get("pay_life") and game.players[player].life < cost["pay_life"]:
                continue
            discards: list = [None]
            if cost.get("discard"):
                n = cost["discard"]
                if len(hand) < n:
                    continue
                discards = [[o.ref for o in c] for c in _spread(list(itertools.combinations(hand, n)), 3)]
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
                xs = _x_values(mana, mana.x, avail)
            for x in xs:
                pay = plan_payment(game, player, mana.with_x(x), sources=sources) if mana.mana_value() or mana.x else []
                if pay is None:
                    continue
                base = {"action": "activate", "player": player, "source": src.ref, "ability": idx}
                if rc and rc.get("count") == "X" or mana.x:
                    base["x"] = x
                if kind == "mana":
                    choices = _mana_choices(ab.get("add"), x)
                    if cost.get("tap") and triggered.get(src.ref, ({}, 0))[1]:
                        # the color of the triggered mana (Fertile Ground, CR 605.1b)
                        choices = [dict(c, extra_color=e) for c in choices for e in COLORS]
                    for extra in choices:
                        inp = dict(base, **extra)
                        out.append(Candidate(_with_payment(inp, list(pay)), "mana", "mana"))
                    continue
                item = StackItem(ref="ability#probe", kind="ability", controller=player, ability=ab, source=src.ref,
                                 source_card=src.card, source_lki=src, ability_index=idx, x=x)
                for targets in target_choices(game, item, ab.get("targets", ())):
                    for discard in discards:
                        inp = dict(base)
                        if targets:
                            inp["targets"] = targets
                        if discard is not None:
                            inp["discard"] = discard
                        out.append(Candidate(_with_payment(inp, list(pay)), f"ability:{src.ref}:{idx}", "activate"))
    return out


def _mana_choices(add: Any, x: int) -> list[dict]:
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


# --------------------------------------------------------------------------------- combat
def _attackers(game: Any, decision: dict) -> list[Candidate]:
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
    sets = [[]] + [[r] for r in able] + ([list(able)] if len(able) > 1 else [])
    out = [Candidate({"action": "declare_attackers", "player": player, "attackers": s},
                     "attack:none" if not s else "attack:all" if len(s) > 1 else "attack:one", "attack")
           for s in sets]
    for pw in planeswalkers.attackable(game, player) if able else ():
        out.append(Candidate({"action": "declare_attackers", "player": player,
                              "attackers": [{"attacker": r, "target": pw} for r in able]},
                             "attack:planeswalker", "attack"))
    return out


def _blockers(game: Any, decision: dict) -> list[Candidate]:
    """CR 509.1: no block; each able blocker on the first attacker it can block; a few
    random legal declarations (blockers checked with ``combat.can_block``; several
    blockers may block one attacker, CR 509.1a)."""
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
    decls: list[list] = [[]]
    if options:
        decls.append([{"blocker": b, "attacker": a[0]} for b, a in options.items()])
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
        if key in seen:
            continue
        seen.add(key)
        out.append(Candidate({"action": "declare_blockers", "player": player, "blocks": decl},
                             "block:none" if not decl else "block:some", "block"))
    return out


def _damage_context(game: Any, decision: dict) -> tuple:
    """What ``combat.combat_damage_step`` passes to its assignment check (CR 510.1c–d)."""
    a_ref = decision["attacker"]
    attacker = game.objects[a_ref]
    defender = game.combat.attackers[a_ref]
    blockers = [game.objects[b] for b in game.combat.blockers_of(a_ref) if b in game.objects]
    power, _ = ch.power_toughness(game, attacker)
    trample = ch.has_keyword(game, attacker, "trample")
    return attacker, blockers, defender, power, trample


def _assign_damage(game: Any, decision: dict) -> list[Candidate]:
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


def _validate_assignment(game: Any, decision: dict, inp: dict) -> None:
    attacker, blockers, defender, power, trample = _damage_context(game, decision)
    combat._check_assignment(game, inp, attacker, blockers, defender, power, trample)


# ------------------------------------------------------------------------------- choices
def _order_triggers(game: Any, decision: dict) -> list[Candidate]:
    """CR 603.3b: the player orders their simultaneous triggers (every order is legal)."""
    refs = list(decision.get("options", ()))
    perms = list(itertools.permutations(refs)) if len(refs) <= 4 else \
        [tuple(refs), tuple(reversed(refs))] + [tuple(refs[i:] + refs[:i]) for i in range(1, len(refs))]
    return [Candidate({"action": "order_triggers", "player": decision["player"], "order": list(p)}, "order", "choice")
            for p in _spread(perms, CHOICE_LIMIT)]


def _validate_order(game: Any, decision: dict, inp: dict) -> None:
    refs = list(decision.get("options", ()))
    order = inp.get("order")
    if not isinstance(order, list) or len(order) != len(refs) or sorted(map(str, order)) != sorted(refs) \
            or not all(isinstance(r, str) for r in order):
        raise IllegalAction("invalid_order", f"order all of {refs}")


def pending_target_item(game: Any, decision: dict) -> tuple[StackItem, list] | None:
    """The stack item whose targets a ``choose_targets`` decision asks for, and its target
    specs: a triggered ability being put on the stack (found by its ``ability_triggered``
    event, CR 603.3d) or a copy of a spell (storm, Twincast: the copied spell's specs,
    CR 707.10c). None if it can't be found."""

    ref, player = decision.get("ability"), decision["player"]
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
    src = game.objects.get(ev["source"]) or game.find(ev["source_card"])
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


def _choose_targets(game: Any, decision: dict) -> list[Candidate]:
    """CR 603.3d / 707.10c: targets for a triggered ability as it is put on the stack, or
    for a copy of a spell (the same or new targets)."""
    found = pending_target_item(game, decision)
    if found is None:
        return []
    item, specs = found
    choices = target_choices(game, item, specs)
    if decision.get("reason") == "copy_targets":  # the copied targets, even if illegal now (CR 707.10c)
        same = [t for t in item.targets if t is not None]
        choices = [same] + [t for t in choices if t != same]
    return [Candidate({"action": "choose_targets", "player": decision["player"], "targets": t}, "targets", "choice")
            for t in choices]


def _validate_targets(game: Any, decision: dict, inp: dict) -> None:
    found = pending_target_item(game, decision)
    if found is None:
        raise IllegalAction("invalid_target", "no pending ability or copy to target for")
    item, specs = found
    targets = inp.get("targets")
    if targets is not None and not isinstance(targets, list):
        raise IllegalAction("missing_targets", "targets is a list")
    game.choose_targets(item, specs, targets,
                        unchanged=item.targets if decision.get("reason") == "copy_targets" else None)


def _discard(game: Any, decision: dict) -> list[Candidate]:
    """CR 514.1 (cleanup) / 701.9: discard ``count`` cards of the player's choice."""
    player, n = decision["player"], decision.get("count", 1)
    hand = [o.ref for o in game.players[player].hand]
    combos = _spread(list(itertools.combinations(hand, n)), CHOICE_LIMIT) if len(hand) >= n else []
    return [Candidate({"action": "discard", "player": player, "cards": list(c)}, "discard", "choice") for c in combos]


def _validate_discard(game: Any, decision: dict, inp: dict) -> None:
    player, n = decision["player"], decision.get("count", 1)
    cards = inp.get("cards") or []
    if not isinstance(cards, list):
        raise IllegalAction("invalid_choice", "cards is a list")
    objs = [game.find(c) if isinstance(c, str) else None for c in cards]
    if len(objs) != n or len({id(o) for o in objs}) != n:
        raise IllegalAction("invalid_choice", f"discard exactly {n} different card(s)")
    for c, o in zip(cards, objs):
        if o is None or o.zone != "hand" or o.owner != player:
            raise IllegalAction("not_in_hand", f"{c} is not in {player}'s hand")


def _keyword_name(opt: Any) -> list[str]:
    kw = {"keyword": opt} if isinstance(opt, str) else dict(opt)
    name = kw["keyword"]
    if name == "landwalk":
        return ["landwalk:Island", "landwalk:Forest"]
    if name == "protection":
        return [f"protection:{c}" for c in ("white", "red")]
    if "n" in kw:
        return [f"{name}:{kw['n']}"]
    return [name]


def _choose(game: Any, decision: dict) -> list[Candidate]:
    """Choices while a spell or ability resolves, or as a permanent enters, by the
    decision's ``reason``: yes/no ("you may", CR 603.5; madness's exile under the 2006
    rules; echo, CR 702.30a), a card name (CR 614.12), the legendary permanent to keep
    (CR 704.5j), a source of damage (CR 615), a card found by a search (CR 701.19, or
    none, 701.19b), a keyword, colors, a creature type, a power/toughness change."""
    player = decision["player"]
    reason = decision.get("reason")

    def c(choice: Any, **extra: Any) -> Candidate:
        return Candidate({"action": "choose", "player": player, "choice": choice, **extra}, f"choose:{reason}", "choice")

    if reason == proliferate.REASON:  # all, none, or one of them (CR 701.34a)
        opts = list(decision.get("options") or ())
        return [c(opts), c([])] + [c([o]) for o in opts[:CHOICE_LIMIT]]
    if decision.get("options"):
        return [c(o) for o in decision["options"]]
    if reason == "card_name":
        return [c(name) for name in sorted(game.cards) if "Land" not in game.cards[name].types]
    if reason in ("optional", "madness"):
        return [c("yes"), c("no")]
    item = resolving_item(game)
    effects = item.ability.get("effects", ()) if item is not None else ()
    if reason in ("echo", "pay_or_sacrifice"):
        eff = _find_effect(effects, "pay_or_sacrifice")
        out = [c("no")]
        if eff is not None:
            pay = plan_payment(game, player, ManaCost.parse(eff["cost"]))
            if pay is not None:
                out.insert(0, c("yes", **({"pay_with": pay} if pay else {})))
        return out
    if reason == "pay_optional":
        eff = _find_effect(effects, "pay_optional")
        out = [c("no")]
        if eff is not None:
            cost = ManaCost.parse(dict(eff.get("cost", {})).get("mana", ""))
            try:
                game.players[player].pool.copy().pay(cost)
                out.insert(0, c("yes"))
            except IllegalAction:
                pass
        return out
    if reason == "search":
        eff = _find_effect(effects, "search_library")
        flt = dict((eff or {}).get("filter") or {})
        found = _distinct(o for o in game.players[player].library if ch.matches(game, o, flt, player))
        return [c(o.ref) for o in found] + [c("none")]
    if reason == "source_of_damage":
        eff = _find_effect(effects, "prevent_damage_from_chosen_source")
        flt = (eff or {}).get("source_filter")
        out = [c(it.ref) for it in game.stack if it.obj is not None and ch.matches(game, it, flt, player)]
        out += [c(o.ref) for o in game.battlefield if ch.matches(game, o, flt, player)]
        if not out:  # any object of the game the engine can find (a card in a hand, a library …)
            out = [c(o.ref) for o in _distinct(sorted(game.objects.values(), key=lambda o: o.ref))
                   if ch.matches(game, o, flt, player)][:CHOICE_LIMIT]
        return out
    if reason == "keyword_choice":
        eff = _find_effect(effects, "grant_keyword_choice")
        return [c(name) for opt in (eff or {}).get("options", ()) for name in _keyword_name(opt)]
    if reason == "pt_choice":
        eff = _find_effect(effects, "modify_pt_choice")
        return [c(list(o)) for o in (eff or {}).get("options", ())]
    if reason == "colors":
        return [c([name]) for name in COLOR_NAMES.values()] + [c(["white", "blue"])]
    if reason == "creature_type":
        return [c(t) for t in ("Elf", "Goblin", "Sliver", "Wizard")]
    return [c("yes"), c("no")]


def _validate_choose(game: Any, decision: dict, inp: dict) -> None:
    """The rules the engine applies to a ``choose`` answer, by reason (see :func:`_choose`).
    A reason it does not know is accepted if :func:`_choose` offers the answer."""
    player = decision["player"]
    reason = decision.get("reason")
    choice = inp.get("choice")
    if decision.get("options") and reason == "legend_rule":
        obj = game.find(choice) if isinstance(choice, str) else None
        if obj is None or obj.ref not in decision["options"]:
            raise IllegalAction("invalid_choice", "choose one of the options")
        return
    if reason == proliferate.REASON:
        proliferate.chosen(game, list(decision.get("options") or ()), choice)
        return
    if reason == "card_name":
        d = game.cards.get(choice) if isinstance(choice, str) else None
        if d is None or "Land" in d.types:
            raise IllegalAction("invalid_choice", "name a nonland card")
        return
    if reason in ("optional", "madness"):
        if choice not in ("yes", "no"):
            raise IllegalAction("invalid_choice", "answer yes or no")
        return
    item = resolving_item(game)
    effects = item.ability.get("effects", ()) if item is not None else ()
    if reason in ("echo", "pay_or_sacrifice"):
        if choice == "no":
            return
        if choice != "yes":
            raise IllegalAction("invalid_choice", "pay? answer yes or no")
        eff = _find_effect(effects, "pay_or_sacrifice")
        cost = ManaCost.parse(eff["cost"])
        ok, code = _dry(game, lambda g: g.pay_costs(player, {"mana": cost}, inp, x=0, source=None))
        if not ok:
            raise IllegalAction(code or "cannot_pay", "the cost can't be paid")
        return
    if reason == "pay_optional":
        if choice == "no":
            return
        if choice != "yes":
            raise IllegalAction("invalid_choice", "answer yes or no")
        eff = _find_effect(effects, "pay_optional")
        cost = ManaCost.parse(dict(eff.get("cost", {})).get("mana", ""))
        game.players[player].pool.copy().pay(cost, inp.get("mana"))
        return
    if reason == "search":
        if choice == "none":
            return
        eff = _find_effect(effects, "search_library")
        flt = dict((eff or {}).get("filter") or {})
        obj = game.find(choice) if isinstance(choice, str) else None
        if obj is None or obj not in game.players[player].library or not ch.matches(game, obj, flt, player):
            raise IllegalAction("invalid_choice", "choose a matching card of the library, or none")
        return
    if reason == "source_of_damage":
        eff = _find_effect(effects, "prevent_damage_from_chosen_source")
        src = game.resolve_target_ref(choice) if isinstance(choice, str) else None
        if src is None or isinstance(src, str) or not ch.matches(game, src, (eff or {}).get("source_filter"), player):
            raise IllegalAction("invalid_choice", "choose a matching source")
        return
    offered = [cand.input["choice"] for cand in _choose(game, decision)]
    if choice not in offered:
        raise IllegalAction("invalid_choice", f"choose one of {offered}")


def _may_cast(game: Any, decision: dict) -> list[Candidate]:
    """CR 702.62a (suspend: cast it without paying its mana cost) and 702.35a (madness: cast
    it for its madness cost) as the trigger resolves, or decline (``choose no``)."""
    player, reason = decision["player"], decision.get("reason")
    obj = game.find(decision.get("card"))
    out = []
    if not (obj is not None and reason == "suspend" and game.rules.suspend_cast_mandatory
            and game._payable(player, obj) == "pool"):  # 2006: cast it if able (502.59a)
        out.append(Candidate({"action": "choose", "player": player, "choice": "no"}, "decline", "decline"))
    if obj is not None and obj.zone == "exile":
        out += _cast_candidates(game, player, obj, mana_sources(game, player), alternatives=[None], forced=reason)
    return out


def _accepts_may_cast(game: Any, decision: dict, inp: dict) -> tuple[bool, str | None]:
    player, kind = decision["player"], decision.get("reason")
    obj = game.find(decision.get("card"))
    if inp.get("player", player) != player:
        return False, "wrong_decision"
    action = inp.get("action")
    if action == "choose":
        if inp.get("choice") != "no":
            return False, "invalid_choice"
        if kind == "suspend" and game.rules.suspend_cast_mandatory and game._payable(player, obj) == "pool":
            return False, "invalid_choice"
        return True, None
    if action != "cast":
        return False, "wrong_decision"
    if inp.get("card") not in (obj.card, obj.ref):
        return False, "invalid_choice"
    return _dry(game, lambda g: g.cast(player, inp, forced=kind))


def _mulligan(game: Any, decision: dict) -> list[Candidate]:
    """CR 103.5: keep (London mulligan: with one card on the bottom per mulligan taken) or
    take a mulligan (not with an empty hand under the draw-one-fewer rule)."""
    player, taken = decision["player"], decision.get("mulligans", 0)
    hand = [o.ref for o in game.players[player].hand]
    need = taken if game.rules.mulligan == "london" else 0
    out = []
    if len(hand) >= need:
        for bottom in _spread([list(c) for c in itertools.combinations(hand, need)], 2):
            inp: dict = {"action": "keep", "player": player}
            if bottom:
                inp["bottom"] = bottom
            out.append(Candidate(inp, "keep", "keep"))
    if not (game.rules.mulligan == "draw_one_fewer" and not hand):
        out.append(Candidate({"action": "mulligan", "player": player}, "mulligan", "mulligan"))
    return out


def _validate_mulligan(game: Any, decision: dict, inp: dict) -> None:
    player, taken = decision["player"], decision.get("mulligans", 0)
    if inp.get("player", player) != player or inp.get("action") not in ("keep", "mulligan"):
        raise IllegalAction("wrong_decision", f"{player} must answer 'keep' or 'mulligan'")
    if inp["action"] == "keep":
        bottom = inp.get("bottom") or []
        need = taken if game.rules.mulligan == "london" else 0
        if not isinstance(bottom, list) or len(bottom) != need or len(set(map(repr, bottom))) != need:
            raise IllegalAction("invalid_choice", f"put exactly {need} card(s) on the bottom (CR 103.5)")
        objs = [game.find(c) if isinstance(c, str) else None for c in bottom]
        if any(o is None or o.zone != "hand" or o.owner != player for o in objs) or len({id(o) for o in objs}) != need:
            raise IllegalAction("not_in_hand", "the cards put on the bottom must be in the hand")
        return
    if game.rules.mulligan == "draw_one_fewer" and not game.players[player].hand:
        raise IllegalAction("invalid_choice", "no cards left to mulligan to")


_ENUMERATORS: dict[str, Callable[[Any, dict], list[Candidate]]] = {
    "priority": _priority,
    "declare_attackers": _attackers,
    "declare_blockers": _blockers,
    "assign_damage": _assign_damage,
    "order_triggers": _order_triggers,
    "choose_targets": _choose_targets,
    "discard": _discard,
    "choose": _choose,
    "may_cast": _may_cast,
    "mulligan": _mulligan,
}

_VALIDATORS: dict[str, Callable[[Any, dict, dict], None]] = {
    "assign_damage": _validate_assignment,
    "order_triggers": _validate_order,
    "choose_targets": _validate_targets,
    "discard": _validate_discard,
    "choose": _validate_choose,
}


def iter_groups(cands: list[Candidate]) -> Iterator[tuple[str, list[Candidate]]]:
    """The candidates grouped by ``group``, in first-seen order."""
    groups: dict[str, list[Candidate]] = {}
    for c in cands:
        groups.setdefault(c.group, []).append(c)
    yield from groups.items()
