"""Differential fuzzing through protocol v1 (``mtg-judge fuzz --engine "CMD"``).

Fixtures check what someone wrote down; self-play (``mtg_judge.conformance.selfplay``)
checks the reference engine against its own invariants. The fuzzer finds where *another
engine disagrees with the reference engine* on games nobody wrote:

1. **A game** is played on the reference engine with self-play's driver, decks and seeds
   (:func:`selfplay.play_record`, :class:`selfplay.SelfPlayInputs`, :func:`selfplay.build_setup`,
   ``fixtures/decks``): game ``i`` has seed ``SEED + i``, the deck pairing of self-play's game
   ``i``, one ruleset, self-play's hostile inputs (illegal inputs the reference rejects), and
   stops at the turn cap.
2. **A scenario** is made of it in the fixture format (docs/FORMAT.md §3): its setup, its
   inputs as the ``script``, its ruleset, and a checkpoint after every ``checkpoint_every``
   inputs (and after the last one) carrying the reference engine's state there
   (``expect.checkpoints[].state``).
3. Both engines play the scenario: the reference engine in-process (``engine.run_scenario``,
   which gives exactly what ``mtg-judge serve`` gives), the engine under test through
   protocol v1 (:class:`protocol.ProtocolEngine`, one process per worker).
4. **A divergence** is the first of: an input one engine accepts and the other rejects
   (read off the ``action_rejected`` events; both engines must declare ``events``), a
   checkpoint (or the final state) whose *comparable state* differs
   (:func:`comparable_state`, docs/PROTOCOL.md §11: the parts both engines declare), and,
   when both declare ``events``, a different normalised event sequence
   (:func:`comparable_events`). Its **signature** is its kind and the first differing field
   or event type (``state:battlefield.tapped``, ``rejection:cast:accepted/mana_unpaid``,
   ``events:damage_dealt/life_lost``); divergences are grouped by signature.
5. **Shrinking**: for each distinct signature, the first game showing it is shrunk by
   delta debugging (:func:`selfplay.ddmin`) on its script, each candidate replayed
   tolerantly on the reference engine (as self-play shrinks its failures) and played on
   both engines again, until the shortest script that still diverges with the same
   signature is found; it is written as a fixture draft (``--out DIR``), with both engines'
   logs and states beside it.

Runs are bounded (games, turn cap, a read timeout per engine reply, a budget of replays
per shrink) and seeded: the same arguments give the same figures and the same drafts
(the shrink's time bound, ``Settings.shrink_seconds``, is a safety net that a normal run
never reaches).
"""

from __future__ import annotations

import functools
import json
import os
import re
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Collection

from mtg_judge.conformance import selfplay as sp
from mtg_judge.conformance.canonical import dumps
from mtg_judge.conformance.protocol import DEFAULT_STATE_PARTS as DEFAULT_PARTS  # noqa: E402
from mtg_judge.conformance.protocol import STATE_PARTS
from mtg_judge.engine.rulesets import DEFAULT_RULESET

#: Keys dropped from events before they are compared: free text and input indexes.
EVENT_KEYS_IGNORED = frozenset({"message", "at"})

_REF = re.compile(r"^([a-z][a-z0-9_]*?)(?:#(\d+))?$")
_CREATED = re.compile(r"^(token|ability|copy|combat_damage|prepared)#\d+$")


# ------------------------------------------------------------------------ comparable parts
def declared_parts(implementation: dict | None) -> tuple[list[str], list[str]]:
    """The state parts an engine's handshake declares (``implementation.state_parts``) and
    warnings about it. No key (an engine written before the extension): :data:`DEFAULT_PARTS`.
    Unknown names are ignored with a warning; a value that is not a list of strings is a
    warning and means the default."""
    impl = implementation or {}
    if "state_parts" not in impl:
        return list(DEFAULT_PARTS), []
    value = impl["state_parts"]
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        return list(DEFAULT_PARTS), ["implementation.state_parts is not a list of strings: using the default parts"]
    unknown = sorted(set(value) - set(STATE_PARTS))
    warnings = [f"unknown state part(s) {', '.join(map(repr, unknown))} ignored (known: "
                f"{', '.join(STATE_PARTS)})"] if unknown else []
    return [p for p in STATE_PARTS if p in value], warnings


def alias_names(setup: dict) -> dict[str, str]:
    """``{alias: card name}`` of every card of a setup (FORMAT §3.1)."""
    out = {}
    for player in setup.get("players", []):
        for zone in ("library", "hand", "graveyard", "exile", "battlefield"):
            for entry in player.get(zone, []) or []:
                out[entry["alias"]] = entry["card"]
    return out


class _Namer:
    """Card names for references (FORMAT §1): ``alias`` and ``alias#n`` -> the card's name;
    a token's reference -> its name on the battlefield (``token`` elsewhere); abilities and
    copies -> their kind. Player ids and other strings are kept."""

    def __init__(self, names: dict[str, str], battlefield: dict | None = None) -> None:
        self.names = names
        self.battlefield = battlefield or {}

    def __call__(self, value: Any) -> Any:
        if not isinstance(value, str):
            return value
        if value in self.battlefield and self.battlefield[value].get("token"):
            return self.battlefield[value].get("name") or "token"
        m = _CREATED.match(value)
        if m:
            return m.group(1)
        m = _REF.match(value)
        if m and m.group(1) in self.names:
            return self.names[m.group(1)]
        return value


#: how a permanent that is every creature type is compared (PROTOCOL §11.1)
EVERY_CREATURE_TYPE = "(every creature type)"


def _subtypes(subtypes: list[str], keywords: list[str]) -> list[str]:
    """A permanent's subtypes as compared (sorted). CR 702.73a: changeling means "this object
    is every creature type", and CR 205.3m's list of creature types grows with each set, so
    two correct engines list different types for it: a permanent with the keyword
    ``changeling`` that reports at least one creature type, or that reports every creature
    type the reference knows (Amoeboid Changeling's "gains all creature types"), has its
    creature types compared as the one entry :data:`EVERY_CREATURE_TYPE`; its other
    subtypes as they are. A changeling that lost all creature types (it reports none) is
    compared as it is."""
    from mtg_judge.engine.creature_types import (
        creature_types,  # CR 205.3m (engine/data/creature_types.json)
    )
    every = creature_types()
    mine = [s for s in subtypes if s in every]
    if mine and ("changeling" in keywords or every <= set(subtypes)):
        return sorted([s for s in subtypes if s not in every] + [EVERY_CREATURE_TYPE])
    return sorted(subtypes)


def comparable_state(state: dict, names: dict[str, str], parts: Collection[str]) -> dict:
    """The parts ``parts`` (:data:`STATE_PARTS`) of a state (FORMAT §4), normalised so that
    two engines playing the same scenario can be compared: objects by card name (no object
    references, aliases or token numbers), hidden orders as multisets (sorted lists),
    permanents grouped by name, each name's permanents sorted. docs/PROTOCOL.md §11."""
    parts = set(parts)
    battlefield = state.get("battlefield") or {}
    name = _Namer(names, battlefield)
    out: dict[str, Any] = {}
    if "turn" in parts:
        out["turn"] = {k: state.get(k) for k in ("turn", "active_player", "step")}
    if "priority" in parts:
        out["priority"] = state.get("priority")
    players: dict[str, dict] = {}
    for pid, p in sorted((state.get("players") or {}).items()):
        q: dict[str, Any] = {}
        if "life" in parts:
            q["life"], q["lost"] = p.get("life"), bool(p.get("lost"))
        exile = p.get("exile", p.get("removed_from_game", []))
        if "zones" in parts:
            q["hand"] = sorted(name(c) for c in p.get("hand", []))
            q["graveyard"] = sorted(name(c) for c in p.get("graveyard", []))
            q["exile"] = sorted(name(c) for c in exile)
            q["library_size"] = len(p.get("library", []))
        if "library_order" in parts:
            q["library"] = [name(c) for c in p.get("library", [])]
        if "mana_pool" in parts:
            q["mana_pool"] = {k: v for k, v in sorted((p.get("mana_pool") or {}).items()) if v}
        if "lands_played" in parts:
            q["lands_played"] = p.get("lands_played", 0)
        if q:
            players[pid] = q
    if players:
        out["players"] = players
    perm_fields = []
    if "battlefield" in parts:
        perm_fields += ["owner", "controller", "tapped", "token", "face_down"]
    if "damage" in parts:
        perm_fields.append("damage")
    if "counters" in parts:
        perm_fields.append("counters")
    if "attachments" in parts:
        perm_fields.append("attached_to")
    if "characteristics" in parts:
        perm_fields += ["power", "toughness", "types", "subtypes", "colors", "keywords"]
    if "summoning_sick" in parts:
        perm_fields.append("summoning_sick")
    if perm_fields:  # the permanents, by name (each part alone still sees which permanents there are)
        groups: dict[str, list] = {}
        for key, perm in battlefield.items():
            rec = {}
            for f in perm_fields:
                v = perm.get(f)
                if f in ("tapped", "token", "face_down", "summoning_sick"):
                    v = bool(v)
                elif f == "damage":
                    v = v or 0
                elif f == "counters":
                    v = {k: n for k, n in sorted((v or {}).items()) if n}
                elif f == "attached_to":
                    v = name(v) if v else None
                elif f == "subtypes":
                    v = _subtypes(v or [], perm.get("keywords") or [])
                elif f in ("types", "colors", "keywords"):
                    v = sorted(v or [])
                rec[f] = v
            label = perm.get("name") or ("face-down" if perm.get("face_down") else name(key))
            groups.setdefault(label, []).append(rec)
        out["battlefield"] = {k: sorted(v, key=dumps) for k, v in sorted(groups.items())}
    if "stack" in parts:
        out["stack"] = [{"kind": it.get("kind"), "name": it.get("name") if it.get("kind") == "spell" else
                         name(it.get("source") or it.get("card")), "controller": it.get("controller"),
                         "targets": [name(t) for t in it.get("targets") or []]}
                        for it in state.get("stack") or []]
    if "combat" in parts:
        combat = state.get("combat")
        out["combat"] = None if combat is None else {
            "attackers": sorted([name(a), p] for a, p in (combat.get("attackers") or {}).items()),
            "blockers": sorted([name(b), name(a)] for b, a in (combat.get("blockers") or {}).items())}
    if "game_over" in parts:
        over = state.get("game_over")
        out["game_over"] = None if over is None else {
            "winners": sorted(over.get("winners") or []), "losers": sorted(over.get("losers") or []),
            "draw": bool(over.get("draw"))}
    return out


def comparable_events(events: list, names: dict[str, str]) -> list:
    """Events normalised for comparison (docs/PROTOCOL.md §11): object references become
    card names (tokens, abilities and copies their kind), ``message`` and ``at`` are
    dropped; the order is kept."""
    name = _Namer(names)

    def norm(v: Any) -> Any:
        if isinstance(v, dict):
            return {k: norm(x) for k, x in v.items() if k not in EVENT_KEYS_IGNORED}
        if isinstance(v, list):
            return [norm(x) for x in v]
        return name(v)
    return [norm(e) for e in events]


def first_difference(a: Any, b: Any, path: tuple = ()) -> tuple[tuple, Any, Any] | None:
    """The first place where two JSON values differ: ``(path, a_value, b_value)``, or None.
    Dicts are walked in sorted key order (a key missing on one side differs there); lists of
    different lengths differ as wholes (``path`` ends with ``"len"``), except lists of
    dicts, whose items are walked first."""
    if isinstance(a, dict) and isinstance(b, dict):
        for k in sorted(set(a) | set(b)):
            if k not in a or k not in b:
                return path + (k,), a.get(k, "<absent>"), b.get(k, "<absent>")
            d = first_difference(a[k], b[k], path + (k,))
            if d:
                return d
        return None
    if isinstance(a, list) and isinstance(b, list) and a and b and all(isinstance(x, dict) for x in a + b):
        for i, (x, y) in enumerate(zip(a, b)):
            d = first_difference(x, y, path + (i,))
            if d:
                return d
        if len(a) != len(b):
            return path + ("len",), len(a), len(b)
        return None
    if dumps(a) != dumps(b):
        return path, a, b
    return None


def _state_signature(path: tuple) -> str:
    """``players.alice.life`` -> ``players.life``, ``battlefield.Forest.0.tapped`` ->
    ``battlefield.tapped``: player ids, card names and indexes left out."""
    out = []
    skip_next = False
    for i, seg in enumerate(path):
        if skip_next:
            skip_next = False
            continue
        if isinstance(seg, int):
            continue
        out.append(str(seg))
        if seg in ("players", "battlefield") and i == 0:
            skip_next = True
    return ".".join(out)


# ------------------------------------------------------------------------------ divergences
@dataclass
class Divergence:
    """Where the engine under test first disagrees with the reference engine in a game.
    ``kind``: ``rejection``, ``state``, ``events`` or ``error``; ``at``: the script index of
    the input (rejection) or of the checkpoint (state), None otherwise; ``signature``: kind
    plus the first differing field or event type; ``detail``: a readable account."""

    kind: str
    signature: str
    at: int | None
    detail: str


@dataclass
class Run:
    """One engine's answer to a scenario: ``result`` (events, state, checkpoints) or an
    error, or a skip."""

    result: dict | None = None
    error: str | None = None
    skipped: str | None = None


def _rejections(events: list) -> dict[int, str]:
    out: dict[int, str] = {}
    for e in events:
        if e.get("type") == "action_rejected" and isinstance(e.get("at"), int):
            out.setdefault(e["at"], e.get("code"))
    return out


def compare(script: list, names: dict[str, str], ref: dict, other: dict, parts: list[str],
            events: bool, rejections: bool | None = None) -> Divergence | None:
    """The first divergence between two results of the same scenario (module docstring,
    item 4), or None. ``ref`` and ``other`` are ``run`` results (``events``, ``state``,
    ``checkpoints``); ``events`` says whether both engines declared the ``events``
    capability and event sequences are to be compared; ``rejections`` (default: ``events``)
    whether both declared ``events``, so that rejections can be read off the logs."""
    found: list[tuple[tuple, Divergence]] = []
    if events if rejections is None else rejections:
        ra, ob = _rejections(ref.get("events", [])), _rejections(other.get("events", []))
        for k in sorted(set(ra) ^ set(ob)):
            if 0 <= k < len(script):
                action = script[k].get("action") if isinstance(script[k], dict) else "?"
                a, b = ra.get(k, "accepted"), ob.get(k, "accepted")
                sig = f"rejection:{action}:{'accepted' if a == 'accepted' else 'rejected'}/" \
                      f"{'accepted' if b == 'accepted' else 'rejected:' + str(b)}"
                found.append(((k, 0), Divergence("rejection", sig, k, f"input {k} {dumps(script[k])}: "
                                                 f"reference {a}, engine {b}")))
                break
    checkpoints = [(cp.get("after"), cp.get("state")) for cp in ref.get("checkpoints", [])]
    theirs = {cp.get("after"): cp.get("state") for cp in other.get("checkpoints", []) if isinstance(cp, dict)}
    states = [(after, st, theirs.get(after)) for after, st in checkpoints if after in theirs]
    if "state" in ref and "state" in other:
        states.append((len(script) - 1, ref["state"], other["state"]))
    for after, ref_state, other_state in sorted(states, key=lambda t: t[0]):
        if not isinstance(other_state, dict) or ref_state == other_state:
            continue
        ca, cb = comparable_state(ref_state, names, parts), comparable_state(other_state, names, parts)
        d = first_difference(ca, cb)
        if d:
            path, x, y = d
            found.append(((after, 1), Divergence("state", "state:" + _state_signature(path), after,
                                                 f"after input {after}: {'.'.join(map(str, path))}: reference "
                                                 f"{_short(x)}, engine {_short(y)}")))
            break
    if events and not found and ref.get("events") != other.get("events"):
        ea, eb = comparable_events(ref.get("events", []), names), comparable_events(other.get("events", []), names)
        for i in range(max(len(ea), len(eb))):
            x = ea[i] if i < len(ea) else None
            y = eb[i] if i < len(eb) else None
            if x is None or y is None or dumps(x) != dumps(y):
                tx = x.get("type") if x else "end"
                ty = y.get("type") if y else "end"
                if tx == ty:
                    d = first_difference(x, y)
                    sig = f"events:{tx}.{'.'.join(str(s) for s in d[0] if not isinstance(s, int))}" if d else f"events:{tx}"
                else:
                    sig = f"events:{tx}/{ty}"
                found.append(((10 ** 9, 2), Divergence("events", sig, None,
                                                       f"event {i}: reference {_short(x)}, engine {_short(y)}")))
                break
    if not found:
        return None
    return min(found, key=lambda t: t[0])[1]


def _short(v: Any, limit: int = 200) -> str:
    text = dumps(v) if not isinstance(v, str) else v
    return text if len(text) <= limit else text[:limit] + "…"


# ------------------------------------------------------------------------------- settings
@dataclass
class FuzzSettings:
    """How a fuzz run plays and compares games (the options of ``mtg-judge fuzz``)."""

    games: int = 100
    seed: int = 0
    ruleset: str = DEFAULT_RULESET
    turn_cap: int = 8
    checkpoint_every: int = 10
    deck_paths: tuple = ()
    deck_size: int | None = None
    hostile_rate: float = sp.Settings.hostile_rate
    timeout: float = 30.0           # seconds for each reply of the engine under test
    shrink: bool = True
    shrink_tests: int = 150          # replays (on both engines) per shrink
    shrink_seconds: float = 300.0    # a safety net; a run that reaches it is not reproducible
    events: bool = True              # compare event sequences when both engines declare ``events``
    opening: str = "start"           # "start": start_of_game setups; "kept": the position after the mulligans
    decks: tuple = ()                # the decks, read once by :func:`run_fuzz` (a run never rereads a deck file)

    def deck_list(self) -> list:
        return list(self.decks) if self.decks else sp.load_decks(self.deck_paths or None)

    def selfplay(self) -> sp.Settings:
        return sp.Settings(turn_cap=self.turn_cap, deck_size=self.deck_size, hostile_rate=self.hostile_rate,
                           resume_every=0)


@dataclass
class GameOutcome:
    """What one game gave: its size, what was compared, and its divergence (if any)."""

    index: int
    seed: int
    inputs: int = 0
    checkpoints: int = 0
    skipped: str | None = None
    reference_failure: str | None = None
    divergence: Divergence | None = None


@dataclass
class Shrunk:
    """A distinct divergence after shrinking: the draft and both engines' runs of it."""

    signature: str
    game: int
    seed: int
    original_inputs: int
    script: list
    essential: int
    tests: int
    divergence: Divergence | None
    draft: dict
    logs: dict


# --------------------------------------------------------------------------- one game
def game_record(index: int, fz: FuzzSettings) -> tuple[sp.Record, str | None]:
    """Play game ``index`` on the reference engine as self-play would (seed ``fz.seed +
    index``, self-play's deck pairing and low-life games) under ``fz.ruleset``, up to the
    turn cap. Returns the record and, if a self-play invariant broke, its message (the
    record then stops at the input that broke it)."""
    decks = fz.deck_list()
    settings = fz.selfplay()
    low = settings.low_life_every and index % settings.low_life_every == settings.low_life_every - 1
    seed = fz.seed + index
    setup = sp.build_setup(seed, sp._decks_for(index, decks), settings.deck_size, settings.low_life if low else None)
    if fz.opening == "kept":
        setup = kept_setup(setup, fz)
    record = sp.Record(fz.ruleset, setup)
    _, _, err = sp.play_record(record, settings, sp.Stats(), checks=False)
    if err is not None:
        n = (err.at + 1) if err.at is not None else 0
        record.inputs, record.marks, record.contexts = record.inputs[:n], record.marks[:n], record.contexts[:n]
        return record, str(err)
    return record, None


def kept_setup(setup: dict, fz: FuzzSettings) -> dict:
    """The position after the mulligans of a ``start_of_game`` setup, as a plain setup
    (``--opening kept``, for engines that can't start a game themselves): the game is played
    on the reference engine through its mulligans (self-play's driver), and the setup gives
    each player's library (in its order), hand and life, in turn 1's upkeep with the same
    seed. The game then played from it is a new game (the driver draws again)."""
    from mtg_judge.engine.errors import ScriptExhausted
    from mtg_judge.engine.scenario import ScriptInputs, build_game

    first = sp.Record(fz.ruleset, setup)
    sp.play_record(first, sp.Settings(**{**fz.selfplay().__dict__, "turn_cap": 1, "hostile_rate": 0.0}),
                   sp.Stats(), checks=False)
    n = 0
    while n < len(first.contexts) and first.contexts[n][2] == "mulligan":
        n += 1
    game = build_game({"setup": setup}, fz.ruleset, sp._card_db(), ScriptInputs(first.inputs[:n]))
    try:
        game.play()
    except ScriptExhausted:
        pass
    state = game.state()
    names = alias_names(setup)
    players = []
    for p in setup["players"]:
        ps = state["players"][p["id"]]
        entry = {"id": p["id"], "life": ps["life"],
                 "library": [{"alias": a, "card": names[a]} for a in ps["library"]],
                 "hand": [{"alias": a, "card": names[a]} for a in ps["hand"]]}
        players.append(entry)
    return {"seed": setup["seed"], "turn": 1, "active_player": state["active_player"], "step": "upkeep",
            "players": players}


def make_fixture(record: sp.Record, script: list, checkpoints: list | None, fid: str, title: str) -> dict:
    """A scenario in the fixture format (FORMAT §3) for ``script`` from ``record``'s setup."""
    fixture: dict[str, Any] = {"id": fid, "title": title, "rulings": [], "rulesets": [record.ruleset], "setup": record.setup,
               "script": script, "expect": {}}
    if checkpoints:
        fixture["expect"]["checkpoints"] = checkpoints
    return fixture


@functools.lru_cache(maxsize=1)
def card_files() -> dict[str, dict]:
    """Every card file (``{name: card JSON}``), read once per process; a card file that
    doesn't validate (someone is editing it) is left out."""
    from mtg_judge.conformance.loader import load_cards_lenient
    return load_cards_lenient()[0]


def reference_run(fixture: dict, ruleset: str) -> dict:
    """The reference engine's result for ``fixture`` (in-process), as plain JSON. It is
    given the cards the protocol would send (the setup's, :func:`protocol.cards_used`), not
    every card file: a choice that names a card (CR 201.3) is judged against the cards the
    engine knows, so this is exactly what ``mtg-judge serve`` answers."""
    from mtg_judge.conformance.protocol import build_scenario
    from mtg_judge.engine import run_scenario
    db = sp._card_db()
    used = build_scenario(fixture, {n: c for n, c in card_files().items() if n in db})["cards"]
    result: dict = json.loads(dumps(run_scenario(fixture, ruleset, cards={name: db[name] for name in used})))
    return result


class Duel:
    """The engine under test (a :class:`protocol.ProtocolEngine`) beside the reference
    engine: plays a fixture on both and compares."""

    def __init__(self, command: str, fz: FuzzSettings) -> None:
        from mtg_judge.conformance.protocol import (
            ProtocolEngine,
            reference_implementation,
        )
        self.fz = fz
        self.cards = card_files()
        self.engine = ProtocolEngine(command, timeout=fz.timeout)
        impl = self.engine.start()
        ref_parts, _ = declared_parts(reference_implementation())
        their_parts, self.warnings = declared_parts(impl)
        self.parts = [p for p in ref_parts if p in their_parts]
        caps = self.engine.capabilities
        self.rejections = "events" in caps
        self.events = fz.events and self.rejections
        self.checkpoints = "checkpoints" in caps
        self.implementation = impl

    def close(self) -> None:
        self.engine.stop()

    def play(self, fixture: dict) -> Run:
        from mtg_judge.conformance.protocol import EngineError, Skipped, build_scenario
        try:
            reply = self.engine.run(build_scenario(fixture, self.cards), fixture["rulesets"][0])
        except EngineError as exc:
            return Run(error=f"{exc.kind}: {exc}")
        if isinstance(reply, Skipped):
            return Run(skipped=reply.message or "skipped")
        return Run(result=reply.result())

    def diverge(self, fixture: dict, ref: dict) -> tuple[Divergence | None, Run]:
        run = self.play(fixture)
        if run.error is not None:
            kind = run.error.split(":", 1)[0]
            return Divergence("error", f"error:{kind}", None, run.error), run
        if run.skipped is not None:
            return None, run
        names = alias_names(fixture["setup"])
        assert run.result is not None  # neither errored nor skipped
        return compare(fixture["script"], names, ref, run.result, self.parts, self.events, self.rejections), run

    def game(self, index: int) -> tuple[GameOutcome, sp.Record]:
        fz = self.fz
        record, problem = game_record(index, fz)
        out = GameOutcome(index, fz.seed + index, inputs=len(record.inputs), reference_failure=problem)
        n = len(record.inputs)
        afters = list(range(fz.checkpoint_every - 1, n - 1, fz.checkpoint_every)) if fz.checkpoint_every else []
        fixture = make_fixture(record, record.inputs, [{"after": a} for a in afters],
                               f"fuzz.seed-{out.seed}", f"Fuzz game {index} (seed {out.seed})")
        ref = reference_run(fixture, fz.ruleset)
        for cp in fixture["expect"].get("checkpoints", []):  # the reference engine's state, as the brief of §11 says
            cp["state"] = next(c["state"] for c in ref["checkpoints"] if c["after"] == cp["after"])
        div, run = self.diverge(fixture, ref)
        out.divergence = div
        out.skipped = run.skipped
        if run.result is not None:
            out.checkpoints = (len(run.result.get("checkpoints", [])) if self.checkpoints else 0) + 1
        return out, record


# ------------------------------------------------------------------------------- shrinking
def shrink(duel: Duel, record: sp.Record, div: Divergence) -> Shrunk:
    """The shortest script found (ddmin, :func:`selfplay.ddmin`) that still diverges with
    ``div.signature``; candidates are fed tolerantly to the reference engine (each input
    waits for a decision like the one it answered, default answers meanwhile), so what a
    candidate plays is the record of what was fed."""
    fz = duel.fz
    n_in = len(record.inputs) if div.at is None else div.at + 1
    items = list(zip(record.inputs[:n_in], record.marks[:n_in], record.contexts[:n_in]))
    quiet = sp.Settings(**{**fz.selfplay().__dict__, "hostile_rate": 0.0, "turn_cap": 10 ** 6,
                           "max_inputs": 4 * len(items) + 1000})
    deadline = time.monotonic() + fz.shrink_seconds
    tests = 0
    best: list = [None, None, None, None]  # fed record, divergence, run, reference result

    def feed(cand: list) -> sp.Record | None:
        fed = sp.Record(record.ruleset, record.setup)
        marks = ["given" if m in ("play", "hostile") else m for _, m, _ in cand]
        _, _, err = sp.play_record(fed, quiet, sp.Stats(), prefix=[i for i, _, _ in cand], prefix_marks=marks,
                                   then="stop", check_stuck=False, prefix_contexts=[c for _, _, c in cand])
        return None if err is not None else fed

    def attempt(script: list) -> tuple[Divergence | None, Run, dict]:
        fixture = make_fixture(record, script, None, "fuzz.shrink", "shrinking")
        ref = reference_run(fixture, record.ruleset)
        d, run = duel.diverge(fixture, ref)
        return d, run, ref

    def test(cand: list) -> bool:
        nonlocal tests
        tests += 1
        fed = feed(cand)
        if fed is None:
            return False
        d, run, ref = attempt(fed.inputs)
        if d is not None and d.signature == div.signature:
            best[:] = [fed, d, run, ref]
            return True
        return False

    essential = n_in
    if test(items):
        items = sp.ddmin(items, test, lambda: tests < fz.shrink_tests and time.monotonic() < deadline)
        test(items)  # ``best`` is what the final candidate fed
        essential = len(items)
    fed, d, run, ref = best
    if fed is None:  # it does not reproduce alone: keep the game's prefix as it was
        fed = sp.Record(record.ruleset, record.setup, record.inputs[:n_in], record.marks[:n_in],
                        record.contexts[:n_in])
        d, run, ref = attempt(fed.inputs)
    script = sp.compress_script(fed, fed.inputs, fed.marks, fed.contexts)
    if script != fed.inputs:
        d2, run2, ref2 = attempt(script)
        if d2 is not None and d2.signature == div.signature:
            d, run, ref = d2, run2, ref2
        else:
            script = fed.inputs
    seed = record.seed
    draft = fixture_draft(record, script, div, d, duel, len(record.inputs), essential, tests)
    logs = {"reference": {"events": ref.get("events"), "state": ref.get("state")},
            "engine": ({"events": run.result.get("events"), "state": run.result.get("state")} if run.result
                       else {"error": run.error, "skipped": run.skipped})}
    return Shrunk(div.signature, -1, seed, len(record.inputs), script, essential, tests, d, draft, logs)


def _slug(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")[:60] or "divergence"


def fixture_draft(record: sp.Record, script: list, original: Divergence, shrunk: Divergence | None, duel: Duel,
                  n_inputs: int, essential: int, tests: int) -> dict:
    """A fixture draft (FORMAT §3) for a shrunk divergence: setup, script, ruleset, a
    checkpoint at the divergence for a state divergence, and notes naming both engines and
    what differed; ``title``, ``rulings`` and the expectation are left to the author (they
    come from a ruling, not from either engine)."""
    d = shrunk or original
    name = duel.implementation.get("name", "the engine")
    notes = (f"Draft written by mtg-judge fuzz (seed {record.seed}, ruleset {record.ruleset}): the reference "
             f"engine and {name} diverge ({d.signature}): {d.detail}. Shrunk from {n_inputs} inputs to "
             f"{len(script)} ({essential} kept by delta debugging, {tests} replays on both engines). "
             "To do: decide which engine is right, then the title, the rulings it shows, the expectation.")
    draft: dict[str, Any] = {
        "id": f"fuzz.{_slug(d.kind)}.seed-{record.seed}",
        "title": f"Fuzz: {d.signature} (seed {record.seed})",
        "rulings": [],
        "rulesets": [record.ruleset],
        "notes": notes,
        "setup": record.setup,
        "script": script,
        "expect": {},
    }
    if d.kind == "state" and d.at is not None and 0 <= d.at < len(script) - 1:
        draft["expect"]["checkpoints"] = [{"after": d.at}]
    return draft


# --------------------------------------------------------------------------------- workers
_DUEL: Duel | None = None


_WORKER: tuple | None = None  # (command, settings) of this worker process


def _worker_init(command: str, fz: FuzzSettings) -> None:
    global _WORKER
    _WORKER = (command, fz)


def _duel() -> Duel:
    """This process's engine, started at its first job (an engine that can't start raises
    in the job, where the parent sees it, instead of killing the pool's initializer over
    and over)."""
    global _DUEL
    if _DUEL is None:
        assert _WORKER is not None
        from multiprocessing import util
        _DUEL = Duel(*_WORKER)
        util.Finalize(_DUEL, _DUEL.close, exitpriority=10)
    return _DUEL


def _worker_games(indexes: list[int]) -> list[GameOutcome]:
    duel = _duel()
    return [duel.game(i)[0] for i in indexes]


def _worker_shrink(job: tuple[int, Divergence]) -> Shrunk:
    duel = _duel()
    index, div = job
    record, _ = game_record(index, duel.fz)
    s = shrink(duel, record, div)
    s.game = index
    return s


def _map(command: str, fz: FuzzSettings, workers: int, fn: Callable, jobs: list,
         progress: Callable[[Any], None] | None = None) -> list:
    """``fn`` over ``jobs`` in ``workers`` processes (each with its own engine), results in
    job order."""
    if not jobs:
        return []
    if workers <= 1:
        _worker_init(command, fz)
        try:
            out = []
            for job in jobs:
                out.append(fn(job))
                if progress:
                    progress(out[-1])
            return out
        finally:
            global _DUEL, _WORKER
            _WORKER = None
            if _DUEL is not None:
                _DUEL.close()
                _DUEL = None
    import multiprocessing
    ctx = multiprocessing.get_context("fork" if hasattr(os, "fork") else "spawn")
    pool = ctx.Pool(min(workers, len(jobs)), initializer=_worker_init, initargs=(command, fz))
    try:
        out = []
        for r in pool.imap(fn, jobs):
            out.append(r)
            if progress:
                progress(r)
        pool.close()
        pool.join()
        return out
    except BaseException:
        pool.terminate()
        raise


@dataclass
class Report:
    """The figures of a fuzz run (``--json``) and what it found."""

    engine: str
    settings: FuzzSettings
    parts: list
    events: bool
    outcomes: list = field(default_factory=list)
    shrunk: list = field(default_factory=list)
    #: ``(K, N)`` for slice K of N of the campaign (``--shard``), None for a whole campaign
    shard: tuple[int, int] | None = None
    #: :func:`decks_digest` of the decks played, as a record read back says (None: work it out)
    decks_digest: str | None = None
    #: ``(shards, N)`` for a merge of only some of the N shards (``--merge --partial``)
    partial: tuple[tuple[int, ...], int] | None = None

    @property
    def divergent(self) -> list[GameOutcome]:
        return [o for o in self.outcomes if o.divergence is not None]

    def groups(self) -> dict[str, list[GameOutcome]]:
        out: dict[str, list] = {}
        for o in self.divergent:
            assert o.divergence is not None  # divergent
            out.setdefault(o.divergence.signature, []).append(o)
        return dict(sorted(out.items(), key=lambda kv: (-len(kv[1]), kv[0])))

    def figures(self) -> dict:
        """The figures of ``--json``. Those of a shard (``--shard K/N``) add ``shard``
        (``"K/N"``) and ``campaign_games`` (the campaign's ``--games``); ``games`` counts the
        shard's own games. A whole campaign, or the merge of its shards, has neither key."""
        played = [o for o in self.outcomes if o.skipped is None]
        extra: dict[str, Any] = {} if self.shard is None else {"shard": f"{self.shard[0]}/{self.shard[1]}",
                                                               "campaign_games": self.settings.games}
        if self.partial is not None:
            extra = {"partial": {"shards": list(self.partial[0]), "of": self.partial[1]},
                     "campaign_games": self.settings.games}
        return {
            **extra,
            "engine": self.engine, "ruleset": self.settings.ruleset, "seed": self.settings.seed,
            "turn_cap": self.settings.turn_cap, "checkpoint_every": self.settings.checkpoint_every,
            "games": len(self.outcomes), "played": len(played),
            "skipped": len(self.outcomes) - len(played),
            "inputs": sum(o.inputs for o in played),
            "checkpoints_compared": sum(o.checkpoints for o in played),
            "reference_failures": sum(1 for o in self.outcomes if o.reference_failure),
            "divergences": len(self.divergent), "distinct": len(self.groups()), "shrunk": len(self.shrunk),
            "state_parts": list(self.parts), "events_compared": self.events,
            "skip_reasons": self.skip_reasons(),
            "by_signature": [
                {"signature": sig, "games": len(os_), "first_game": os_[0].index, "first_seed": os_[0].seed,
                 "detail": os_[0].divergence.detail if os_[0].divergence is not None else None,  # all divergent
                 **next(({"shrunk_inputs": len(s.script), "draft": s.draft["id"]} for s in self.shrunk
                         if s.signature == sig), {})}
                for sig, os_ in self.groups().items()],
        }

    def skip_reasons(self, top: int = 10) -> dict[str, int]:
        """The engine's most frequent skip messages (numbers blanked out), with their counts."""
        counts: dict[str, int] = {}
        for o in self.outcomes:
            if o.skipped is not None:
                key = re.sub(r"\d+", "N", o.skipped)[:160]
                counts[key] = counts.get(key, 0) + 1
        return dict(sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))[:top])

    def table(self) -> str:
        f = self.figures()
        lines = [
            f"engine            {self.engine}",
            *([f"shard             {f['shard']} (games i of the campaign's {f['campaign_games']} with "
               f"i mod {self.shard[1]} = {self.shard[0] - 1}; mtg-judge fuzz --merge joins the shards)"]
              if self.shard is not None else []),
            *([f"partial           {len(self.partial[0])} of {self.partial[1]} shards merged "
               f"({', '.join(map(str, self.partial[0]))}): {len(self.outcomes)} of the campaign's "
               f"{self.settings.games} games"] if self.partial is not None else []),
            f"games             {f['games']}  (played {f['played']}, skipped {f['skipped']}; ruleset "
            f"{f['ruleset']}, seed {f['seed']}, turn cap {f['turn_cap']})",
            f"inputs            {f['inputs']}",
            f"checkpoints       {f['checkpoints_compared']} compared  (every {f['checkpoint_every']} inputs and the "
            f"final state; parts: {', '.join(f['state_parts'])}; events {'compared' if f['events_compared'] else 'not compared'})",
            f"divergences       {f['divergences']}",
            f"distinct          {f['distinct']}",
            f"shrunk            {f['shrunk']}",
        ]
        if f["reference_failures"]:
            lines.append(f"reference engine  {f['reference_failures']} game(s) broke a self-play invariant "
                         "(run mtg-judge selfplay on their seeds)")
        for reason, n in f["skip_reasons"].items():
            lines.append(f"  skipped {n}: {reason}")
        for g in f["by_signature"]:
            size = f", shrunk to {g['shrunk_inputs']} inputs" if "shrunk_inputs" in g else ""
            lines.append(f"  {g['signature']}: {g['games']} game(s), first seed {g['first_seed']}{size}")
            lines.append(f"      {_short(g['detail'], 300)}")
        return "\n".join(lines)


def shard_games(games: int, k: int, n: int) -> list[int]:
    """The game indexes of shard ``k`` of ``n`` (``--shard K/N``) of a campaign of ``games``
    games: game ``i`` (seed ``SEED + i``) goes to shard ``(i mod n) + 1``. Every game is in
    exactly one shard, the shards differ in size by one game at most, and each gets an even
    share of self-play's low-life games and deck pairings (both cycle with ``i``). Raises
    ``ValueError`` unless ``1 <= k <= n``.

    >>> shard_games(10, 2, 3)
    [1, 4, 7]
    """
    if not 1 <= k <= n:
        raise ValueError(f"shard {k}/{n}: K must be between 1 and N")
    return list(range(k - 1, games, n))


def run_fuzz(command: str, fz: FuzzSettings, workers: int = 1,
             progress: Callable[[str], None] | None = None,
             shard: tuple[int, int] | None = None) -> Report:
    """Play ``fz.games`` games on both engines, group the divergences, shrink one game of
    each signature (in ``workers`` processes, one engine process each). ``shard`` ``(K,
    N)``: only the games of :func:`shard_games` (``--shard K/N``); a game is played and
    shrunk exactly as in the whole campaign, so :func:`merge_reports` of the N shards'
    reports is the whole campaign's report. Raises ``protocol.EngineError`` when the engine
    can't be started, ValueError when it does not declare ``fz.ruleset`` or for a bad
    ``shard``."""
    indexes = list(range(fz.games)) if shard is None else shard_games(fz.games, *shard)
    if not fz.decks:  # read the decks and the cards once, before the workers fork
        fz = FuzzSettings(**{**fz.__dict__, "decks": tuple(sp.load_decks(fz.deck_paths or None))})
    sp._card_db()
    card_files()
    probe = Duel(command, fz)
    try:
        if fz.ruleset not in probe.implementation.get("rulesets", []):
            raise ValueError(f"the engine does not declare the ruleset {fz.ruleset!r} "
                             f"(it declares {', '.join(probe.implementation.get('rulesets', [])) or 'none'})")
        name = str(probe.implementation.get("name", command))
        for w in probe.warnings:
            if progress:
                progress(f"warning: {w}")
        report = Report(name, fz, probe.parts, probe.events, shard=shard)
    finally:
        probe.close()
    chunk = 4
    batches = [indexes[i:i + chunk] for i in range(0, len(indexes), chunk)]
    done = [0, 0]
    start = time.perf_counter()
    every = max(1, len(indexes) // 20)

    def on_batch(outs: list) -> None:
        for o in outs:
            done[0] += 1
            done[1] += o.divergence is not None
            if progress and (done[0] % every == 0 or done[0] == len(indexes)):
                progress(f"fuzz: {done[0]}/{len(indexes)} games, {done[1]} divergence(s), "
                         f"{time.perf_counter() - start:.0f} s")
    for outs in _map(command, fz, workers, _worker_games, batches, on_batch):
        report.outcomes.extend(outs)
    report.outcomes.sort(key=lambda o: o.index)
    if fz.shrink:
        shrink_report(report, command, workers, progress)
    return report


def shrink_report(report: Report, command: str, workers: int = 1,
                  progress: Callable[[str], None] | None = None) -> None:
    """Shrink the first game of each signature of ``report`` (``report.settings``' budget,
    ``workers`` processes with one engine each) into ``report.shrunk``, in signature order:
    what :func:`run_fuzz` does after the games, and what ``fuzz --merge --engine CMD`` does
    for shards played without shrinking. Raises ``protocol.EngineError`` when the engine
    can't be started."""
    fz = report.settings
    if not fz.decks:
        fz = report.settings = FuzzSettings(**{**fz.__dict__, "decks": tuple(sp.load_decks(fz.deck_paths or None))})
    jobs = [(os_[0].index, os_[0].divergence) for os_ in report.groups().values()]
    if jobs and progress:
        progress(f"fuzz: shrinking {len(jobs)} distinct divergence(s)")
    report.shrunk = _map(command, fz, workers, _worker_shrink, jobs,
                         (lambda s: progress(f"fuzz: shrunk {s.signature}: {s.original_inputs} -> "
                                             f"{len(s.script)} inputs")) if progress else None)


# ----------------------------------------------------------------- shards: save and merge
#: ``kind`` and version of the file ``mtg-judge fuzz --save FILE`` writes.
RECORD_KIND = "mtg-judge-fuzz"
RECORD_VERSION = 1
#: The settings that must agree between the shards of one campaign (``--timeout`` and the
#: deck files' paths may differ between machines; the decks' contents may not).
CAMPAIGN_SETTINGS = ("games", "seed", "ruleset", "turn_cap", "checkpoint_every", "deck_size", "hostile_rate",
                     "shrink", "shrink_tests", "shrink_seconds", "events", "opening")


def decks_digest(fz: FuzzSettings) -> str:
    """A SHA-256 of the decks a campaign plays (names and cards, in order): what the shards
    of one campaign must share, wherever their deck files lie."""
    import hashlib
    data = dumps([[d.name, list(d.cards)] for d in fz.deck_list()])
    return hashlib.sha256(data.encode("utf-8")).hexdigest()


def report_record(report: Report) -> dict:
    """Everything :func:`merge_reports` needs of a report, as JSON (``--save FILE``):
    ``kind`` :data:`RECORD_KIND`, ``record_version``, the engine's name, the settings
    (:data:`CAMPAIGN_SETTINGS` and the rest, ``decks_digest``), the compared ``parts`` and
    ``events``, ``shard`` (``"K/N"`` or None), every game's outcome and every shrunk
    divergence (its draft and both engines' logs)."""
    from dataclasses import asdict
    settings = {k: v for k, v in report.settings.__dict__.items() if k != "decks"}
    settings["deck_paths"] = list(settings["deck_paths"])
    settings["decks_digest"] = report.decks_digest or decks_digest(report.settings)
    return {"kind": RECORD_KIND, "record_version": RECORD_VERSION, "engine": report.engine,
            "settings": settings, "parts": list(report.parts), "events": report.events,
            "shard": None if report.shard is None else f"{report.shard[0]}/{report.shard[1]}",
            "outcomes": [asdict(o) for o in report.outcomes], "shrunk": [asdict(x) for x in report.shrunk]}


class RecordError(ValueError):
    """A fuzz record (``--save``) that can't be read or merged: the message names the file."""


def read_record(path: str | Path) -> tuple[Report, dict]:
    """The report a ``--save`` file holds, and the file's settings (with ``decks_digest``).
    Raises :class:`RecordError` naming the file for anything else than such a file."""
    from mtg_judge.conformance.shard import parse_shard
    try:
        data = json.loads(Path(path).read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise RecordError(f"{path}: not a fuzz record (mtg-judge fuzz --save): {exc}") from None
    if not isinstance(data, dict) or data.get("kind") != RECORD_KIND:
        raise RecordError(f"{path}: not a fuzz record (mtg-judge fuzz --save): no \"kind\": \"{RECORD_KIND}\"")
    if data.get("record_version") != RECORD_VERSION:
        raise RecordError(f"{path}: record_version {data.get('record_version')!r}, expected {RECORD_VERSION}")
    try:
        settings = dict(data["settings"])
        fields = {k: v for k, v in settings.items() if k in FuzzSettings.__dataclass_fields__}
        fields["deck_paths"] = tuple(fields.get("deck_paths") or ())
        fz = FuzzSettings(**fields)

        def divergence(d: dict | None) -> Divergence | None:
            return None if d is None else Divergence(**d)
        outcomes = [GameOutcome(**{**o, "divergence": divergence(o.get("divergence"))}) for o in data["outcomes"]]
        shrunk = [Shrunk(**{**x, "divergence": divergence(x.get("divergence"))}) for x in data["shrunk"]]
        shard = None if data.get("shard") is None else parse_shard(data["shard"])
        report = Report(str(data["engine"]), fz, list(data["parts"]), bool(data["events"]), outcomes, shrunk, shard,
                        str(settings["decks_digest"]))
    except (KeyError, TypeError, ValueError) as exc:
        raise RecordError(f"{path}: a malformed fuzz record ({type(exc).__name__}: {exc})") from None
    return report, settings


def merge_reports(records: list[tuple[Report, dict]], names: list[str] | None = None,
                  partial: bool = False) -> Report:
    """The whole campaign's report from the reports of its N shards (``mtg-judge fuzz
    --merge``), the same as the report of the campaign run whole: the games of every shard,
    in game order; for each signature, the shrunk divergence of its first game (the shard
    holding that game shrank it, as its own first game of that signature, exactly as the
    whole run would). ``records``: :func:`read_record` results; ``names`` label them in
    errors (default ``shard file 1``, …).

    Raises :class:`RecordError` unless the records are the N shards ``1/N`` … ``N/N`` of one
    campaign, each once and complete: the same engine, compared parts and events,
    :data:`CAMPAIGN_SETTINGS` and decks, each holding exactly the games of
    :func:`shard_games` (an interrupted shard is refused). One record of a whole campaign
    merges to itself. ``partial``: shards may be missing (``--merge --partial``, for a
    campaign cut short: its shards so far are an even sample of its seeds); the report
    says which shards it holds (:attr:`Report.partial`)."""
    if not records:
        raise RecordError("no fuzz record to merge")
    names = names or [f"shard file {i + 1}" for i in range(len(records))]
    first, first_settings = records[0]

    def campaign(report: Report, settings: dict) -> dict:
        return {"engine": report.engine, "parts": report.parts, "events": report.events,
                "decks": settings.get("decks_digest"),
                **{k: settings.get(k) for k in CAMPAIGN_SETTINGS}}
    want = campaign(first, first_settings)
    for (report, settings), name in zip(records, names):
        got = campaign(report, settings)
        diff = [k for k in want if got[k] != want[k]]
        if diff:
            raise RecordError(f"{name}: not a shard of the campaign of {names[0]}: "
                              + "; ".join(f"{k} {got[k]!r} (not {want[k]!r})" for k in diff))
    given = [r.shard for r, _ in records]
    shards = [sh for sh in given if sh is not None]
    if len(shards) < len(given):
        if len(records) > 1:
            raise RecordError(f"{names[given.index(None)]}: a whole campaign (no --shard), not one of its shards")
    else:
        n = shards[0][1]
        for shard, name in zip(shards, names):
            if shard[1] != n:
                raise RecordError(f"{name}: shard {shard[0]}/{shard[1]}, but {names[0]} is one of {n} shards")
        seen: dict[int, str] = {}
        for shard, name in zip(shards, names):
            if shard[0] in seen:
                raise RecordError(f"{name}: shard {shard[0]}/{n} again (also {seen[shard[0]]})")
            seen[shard[0]] = name
        missing = [f"{k}/{n}" for k in range(1, n + 1) if k not in seen]
        if missing and not partial:
            raise RecordError(f"shard(s) {', '.join(missing)} missing: a merge needs all {n} shards "
                              "(--partial merges those there are)")
    games = first.settings.games
    for (report, _), name in zip(records, names):
        expected = list(range(games)) if report.shard is None else shard_games(games, *report.shard)
        got_indexes = [o.index for o in report.outcomes]
        if sorted(got_indexes) != expected:
            missing_games = len(set(expected) - set(got_indexes))
            raise RecordError(f"{name}: an incomplete shard ({len(got_indexes)} games, {missing_games} of its "
                              f"{len(expected)} missing, or games of another shard)")
    merged = Report(first.engine, first.settings, list(first.parts), first.events,
                    sorted((o for r, _ in records for o in r.outcomes), key=lambda o: o.index),
                    decks_digest=first_settings.get("decks_digest"))
    if shards and len(shards) < shards[0][1]:
        merged.partial = (tuple(sorted(k for k, _ in shards)), shards[0][1])
    shrunk = {(x.signature, x.game): x for r, _ in records for x in r.shrunk}
    for sig, outs in merged.groups().items():
        found = shrunk.get((sig, outs[0].index))
        if found is not None:
            merged.shrunk.append(found)
    return merged


def write_drafts(report: Report, folder: str | Path) -> list[Path]:
    """Write each shrunk divergence as ``<folder>/<draft id>.json`` with both engines' logs
    beside it (``.reference.json``, ``.engine.json``: events and final state). Returns the
    drafts' paths."""
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    paths = []
    for s in report.shrunk:
        base = folder / s.draft["id"]
        path = base.with_name(base.name + ".json")
        path.write_text(json.dumps(s.draft, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
        for side in ("reference", "engine"):
            base.with_name(f"{base.name}.{side}.json").write_text(
                json.dumps(s.logs[side], indent=1, ensure_ascii=False, sort_keys=True) + "\n", encoding="utf-8")
        paths.append(path)
    return paths


# -------------------------------------------------------------------------------------- CLI
def _make_command():
    import click

    from mtg_judge.conformance.workers import cap_workers, workers_option

    @click.command("fuzz")
    @click.argument("records", nargs=-1, metavar="[FILE]...",
                    type=click.Path(exists=True, dir_okay=False, path_type=Path))
    @click.option("--engine", "command", metavar="COMMAND",
                  help="The engine under test: a command speaking protocol v1 (docs/PROTOCOL.md). "
                       "Required unless --merge.")
    @click.option("--games", type=click.IntRange(min=1), default=100, show_default=True, help="Number of games.")
    @click.option("--seed", type=click.IntRange(min=0), default=0, show_default=True,
                  help="Seed of the first game; game i has seed SEED + i (as in mtg-judge selfplay).")
    @click.option("--ruleset", type=click.Choice(sp.RULESETS), default=DEFAULT_RULESET, show_default=True,
                  help="The ruleset every game is played under.")
    @click.option("--turn-cap", type=click.IntRange(min=1), default=FuzzSettings.turn_cap, show_default=True,
                  help="Stop each game when this turn is over.")
    @click.option("--checkpoint-every", type=click.IntRange(min=0), default=FuzzSettings.checkpoint_every,
                  show_default=True, help="A state checkpoint after every N inputs (0: the final state only).")
    @click.option("--decks", "deck_paths", multiple=True, metavar="FILE",
                  type=click.Path(exists=True, dir_okay=False, path_type=Path),
                  help="A deck list (repeatable). Default: fixtures/decks/*.txt.")
    @click.option("--deck-size", type=click.IntRange(min=10), default=None,
                  help="Play a sample of this many cards of each deck (lands in proportion).")
    @click.option("--hostile-rate", type=click.FloatRange(0, 1), default=FuzzSettings.hostile_rate,
                  show_default=True, help="Probability of an illegal input (the reference rejects it) at each "
                                          "decision.")
    @click.option("--timeout", type=click.FloatRange(min=0.1), default=FuzzSettings.timeout, show_default=True,
                  help="Seconds the engine may take for each reply.")
    @click.option("--shrink-tests", type=click.IntRange(min=0), default=FuzzSettings.shrink_tests,
                  show_default=True, help="Replays (on both engines) per shrink; 0: don't shrink.")
    @click.option("--no-events", is_flag=True, help="Don't compare event sequences (rejections, read off the logs, "
                                                    "and states only).")
    @click.option("--opening", type=click.Choice(["start", "kept"]), default="start", show_default=True,
                  help="start: each scenario starts at the start of the game (start_of_game: shuffles, "
                       "mulligans); kept: at turn 1's upkeep, from the libraries and hands the reference "
                       "engine's mulligans left (for engines that can't start a game).")
    @workers_option(1, "", what="games", engine=True)
    @click.option("--out", type=click.Path(file_okay=False, path_type=Path), metavar="DIR",
                  help="Write each shrunk divergence as a fixture draft into DIR, with both engines' logs.")
    @click.option("--json", "json_out", is_flag=True, help="Print the figures as JSON instead of the table.")
    @click.option("--shard", "shard_text", metavar="K/N",
                  help="Play slice K of N of the campaign: game i (seed SEED + i) when i mod N = K - 1. "
                       "Every other option must be the same in all N jobs; --save each, then --merge.")
    @click.option("--save", type=click.Path(dir_okay=False, path_type=Path), metavar="FILE",
                  help="Write every game's outcome and every shrunk divergence to FILE (JSON), for --merge.")
    @click.option("--merge", is_flag=True,
                  help="Join the --save FILEs of the N shards of one campaign into the whole campaign's "
                       "figures (the same as a run without --shard); --out, --json and --save apply to "
                       "the merged campaign; no engine is run.")
    @click.option("--partial", is_flag=True,
                  help="With --merge: merge the shards there are (a campaign cut short); the figures say which.")
    @click.pass_context
    def fuzz(ctx, records, command, games, seed, ruleset, turn_cap, checkpoint_every, deck_paths, deck_size,
             hostile_rate, timeout, shrink_tests, no_events, opening, workers, out, json_out, shard_text, save,
             merge, partial):
        """Differential fuzzing: random games on the reference engine, replayed on the
        --engine COMMAND.

        Each game (self-play's driver, decks and seeds, up to --turn-cap) becomes a scenario
        with a checkpoint every --checkpoint-every inputs; both engines play it and the first
        divergence is kept: an input one accepts and the other rejects, a different
        comparable state (docs/PROTOCOL.md §11), a different event sequence. Divergences
        are grouped by signature; one game of each is shrunk (delta debugging) and, with
        --out, written as a fixture draft. Exit 0 without divergence, 1 with some, 2 for
        bad usage (or an engine that can't be started).

        A campaign can be split over jobs: each runs it with --shard K/N and --save FILE,
        and ``mtg-judge fuzz --merge FILE...`` joins the N files into the figures (and,
        with --out, the drafts) of the campaign run whole.
        """
        if merge:
            def given(name: str) -> bool:
                return ctx.get_parameter_source(name) is not click.core.ParameterSource.DEFAULT
            wrong = [name for name in ("games", "seed", "ruleset", "turn_cap", "checkpoint_every", "deck_size",
                                       "hostile_rate", "no_events", "opening", "shard_text")
                     if given(name)] + [n for n in ("shrink_tests", "workers", "timeout") if given(n) and not command]
            if wrong:
                raise click.UsageError("--merge takes the campaign from the FILEs; not with "
                                       + ", ".join(_OPTION_NAMES.get(n, "--" + n.replace("_", "-")) for n in wrong)
                                       + (" (--shrink-tests, -n and --timeout go with --engine, to shrink)"
                                          if not command else ""))
            if not records:
                raise click.UsageError("--merge needs the --save FILEs of the shards")
            try:
                report = merge_reports([read_record(p) for p in records], [str(p) for p in records], partial)
            except RecordError as exc:
                raise click.UsageError(str(exc)) from None
            if command:
                _shrink_merged(report, command, deck_paths, shrink_tests, timeout, workers)
            _finish(report, out, save, json_out)
        if records or partial:
            raise click.UsageError(f"unexpected argument {records[0]} (FILEs are for --merge)" if records
                                   else "--partial goes with --merge")
        if not command:
            raise click.UsageError("Missing option '--engine'.")
        shard = None
        if shard_text is not None:
            from mtg_judge.conformance.shard import parse_shard
            try:
                shard = parse_shard(shard_text)
            except ValueError as exc:
                raise click.BadParameter(str(exc), param_hint="'--shard'") from None
        from mtg_judge.conformance.protocol import EngineError, describe_engine_error, shell_syntax_warning
        warning = shell_syntax_warning(command)
        if warning is not None:
            click.echo(f"warning: {warning}", err=True)
        try:
            sp.load_decks(deck_paths or None)
        except sp.DeckError as exc:
            from mtg_judge.conformance.cli_errors import BadInput

            raise BadInput(str(exc)) from None
        fz = FuzzSettings(games=games, seed=seed, ruleset=ruleset, turn_cap=turn_cap,
                          checkpoint_every=checkpoint_every, deck_paths=tuple(str(p) for p in deck_paths),
                          deck_size=deck_size, hostile_rate=hostile_rate, timeout=timeout,
                          shrink=shrink_tests > 0, shrink_tests=shrink_tests, events=not no_events,
                          opening=opening)
        start = time.perf_counter()
        workers = cap_workers(workers, games if shard is None else max(1, len(shard_games(games, *shard))),
                              "games")
        try:
            report = run_fuzz(command, fz, workers, lambda line: click.echo(line, err=True), shard=shard)
        except EngineError as exc:
            click.echo(f"cannot run the engine: {describe_engine_error(exc)}", err=True)
            sys.exit(2)
        except ValueError as exc:
            raise click.UsageError(str(exc)) from None
        click.echo(f"fuzz: done in {time.perf_counter() - start:.1f} s", err=True)
        _finish(report, out, save, json_out)

    def _shrink_merged(report: Report, command: str, deck_paths: tuple, shrink_tests: int, timeout: float,
                       workers: int) -> None:
        """``--merge --engine CMD``: shrink the merged campaign's signatures, as the run
        whole with ``--shrink-tests`` would (its shards were played with ``--shrink-tests 0``,
        so that no shard shrinks a signature whose first game is in another)."""
        from mtg_judge.conformance.protocol import EngineError, describe_engine_error
        fz = report.settings
        if fz.shrink:
            raise click.UsageError("--engine with --merge shrinks shards played with --shrink-tests 0; "
                                   "these were shrunk already")
        if shrink_tests == 0:
            raise click.UsageError("--merge --engine shrinks: --shrink-tests must be above 0")
        paths = tuple(str(p) for p in deck_paths) or fz.deck_paths
        try:
            decks = tuple(sp.load_decks(paths or None))
        except sp.DeckError as exc:
            from mtg_judge.conformance.cli_errors import BadInput

            raise BadInput(str(exc)) from None
        fz = FuzzSettings(**{**fz.__dict__, "deck_paths": paths, "decks": decks, "shrink": True,
                             "shrink_tests": shrink_tests, "timeout": timeout})
        if decks_digest(fz) != report.decks_digest:
            raise click.UsageError("the decks found (give --decks) are not the ones the shards played")
        report.settings = fz
        try:
            shrink_report(report, command, cap_workers(workers, max(1, len(report.groups())), "signatures"),
                          lambda line: click.echo(line, err=True))
        except EngineError as exc:
            click.echo(f"cannot run the engine: {describe_engine_error(exc)}", err=True)
            sys.exit(2)

    def _finish(report: Report, out: Path | None, save: Path | None, json_out: bool) -> None:
        """Write the drafts (``--out``) and the record (``--save``), print the figures, exit
        1 with a divergence or when games were due and none was played (every one skipped:
        nothing was compared, as ``run`` exits 1 when no case passed), else 0."""
        if out is not None:
            try:
                for p in write_drafts(report, out):
                    click.echo(f"wrote {p}", err=True)
            except OSError as exc:
                raise click.ClickException(f"cannot write into {out}: {exc}") from None
        if save is not None:
            try:
                tmp = save.with_name(save.name + ".tmp")
                tmp.write_text(json.dumps(report_record(report), ensure_ascii=False) + "\n", encoding="utf-8")  # drafts keep their key order
                tmp.replace(save)
            except OSError as exc:
                raise click.ClickException(f"cannot write {save}: {exc}") from None
            click.echo(f"wrote {save}", err=True)
        if json_out:
            click.echo(json.dumps(report.figures(), indent=2, sort_keys=True))
        else:
            click.echo(report.table())
        figures = report.figures()
        if figures["games"] and not figures["played"]:
            click.echo(f"fuzz: none of the {figures['games']} games was played (each was skipped): "
                       "nothing was compared", err=True)
            sys.exit(1)
        sys.exit(1 if report.divergent else 0)

    return fuzz


#: How an option of ``fuzz`` is named on the command line, where it is not its parameter's name.
_OPTION_NAMES = {"command": "--engine", "deck_paths": "--decks", "shard_text": "--shard", "workers": "-n"}


fuzz_command = _make_command()
