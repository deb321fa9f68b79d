"""A run's bookkeeping (:class:`RunCore`, the base of :class:`~.run.PhaseRun` and of every
mixin it is composed of): phase's game and engine, our event log, the references of phase's
objects (FORMAT §1), and the prompts: what phase waits for, applying one phase action and
translating its events.

Object references follow FORMAT §1 (CR 400.7): phase keeps one object id across zones, and
the adapter counts that object's zone changes (``bolt``, ``bolt#2``, ...); tokens, spell
copies and abilities get ``token#N``, ``copy#N``, ``prepared#N`` and ``ability#N``.
"""

from __future__ import annotations

import json
from typing import Any, Callable

from mtg_judge.tools.adapters.common import Skip
from mtg_judge.tools.adapters.phase.binding import PHASE_VERSION
from mtg_judge.tools.adapters.phase.cards import build_engine
from mtg_judge.tools.adapters.phase.rejections import Rejected, classify


class RunCore:
    """The attributes of one run, its references and its prompts. The methods the parts of
    the run call on each other are declared here with their types (class annotations only:
    the mixins of :class:`~.run.PhaseRun` define them)."""

    # The attributes the parts of the run assign (set up in ``__init__``)
    game: Any
    turn: int
    step: tuple[int, str] | None
    actor: int | None
    input_kind: str | None
    input_mark: int
    previous_mark: int
    casting: Any  # None, or the cast or activation being made: {"pool", "added", "modes", ...}
    cast_targets: dict[int, list]
    pending_activation: dict | None
    pending_stack: int | None
    searching: int | None
    last_resolved: str | None
    bridge: list[int]
    bridge_declared: bool

    #: :meth:`.events.Events.translate`
    translate: Callable[..., None]
    #: :meth:`.events.Events.note_found`
    note_found: Callable[[list, int | None], None]
    #: :meth:`.stack.Stack.sync_stack`
    sync_stack: Callable[[], None]
    #: :meth:`.stack.Stack.stack_targets`
    stack_targets: Callable[[int], list[str]]
    #: :meth:`.stack.Stack.our_index`
    our_index: Callable[[int, tuple[str, ...], int], int]
    #: :meth:`.inputs.Inputs.seat_of`
    seat_of: Callable[[dict], int]
    #: :meth:`.casting.Casting.pool`
    pool: Callable[[int], dict[str, int]]
    #: :meth:`.casting.Casting.mana_selection`
    mana_selection: Callable[[int, str | None], Any]
    #: :meth:`.bridge.Bridge508.bridge_takes`
    bridge_takes: Callable[[str | None, dict], bool]
    #: :meth:`.bridge.Bridge508.bridge_after`
    bridge_after: Callable[[str | None], None]
    #: :meth:`.bridge.Bridge508.bridge_state`
    bridge_state: Callable[[str, str | None], tuple[str, str | None]]

    def __init__(self, scenario: dict, ruleset: str) -> None:
        """Prepare the run of ``scenario`` (a protocol scenario with ``setup``, ``script``,
        ``cards``) under ``ruleset``; builds (or reuses) the phase engine of its cards. Raises
        :class:`Skip` for a setup that is not two players, or cards phase cannot build."""
        self.scenario: dict = scenario
        self.ruleset: str = ruleset
        self.setup: dict = scenario.get("setup", {})
        players = self.setup.get("players", [])
        if len(players) != 2:
            raise Skip("phase-python's Engine.new_game takes two decks (player, opponent): it "
                       f"has no game of {len(players)} players (phase-python {PHASE_VERSION})")
        self.players: list[str] = [p["id"] for p in players]
        self.seat: dict[Any, int] = {pid: i for i, pid in enumerate(self.players)}
        self.cards: dict[str, dict] = scenario.get("cards", {})
        self.engine: Any = build_engine(self.cards)
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
        self.step: tuple[int, str] | None = None
        self.input_kind: str | None = None
        self.turn: int = 0  # phase's turn number as its events tell it
        self.input_mark: int = 0
        self.x_values: dict[Any, Any] = {}
        self.casting: Any = None
        self.ability_count: int = 0
        self.game: Any = None
        #: the state phase's game was last loaded from, the actions applied since
        #: (:meth:`act`, :meth:`replay`), and the reads cached for the current position
        self.base: Any = None
        self.journal: list[tuple[int, Any]] = []
        self._waiting: dict | None = None
        self._state: dict | None = None
        #: the last spell or ability phase reported resolved; a player phase says is searching
        self.last_resolved: str | None = None
        self.probing: bool = False
        #: spell copies phase made (FORMAT §1 ``copy#N``)
        self.copies: dict[int, str] = {}
        #: prepared permanents (FORMAT §11.9): phase object id -> ``prepared#N``, the copy of
        #: its prepare spell it is linked to (phase keeps a ``prepared`` flag and makes the
        #: copy only as it is cast); ``prepared_n``: the copies made so far
        self.prepared: dict[int, str] = {}
        self.prepared_n: int = 0
        #: ``prepared#N`` -> the seat in whose exile the copy is (who created it)
        self.prepared_by: dict[str, int | None] = {}
        self.searching: int | None = None
        #: cards being suspended (:meth:`.casting.Casting.do_suspend`): object id -> (seat,
        #: mana paid), until phase puts their time counters on them
        self.suspending: dict[int, tuple[int, dict]] = {}
        #: the object a Clone entering as a copy was told to copy (the ``choose`` answering
        #: phase's CopyTargetChoice): phase id of the entering object -> the input's reference
        self.copy_choice: dict[Any, str] = {}
        #: the two cards of a melded permanent (FORMAT §11.6), each phase id -> the other's,
        #: from phase's ``Melded`` event until each card leaves the battlefield
        self.melded_with: dict[int, int] = {}
        #: stack ability id -> its source's reference when it was put on the stack
        self.ability_sources: dict[int, str | None] = {}
        #: spells cast as a face (FORMAT §5.1): object id -> face role, while on the stack
        self.faces_cast: dict[int, str] = {}
        #: the name of each adventure / Omen face -> the main face's name
        self.face_main: dict[Any, str] = {f["name"]: c["name"] for c in self.cards.values()
                          if c.get("layout") in ("adventure", "omen")
                          for f in c.get("faces", ())}
        #: the event log's length before the previous input and the current one
        self.previous_mark: int = 0
        #: the 508.8 bridge (:mod:`.bridge`): the seats still to pass in the declare
        #: attackers step phase skipped, and whether its declaration has been given
        self.bridge: list[int] = []
        self.bridge_declared: bool = True

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
        f: dict[str, Any]
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

    def object_id(self, name: Any) -> int:
        """The phase object id of a card alias or current reference (``bolt``, ``bolt#2``).
        Raises :class:`Rejected` (``unknown_object``) for anything else."""
        for oid, ref in self.copies.items():
            if ref == name:
                return oid
        if not isinstance(name, str):
            raise Rejected("unknown_object", f"no object named {name!r}")
        base = name.split("#")[0]
        for oid, alias in self.alias.items():
            if alias == base:
                return oid
        for oid, tok in self.tokens.items():
            if tok == name:
                return oid
        for oid, ab in self.abilities.items():  # an ability on the stack (a Stifle's target)
            if ab == name:
                return oid
        raise Rejected("unknown_object", f"no object named {name!r}")

    def target_of(self, name: str) -> dict:
        """phase's target (``{"Player": seat}`` or ``{"Object": id}``) of a player id or an
        object reference. Raises :class:`Rejected` (``unknown_object``)."""
        if name in self.seat:
            return {"Player": self.seat[name]}
        return {"Object": self.object_id(name)}

    def load(self, state: Any) -> None:
        """Load phase's game from ``state`` (an exported ``Game.state()`` dict): it becomes the
        base that :meth:`act`'s journal replays from (:meth:`replay`)."""
        self.game = self.engine.load_game(state)
        self.base, self.journal = state, []
        self._waiting = self._state = None

    def act(self, seat: int, act: Any) -> Any:
        """``Game.apply`` of one phase action (its ``ActionResult``), journaled so that
        :meth:`replay` can rebuild the game; raises phase's ``ValueError`` (a refused action
        is not journaled)."""
        self._waiting = self._state = None
        result = self.game.apply(seat, act)
        self.journal.append((seat, act))
        return result

    def replay(self, n: int) -> None:
        """Rebuild phase's game as it was after the first ``n`` journaled actions: the base
        state loaded, those actions applied again (phase's game is deterministic: its
        random state is part of the state). Cheaper than exporting the state before every
        input, which most inputs never need."""
        self.game = self.engine.load_game(self.base)
        for seat, act in self.journal[:n]:
            self.game.apply(seat, act)
        del self.journal[n:]
        self._waiting = self._state = None

    def state_dict(self) -> dict:
        """phase's exported state (``Game.state()``), read once per game position (it is the
        costliest read of phase's API). Callers must not change it."""
        if self._state is None:
            self._state = self.game.state()
        return self._state

    def waiting(self) -> dict:
        """phase's ``waiting_for`` prompt (``{}`` when none), read once per game position."""
        if self._waiting is None:
            self._waiting = self.game.waiting_for() or {}
        return self._waiting

    def waiting_player(self) -> int | None:
        """The seat phase's prompt waits for, if it names one."""
        data = self.waiting().get("data")
        if isinstance(data, dict):
            player = data.get("player")
            if isinstance(player, int):
                return player
        return None

    def apply(self, seat: int, act: Any, at: int | None = None, probe: bool = False) -> None:
        """Apply one phase action; translate its events. Raises :class:`Rejected`."""
        before = self.waiting()
        try:
            result = self.act(seat, act)
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
                                 f"{self.player(self.waiting_player())}")  # type: ignore[arg-type]  # not None here
        return wf
