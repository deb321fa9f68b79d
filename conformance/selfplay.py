"""Self-play and fuzzing of the reference engine (``mtg-judge selfplay``).

Random games from the start of the game (``"start_of_game": true``: shuffling, opening
hands, mulligans, CR 103) between decks built from the project's card files
(``fixtures/decks/*.txt``), each decision answered by a legal action
(``mtg_judge.engine.legal``) drawn by a seeded SplitMix64 (no global ``random``). The input source
(:class:`SelfPlayInputs`) records every input it gives, so a game is entirely described by
its record: setup + ruleset + inputs (the engine's own PRNG is seeded by ``setup.seed``).

Invariants, checked while the game is played:

``exception``
    No exception other than the engine's own control flow escapes ``Game.play`` (nor a dry
    run of an input the driver considers).
``conservation``
    After every action: every card of the setup is in exactly one zone (library, hand,
    graveyard, exile of its owner, the battlefield, the stack), its object is the one the
    game registers for it, nothing is lost or duplicated; copies of spells exist only on
    the stack, copies of cards also in exile while the rules keep them there (a prepared
    permanent's copy; a paradigm copy until state-based actions are checked); at each
    priority decision, tokens only on the battlefield (CR 704.5d has run) and no paradigm
    copy left (CR 704.5e).
``legality``
    Every input the driver gives because it was offered (accepted on a dry run) is accepted
    by the engine; every *hostile* input (an input that is certainly illegal: the wrong
    player, a card in a library, a sorcery at instant speed, a tapped creature attacking,
    an alternative cost the card doesn't have, a field of the wrong JSON type …), injected
    now and then, is rejected with a documented rejection code, logs exactly one
    ``action_rejected`` event and leaves the state unchanged (docs/FORMAT.md §3.2, §8).
``loop``
    The same state and decision repeated too often, too many inputs in a game, or the
    engine running for ``watchdog_seconds`` without asking for an input.
``stuck``
    A decision that no candidate answer satisfies (the game could never go on).
``state-based actions``
    When a player receives priority, no state-based action applies any more (CR 117.5,
    704.3): no living player at 0 life or having drawn from an empty library, no creature
    with toughness 0 or less or lethal (or deathtouch) damage, no Aura attached illegally,
    no +1/+1 and -1/-1 counters together, no two legendary permanents the legend rule of
    the ruleset forbids.
``schema`` (with ``--schemas``, slow)
    Every event of the log matches ``schema/event.schema.json`` and the final state
    ``schema/state.schema.json``.
``determinism``
    Replaying the record through ``ScriptInputs`` (the fixture input source) gives a
    byte-identical log (canonical JSON); a game resumed from a prefix of its record
    (the save) continues identically (the driver's choices are a function of the seed and
    the input index).

A game ends (CR 104), or stops at the turn cap (reported, not a failure); every fourth game
starts at 5 life so that short games end too. A failing game is shrunk by delta debugging
on its input list (chunks are dropped while the same failure still happens, replayed
tolerantly: :func:`shrink_failure`) and can be written as a fixture draft
(``--save-failures DIR``).
"""

from __future__ import annotations

import copy
import json
import os
import re
import time
import traceback
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any, Callable, Iterable

from mtg_judge.conformance.canonical import dumps
from mtg_judge.conformance.resources import DECKS_DIR, SCHEMA_DIR
from mtg_judge.engine import phasing
from mtg_judge.engine.rulesets import NAMES as RULESET_NAMES

RULESETS = RULESET_NAMES  # engine/rulesets.py, the one list
PLAYERS = ("alice", "bob")
INVARIANTS = ("exception", "conservation", "state-based actions", "legality", "loop", "stuck", "schema",
              "determinism")
_MASK = (1 << 64) - 1

#: Weights of the kinds of candidates (``mtg_judge.engine.legal.Candidate.kind``) when the driver picks
#: a group of candidates; within a group every candidate is equally likely.
KIND_WEIGHTS = {"pass": 50, "land": 100, "cast": 50, "special": 40, "activate": 20, "mana": 3,
                "attack": 20, "block": 20, "choice": 10, "keep": 120, "mulligan": 10, "decline": 20}
#: Weights of particular groups: attacking with everything is likelier than not attacking.
GROUP_WEIGHTS = {"attack:none": 10, "attack:one": 20, "attack:all": 30, "block:none": 15, "block:some": 25}


class DeckError(Exception):
    """A deck file that can't be read: ``path:line: message``."""


class InvariantFailure(Exception):
    """An invariant broke. ``invariant`` is one of :data:`INVARIANTS`, ``at`` the index of the
    last input given before it was noticed (None before any)."""

    def __init__(self, invariant: str, message: str, at: int | None = None) -> None:
        super().__init__(f"{invariant}: {message}")
        self.invariant = invariant
        self.message = message
        self.at = at


# ------------------------------------------------------------------------------- decks
@dataclass(frozen=True)
class Deck:
    name: str
    cards: tuple  # card names, one per card

    @property
    def lands(self) -> list[str]:
        db = _card_db()
        return [c for c in self.cards if "Land" in db[c].types]


def load_deck(path: str | Path) -> Deck:
    """Read a deck list: one ``<count> <card name>`` per line, ``#`` comments, blank lines.
    Raises DeckError naming the file and line for an unknown card or a malformed line."""
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise DeckError(f"{path}: cannot read the deck: {exc.strerror or exc}") from None
    db = _card_db()
    cards: list[str] = []
    for n, raw in enumerate(text.splitlines(), 1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        m = re.fullmatch(r"(\d+)\s+(.+)", line)
        if not m or int(m.group(1)) < 1:
            raise DeckError(f"{path}:{n}: expected '<count> <card name>', got {line!r}")
        name = m.group(2).strip()
        if name not in db:
            import difflib
            close = difflib.get_close_matches(name, list(db), n=1)
            hint = f" (did you mean {close[0]!r}?)" if close else ""
            raise DeckError(f"{path}:{n}: unknown card {name!r}{hint}")
        cards += [name] * int(m.group(1))
    if not cards:
        raise DeckError(f"{path}: no cards")
    return Deck(path.stem, tuple(cards))


def load_decks(paths: Iterable[str | Path] | None = None) -> list[Deck]:
    """The decks of ``paths`` (default: every ``fixtures/decks/*.txt``), sorted by name."""
    paths = list(paths) if paths else sorted(DECKS_DIR.glob("*.txt"))
    if not paths:
        raise DeckError(f"{DECKS_DIR}: no deck files (*.txt)")
    return [load_deck(p) for p in paths]


@lru_cache(maxsize=1)
def _card_db() -> dict:
    from mtg_judge.engine import load_card_db
    return load_card_db()


def _slug(name: str) -> str:
    return re.sub(r"[^a-z0-9]+", "_", name.lower()).strip("_")[:18]


def _mix(*values: int) -> int:
    """A 64-bit seed from integers (SplitMix64 steps)."""
    from mtg_judge.engine.rng import SplitMix64
    state = 0x243F6A8885A308D3
    for v in values:
        state = SplitMix64((state ^ (v & _MASK)) & _MASK).next()
    return state


def build_setup(seed: int, decks: tuple[Deck, Deck], deck_size: int | None = None, life: int | None = None) -> dict:
    """The setup of a self-play game: ``start_of_game`` (CR 103), the seed, each player's
    library from a deck (and starting life total, default 20). With ``deck_size`` below the
    deck's size, a sample of that size keeping the deck's proportion of lands (drawn with
    the game's seed)."""
    from mtg_judge.engine.rng import SplitMix64
    rng = SplitMix64(_mix(seed, 0x5E1F))
    players = []
    for pid, deck in zip(PLAYERS, decks):
        cards = list(deck.cards)
        if deck_size is not None and deck_size < len(cards):
            lands = deck.lands
            spells = [c for c in cards if c not in set(lands)]
            n_lands = round(deck_size * len(lands) / len(cards))
            cards = _sample(rng, lands, n_lands) + _sample(rng, spells, deck_size - n_lands)
        library = [{"alias": f"{pid[0]}{i:02d}_{_slug(name)}", "card": name} for i, name in enumerate(cards)]
        players.append({"id": pid, "library": library, **({"life": life} if life is not None else {})})
    return {"seed": seed, "start_of_game": True, "players": players}


def _sample(rng: Any, items: list, k: int) -> list:
    items = list(items)
    rng.shuffle(items)
    return sorted(items[:k], key=lambda c: (c not in ("Plains", "Island", "Swamp", "Mountain", "Forest"), c))


# ------------------------------------------------------------------------------ records
@dataclass
class Record:
    """A game: its setup, ruleset, the inputs given in order, and what each input was
    (``play``: a legal action the driver chose; ``hostile``: an illegal input injected to be
    rejected; ``probe``: an input that crashed the engine on a dry run)."""

    ruleset: str
    setup: dict
    inputs: list = field(default_factory=list)
    marks: list = field(default_factory=list)
    contexts: list = field(default_factory=list)  # [turn, step, decision kind, player] of each input

    @property
    def seed(self) -> int:
        seed: int = self.setup["seed"]
        return seed

    def as_json(self) -> dict:
        return {"ruleset": self.ruleset, "setup": self.setup, "inputs": self.inputs, "marks": self.marks,
                "contexts": self.contexts}


@dataclass
class Settings:
    """How games are played and checked."""

    turn_cap: int = 12
    deck_size: int | None = None
    hostile_rate: float = 0.06        # probability of a hostile input at a decision
    resume_every: int = 10            # every N-th game is also resumed from half its record
    loop_limit: int = 30              # the same (state, decision) this often is a loop
    max_inputs: int = 6000            # inputs in one game before it counts as a loop
    shrink_seconds: float = 120.0
    shrink_tests: int = 400
    watchdog_seconds: float = 120.0   # the engine running this long without asking is a loop
    check_schemas: bool = False       # validate every event and the final state (slow)
    low_life_every: int = 4           # every N-th game starts at ``low_life`` so that short games end too
    low_life: int = 5


@dataclass
class Stats:
    """Counters of a run (summed over games)."""

    games: int = 0
    inputs: int = 0
    hostile: int = 0
    dry_runs: int = 0
    dry_run_refusals: int = 0          # candidates the cheap filters let through, refused on a dry run
    checks: dict = field(default_factory=dict)
    ended: int = 0
    turn_cap: int = 0
    turns: int = 0
    failures: int = 0
    seconds: float = 0.0
    by_ruleset: dict = field(default_factory=dict)
    action_kinds: dict = field(default_factory=dict)
    hostile_codes: dict = field(default_factory=dict)

    def check(self, name: str, n: int = 1) -> None:
        self.checks[name] = self.checks.get(name, 0) + n

    def add(self, other: "Stats") -> None:
        for f in ("games", "inputs", "hostile", "dry_runs", "dry_run_refusals", "ended", "turn_cap", "turns",
                  "failures", "seconds"):
            setattr(self, f, getattr(self, f) + getattr(other, f))
        for f in ("checks", "by_ruleset", "action_kinds", "hostile_codes"):
            mine = getattr(self, f)
            for k, v in getattr(other, f).items():
                mine[k] = mine.get(k, 0) + v

    @property
    def invariant_checks(self) -> int:
        return sum(self.checks.values())


@dataclass
class Failure:
    invariant: str
    message: str
    record: Record
    at: int | None
    shrunk: list | None = None
    shrunk_marks: list | None = None
    shrunk_contexts: list | None = None
    essential: list | None = None
    shrink_tests: int = 0
    detail: str = ""

    def summary(self) -> str:
        size = (f"{len(self.essential)} essential input(s) of {len(self.record.inputs)} after shrinking"
                if self.essential is not None else f"{len(self.record.inputs)} input(s), not shrunk")
        return f"seed {self.record.seed} [{self.record.ruleset}] {self.invariant}: {self.message} (input {self.at}; {size})"


@dataclass
class GameResult:
    index: int
    seed: int
    ruleset: str
    decks: tuple
    outcome: str                  # "ended", "turn_cap" or "failed"
    turns: int
    stats: Stats
    failure: Failure | None = None
    record: Record | None = None


# ---------------------------------------------------------------------- the input source
def documented_codes() -> frozenset:
    """The rejection codes of docs/FORMAT.md §8 (``schema/common.schema.json``)."""
    return _documented_codes()


@lru_cache(maxsize=1)
def _documented_codes() -> frozenset:
    data = json.loads((SCHEMA_DIR / "common.schema.json").read_text(encoding="utf-8"))
    return frozenset(data["$defs"]["rejection_code"]["enum"])


def policy_rng(seed: int, index: int) -> Any:
    """The driver's PRNG for the decision answered by input ``index``: a function of the
    game's seed and the index only, so a game resumed from a prefix of its record makes the
    same choices."""
    from mtg_judge.engine.rng import SplitMix64
    return SplitMix64(_mix(seed, 0xD1CE, index))


class TurnCapReached(Exception):
    """The game reached the turn cap (raised by the input source: the run stops there)."""


def _turn_cap_exception() -> type:
    from mtg_judge.engine.errors import ScriptExhausted

    class _TurnCap(TurnCapReached, ScriptExhausted):
        pass
    return _TurnCap


class SelfPlayInputs:
    """The self-play input source: answers each decision with a legal action picked by
    :func:`policy_rng`, records it, and checks the invariants of the module docstring
    before each answer (that is, after every action).

    ``prefix`` (inputs and marks) is fed first, as given (a resumed game, or a shrinking
    candidate); then the source plays on (``then="play"``) or stops (``then="stop"``:
    ScriptExhausted, after checking that the decision reached has a legal answer when
    ``check_stuck``). With ``prefix_contexts`` the prefix is fed *tolerantly* (shrinking):
    each input waits for a decision of its recorded turn, step, kind and player (a default
    answer is given meanwhile: pass, no attackers or blockers, keep, the first legal choice;
    marked ``default``), and an input whose moment has passed is dropped. With
    ``checks=False`` the invariants after each action are not checked (the game is only
    played: the differential fuzzer, ``mtg_judge.conformance.fuzz``).
    """

    def __init__(self, record: Record, settings: Settings, stats: Stats, *, prefix: list | None = None,
                 prefix_marks: list | None = None, then: str = "play", verify_prefix: bool = False,
                 check_stuck: bool = True, prefix_contexts: list | None = None, checks: bool = True) -> None:
        from mtg_judge.engine import legal
        self.legal = legal
        self.record = record
        self.settings = settings
        self.stats = stats
        self.prefix = list(prefix or [])
        self.prefix_marks = list(prefix_marks or ["play"] * len(self.prefix))
        self.then = then
        self.verify_prefix = verify_prefix
        self.check_stuck = check_stuck
        self.checks = checks                # False: play only (no invariant checked after each action)
        self.prefix_contexts = prefix_contexts
        self.pi = 0                         # the next prefix input (tolerant feeding)
        self.seen: dict = {}                # (kind, player, state key) -> meetings
        self.seen_cheap: set = set()        # (kind, player, cheap key) met in this game
        self.last: dict | None = None      # what the previous input needs checking for
        self.codes = documented_codes()
        self.TurnCap = _turn_cap_exception()

    # -- the input source protocol ---------------------------------------------------------
    def next(self, game: Any, decision: dict) -> dict:
        k = len(self.record.inputs)
        _watchdog(self.settings.watchdog_seconds, k - 1 if k else None)
        if k:
            self.stats.check("exception")  # input k-1 was processed without an exception
        if self.checks:
            self._after_previous(game, k)
            self._check_state(game, decision, k)
        if game.turn > self.settings.turn_cap:
            raise self.TurnCap()
        if k >= self.settings.max_inputs:
            raise InvariantFailure("loop", f"{k} inputs without reaching the end of the game or turn "
                                   f"{self.settings.turn_cap + 1}", k - 1)
        fed = self._from_prefix(game, decision, k)
        if fed is not None:
            inp, mark = fed
            if mark == "play" and self.verify_prefix and inp.get("action") != "pass":
                ok, _ = self._accepts(game, decision, inp, k)
                if not ok:
                    mark = "given"
        elif self.then == "stop":
            if self.check_stuck:
                self._find_answer(game, decision, policy_rng(self.record.seed, k), k)
            from mtg_judge.engine.errors import ScriptExhausted
            raise ScriptExhausted()
        else:
            inp, mark = self._choose(game, decision, k)
        # the state before a hostile input, for the check that its rejection changed nothing;
        # taken after choosing, which dry-runs no hostile input (hostile_groups only lists them)
        state_key = _state_key(game) if self.checks and mark == "hostile" else None
        self.last = {"mark": mark, "events": len(game.events), "state": state_key, "input": inp,
                     "decision": decision.get("kind")} if self.checks else None
        self.record.inputs.append(copy.deepcopy(inp))
        self.record.marks.append(mark)
        self.record.contexts.append([game.turn, game.step, decision.get("kind"), decision.get("player")])
        self.stats.inputs += 1
        return {**inp, "at": k}

    def _from_prefix(self, game: Any, decision: dict, k: int) -> tuple[dict, str] | None:
        """The next input of the prefix for this decision (or a default answer while the
        next one waits for its moment, when feeding tolerantly); None when it is used up."""
        if self.prefix_contexts is None:
            if k < len(self.prefix):
                return copy.deepcopy(self.prefix[k]), self.prefix_marks[k]
            return None
        now = (game.turn, _step_rank(game.step))
        while self.pi < len(self.prefix):
            turn, step, kind, player = self.prefix_contexts[self.pi]
            moment = (turn, _step_rank(step))
            if now > moment:  # its moment has passed: drop it
                self.pi += 1
                continue
            if now == moment and kind == decision.get("kind") and player == decision.get("player"):
                self.pi += 1
                return copy.deepcopy(self.prefix[self.pi - 1]), self.prefix_marks[self.pi - 1]
            return self._default_answer(game, decision, k), "default"
        return None

    def _default_answer(self, game: Any, decision: dict, k: int) -> dict:
        kind, player = decision.get("kind"), decision.get("player")
        if kind == "priority":
            return {"action": "pass", "player": player}
        if kind == "declare_attackers":
            return {"action": "declare_attackers", "player": player, "attackers": []}
        if kind == "declare_blockers":
            return {"action": "declare_blockers", "player": player, "blocks": []}
        for cand in self.legal.candidate_actions(game, decision):
            # a listed keep is legal; declining may not be (a mandatory suspended cast, 502.59a)
            if cand.kind == "keep" or self._accepts(game, decision, cand.input, k)[0]:
                return cand.input
        raise InvariantFailure("stuck", f"no legal answer to the {kind} decision of {player} ({_show(decision)}) "
                               f"in turn {game.turn}, {game.step}", k - 1 if k else None)

    # -- checks ----------------------------------------------------------------------------
    def _after_previous(self, game: Any, k: int) -> None:
        """Legality of input k-1, now that the engine has processed it."""
        last = self.last
        if last is None:
            return
        self.last = None
        events = game.events[last["events"]:]
        rejected = [e for e in events if e["type"] == "action_rejected" and e.get("at") == k - 1]
        self.stats.check("legality")
        if last["mark"] == "play" and rejected:
            raise InvariantFailure("legality", f"input {k - 1} ({_show(last['input'])}) was accepted on a dry run "
                                   f"but the engine rejected it: {rejected[0]['code']}: {rejected[0]['message']}", k - 1)
        if last["mark"] == "hostile":
            if not rejected:
                raise InvariantFailure("legality", f"the illegal input {k - 1} ({_show(last['input'])}) was accepted",
                                       k - 1)
            code = rejected[0]["code"]
            self.stats.hostile_codes[code] = self.stats.hostile_codes.get(code, 0) + 1
            if code not in self.codes:
                raise InvariantFailure("legality", f"input {k - 1} was rejected with {code!r}, not a documented "
                                       "rejection code (docs/FORMAT.md §8)", k - 1)
            if len(events) != 1:
                raise InvariantFailure("legality", f"the rejection of input {k - 1} logged {len(events)} events "
                                       f"({', '.join(e['type'] for e in events)}), not just action_rejected", k - 1)
            if _state_key(game) != last["state"]:
                raise InvariantFailure("legality", f"the rejected input {k - 1} ({_show(last['input'])}) changed the "
                                       "state", k - 1)

    def _check_state(self, game: Any, decision: dict, k: int) -> None:
        """Conservation, state-based actions (at a priority decision) and loops, before the
        decision of input ``k``. A loop is the same state and decision coming back more than
        ``loop_limit`` times. The state's full JSON key is costly (about a seventh of a game's
        time), so it is taken only for a decision whose cheap summary (:func:`_cheap_key`, a
        function of the state: equal states give equal summaries) has been met before in the
        game; the first meeting of each summary is counted, not keyed, and taken to be the
        state that comes back (a loop is then found one meeting early at most)."""
        self.stats.check("conservation")
        problem = conservation_problem(game, tokens=decision.get("kind") == "priority")
        if problem:
            raise InvariantFailure("conservation", problem, k - 1 if k else None)
        if decision.get("kind") == "priority":
            self.stats.check("state-based actions")
            problem = sba_problem(game)
            if problem:
                raise InvariantFailure("state-based actions", problem, k - 1 if k else None)
        self.stats.check("loop")
        cheap = (decision.get("kind"), decision.get("player"), _cheap_key(game))
        if cheap not in self.seen_cheap:
            self.seen_cheap.add(cheap)
            return
        loop_key = (cheap[0], cheap[1], _state_key(game))
        n = self.seen.get(loop_key, 1) + 1  # 1: the summary's first meeting, not keyed
        self.seen[loop_key] = n
        if n > self.settings.loop_limit:
            raise InvariantFailure("loop", f"the same state and {decision.get('kind')} decision of "
                                   f"{decision.get('player')} came back {n} times (turn {game.turn}, {game.step})",
                                   k - 1 if k else None)

    # -- choosing ----------------------------------------------------------------------------
    def _accepts(self, game: Any, decision: dict, inp: dict, k: int) -> tuple[bool, str | None]:
        self.stats.dry_runs += 1
        self.stats.check("legality")
        try:
            return self.legal.accepts(game, decision, inp)
        except InvariantFailure:
            raise
        except Exception as exc:  # noqa: BLE001 - the engine crashed on a dry run of this input
            self.record.inputs.append(copy.deepcopy(inp))
            self.record.marks.append("probe")
            self.record.contexts.append([game.turn, game.step, decision.get("kind"), decision.get("player")])
            raise InvariantFailure("exception", f"{type(exc).__name__}: {exc} (on a dry run of input {k}: "
                                   f"{_show(inp)})", k) from exc

    def _choose(self, game: Any, decision: dict, k: int) -> tuple[dict, str]:
        rng = policy_rng(self.record.seed, k)
        if self.settings.hostile_rate > 0 and rng.below(1_000_000) < self.settings.hostile_rate * 1_000_000:
            groups = list(hostile_groups(game, decision).values())
            if groups:
                self.stats.hostile += 1
                group = groups[rng.below(len(groups))]
                return group[rng.below(len(group))], "hostile"
        return self._find_answer(game, decision, rng, k), "play"

    def _find_answer(self, game: Any, decision: dict, rng: Any, k: int) -> dict:
        cands = self.legal.candidate_actions(game, decision)
        groups: dict[str, list] = {}
        for c in cands:
            groups.setdefault(c.group, []).append(c)
        taken = decision.get("mulligans", 0)
        while groups:
            names = list(groups)
            weights = [GROUP_WEIGHTS.get(g, KIND_WEIGHTS.get(groups[g][0].kind, 1))
                       if not (groups[g][0].kind == "mulligan" and taken >= 2) else 0 for g in names]
            if not any(weights):
                weights = [1] * len(names)
            pick = rng.below(sum(weights))
            for name, w in zip(names, weights):
                if pick < w:
                    break
                pick -= w
            group = groups[name]
            cand = group.pop(rng.below(len(group)))
            if not group:
                del groups[name]
            if cand.input.get("action") == "pass" or cand.group in ("attack:none", "block:none"):
                ok = True  # passing, attacking with nothing and blocking with nothing are always legal
            else:
                ok, _ = self._accepts(game, decision, cand.input, k)
            if ok:
                self.stats.action_kinds[cand.kind] = self.stats.action_kinds.get(cand.kind, 0) + 1
                chosen: dict = cand.input
                return chosen
            self.stats.dry_run_refusals += 1
        raise InvariantFailure("stuck", f"no legal answer to the {decision.get('kind')} decision of "
                               f"{decision.get('player')} ({_show(decision)}) in turn {game.turn}, {game.step}: "
                               f"{len(cands)} candidate(s), none accepted", k - 1 if k else None)


def _watchdog(seconds: float, at: int | None) -> None:
    """(Re)arm a timer that raises a ``loop`` failure if the engine runs ``seconds`` without
    asking for an input (an internal loop would otherwise hang the run). POSIX main
    thread only; ``seconds`` 0 disarms it."""
    import signal
    import threading
    if not hasattr(signal, "setitimer") or threading.current_thread() is not threading.main_thread():
        return

    def expired(signum: int, frame: Any) -> None:
        raise InvariantFailure("loop", f"the engine ran {seconds:g} s without asking for an input", at)
    if seconds:
        signal.signal(signal.SIGALRM, expired)
    signal.setitimer(signal.ITIMER_REAL, seconds)


def _step_rank(step: str) -> int:
    from mtg_judge.engine.game import STEPS
    return STEPS.index(step) if step in STEPS else -1


def _show(obj: Any) -> str:
    text = dumps(obj) if not isinstance(obj, str) else obj
    return text if len(text) <= 300 else text[:300] + "…"


def _cheap_key(game: Any) -> tuple:
    """A summary of the game's state, cheap to take and a function of :func:`_state_key`'s
    state (two equal states give equal summaries): the turn, step, stack size, each
    player's life and zone sizes, and the battlefield's size and tapped permanents."""
    players = game.players
    return (game.turn, game.step, len(game.stack), len(game.battlefield),
            sum(1 for o in game.battlefield if o.tapped),
            tuple((p.life, len(p.zone("library")), len(p.zone("hand")), len(p.zone("graveyard")),
                   len(p.zone("exile"))) for p in (players[pid] for pid in game.order)))


def _state_key(game: Any) -> str:
    # the state has no floats (checked with the log at the end): plain sorted JSON is enough here
    return json.dumps(game.state(), sort_keys=True, separators=(",", ":"))


def conservation_problem(game: Any, tokens: bool = True) -> str | None:
    """What is wrong with where the game's cards are, or None: every card of the setup in
    exactly one zone (a phased-out permanent is on the battlefield, engine/phasing.py),
    registered under its current reference; copies only on the stack,
    except two copies of a card that exist in exile for a while: a prepared permanent's copy
    of its prepare spell, while that permanent is on the battlefield and prepared (rulings
    strixhaven.prepare.09, .11), and a paradigm copy, created in exile as the delayed ability
    resolves and cast from there (CR 707.12), which ceases to exist the next time
    state-based actions are checked if it isn't cast (CR 704.5e; strixhaven.paradigm.02).
    ``tokens`` says that state-based actions have just been checked (a priority decision,
    CR 117.5): then tokens only on the battlefield (CR 704.5d) and no paradigm copy left."""
    where: dict[str, list[str]] = {}
    groups: list[tuple[str, Iterable[Any]]] = []  # (where, its objects); the label built once
    for pid in game.order:
        p = game.players[pid]
        for zone in ("library", "hand", "graveyard", "exile"):
            objs = p.zone(zone)
            for o in objs:
                if o.owner != pid:
                    return f"{o.ref} (owned by {o.owner}) is in {pid}'s {zone}"
                if o.zone != zone:
                    return f"{o.ref} is in {pid}'s {zone} but says it is in {o.zone}"
            if objs:
                groups.append((f"{pid}'s {zone}", objs))
    for o in game.battlefield:
        if o.zone != "battlefield":
            return f"{o.ref} is on the battlefield but says it is in {o.zone}"
    groups.append(("the battlefield", game.battlefield))
    # a phased-out permanent is still on the battlefield (CR 702.26d)
    groups.append(("the battlefield (phased out)", phasing.phased_out_objects(game)))
    on_stack = [it.obj for it in game.stack if it.obj is not None]
    for o in on_stack:
        if o.zone != "stack":
            return f"{o.ref} is on the stack but says it is in {o.zone}"
    groups.append(("the stack", on_stack))
    objects, by_card = game.objects, game.by_card
    for zone, objs in groups:
        for o in objs:
            if o.is_copy:
                if zone != "the stack":
                    problem = _copy_off_the_stack(game, o, zone, tokens)
                    if problem:
                        return problem
                continue
            if o.is_token:
                if tokens and not zone.startswith("the battlefield"):
                    return f"the token {o.ref} is in {zone} (CR 704.5d: it should have ceased to exist)"
                continue
            card = o.card
            if card in where:
                where[card].append(zone)
            else:
                where[card] = [zone]
            if objects.get(o.ref) is not o:
                return f"{o.ref} in {zone} is not the object the game registers under that reference"
            if by_card.get(card) is not o:
                return f"card {card} is {o.ref} in {zone}, but the game knows it as {getattr(by_card.get(card), 'ref', None)}"
    if len(where) == len(game.incarnation) and all(len(zones) == 1 for zones in where.values()) \
            and where.keys() == game.incarnation.keys():
        return None
    cards = set(game.incarnation)
    for card, zones in sorted(where.items()):
        if len(zones) > 1:
            return f"card {card} is in {len(zones)} places: {', '.join(zones)}"
    lost = sorted(cards - set(where))
    if lost:
        return f"card(s) {', '.join(lost[:5])} are in no zone"
    extra = sorted(set(where) - cards)
    if extra:
        return f"unknown card(s) {', '.join(extra[:5])} appeared"
    return None


def _copy_off_the_stack(game: Any, o: Any, zone: str, sbas_checked: bool) -> str | None:
    """Why the copy ``o``, found in ``zone`` (not the stack), shouldn't be there, or None."""
    in_exile = zone.endswith("'s exile")
    if getattr(o, "prepared_for", None) is not None:
        perm = game.objects.get(o.prepared_for)
        if not in_exile:
            return f"the prepared copy {o.ref} is in {zone}"
        if perm is None or perm.zone != "battlefield" or not perm.prepared or perm.prepared_copy != o.ref:
            return (f"the prepared copy {o.ref} is in {zone} but {o.prepared_for} is not a prepared permanent "
                    "linked to it (strixhaven.prepare.04, .17: it should have ceased to exist)")
        return None
    if o.paradigm_copy and in_exile:
        if sbas_checked:
            return (f"the paradigm copy {o.ref} is still in {zone} (CR 704.5e, strixhaven.paradigm.02: "
                    "not cast, it should have ceased to exist)")
        return None
    return f"the copy {o.ref} is in {zone}"


def sba_problem(game: Any) -> str | None:
    """A state-based action that still applies (CR 704.5), or None. Meant for the moment a
    player receives priority, when none may (CR 117.5)."""
    from mtg_judge.engine import characteristics as ch
    for pid in game.order:
        p = game.players[pid]
        if p.lost:
            continue
        if p.life <= 0:
            return f"{pid} has {p.life} life and has not lost (CR 704.5a)"
        if p.drew_from_empty:
            return f"{pid} drew from an empty library and has not lost (CR 704.5b)"
    names: dict = {}
    for perm in game.battlefield:
        if ch.is_type(perm, "Creature"):
            _, toughness = ch.power_toughness(game, perm)
            if toughness <= 0:
                return f"{perm.ref} has toughness {toughness} and is still on the battlefield (CR 704.5f)"
            if perm.damage >= toughness:
                return f"{perm.ref} has {perm.damage} damage, toughness {toughness}, and was not destroyed (CR 704.5g)"
            if perm.dealt_deathtouch_damage:
                return f"{perm.ref} was dealt deathtouch damage and was not destroyed (CR 704.5h)"
        if perm.counters.get("+1/+1") and perm.counters.get("-1/-1"):
            return f"{perm.ref} has both +1/+1 and -1/-1 counters (CR 704.5q)"
        if perm.chars.enchant is not None and "Aura" in perm.chars.subtypes:
            host = game.objects.get(perm.attached_to) if perm.attached_to else None
            if not game._aura_can_stay(perm, host):
                return f"the Aura {perm.ref} is attached to {perm.attached_to!r}, which it can't enchant (CR 704.5m)"
        rule = game.rules.legend_rule
        if rule.is_legendary(game, perm) and perm.name is not None:
            key = (perm.name, perm.controller if rule.per_controller else None)
            if key in names:
                return f"{names[key]} and {perm.ref} are legendary permanents named {perm.name} (legend rule: {rule.name})"
            names[key] = perm.ref
    return None


# ------------------------------------------------------------------------ hostile inputs
ZZ = "zz_nothing"


def input_schema_errors(inp: dict) -> list[str]:
    """Why ``inp`` is not a valid script input (``schema/scenario.schema.json#/$defs/input``);
    [] if it is."""
    return [e.message for e in _input_validator().iter_errors(inp)]


@lru_cache(maxsize=1)
def _input_validator() -> Any:
    from jsonschema import Draft202012Validator

    from mtg_judge.conformance.loader import SCHEMA_BASE_URI, _registry
    return Draft202012Validator({"$ref": SCHEMA_BASE_URI + "scenario.schema.json#/$defs/input"},
                                registry=_registry())


def hostile_inputs(game: Any, decision: dict) -> list[dict]:
    """Inputs that are certainly illegal as the answer to ``decision`` now: the engine must
    reject each with a documented code and change nothing (docs/FORMAT.md §3.2). All are
    schema-valid (``schema/scenario.schema.json#/$defs/input``) but those of the group
    ``wrong type`` (a field of the wrong JSON type: ``bad_input``). Deterministic."""
    return [inp for group in hostile_groups(game, decision).values() for inp in group]


def hostile_groups(game: Any, decision: dict) -> dict[str, list[dict]]:
    """:func:`hostile_inputs` grouped by the rule each one breaks (the driver picks a group,
    then an input, so that rare rules get their turn)."""
    from mtg_judge.engine import characteristics as ch

    kind: str = decision["kind"]  # Game.ask: every decision has a kind
    player = decision.get("player")
    other = next((p for p in game.order if p != player), player)
    groups: dict[str, list[dict]] = {}
    me = game.players[player] if player in game.players else None

    def add(rule: str, inp: dict) -> None:
        groups.setdefault(rule, []).append(inp)

    add("wrong decision", {"action": "discard" if kind != "discard" else "choose", "player": player,
                           **({"cards": [ZZ]} if kind != "discard" else {"choice": ZZ})})
    # outside the input schema: a field of the wrong JSON type (rejected with bad_input)
    expected = {"priority": "cast", "may_cast": "cast"}.get(kind) or _expected_action(kind)
    add("wrong type", {"action": expected, "player": player, "targets": 5})
    add("wrong type", {"action": expected, "player": player, "x": "1"})
    add("wrong type", {"action": expected, "player": [player]})
    if other != player:
        action = {"priority": "pass", "may_cast": "choose"}.get(kind) or _expected_action(kind)
        add("wrong player", {"action": action, "player": other, **_minimal_fields(kind)})
    if kind == "priority" and me is not None:
        add("unknown object", {"action": "cast", "player": player, "card": ZZ})
        add("unknown object", {"action": "activate", "player": player, "source": ZZ, "ability": 0})
        if me.library:
            add("not in hand", {"action": "cast", "player": player, "card": me.library[-1].ref})
        opp_hand = game.players[other].hand if other != player else []
        if opp_hand:
            add("not in hand", {"action": "cast", "player": player, "card": opp_hand[0].ref})
            add("not in hand", {"action": "play_land", "player": player, "card": opp_hand[0].ref})
        seen: set = set()
        for o in me.hand:
            if o.definition.name in seen:
                continue
            seen.add(o.definition.name)
            if ch.is_type(o, "Land"):
                add("land cast", {"action": "cast", "player": player, "card": o.ref})
                if not _sorcery_timing(game, player) or me.lands_played >= 1:
                    add("land timing", {"action": "play_land", "player": player, "card": o.ref})
                continue
            add("not a land", {"action": "play_land", "player": player, "card": o.ref})
            d = o.definition
            instant = "Instant" in d.types or any(k["keyword"] == "flash" for k in d.keywords)
            if not instant and not _sorcery_timing(game, player):
                add("sorcery timing", {"action": "cast", "player": player, "card": o.ref})
            kws = {k["keyword"] for k in d.keywords}
            for alt in ("without_paying", "flashback", "madness", "harmonize"):
                add("alternative cost", {"action": "cast", "player": player, "card": o.ref, "alternative": alt})
            if "suspend" not in kws:
                add("no such ability", {"action": "suspend", "player": player, "card": o.ref})
            elif not instant and not _sorcery_timing(game, player):
                add("sorcery timing", {"action": "suspend", "player": player, "card": o.ref})
            if "cycling" not in kws and "landcycling" not in kws:
                add("no such ability", {"action": "activate", "player": player, "source": o.ref,
                                        "ability": "landcycling"})
            if "buyback" not in kws:
                add("additional cost", {"action": "cast", "player": player, "card": o.ref, "buyback": True})
            if "kicker" not in kws:
                add("additional cost", {"action": "cast", "player": player, "card": o.ref, "kicker": [0]})
            if not d.mana_cost.x:
                add("x", {"action": "cast", "player": player, "card": o.ref, "x": 1})
            if not (d.spell or {}).get("modes"):
                add("modes", {"action": "cast", "player": player, "card": o.ref, "modes": [0]})
        for perm in game.battlefield:
            if perm.controller == player:
                add("no such ability", {"action": "activate", "player": player, "source": perm.ref, "ability": 99})
                if not perm.face_down:
                    add("face up", {"action": "turn_face_up", "player": player, "card": perm.ref})
                elif not me.pool.total() and any(k["keyword"] == "morph" and k.get("cost") not in ("", "{0}")
                                                 for k in perm.definition.keywords):
                    add("cost", {"action": "turn_face_up", "player": player, "card": perm.ref})  # no mana
                if perm.tapped:
                    for i, ab in enumerate(ch.abilities(game, perm)):
                        if ab.get("kind") in ("activated", "mana") and dict(ab.get("cost", {})).get("tap"):
                            add("tapped", {"action": "activate", "player": player, "source": perm.ref, "ability": i})
                            break
            elif perm.controller == other:
                for i, ab in enumerate(ch.abilities(game, perm)):
                    if ab.get("kind") in ("activated", "mana"):
                        add("not controller", {"action": "activate", "player": player, "source": perm.ref,
                                               "ability": i})
                        break
        for rule, inp in _spoiled_casts(game, decision):
            add(rule, inp)
    elif kind == "declare_attackers":
        add(kind, {"action": "declare_attackers", "player": player, "attackers": [ZZ]})
        for perm in game.battlefield:
            creature = ch.is_type(perm, "Creature")
            if perm.controller == other and creature:
                add(kind, {"action": "declare_attackers", "player": player, "attackers": [perm.ref]})
            elif perm.controller == player and not creature:
                add(kind, {"action": "declare_attackers", "player": player, "attackers": [perm.ref]})
            elif perm.controller == player:
                if perm.tapped or (perm.summoning_sick and not ch.has_keyword(game, perm, "haste")) \
                        or ch.has_keyword(game, perm, "defender"):
                    add(kind, {"action": "declare_attackers", "player": player, "attackers": [perm.ref]})
                if perm.ref != perm.card:
                    add(kind, {"action": "declare_attackers", "player": player, "attackers": [perm.card, perm.ref]})
    elif kind == "declare_blockers" and game.combat is not None:
        attackers = [a for a in game.combat.attackers if a in game.objects]
        add(kind, {"action": "declare_blockers", "player": player, "blocks": [{"blocker": ZZ, "attacker": ZZ}]})
        mine = [p for p in game.battlefield if p.controller == player]
        for a in attackers:
            add(kind, {"action": "declare_blockers", "player": player,
                        "blocks": [{"blocker": a, "attacker": a}]})
            for p in mine:
                if not ch.is_type(p, "Creature"):
                    add(kind, {"action": "declare_blockers", "player": player,
                                "blocks": [{"blocker": p.ref, "attacker": a}]})
                    break
            creatures = [p for p in mine if ch.is_type(p, "Creature")]
            if creatures:
                b = creatures[0].ref
                add(kind, {"action": "declare_blockers", "player": player,
                            "blocks": [{"blocker": b, "attacker": a}, {"blocker": b, "attacker": a}]})
        for p in game.battlefield:
            if p.controller == player and ch.is_type(p, "Creature") and attackers:
                non_attacking = [q.ref for q in game.battlefield if q.ref not in game.combat.attackers]
                if non_attacking:
                    add(kind, {"action": "declare_blockers", "player": player,
                                "blocks": [{"blocker": p.ref, "attacker": non_attacking[0]}]})
                break
    elif kind == "assign_damage":
        a = decision.get("attacker")
        from mtg_judge.engine import characteristics as _ch
        obj = game.objects.get(a)
        if obj is not None:
            power, _ = _ch.power_toughness(game, obj)
            blockers = game.combat.blockers_of(a) if game.combat is not None else []
            if blockers:
                add(kind, {"action": "assign_damage", "player": player, "attacker": a,
                            "assignment": {blockers[0]: power + 1}})
            add(kind, {"action": "assign_damage", "player": player, "attacker": a, "assignment": {ZZ: power}})
    elif kind == "order_triggers":
        refs = list(decision.get("options", ()))
        if refs:
            add(kind, {"action": "order_triggers", "player": player, "order": refs[:-1]})
            add(kind, {"action": "order_triggers", "player": player, "order": refs[:-1] + [ZZ]})
    elif kind == "choose_targets":
        from mtg_judge.engine.game import target_spec_active
        from mtg_judge.engine.legal import pending_target_item
        found = pending_target_item(game, decision)
        if found is not None and [s for s in found[1] if target_spec_active(s, found[0].kicked)]:
            add(kind, {"action": "choose_targets", "player": player, "targets": []})
            add(kind, {"action": "choose_targets", "player": player, "targets": [ZZ] * len(found[1])})
    elif kind == "discard" and me is not None:
        n = decision.get("count", 1)
        hand = [o for o in me.hand]
        if len(hand) > n:
            add(kind, {"action": "discard", "player": player, "cards": [o.ref for o in hand[:n + 1]]})
        if n > 1:
            add(kind, {"action": "discard", "player": player, "cards": [o.ref for o in hand[:n - 1]]})
        if me.library:
            add(kind, {"action": "discard", "player": player, "cards": [me.library[0].ref] + [o.ref for o in hand[:n - 1]]})
        if n > 1 and hand and hand[0].ref != hand[0].card:  # one card twice: by its alias and its reference
            add(kind, {"action": "discard", "player": player,
                        "cards": [hand[0].card, hand[0].ref] + [o.ref for o in hand[1:n - 1]]})
    elif kind == "choose":
        add(kind, {"action": "choose", "player": player, "choice": ZZ})
    elif kind == "may_cast":
        add(kind, {"action": "choose", "player": player, "choice": "maybe"})
        add(kind, {"action": "cast", "player": player, "card": ZZ})
        add(kind, {"action": "pass", "player": player})
    elif kind == "mulligan" and me is not None:
        hand = [o.ref for o in me.hand]
        taken = decision.get("mulligans", 0)
        need = game.rules.mulligan.bottom_count(taken)
        if len(hand) > need:
            add(kind, {"action": "keep", "player": player, "bottom": hand[:need + 1]})
        if need > 1:  # one card twice: by its alias and its reference
            first = me.hand[0]
            if first.ref != first.card:
                add(kind, {"action": "keep", "player": player,
                            "bottom": [first.card, first.ref] + hand[1:need - 1]})
        add(kind, {"action": "pass", "player": player})
    return groups


def _sorcery_timing(game: Any, player: str | None) -> bool:
    """CR 307.1: the player's own main phase with an empty stack (computed here, not asked
    of the engine: a hostile input must not depend on the rule it tests)."""
    return player == game.active and game.step in ("precombat_main", "postcombat_main") and not game.stack


def _expected_action(kind: str) -> str:
    from mtg_judge.engine.legal import DECISION_ACTIONS
    return DECISION_ACTIONS.get(kind, ("choose",))[0]


def _minimal_fields(kind: str) -> dict[str, Any]:
    fields: dict[str, dict[str, Any]] = {"declare_attackers": {"attackers": []}, "declare_blockers": {"blocks": []},
            "assign_damage": {"attacker": ZZ, "assignment": {ZZ: 1}}, "order_triggers": {"order": [ZZ]},
            "choose_targets": {"targets": [ZZ]}, "discard": {"cards": [ZZ]}, "choose": {"choice": "no"},
            "may_cast": {"choice": "no"}}
    return fields.get(kind, {})


def _spoiled_casts(game: Any, decision: dict) -> list[tuple[str, dict]]:
    """Offered casts with one part made illegal: targets missing or one too many, the
    opponent's land to pay with, nothing to pay with when the pool can't pay."""
    from mtg_judge.engine import legal
    player = decision["player"]
    other = next((p for p in game.order if p != player), None)
    opp_land = next((p.ref for p in game.battlefield if p.controller == other and any(
        ab.get("kind") == "mana" for ab in p.chars.abilities)), None)
    out = []
    for cand in legal.candidate_actions(game, decision):
        inp = cand.input
        if inp["action"] != "cast":
            continue
        if inp.get("targets"):
            out.append(("targets", {**inp, "targets": inp["targets"][:-1]}))
            out.append(("targets", {**inp, "targets": inp["targets"] + [inp["targets"][0]]}))
        if opp_land is not None:
            out.append(("payment", {**inp, "pay_with": [opp_land]}))
        if inp.get("pay_with"):
            out.append(("payment", {**inp, "pay_with": [inp["pay_with"][0]] * 2}))  # one source activated twice
        out.append(("payment", {**inp, "mana": {"G": 99}}))
        if "x" in inp:
            out.append(("x", {**inp, "x": 999}))
        if inp.get("kicker"):
            out.append(("additional cost", {**inp, "kicker": [inp["kicker"][0]] * 2}))
        if "modes" in inp:
            out.append(("modes", {**inp, "modes": list(range(len(inp["modes"]) + 1))}))
        obj = game.find(inp["card"])
        try:
            kws = {k["keyword"]: dict(k) for k in obj.definition.keywords}
            cost = game._total_cost(player, obj, inp.get("alternative"), kws, inp.get("kicker", []),
                                    bool(inp.get("buyback"))).with_x(inp.get("x", 0))
        except Exception:  # noqa: BLE001 - only a filter
            continue
        if cost.mana_value() > game.players[player].pool.total():
            out.append(("payment", {k: v for k, v in inp.items() if k != "pay_with"}))
        if len(out) > 12:
            break
    return out


# ---------------------------------------------------------------------------- one game
def _decks_for(index: int, decks: list[Deck]) -> tuple[Deck, Deck]:
    pairs = [(a, b) for a in decks for b in decks]
    return pairs[(index // len(RULESETS)) % len(pairs)]


def _ruleset_for(index: int, rulesets: tuple[str, ...]) -> str:
    return rulesets[index % len(rulesets)]


def play_record(record: Record, settings: Settings, stats: Stats, **source_args: Any) -> tuple[Any, str, Any]:
    """Play (or replay) a game from ``record.setup``; returns ``(game, outcome, error)`` with
    outcome ``ended``, ``turn_cap``, ``stopped`` (a prefix ran out) or ``failed`` (error is
    the InvariantFailure)."""
    from mtg_judge.engine.errors import ScriptExhausted
    from mtg_judge.engine.scenario import build_game

    source = SelfPlayInputs(record, settings, stats, **source_args)
    game = build_game({"setup": record.setup}, record.ruleset, _card_db(), source)
    try:
        try:
            game.play()
        finally:
            _watchdog(0, None)
    except TurnCapReached:
        return game, "turn_cap", None
    except ScriptExhausted:
        return game, "stopped", None
    except InvariantFailure as err:
        return game, "failed", err
    except Exception as exc:  # noqa: BLE001 - an exception escaped the engine
        at = len(record.inputs) - 1 if record.inputs else None
        failure = InvariantFailure("exception", f"{type(exc).__name__}: {exc}", at)
        failure.__cause__ = exc
        return game, "failed", failure
    try:  # the end of the game: the last input still needs its legality check
        source._after_previous(game, len(record.inputs))
        stats.check("conservation")
        problem = conservation_problem(game, tokens=False)
        if problem:
            raise InvariantFailure("conservation", problem, len(record.inputs) - 1)
    except InvariantFailure as err:
        return game, "failed", err
    return game, "ended", None


def replay_events(record: Record, inputs: list | None = None) -> tuple[list, dict]:
    """Replay ``record`` through ``ScriptInputs`` (the fixture input source); return the log
    and the final state. Exceptions propagate."""
    from mtg_judge.engine.errors import ScriptExhausted
    from mtg_judge.engine.scenario import ScriptInputs, build_game

    game = build_game({"setup": record.setup}, record.ruleset, _card_db(),
                      ScriptInputs(list(record.inputs if inputs is None else inputs)))
    try:
        game.play()
    except ScriptExhausted:
        pass
    return game.events, game.state()


def play_game(index: int, seed: int, decks: tuple[Deck, Deck], ruleset: str, settings: Settings,
              shrink: bool = True) -> GameResult:
    """Play one game and check it (see the module docstring)."""
    stats = Stats(games=1)
    stats.by_ruleset[ruleset] = 1
    start = time.perf_counter()
    low = settings.low_life_every and index % settings.low_life_every == settings.low_life_every - 1
    record = Record(ruleset, build_setup(seed, decks, settings.deck_size, settings.low_life if low else None))
    game, outcome, err = play_record(record, settings, stats)
    if err is None and settings.check_schemas:
        err = _check_schemas(game, record, stats)
    if err is None:
        err = _check_determinism(game, record, settings, stats, index)
    failure = None
    if err is not None:
        outcome = "failed"
        detail = "".join(traceback.format_exception(err.__cause__)) if err.__cause__ is not None else ""
        failure = Failure(err.invariant, err.message, copy.deepcopy(record), err.at, detail=detail)
        if shrink and settings.shrink_tests > 0:
            shrink_failure(failure, settings)
        stats.failures += 1
    elif outcome == "turn_cap":
        stats.turn_cap += 1
    else:
        stats.ended += 1
    stats.turns += (game.turn - 1 if outcome == "turn_cap" else game.turn) if game is not None else 0
    stats.seconds = time.perf_counter() - start
    return GameResult(index, seed, ruleset, (decks[0].name, decks[1].name), outcome, game.turn, stats, failure,
                      record)


def _check_schemas(game: Any, record: Record, stats: Stats):
    from mtg_judge.conformance.loader import validate
    for i, event in enumerate(game.events):
        stats.check("schema")
        errors = validate(event, "event", "<event>")
        if errors:
            return InvariantFailure("schema", f"event {i} ({_show(event)}) breaks schema/event.schema.json: "
                                    f"{errors[0].path}: {errors[0].message}", len(record.inputs) - 1)
    stats.check("schema")
    errors = validate(game.state(), "state", "<state>")
    if errors:
        return InvariantFailure("schema", f"the final state breaks schema/state.schema.json: {errors[0].path}: "
                                f"{errors[0].message}", len(record.inputs) - 1)
    return None


def _check_determinism(game: Any, record: Record, settings: Settings, stats: Stats, index: int):
    live = dumps(game.events)
    stats.check("determinism")
    try:
        events, state = replay_events(record)
    except Exception as exc:  # noqa: BLE001
        err = InvariantFailure("determinism", f"replaying the record raised {type(exc).__name__}: {exc}",
                               len(record.inputs) - 1)
        err.__cause__ = exc
        return err
    if dumps(events) != live or dumps(state) != dumps(game.state()):
        return InvariantFailure("determinism", "replaying the record through ScriptInputs gives another log: "
                                + _first_difference(game.events, events), len(record.inputs) - 1)
    if settings.resume_every and index % settings.resume_every == 0 and len(record.inputs) > 2:
        stats.check("determinism")
        cut = len(record.inputs) // 2
        resumed = Record(record.ruleset, record.setup)
        other = Stats()
        game2, _, err = play_record(resumed, settings, other, prefix=record.inputs[:cut],
                                    prefix_marks=record.marks[:cut])
        if err is not None:
            return InvariantFailure("determinism", f"the game resumed after input {cut - 1} failed differently: "
                                    f"{err}", cut - 1)
        if resumed.inputs != record.inputs or dumps(game2.events) != live:
            where = next((i for i, (a, b) in enumerate(zip(resumed.inputs, record.inputs)) if a != b),
                         min(len(resumed.inputs), len(record.inputs)))
            return InvariantFailure("determinism", f"the game resumed after input {cut - 1} went another way "
                                    f"from input {where} on: " + _first_difference(game.events, game2.events),
                                    cut - 1)
    return None


def _first_difference(a: list, b: list) -> str:
    for i, (x, y) in enumerate(zip(a, b)):
        if dumps(x) != dumps(y):
            return f"event {i}: {_show(x)} vs {_show(y)}"
    return f"{len(a)} events vs {len(b)}"


# ----------------------------------------------------------------------------- shrinking
def _signature(invariant: str, message: str) -> str:
    """What must stay the same while a failure shrinks: the invariant, and for legality
    failures which rule of it broke, for exceptions the exception's type."""
    if invariant == "exception":
        return "exception:" + message.split(":", 1)[0]
    if invariant == "legality":
        for key in ("accepted on a dry run", "was accepted", "documented rejection code", "events", "changed the state"):
            if key in message:
                return f"legality:{key}"
    return invariant


def replay_check(failure: Failure, inputs: list, marks: list, settings: Settings,
                 contexts: list | None = None) -> tuple[bool, Record]:
    """Replay ``inputs`` from the failing game's setup with every invariant checked,
    stopping when they run out (fed as given, or tolerantly with ``contexts``, see
    :class:`SelfPlayInputs`). Returns whether the same failure happens (same signature and,
    for legality and exceptions, on the same input) and the record of what was fed."""
    record = Record(failure.record.ruleset, failure.record.setup)
    stats = Stats()
    quiet = Settings(**{**settings.__dict__, "hostile_rate": 0.0, "turn_cap": 10 ** 6,
                        "max_inputs": max(settings.max_inputs, 4 * len(inputs) + 1000)})
    if failure.invariant not in ("legality",):  # legality is checked only where it failed
        marks = ["given" if m in ("play", "hostile") else m for m in marks]
    anchor = failure.record.inputs[failure.at] if failure.at is not None else None
    try:
        game, outcome, err = play_record(record, quiet, stats, prefix=inputs, prefix_marks=marks, then="stop",
                                         verify_prefix=failure.invariant == "legality",
                                         check_stuck=failure.invariant == "stuck", prefix_contexts=contexts)
    except Exception:  # noqa: BLE001
        return failure.invariant == "exception", record
    if err is not None:
        if _signature(err.invariant, err.message) != _signature(failure.invariant, failure.message):
            return False, record
        if failure.invariant in ("legality", "exception") and anchor is not None:
            return err.at is not None and err.at < len(record.inputs) and record.inputs[err.at] == anchor, record
        return True, record
    if failure.invariant == "determinism":
        try:
            events, _ = replay_events(record)
        except Exception:  # noqa: BLE001
            return True, record
        return dumps(events) != dumps(game.events), record
    return False, record


def failure_reproduces(failure: Failure, inputs: list, marks: list, settings: Settings) -> bool:
    """Does ``failure`` happen again when exactly these inputs are replayed?"""
    return replay_check(failure, inputs, marks, settings)[0]


def ddmin(items: list, test: Callable[[list], bool], budget: Callable[[], bool]) -> list:
    """Delta debugging (Zeller's ddmin, complements only) of ``items``: drop chunks (halves,
    then quarters, …) while ``test(candidate)`` is true; returns the smallest list found.

    ``items`` must pass ``test`` already (it is not tested again); ``budget()`` is asked
    before each test and stops the search when false (a bound on tests or time). The order
    of the items is kept; an empty candidate is never tested. Used by :func:`shrink_failure`
    and by the differential fuzzer (``mtg_judge.conformance.fuzz``)."""
    items = list(items)
    n = 2
    while len(items) >= 2 and budget():
        chunk = -(-len(items) // n)
        reduced = False
        for start in range(0, len(items), chunk):
            if not budget():
                break
            candidate = items[:start] + items[start + chunk:]
            if candidate and test(candidate):
                items = candidate
                n = max(n - 1, 2)
                reduced = True
                break
        if not reduced:
            if n >= len(items):
                break
            n = min(len(items), n * 2)
    return items


def shrink_failure(failure: Failure, settings: Settings) -> None:
    """Delta debugging (ddmin, complements only) on the failing game's inputs: drop chunks
    while the same failure still happens; the inputs after the failure are dropped first.

    The candidates are replayed tolerantly (each input waits for a decision like the one it
    answered, with default answers meanwhile: see :class:`SelfPlayInputs`), so dropping an
    input does not shift the others onto the wrong decisions. The result, in
    ``failure.shrunk``, is what was fed in the end (the inputs kept and the defaults), which
    replays as it is; ``failure.essential`` lists the inputs kept. Bounded by
    ``settings.shrink_seconds`` and ``settings.shrink_tests``."""
    rec = failure.record
    n_in = len(rec.inputs) if failure.at is None else failure.at + 1
    items = list(zip(rec.inputs[:n_in], rec.marks[:n_in], rec.contexts[:n_in]))
    deadline = time.monotonic() + settings.shrink_seconds
    tests = 0
    best: Record | None = None

    def test(cand: list) -> bool:
        nonlocal tests, best
        tests += 1
        ok, fed = replay_check(failure, [i for i, _, _ in cand], [m for _, m, _ in cand], settings,
                               [c for _, _, c in cand])
        if ok:
            best = fed
        return ok

    if not test(items):  # the failure does not replay by itself: keep the record as it is
        failure.shrunk, failure.shrunk_marks, failure.shrink_tests = rec.inputs[:n_in], rec.marks[:n_in], tests
        failure.essential = failure.shrunk
        return
    items = ddmin(items, test, lambda: tests < settings.shrink_tests and time.monotonic() < deadline)
    test(items)  # ``best`` is what the final candidate fed
    assert best is not None
    failure.essential = [i for i, _, _ in items]
    if failure_reproduces(failure, best.inputs, best.marks, settings):
        failure.shrunk, failure.shrunk_marks = best.inputs, best.marks
        failure.shrunk_contexts = best.contexts
    else:  # pragma: no cover - the fed inputs replay as they were fed
        failure.shrunk, failure.shrunk_marks = rec.inputs[:n_in], rec.marks[:n_in]
    failure.shrink_tests = tests


def compress_script(record: Record, inputs: list, marks: list, contexts: list) -> list:
    """``inputs`` with each run of default answers that only passes priority and declares
    no attackers or blockers replaced by an ``advance`` to the step of the next input
    (docs/FORMAT.md §3.2), where the log stays the same (checked by replaying both through
    ``ScriptInputs``, ``at`` indexes aside)."""
    def log(script: list) -> str:
        try:
            events, _ = replay_events(record, script)
        except Exception as exc:  # noqa: BLE001
            return f"raised {type(exc).__name__}: {exc}"
        return dumps([{k: v for k, v in e.items() if k != "at"} for e in events])

    plain = ("pass", "declare_attackers", "declare_blockers")

    def is_plain(i: int) -> bool:
        inp = inputs[i]
        return marks[i] == "default" and inp["action"] in plain and not inp.get("attackers") and not inp.get("blocks")

    out: list = []
    i = 0
    while i < len(inputs):
        if not is_plain(i):
            out.append(inputs[i])
            i += 1
            continue
        j = i
        while j < len(inputs) and is_plain(j):
            j += 1
        if j < len(inputs):
            turn, step = contexts[j][0], contexts[j][1]
            tail = [x for x in range(i, j) if contexts[x][:2] == [turn, step]]
            head_end = tail[0] if tail else j
            if head_end > i and contexts[i][:2] != [turn, step]:
                out.append({"action": "advance", "to": step, "turn": turn})
                out.extend(inputs[x] for x in range(head_end, j))
                i = j
                continue
        out.extend(inputs[i:j])
        i = j
    if out != inputs and log(out) != log(inputs):
        return list(inputs)
    return out


def fixture_draft(failure: Failure) -> dict:
    """A fixture draft (docs/FORMAT.md §3) reproducing a failure: the setup and the shrunk
    inputs (runs of passes written as ``advance``); the title, rulings and expectation are
    left to write."""
    rec = failure.record
    script = failure.shrunk if failure.shrunk is not None else rec.inputs
    marks = failure.shrunk_marks if failure.shrunk_marks is not None else rec.marks
    if failure.shrunk_contexts is not None:
        script = compress_script(rec, script, marks, failure.shrunk_contexts)
    rejected = [inp for inp, m in zip(failure.shrunk or rec.inputs, marks) if m in ("hostile", "probe")]
    notes = (f"Draft written by mtg-judge selfplay (seed {rec.seed}, ruleset {rec.ruleset}): the invariant "
             f"'{failure.invariant}' broke: {failure.message}.")
    if failure.essential is not None:
        notes += (f" Shrunk from {len(rec.inputs)} inputs to {len(failure.essential)} essential one(s) in "
                  f"{failure.shrink_tests} replays; the others are default answers (passes, no attack).")
    if rejected:
        notes += " Inputs meant to be rejected: " + "; ".join(dumps(i) for i in rejected[:5]) + "."
    notes += " To do: the title, the rulings it shows, the expectation."
    return {
        "id": f"selfplay.{failure.invariant}.seed-{rec.seed}",
        "title": f"Self-play: {failure.invariant} broken (seed {rec.seed})",
        "rulings": [],
        "rulesets": [rec.ruleset],
        "notes": notes,
        "setup": rec.setup,
        "script": script,
        "expect": {},
    }


def save_failure(failure: Failure, folder: str | Path) -> Path:
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    draft = fixture_draft(failure)
    path = folder / f"selfplay-{failure.invariant}-seed-{failure.record.seed}-{failure.record.ruleset}.json"
    path.write_text(json.dumps(draft, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    if failure.detail:
        path.with_suffix(".traceback.txt").write_text(failure.detail, encoding="utf-8")
    return path


# --------------------------------------------------------------------------------- runs
@dataclass
class RunSpec:
    games: int
    seed: int
    rulesets: tuple
    deck_paths: tuple
    settings: Settings


def _worker_games(args: tuple) -> list[GameResult]:
    spec, indexes = args
    decks = load_decks(spec.deck_paths or None)
    out = []
    for i in indexes:
        out.append(play_game(i, spec.seed + i, _decks_for(i, decks), _ruleset_for(i, spec.rulesets), spec.settings))
        out[-1].record = None if out[-1].failure is None else out[-1].record
    return out


def run_games(spec: RunSpec, workers: int = 1, progress: Callable[[GameResult], None] | None = None) -> list[GameResult]:
    """Play ``spec.games`` games (seeds ``spec.seed`` … ``spec.seed + games - 1``), in
    ``workers`` processes; results in game order."""
    load_decks(spec.deck_paths or None)  # fail early on a bad deck
    indexes = list(range(spec.games))
    chunk = 5
    batches = [(spec, indexes[i:i + chunk]) for i in range(0, len(indexes), chunk)]
    results: list[GameResult] = []
    if workers <= 1:
        for batch in batches:
            for r in _worker_games(batch):
                results.append(r)
                if progress:
                    progress(r)
    else:
        import multiprocessing
        ctx = multiprocessing.get_context("fork" if hasattr(os, "fork") else "spawn")
        with ctx.Pool(workers) as pool:
            for rs in pool.imap_unordered(_worker_games, batches):
                for r in rs:
                    results.append(r)
                    if progress:
                        progress(r)
    results.sort(key=lambda r: r.index)
    return results


def total_stats(results: list[GameResult]) -> Stats:
    total = Stats()
    for r in results:
        total.add(r.stats)
    return total


def summary(results: list[GameResult], wall: float) -> str:
    """The summary printed by ``mtg-judge selfplay``."""
    s = total_stats(results)
    rate = s.inputs / wall if wall > 0 else 0.0
    lines = [
        f"games            {s.games}  (ended {s.ended}, turn cap {s.turn_cap}, failed {s.failures})",
        f"actions          {s.inputs}  ({rate:.0f} actions/s over {wall:.1f} s; {s.hostile} hostile inputs "
        f"rejected as they should be, {s.dry_runs} dry runs, {s.dry_run_refusals} candidates refused on a dry run)",
        f"turns            {s.turns}  ({s.turns / max(1, s.games):.1f} per game)",
        f"invariant checks {s.invariant_checks}  (" + ", ".join(f"{k} {v}" for k, v in sorted(s.checks.items())) + ")",
        "by ruleset       " + ", ".join(f"{k} {v}" for k, v in sorted(s.by_ruleset.items())),
        "actions by kind  " + ", ".join(f"{k} {v}" for k, v in sorted(s.action_kinds.items())),
        f"failures         {s.failures}",
    ]
    for r in results:
        if r.failure is not None:
            lines.append(f"  game {r.index}: {r.failure.summary()}")
    return "\n".join(lines)


# ---------------------------------------------------------------------------------- CLI
def summary_json(results: list[GameResult], wall: float) -> dict:
    """The run's figures as JSON (``--json``)."""
    s = total_stats(results)
    return {
        "games": s.games, "ended": s.ended, "turn_cap_hits": s.turn_cap, "failed": s.failures,
        "actions": s.inputs, "hostile_inputs": s.hostile, "dry_runs": s.dry_runs,
        "dry_run_refusals": s.dry_run_refusals, "turns": s.turns, "seconds": round(wall, 1),
        "actions_per_second": int(s.inputs / wall) if wall > 0 else 0,
        "invariant_checks": s.invariant_checks, "checks": dict(sorted(s.checks.items())),
        "by_ruleset": dict(sorted(s.by_ruleset.items())), "actions_by_kind": dict(sorted(s.action_kinds.items())),
        "hostile_rejection_codes": dict(sorted(s.hostile_codes.items())),
        "failures": [{"game": r.index, "seed": r.seed, "ruleset": r.ruleset, "decks": list(r.decks),
                      "invariant": r.failure.invariant, "message": r.failure.message, "at": r.failure.at,
                      "inputs": len(r.failure.record.inputs),
                      "shrunk": len(r.failure.shrunk) if r.failure.shrunk is not None else None}
                     for r in results if r.failure is not None],
    }


def _make_command():
    import sys

    import click

    from mtg_judge.conformance.workers import cap_workers, workers_option

    @click.command("selfplay")
    @click.option("--games", type=click.IntRange(min=1), default=100, show_default=True,
                  help="Number of games.")
    @click.option("--seed", type=click.IntRange(min=0), default=0, show_default=True,
                  help="Seed of the first game; game i has seed SEED + i.")
    @click.option("--ruleset", "rulesets", multiple=True, type=click.Choice(RULESETS),
                  help="Play only this ruleset (repeatable). Default: the three, in turn.")
    @click.option("--decks", "deck_paths", multiple=True, metavar="FILE",
                  type=click.Path(exists=True, dir_okay=False, path_type=Path),
                  help="A deck list ('<count> <card name>' lines; repeatable). Default: "
                       "fixtures/decks/*.txt. Games pair every deck with every deck.")
    @click.option("--turn-cap", type=click.IntRange(min=1), default=12, show_default=True,
                  help="Stop a game when this turn is over (reported, not a failure).")
    @click.option("--deck-size", type=click.IntRange(min=10), default=None,
                  help="Play a sample of this many cards of each deck (lands in proportion).")
    @workers_option(1, "", what="games")
    @click.option("--hostile-rate", type=click.FloatRange(0, 1), default=Settings.hostile_rate,
                  show_default=True, help="Probability of an illegal input, which must be rejected, at "
                                          "each decision.")
    @click.option("--resume-every", type=click.IntRange(min=0), default=Settings.resume_every,
                  show_default=True, help="Every N-th game is also resumed from half its record "
                                          "and must go on identically (0: never).")
    @click.option("--save-failures", type=click.Path(file_okay=False, path_type=Path), metavar="DIR",
                  help="Write each failing game, shrunk, as a fixture draft into DIR.")
    @click.option("--no-shrink", is_flag=True, help="Don't shrink failing games.")
    @click.option("--schemas", "check_schemas", is_flag=True,
                  help="Also check every event and the final state against their JSON Schemas (slow).")
    @click.option("--json", "json_out", type=click.Path(dir_okay=False, path_type=Path), metavar="FILE",
                  help="Also write the figures as JSON to FILE.")
    def selfplay(games, seed, rulesets, deck_paths, turn_cap, deck_size, workers, hostile_rate, resume_every,
                 save_failures, no_shrink, check_schemas, json_out):
        """Play random games on the reference engine and check its invariants.

        Each game starts from the start of the game (shuffle, opening hands, mulligans)
        between two decks; every decision is a legal action drawn by a seeded PRNG, and
        now and then an illegal input that must be rejected. Checked after every action:
        conservation of cards, legality, loops, stuck decisions, no exception; at the end
        of each game, that replaying its record gives a byte-identical log (and, every
        --resume-every games, that resuming from half of it goes on identically). A
        failing game is shrunk (delta debugging on its inputs) and, with --save-failures,
        written as a fixture draft. Prints a summary (games, actions, actions/s,
        invariant checks, turn-cap hits, failures). Exit 0 if no game failed, 1 otherwise.
        """
        settings = Settings(turn_cap=turn_cap, deck_size=deck_size, hostile_rate=hostile_rate,
                            resume_every=resume_every, check_schemas=check_schemas)
        if no_shrink:
            settings.shrink_tests = 0
        try:
            load_decks(deck_paths or None)
        except DeckError as exc:
            from mtg_judge.conformance.cli_errors import BadInput

            raise BadInput(str(exc)) from None
        spec = RunSpec(games, seed, tuple(rulesets) or RULESETS, tuple(str(p) for p in deck_paths), settings)
        start = time.perf_counter()
        failures = [0]

        def label(_):
            return f"{failures[0]} failure(s)" if failures[0] else ""

        done = [0]
        every = max(1, games // 100)
        with click.progressbar(length=games, label="selfplay", file=sys.stderr, show_pos=True,
                               item_show_func=label) as bar:
            def progress(result: GameResult) -> None:
                failures[0] += result.failure is not None
                done[0] += 1
                bar.update(1, result)
                if not sys.stderr.isatty() and (done[0] % every == 0 or done[0] == games):
                    click.echo(f"selfplay: {done[0]}/{games} games, {failures[0]} failure(s), "
                               f"{time.perf_counter() - start:.0f} s", err=True)  # a log line, not a bar
            results = run_games(spec, cap_workers(workers, games, "games"), progress)
        wall = time.perf_counter() - start
        click.echo(summary(results, wall))
        if save_failures is not None:
            for r in results:
                if r.failure is not None:
                    try:
                        click.echo(f"wrote {save_failure(r.failure, save_failures)}", err=True)
                    except OSError as exc:
                        raise click.ClickException(f"cannot write into {save_failures}: {exc}") from None
        if json_out is not None:
            try:
                json_out.write_text(json.dumps(summary_json(results, wall), indent=2) + "\n", encoding="utf-8")
            except OSError as exc:
                raise click.ClickException(f"cannot write {json_out}: {exc}") from None
        sys.exit(1 if any(r.failure is not None for r in results) else 0)

    return selfplay


selfplay_command = _make_command()
