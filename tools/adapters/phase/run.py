"""One scenario played on phase (:class:`PhaseRun`): the object that holds a run's
bookkeeping (phase's game, our event log, the references of phase's objects, FORMAT §1),
composed of one mixin per part of the translation (:mod:`.setup`, :mod:`.inputs`,
:mod:`.casting`, :mod:`.stack`, :mod:`.events`, :mod:`.state`, :mod:`.bridge`). This module
owns the references, applying one phase action, the prompts, and the whole run: the script
input by input (a rejected input changes nothing, FORMAT §3.2), checkpoints and their
legality probes (run on a copy of the game), and the final state.

Object references follow FORMAT §1 (CR 400.7): phase keeps one object id across zones, and
the adapter counts that object's zone changes (``bolt``, ``bolt#2``, ...); tokens, spell
copies and abilities get ``token#N``, ``copy#N``, ``prepared#N`` and ``ability#N``.
"""

from __future__ import annotations

import copy
import json
from typing import Any

from mtg_judge.tools.adapters.common import Skip
from mtg_judge.tools.adapters.phase.bridge import Bridge508
from mtg_judge.tools.adapters.phase.cards import build_engine
from mtg_judge.tools.adapters.phase.casting import Casting
from mtg_judge.tools.adapters.phase.events import Events
from mtg_judge.tools.adapters.phase.inputs import Inputs
from mtg_judge.tools.adapters.phase.rejections import Rejected, ScriptError, classify
from mtg_judge.tools.adapters.phase.setup import Setup
from mtg_judge.tools.adapters.phase.stack import Stack
from mtg_judge.tools.adapters.phase.state import State


class PhaseRun(Setup, Inputs, Casting, Stack, Events, State, Bridge508):
    """One scenario played on phase: setup, script, event and state translation.
    ``PhaseRun(scenario, ruleset).run()`` is ``{"events", "state", "checkpoints"}``
    (PROTOCOL §10); raises :class:`~mtg_judge.tools.adapters.common.Skip` for what phase
    cannot be given."""

    def __init__(self, scenario: dict, ruleset: str) -> None:
        """Prepare the run of ``scenario`` (a protocol scenario with ``setup``, ``script``,
        ``cards``) under ``ruleset``; builds (or reuses) the phase engine of its cards. Raises
        :class:`Skip` for a setup that is not two players, or cards phase cannot build."""
        self.scenario = scenario
        self.ruleset = ruleset
        self.setup = scenario.get("setup", {})
        players = self.setup.get("players", [])
        if len(players) != 2:
            raise Skip("phase-python games are set up for two players here")
        self.players = [p["id"] for p in players]
        self.seat = {pid: i for i, pid in enumerate(self.players)}
        self.cards = scenario.get("cards", {})
        self.engine = build_engine(self.cards)
        self.events: list[dict] = []
        # object id -> alias / number of objects it has been (FORMAT §1)
        self.alias: dict[int, str] = {}
        self.count: dict[int, int] = {}
        self.tokens: dict[int, str] = {}
        self.abilities: dict[int, str] = {}
        self.targets: dict[int, list] = {}
        self.cast_targets: dict[int, list] = {}
        self.stack_seen: set = set()
        self.pending_activation: dict | None = None
        self.pending_stack: int | None = None
        self.actor: int | None = None
        self.step: tuple | None = None
        self.input_kind: str | None = None
        self.turn = 0  # phase's turn number as its events tell it
        self.input_mark = 0
        self.x_values: dict = {}
        self.casting: dict | None = None
        self.ability_count = 0
        self.game = None
        #: the last spell or ability phase reported resolved; a player phase says is searching
        self.last_resolved: str | None = None
        self.probing = False
        #: spell copies phase made (FORMAT §1 ``copy#N``)
        self.copies: dict[int, str] = {}
        #: prepared permanents (FORMAT §11.9): phase object id -> ``prepared#N``, the copy of
        #: its prepare spell it is linked to (phase keeps a ``prepared`` flag and makes the
        #: copy only as it is cast); ``prepared_n``: the copies made so far
        self.prepared: dict[int, str] = {}
        self.prepared_n = 0
        #: ``prepared#N`` -> the seat in whose exile the copy is (who created it)
        self.prepared_by: dict[str, int] = {}
        self.searching: int | None = None
        #: stack ability id -> its source's reference when it was put on the stack
        self.ability_sources: dict[int, str | None] = {}
        #: spells cast as a face (FORMAT §5.1): object id -> face role, while on the stack
        self.faces_cast: dict[int, str] = {}
        #: the name of each adventure / Omen face -> the main face's name
        self.face_main = {f["name"]: c["name"] for c in self.cards.values()
                          if c.get("layout") in ("adventure", "omen")
                          for f in c.get("faces", ())}
        #: the event log's length before the previous input and the current one
        self.previous_mark = 0
        #: the 508.8 bridge (:mod:`.bridge`): the seats still to pass in the declare
        #: attackers step phase skipped, and whether its declaration has been given
        self.bridge: list[int] = []
        self.bridge_declared = True

    def ref(self, oid: int) -> str:
        """Our current reference (FORMAT §1) of phase object ``oid``: a token's, copy's or
        ability's name, else its alias numbered by its zone changes (``bolt#2``), else
        ``phase#<id>``."""
        if oid in self.tokens:
            return self.tokens[oid]
        if oid in self.copies:
            return self.copies[oid]
        if oid in self.abilities:
            return self.abilities[oid]
        alias = self.alias.get(oid)
        if alias is None:
            return f"phase#{oid}"
        n = self.count.get(oid, 1)
        return alias if n == 1 else f"{alias}#{n}"

    def card_data(self, name: Any) -> dict:
        """Our card file (FORMAT §5) for the name phase gives an object: a card's, or the
        face's (a transformed permanent is named by its back face, §5.1)."""
        if name in self.cards:
            return self.cards[name]
        for c in self.cards.values():
            for f in c.get("faces", ()):
                if f.get("name") == name:
                    return f
        return {}

    def card(self, oid: int) -> str:
        """The card reference (alias, or token, copy or ability name) of phase object ``oid``."""
        return self.tokens.get(oid) or self.copies.get(oid) or self.abilities.get(oid) \
            or self.alias.get(oid) or f"phase#{oid}"

    def player(self, seat: int) -> str:
        """Our player id of phase's seat ``seat``."""
        return self.players[seat]

    def target_ref(self, target: dict) -> str:
        """Our reference of one of phase's targets (a player or an object)."""
        if "Player" in target:
            return self.player(target["Player"])
        if "Object" in target:
            return self.ref(target["Object"])
        if target.get("type") == "Player":
            return self.player(target["data"])
        return json.dumps(target)

    def object_id(self, name: str) -> int:
        """The phase object id of a card alias or current reference (``bolt``, ``bolt#2``)."""
        for oid, ref in self.copies.items():
            if ref == name:
                return oid
        base = name.split("#")[0]
        for oid, alias in self.alias.items():
            if alias == base:
                return oid
        for oid, tok in self.tokens.items():
            if tok == name:
                return oid
        raise Rejected("unknown_object", f"no object named {name!r}")

    def target_of(self, name: str) -> dict:
        """phase's target (``{"Player": seat}`` or ``{"Object": id}``) of a player id or an
        object reference. Raises :class:`Rejected` (``unknown_object``)."""
        if name in self.seat:
            return {"Player": self.seat[name]}
        return {"Object": self.object_id(name)}

    def waiting(self) -> dict:
        """phase's ``waiting_for`` prompt (``{}`` when none)."""
        return self.game.waiting_for() or {}

    def waiting_player(self) -> int | None:
        """The seat phase's prompt waits for, if it names one."""
        data = self.waiting().get("data")
        if isinstance(data, dict) and isinstance(data.get("player"), int):
            return data["player"]
        return None

    def apply(self, seat: int, act: Any, at: int | None = None, probe: bool = False) -> None:
        """Apply one phase action; translate its events. Raises :class:`Rejected`."""
        before = self.waiting()
        try:
            result = self.game.apply(seat, act)
        except ValueError as exc:
            message = str(exc)
            code = classify(message, self.input_kind, before.get("type"))
            if code is None:
                raise Rejected("", message) from None
            raise Rejected(code, message) from None
        if before.get("type") == "Priority" and act.kind == "PassPriority":
            self.events.append({"type": "priority_passed", "player": self.player(seat)})
        self.actor = seat
        self.translate(result.events)
        self.sync_stack()
        self.note_priority()

    def note_priority(self) -> None:
        """``priority_received`` when phase's prompt is a player's priority."""
        wf = self.waiting()
        if wf.get("type") == "Priority":
            self.events.append({"type": "priority_received",
                                "player": self.player(wf["data"]["player"])})
        elif wf.get("type") == "GameOver":
            pass

    def expect_prompt(self, kinds: tuple[str, ...], seat: int | None, what: str) -> dict:
        """phase's prompt, checked to be one of ``kinds`` (for ``seat`` if given). Raises
        :class:`Rejected`: ``game_over``, ``wrong_decision``, ``not_your_priority``."""
        wf = self.waiting()
        if wf.get("type") == "GameOver":
            raise Rejected("game_over", "the game is over")
        if wf.get("type") not in kinds:
            raise Rejected("wrong_decision", f"{what}: phase is waiting for "
                                             f"{wf.get('type')}")
        if seat is not None and self.waiting_player() not in (None, seat):
            code = "not_your_priority" if wf.get("type") == "Priority" else "wrong_decision"
            raise Rejected(code, f"{what}: phase is waiting for "
                                 f"{self.player(self.waiting_player())}")
        return wf

    def save(self) -> tuple:
        """What :meth:`restore` needs to undo a rejected input: phase's state and the
        bookkeeping an input changes."""
        return (self.game.state(), len(self.events), dict(self.count), dict(self.tokens),
                dict(self.abilities), set(self.stack_seen), self.ability_count, self.step,
                self.turn, copy.deepcopy(self.targets), dict(self.x_values),
                dict(self.faces_cast), self.searching, self.last_resolved, dict(self.copies),
                dict(self.prepared), self.prepared_n, dict(self.prepared_by))

    def restore(self, saved: tuple) -> None:
        """Undo back to :meth:`save`'s ``saved`` (a rejected input changes nothing, FORMAT §3.2)."""
        state, n, self.count, self.tokens, self.abilities, self.stack_seen, \
            self.ability_count, self.step, self.turn, self.targets, self.x_values, \
            self.faces_cast, self.searching, self.last_resolved, self.copies, \
            self.prepared, self.prepared_n, self.prepared_by = saved
        self.game = self.engine.load_game(state)
        del self.events[n:]
        self.pending_activation = None

    def copy(self) -> "PhaseRun":
        """An independent copy of this run (its own phase game, loaded from the state), with an
        empty event log: for legality probes."""
        other = copy.copy(self)
        other.game = self.engine.load_game(self.game.state())
        other.events = []
        other.alias, other.count = dict(self.alias), dict(self.count)
        other.tokens, other.abilities = dict(self.tokens), dict(self.abilities)
        other.targets = copy.deepcopy(self.targets)
        other.cast_targets = copy.deepcopy(self.cast_targets)
        other.stack_seen = set(self.stack_seen)
        other.faces_cast = dict(self.faces_cast)
        other.copies = dict(self.copies)
        other.prepared, other.prepared_by = dict(self.prepared), dict(self.prepared_by)
        other.ability_sources = dict(self.ability_sources)
        other.x_values = dict(self.x_values)
        return other

    def probe(self, act: dict) -> dict:
        """Whether phase accepts input ``act`` now (``{"action", "legal", "code"}``, a
        checkpoint's probe), tried on a copy of the game. Raises :class:`Skip` for a refusal
        the adapter cannot classify."""
        trial = self.copy()
        trial.probing = True  # only whether phase accepts the input counts, not its events
        try:
            trial.run_input(-1, act)
        except Rejected as exc:
            if not exc.code:
                raise Skip(f"probe {act}: phase refuses it with a reason the adapter cannot "
                           f"classify: {exc}") from None
            return {"action": act, "legal": False, "code": exc.code}
        except ScriptError:
            return {"action": act, "legal": False, "code": None}
        return {"action": act, "legal": True, "code": None}

    def run(self) -> dict:
        """Set up, give every script input, read the checkpoints and the final state:
        ``{"events", "state", "checkpoints"}`` (PROTOCOL §10). Raises :class:`Skip`."""
        self.build()
        script = self.scenario.get("script", [])
        wanted = {}
        for cp in self.scenario.get("expect", {}).get("checkpoints", []) or []:
            wanted.setdefault(cp.get("after"), []).append(cp)
        checkpoints = []
        for i, inp in enumerate(script):
            if self.waiting().get("type") == "GameOver":
                self.events.append({"type": "action_rejected", "at": i,
                                    "player": inp.get("player"), "action": inp.get("action"),
                                    "code": "game_over", "message": "the game is over"})
            else:
                saved = self.save()
                try:
                    self.run_input(i, inp)
                except Rejected as exc:
                    self.restore(saved)  # a rejected input changes nothing (FORMAT §3.2)
                    if not exc.code:
                        raise Skip(f"input #{i} ({inp.get('action')}): phase refuses it with a "
                                   f"reason the adapter cannot classify: {exc}") from None
                    self.events.append({"type": "action_rejected", "at": i,
                                        "player": inp.get("player"),
                                        "action": inp.get("action"), "code": exc.code,
                                        "message": str(exc)})
                except ScriptError as exc:
                    self.events.append({"type": "script_error", "at": i, "code": exc.code,
                                        "message": str(exc)})
                    break
            for cp in wanted.get(i, []):
                probes = [self.probe(a) for a in cp.get("legal", [])]
                probes += [self.probe(item["action"]) for item in cp.get("illegal", [])]
                checkpoints.append({"after": i, "state": self.read_state(), "probes": probes})
        return {"events": self.events, "state": self.read_state(), "checkpoints": checkpoints}
