"""Running a scenario: build the position from a fixture's setup, feed its script in strict
mode, record checkpoints and probe actions (docs/FORMAT.md §3, §9).

A probe never changes the game: it is answered by replaying the script up to the
checkpoint in a fresh game and offering the probe as the next input.
"""

from __future__ import annotations

import json
from functools import lru_cache
from typing import Any, Callable

from . import combat, combat_effects, planeswalkers, prepare, rollback, transform
from .cards import CardDefinition, load_card_db
from .errors import GameOver, IllegalAction, ScenarioError, ScriptError, ScriptExhausted
from .game import PHASE_OF, Game
from .inputs import NOT_AN_OBJECT, json_type
from .objects import Player
from .rulesets import DEFAULT_RULESET, get_ruleset

MACROS = ("advance", "resolve")


# ------------------------------------------------------------------------ inputs
def script_list(script: Any) -> list[Any]:
    """``script`` itself if it is a list (docs/FORMAT.md §3.2); raises TypeError naming its
    JSON type otherwise (an entry that is not an object is the game's ``bad_input``)."""
    if not isinstance(script, list):
        raise TypeError(f"script: expected a JSON array of inputs, not {json_type(script)} (docs/FORMAT.md §3.2)")
    return script


class ScriptInputs:
    """The input source of a scripted game (strict mode).

    Hands out script inputs in order (each with its index ``at``); expands the macros
    ``resolve`` and ``advance`` into passes and empty declarations; calls ``on_read(i)``
    just before it reads script input ``i`` (the moment the state "after input i-1" is
    observable). Raises ScriptExhausted at the end of the script and ScriptError for a
    decision a macro may not answer.
    """

    def __init__(self, script: list[dict[str, Any]], on_read: Callable[[int], None] | None = None) -> None:
        self.script = script_list(script)
        self.i = 0
        self.macro: dict[str, Any] | None = None
        self.on_read = on_read

    def take_random(self) -> Any:
        """Consume a ``random`` input if it is the next one; return its outcome (or None).

        FORMAT §7: a ``random`` input is consumed by the next random outcome of the input
        processed right before it. A macro (``resolve``, ``advance``) is one input: a random
        outcome while it is being played out (a resolution after its passes, a shuffle on the
        way of an ``advance``) takes the ``random`` input written right after the macro
        (``self.i`` already points past it)."""
        if (self.i < len(self.script) and isinstance(self.script[self.i], dict)
                and self.script[self.i].get("action") == "random"):
            self.i += 1
            return self.script[self.i - 1].get("outcome")
        return None

    def next(self, game: Game, decision: dict[str, Any]) -> dict[str, Any]:
        while True:
            if self.macro is not None:
                answer = self._macro_answer(game, decision)
                if answer is not None:
                    return answer
                self.macro = None
            if self.on_read is not None:
                self.on_read(self.i)
            if self.i >= len(self.script):
                return self.end_of_script(game)
            entry = self.script[self.i]
            # an entry that is not an object is rejected as bad_input by Game.ask, at its index
            inp = dict(entry) if isinstance(entry, dict) else {NOT_AN_OBJECT: json_type(entry)}
            inp["at"] = self.i
            self.i += 1
            if inp.get("action") in MACROS:
                self.macro = {"input": inp, "serial": game.step_serial, "turn": game.turn,
                              "passes": len(game.living())}
                continue
            return inp

    def end_of_script(self, game: Game) -> dict[str, Any]:
        """The answer once every script input is used: none (raises ScriptExhausted, which
        ends the run)."""
        raise ScriptExhausted()

    def _macro_answer(self, game: Game, decision: dict[str, Any]) -> dict[str, Any] | None:
        m = self.macro
        assert m is not None  # asked only while a macro is being played out (next)
        inp = m["input"]
        at = inp["at"]
        kind = decision["kind"]
        player = decision["player"]
        if inp["action"] == "resolve":
            if m["passes"] <= 0:
                return None
            if kind != "priority":
                raise ScriptError("unanswered_decision", f"'resolve' met a {kind!r} decision of {player}", at)
            m["passes"] -= 1
            return {"action": "pass", "player": player, "at": at}
        target, turn = inp.get("to"), inp.get("turn")
        if target not in PHASE_OF:
            raise ScriptError("bad_input", f"advance: unknown step {target!r}", at)
        if game.step_serial > m["serial"] and game.step == target and (turn is None or game.turn == turn):
            return None
        if (turn is not None and game.turn > turn) or game.turn > (turn or m["turn"]) + 2:
            raise ScriptError("advance_not_reached", f"advance: {target} (turn {turn}) was not reached", at)
        if kind == "priority":
            return {"action": "pass", "player": player, "at": at}
        if kind == "declare_attackers":
            if combat_effects.required_attackers(game, player, lambda o: combat.able_to_attack(game, o, player)):
                raise ScriptError("unanswered_decision",  # CR 508.1d: no attack is not an answer then
                                  f"'advance' met a declaration of attackers of {player} with a creature that "
                                  "must attack: the script must answer it", at)
            return {"action": "declare_attackers", "player": player, "attackers": [], "at": at}
        if kind == "declare_blockers":
            return {"action": "declare_blockers", "player": player, "blocks": [], "at": at}
        raise ScriptError("unanswered_decision",
                          f"'advance' met a {kind!r} decision of {player} in {game.step}: the script must answer it", at)


# ------------------------------------------------------------------------- setup
def build_game(scenario: dict[str, Any], ruleset: str, cards: dict[str, CardDefinition], inputs: Any) -> Game:
    """Build the starting position of ``scenario["setup"]`` (docs/FORMAT.md §3.1).

    Raises ScenarioError (with a JSON path) for an unknown card, a duplicate alias, an
    unknown step or player, or a bad attachment.
    """
    setup = scenario.get("setup", {})
    game = Game(cards, get_ruleset(ruleset), int(setup.get("seed", 0)), inputs)
    players = setup.get("players") or []
    if len(players) < 2:
        raise ScenarioError("$.setup.players", "at least two players are needed")
    for i, p in enumerate(players):
        pid = p["id"]
        if pid in game.players:
            raise ScenarioError(f"$.setup.players[{i}].id", f"duplicate player {pid!r}")
        game.players[pid] = Player(id=pid, life=p.get("life", 20))
        game.order.append(pid)
    attachments = []
    prepared = []
    for i, p in enumerate(players):
        pid = p["id"]
        player = game.players[pid]
        for zone in ("library", "hand", "graveyard", "exile", "battlefield"):
            for j, entry in enumerate(p.get(zone, [])):
                path = f"$.setup.players[{i}].{zone}[{j}]"
                alias = entry.get("alias")
                if not alias or alias in game.by_card or alias in game.players:
                    raise ScenarioError(f"{path}.alias", f"a unique alias is needed, got {alias!r}")
                name = entry.get("card")
                if name not in cards:
                    raise ScenarioError(f"{path}.card", f"unknown card {name!r} (no card file with that name)")
                obj = game.create_card_object(alias, cards[name], pid, zone)
                if zone == "battlefield":
                    ctrl = entry.get("controller", pid)
                    if ctrl not in game.players:
                        raise ScenarioError(f"{path}.controller", f"unknown player {ctrl!r}")
                    obj.controller = ctrl
                    obj.tapped = bool(entry.get("tapped", False))
                    obj.summoning_sick = bool(entry.get("summoning_sick", False))
                    obj.damage = int(entry.get("damage", 0))
                    try:
                        planeswalkers.check_exists(game, obj)  # no planeswalkers before 2007
                    except IllegalAction as e:
                        raise ScenarioError(f"{path}.card", e.message) from None
                    obj.counters = dict(entry.get("counters", planeswalkers.setup_counters(obj)))  # CR 306.5b
                    obj.face_down = bool(entry.get("face_down", False))
                    obj.chosen_name = entry.get("chosen_name")
                    obj.kicked = tuple(entry.get("kicked", ()))
                    if entry.get("transformed"):
                        transform.setup_transformed(obj, path)  # back face up (FORMAT §11.6)
                    if entry.get("prepared"):
                        prepared.append((obj, f"{path}.prepared"))
                    if entry.get("came_under_control_since_last_upkeep"):
                        obj.upkeep_mark = 0  # the player's next upkeep is upkeep 1 (echo)
                    if entry.get("attached_to"):
                        attachments.append((obj, entry["attached_to"], f"{path}.attached_to"))
                    game.battlefield.append(obj)
                else:
                    obj.counters = dict(entry.get("counters", {}))
                    player.zone(zone).append(obj)
        pool = p.get("mana_pool") or {}
        player.pool.add(dict(pool))
    for obj, path in prepared:  # FORMAT §11.9: starts prepared, its copy in exile
        try:
            prepare.setup_prepared(game, obj)
        except IllegalAction as e:
            raise ScenarioError(path, str(e)) from None
    for obj, target, path in attachments:
        host = game.by_card.get(target)
        if host is None or host.zone != "battlefield":
            raise ScenarioError(path, f"{target!r} is not a permanent on the battlefield")
        obj.attached_to = host.ref
    active = setup.get("active_player", game.order[0])
    if active not in game.players:
        raise ScenarioError("$.setup.active_player", f"unknown player {active!r}")
    step = setup.get("step", "precombat_main")
    if step not in PHASE_OF:
        raise ScenarioError("$.setup.step", f"unknown step {step!r}; steps: {', '.join(PHASE_OF)}")
    game.turn = int(setup.get("turn", 1))
    game.active = active
    if setup.get("start_of_game"):
        # CR 103: the game starts with shuffling, opening hands and mulligans, then turn 1
        step, game.turn = "untap", 1
        game.start_of_game = {"deck_rules": setup.get("deck_rules")}
    game.plan = game.turn_plan()
    game.step = step
    game.phase = PHASE_OF[step]  # CR 500.1, 501.1: the step's phase, also before the step begins (a game not started)
    game.plan = game.plan[game.plan.index(step):]
    game.players[active].lands_played = int(setup.get("lands_played", 0))
    game.log("game_started", players=list(game.order), active_player=active, turn=game.turn, step=step,
             ruleset=ruleset, seed=game.seed)
    return game


# ----------------------------------------------------------------------- running
def _play(scenario: dict[str, Any], ruleset: str, cards: dict[str, Any], script: list[dict[str, Any]],
          on_read: Callable[[Game, int], None] | None = None) -> Game:
    holder: dict[str, Any] = {}
    inputs = ScriptInputs(script, (lambda i: on_read(holder["game"], i)) if on_read else None)
    game = build_game(scenario, ruleset, cards, inputs)
    holder["game"] = game
    try:
        game.play()
    except ScriptExhausted:
        pass
    except ScriptError as err:
        game.log("script_error", at=err.at, code=err.code, message=err.message)
    except GameOver:
        pass
    # inputs left after the game ended are rejected: nothing more can happen
    if game.over:
        for i in range(inputs.i, len(script)):
            inp = script[i]
            if inp.get("action") not in MACROS:
                game.reject({**inp, "at": i}, IllegalAction("game_over", "the game is over"))
    return game


def run_scenario(scenario: dict[str, Any], ruleset: str = DEFAULT_RULESET, cards: Any = None) -> dict[str, Any]:
    """Run one fixture under one ruleset with the reference engine.

    ``cards`` is a ``{name: CardDefinition}`` dict (from ``load_card_db``), a ``{name:
    card dict}`` dict (a protocol message's ``cards``), or None (the project's card
    files). Returns ``{"events": [...], "state": {...}, "checkpoints": [{"after": i,
    "state": {...}, "probes": [{"action": {...}, "legal": bool, "code": str|None}]}]}``.
    Raises ScenarioError for a setup the engine can't build, KeyError for an unknown
    ruleset, TypeError for a script that is not a list (an entry that is not an object is
    rejected in the game as ``bad_input``).
    """
    db = _card_db(cards)
    if "expect_by_ruleset" in scenario:  # the expectation for this ruleset (docs/FORMAT.md §3.3)
        scenario = {**scenario, "expect": scenario["expect_by_ruleset"].get(ruleset, scenario.get("expect", {}))}
    script = list(script_list(scenario.get("script", [])))
    wanted = sorted({cp["after"] for cp in scenario.get("expect", {}).get("checkpoints", [])})
    seen: dict[int, dict[str, Any]] = {}

    def on_read(game: Game, i: int) -> None:
        after = i - 1
        if after in wanted and after not in seen:
            seen[after] = _json_copy(game.state())

    game = _play(scenario, ruleset, db, script, on_read)
    final = game.state()
    for after in wanted:
        seen.setdefault(after, final)
    checkpoints = []
    for cp in scenario.get("expect", {}).get("checkpoints", []):
        after = cp["after"]
        legal = list(cp.get("legal", []))
        illegal = [p.get("action", p) for p in cp.get("illegal", [])]
        # the actions expected to be refused first: refused actions share one replay (probe_all)
        judged = probe_all(scenario, ruleset, db, script[:after + 1], illegal + legal)
        probes = judged[len(illegal):] + judged[:len(illegal)]  # in the fixture's order
        checkpoints.append({"after": after, "state": seen[after], "probes": probes})
    return {"events": game.events, "state": final, "checkpoints": checkpoints}


def boards(scenario: dict[str, Any], ruleset: str = DEFAULT_RULESET, cards: Any = None) -> dict[str, Any]:
    """Play one fixture under one ruleset and keep the board each time an input is read.

    Returns ``{"events": [...], "state": {...}, "boards": [{"input": i, "events": n,
    "state": {...}}]}``: before script input ``i`` was read the log held ``n`` events and
    the game's state (FORMAT §4) was ``state``. ``mtg-judge``'s case pages use it to show the
    board at the first divergence of an engine's log (issue 25). Checkpoints are not
    probed. Raises what :func:`run_scenario` raises.
    """
    db = _card_db(cards)
    if "expect_by_ruleset" in scenario:  # the expectation for this ruleset (docs/FORMAT.md §3.3)
        scenario = {**scenario, "expect": scenario["expect_by_ruleset"].get(ruleset, scenario.get("expect", {}))}
    script = list(script_list(scenario.get("script", [])))
    kept: list[dict[str, Any]] = []

    def on_read(game: Game, i: int) -> None:
        if not kept or kept[-1]["input"] != i:
            kept.append({"input": i, "events": len(game.events), "state": _json_copy(game.state())})

    game = _play(scenario, ruleset, db, script, on_read)
    return {"events": game.events, "state": game.state(), "boards": kept}


def setup_state(scenario: dict[str, Any], ruleset: str = DEFAULT_RULESET, cards: Any = None) -> dict[str, Any]:
    """The state (FORMAT §4) of ``scenario["setup"]`` as built, before the game is played:
    no rule applied (no turn-based action, state-based action or start-of-game procedure,
    CR 103), no input read. It is what an engine that did nothing would report, so a check
    that this state passes shows nothing an engine did (PROTOCOL §3, vacuous cases).
    ``cards`` as in :func:`run_scenario`. Raises ScenarioError for a setup the engine
    can't build, KeyError for an unknown ruleset.
    """
    return _json_copy(build_game(scenario, ruleset, _card_db(cards), ScriptInputs([])).state())  # type: ignore[no-any-return]


def _json_copy(value: Any) -> Any:
    """A deep copy of JSON-shaped data (dicts, lists, tuples, scalars): a checkpoint's state
    shares nothing with the game or with a later state."""
    if type(value) is dict:
        return {k: _json_copy(v) for k, v in value.items()}
    if type(value) is list:
        return [_json_copy(v) for v in value]
    if type(value) is tuple:
        return tuple(_json_copy(v) for v in value)
    return value


def probe(scenario: dict[str, Any], ruleset: str, cards: dict[str, Any], prefix: list[dict[str, Any]], action: dict[str, Any]) -> dict[str, Any]:
    """Would ``action`` be accepted after the inputs ``prefix``? Replays the prefix in a
    fresh game and offers the action next. Returns ``{"action", "legal", "code"}``."""
    game = _play(scenario, ruleset, cards, list(prefix) + [action])
    at = len(prefix)
    rejected = next((e for e in game.events if e["type"] == "action_rejected" and e.get("at") == at), None)
    error = next((e for e in game.events if e["type"] == "script_error" and e.get("at") == at), None)
    if error is not None:
        return {"action": action, "legal": False, "code": error["code"]}
    return {"action": action, "legal": rejected is None, "code": rejected["code"] if rejected else None}


class _ProbeInputs(ScriptInputs):
    """The input source of :func:`probe_all`: the script ``prefix``, then the probe actions,
    one at a time, all at the index ``len(prefix)``.

    A probe action the game rejects (an ``action_rejected`` at that index) is asked again at
    once by the same decision (``Game.decide``, ``Game.ask``); the state saved just before the
    action was offered is then put back (``rollback``: the rejection event goes too, and so does
    anything a handler did before it refused), and the next action is offered to that same
    decision. The first action the game doesn't reject ends the replay (ScriptExhausted at
    the next read, as the end of the script would): the actions after it need another replay.
    ``results`` holds ``(index into actions, {"legal", "code"})`` in order."""

    def __init__(self, prefix: list[dict[str, Any]], actions: list[dict[str, Any]]) -> None:
        super().__init__(prefix)
        self.actions = actions
        self.k = 0  # the next action to offer
        self.results: list[tuple[int, dict[str, Any]]] = []
        self.pending: tuple[int, Any, Any] | None = None  # (index, rollback.Saved, layers' kept result)

    def end_of_script(self, game: Game) -> dict[str, Any]:
        """After the prefix: judge the action offered last (if any), then offer the next."""
        at = len(self.script)
        if self.pending is not None:
            k, saved, kept = self.pending
            self.pending = None
            rejected = next((e for e in game.events[saved.n_events:]
                             if e["type"] == "action_rejected" and e.get("at") == at), None)
            if rejected is None:  # accepted: the replay can't offer another action
                self.results.append((k, {"legal": True, "code": None}))
                raise ScriptExhausted()
            self.results.append((k, {"legal": False, "code": rejected["code"]}))
            saved.restore()
            game.layers.resume(kept)
        if self.k >= len(self.actions):
            raise ScriptExhausted()
        k, self.k = self.k, self.k + 1
        self.pending = (k, rollback.save(game), game.layers.checkpoint())
        return {**self.actions[k], "at": at}


def probe_all(scenario: dict[str, Any], ruleset: str, cards: dict[str, Any], prefix: list[dict[str, Any]],
              actions: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """:func:`probe` of each of ``actions`` after the same inputs ``prefix``, with the same
    results, in fewer replays: the actions the game rejects share one replay of the prefix
    (:class:`_ProbeInputs`); an accepted action, a macro, a ``random`` input or an input
    that is not an object gets a replay of its own (through :func:`probe`). Returns the
    ``{"action", "legal", "code"}`` list in the order of ``actions``."""
    out: list[dict[str, Any] | None] = [None] * len(actions)
    simple = [k for k, a in enumerate(actions)
              if isinstance(a, dict) and a.get("action") not in MACROS and a.get("action") != "random"]
    for k, action in enumerate(actions):
        if k not in simple:
            out[k] = probe(scenario, ruleset, cards, prefix, action)
    while simple:
        inputs = _ProbeInputs(list(prefix), [actions[k] for k in simple])
        game = build_game(scenario, ruleset, cards, inputs)
        try:
            game.play()
        except (ScriptExhausted, GameOver, ScriptError):
            pass  # the results so far are in ``inputs``; what is left is judged below
        answered = {k for k, _ in inputs.results}
        if inputs.pending is not None or not inputs.results:
            # the game ended (or stopped on a script error) with an action offered, or before
            # any was: that action (or the first) is judged by a replay of its own, as probe does
            first = inputs.pending[0] if inputs.pending is not None else 0
            k = simple[first]
            out[k] = probe(scenario, ruleset, cards, prefix, actions[k])
            answered.add(first)
        for j, result in inputs.results:
            out[simple[j]] = {"action": actions[simple[j]], **result}
        done = max(answered) + 1 if answered else 0
        simple = simple[done:]
    assert all(r is not None for r in out)
    return [r for r in out if r is not None]


def _card_db(cards: Any) -> dict[str, CardDefinition]:
    if cards is None:
        return _default_db()
    if isinstance(cards, dict) and all(isinstance(v, CardDefinition) for v in cards.values()):
        return cards
    if isinstance(cards, dict):
        try:
            keys = [(name, json.dumps(card)) for name, card in cards.items()]
        except (TypeError, ValueError):  # not JSON data: no cache, load_card_db says what is wrong
            return load_card_db(cards)
        # what load_card_db(cards) builds, entry by entry; ScenarioError for a malformed
        # card (not cached), the first one in the dict's order
        return {name: _built_definition(name, text) for name, text in keys}
    return load_card_db(cards)


@lru_cache(maxsize=4096)
def _built_definition(name: str, text: str) -> CardDefinition:
    """The definition built from one card's JSON ``text`` (the order of keys kept, as
    given), a pure function memoized: the same cards come with every run of a fixture and
    with many fixtures (a land, a Lightning Bolt), and definitions are immutable, so runs
    share them (at most 4,096, least recently used first out: a long ``serve`` session of
    ever new cards). Raises ScenarioError for a malformed card (not memoized)."""
    return load_card_db({name: json.loads(text)})[name]


@lru_cache(maxsize=1)
def _default_db() -> dict[str, CardDefinition]:
    """The project's card files (``fixtures/cards``), loaded once (a pure function of the
    installed data, memoized; callers never change the dict)."""
    return load_card_db()
