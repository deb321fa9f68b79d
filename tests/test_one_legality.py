"""One legality (issue 26 item 1, like python-chess's ``is_legal``): ``legal.accepts`` answers
with the engine's own function for the question the game waits on (``Game.asking``, applied
on a dry run), so the move generator and the engine can't disagree.

- Every input of every fixture (each decision kind the suite makes the engine ask, the
  fixtures' deliberately illegal inputs included) is judged by ``accepts`` at the moment the
  engine is asked it, then applied for real: accepted by both, or refused by both with the
  same code (docs/FORMAT.md §8).
- Random self-play games: at each decision some perturbed answers (another player, another
  action, a list grown, shrunk or with an unknown reference, a field dropped or changed) are
  judged by ``accepts`` and given to the engine, then a listed legal answer: the engine does
  with each what ``accepts`` said.
- No engine module calls another module's private helper (``mod._name(...)``).
"""

from __future__ import annotations

import ast
import random
from collections import Counter
from pathlib import Path
from typing import Any

from mtg_judge.conformance import runner
from mtg_judge.conformance import selfplay as sp
from mtg_judge.engine import legal, load_card_db, run_scenario
from mtg_judge.engine.errors import GameOver, ScriptError, ScriptExhausted
from mtg_judge.engine.scenario import ScriptInputs, build_game

ENGINE = Path(__file__).resolve().parent.parent / "engine"
DB = load_card_db()


class Judged:
    """What ``accepts`` said of each input handed to the engine, checked against what the
    engine then did: the first event logged after an input is its ``action_rejected`` if it
    was refused (a transaction truncates the log; the other handlers raise before logging)."""

    def __init__(self) -> None:
        self.pending: tuple[Any, dict[str, Any], dict[str, Any], tuple[bool, str | None], int] | None = None
        self.kinds: Counter[str] = Counter()
        self.refused: Counter[str] = Counter()
        self.disagreements: list[Any] = []

    def before(self, game: Any, decision: dict[str, Any], inp: dict[str, Any]) -> None:
        """``inp`` is about to answer ``decision``: ask ``accepts`` first."""
        self.settle(game)
        verdict = legal.accepts(game, decision, inp)
        self.kinds[decision["kind"]] += 1
        self.pending = (game, decision, inp, verdict, len(game.events))

    def settle(self, game: Any) -> None:
        """Compare the last verdict with what the engine did with that input."""
        if self.pending is None:
            return
        g, decision, inp, (ok, code), n = self.pending
        self.pending = None
        first = g.events[n] if len(g.events) > n else None
        refused = first is not None and first["type"] == "action_rejected" and first.get("at") == inp.get("at")
        engine = (False, first["code"]) if refused else (True, None)
        if refused:
            self.refused[decision["kind"]] += 1
        if engine != (ok, code):
            self.disagreements.append((decision, inp, (ok, code), engine))


class JudgedScript(ScriptInputs):
    """A fixture's script, each input judged by ``accepts`` before the engine gets it."""

    def __init__(self, script: list[dict[str, Any]], judged: Judged, rng: random.Random | None = None) -> None:
        super().__init__(script)
        self.judged = judged
        self.rng = rng
        self.held: dict[str, Any] | None = None  # the script's input, after a perturbed one
        self.perturbed = 0

    def next(self, game: Any, decision: dict[str, Any]) -> dict[str, Any]:
        self.judged.settle(game)
        held = self.held is not None
        if self.held is not None:  # the perturbed answer was refused: the question is asked again
            inp, self.held = self.held, None
        else:
            inp = super().next(game, decision)
        if game.over:
            return inp
        if self.rng is not None and not held:
            self.perturbed += 1
            wrong = dict(perturb(self.rng, game, decision, inp), at=100_000 + self.perturbed)
            if not legal.accepts(game, decision, wrong)[0]:  # refused: the engine must refuse it too
                self.held = inp
                inp = wrong
        self.judged.before(game, decision, inp)
        return inp


def test_accepts_answers_every_fixture_input_as_the_engine_does():
    """Every decision a fixture makes the engine ask, answered by the fixture's input: the
    engine's verdict (accepted, or refused with a code) is the one ``accepts`` gave just
    before. Before each, a perturbed answer that ``accepts`` refuses is given first: the
    engine refuses it with the same code. Every decision kind of ``Game.ask`` is covered."""
    judged = Judged()
    rng = random.Random(26)
    for case in runner.collect():
        if case.problem is not None:
            continue
        scenario = case.scenario
        if "expect_by_ruleset" in scenario:
            scenario = {**scenario, "expect": scenario["expect_by_ruleset"].get(case.ruleset, scenario.get("expect"))}
        source = JudgedScript(list(scenario.get("script", [])), judged, rng)
        try:
            game = build_game(scenario, case.ruleset, DB, source)  # its cards are the project's
        except Exception:  # noqa: BLE001 - a setup the engine can't build is another test's business
            continue
        try:
            game.play()
        except (ScriptExhausted, ScriptError, GameOver):
            pass
        judged.settle(game)
    assert not judged.disagreements, judged.disagreements[:5]
    assert set(judged.kinds) >= {"priority", "declare_attackers", "declare_blockers", "assign_damage",
                                 "order_triggers", "choose_targets", "discard", "choose", "may_cast", "mulligan"}
    assert set(judged.refused) >= {"priority", "declare_attackers", "declare_blockers", "choose", "mulligan"}


def perturb(rng: random.Random, game: Any, decision: dict[str, Any], inp: dict[str, Any]) -> dict[str, Any]:
    """A copy of candidate ``inp`` with one thing changed (an answer of the right shape)."""
    out = {k: (list(v) if isinstance(v, list) else v) for k, v in inp.items()}
    refs = sorted(game.objects) or ["zz"]
    other = next(p for p in game.order if p != decision["player"])
    fields = [k for k in out if k not in ("action", "player")]
    how = rng.randrange(6)
    if how == 0:
        out["player"] = other
    elif how == 1:
        out["action"] = rng.choice(["pass", "choose", "keep", "declare_attackers", "discard", "cast"])
    elif not fields:
        out["player"] = other
    else:
        key = rng.choice(fields)
        value = out[key]
        if how == 2:
            del out[key]
        elif isinstance(value, list):
            if how == 3 and value:
                value.append(value[0])  # one element twice
            elif how == 4 and value:
                value.pop()
            else:
                value.append(rng.choice(refs + ["zz#9", other]))
        elif isinstance(value, bool):
            out[key] = not value
        elif isinstance(value, int):
            out[key] = value + rng.choice([-1, 1, 5])
        elif isinstance(value, str):
            out[key] = rng.choice(refs + ["zz", "yes", "no", other])
        else:
            del out[key]
    return out


class Perturbing:
    """A self-play input source that, at each decision, first gives up to ``tries`` perturbed
    answers (judged by ``accepts``; the engine, refusing one, asks again), then one of the
    legal answers ``legal.legal_actions`` lists (picked at random)."""

    def __init__(self, seed: int, tries: int = 2, turn_cap: int = 10) -> None:
        self.rng = random.Random(seed)
        self.tries = tries
        self.turn_cap = turn_cap
        self.at = 0
        self.given = 0  # perturbations given to the current question
        self.last_perturbed = False
        self.judged = Judged()
        self.legal_given: Counter[str] = Counter()

    def next(self, game: Any, decision: dict[str, Any]) -> dict[str, Any]:
        again = self.last_perturbed and self.judged.pending is not None and self._was_refused(game)
        self.judged.settle(game)
        self.given = self.given if again else 0
        if game.turn > self.turn_cap or self.at > 1500:
            raise ScriptExhausted()
        cands = legal.candidate_actions(game, decision)
        self.at += 1
        if self.given < self.tries and cands:
            self.given += 1
            inp = perturb(self.rng, game, decision, self.rng.choice(cands).input)
            self.last_perturbed = True
        else:
            inp = dict(self._pick(game, decision, cands))
            self.legal_given[decision["kind"]] += 1
            self.last_perturbed = False
        inp["at"] = self.at
        self.judged.before(game, decision, inp)
        if not self.last_perturbed:
            assert self.judged.pending is not None and self.judged.pending[3] == (True, None), (decision, inp)
        return inp

    def _pick(self, game: Any, decision: dict[str, Any], cands: list[Any]) -> dict[str, Any]:
        """A legal answer (``accepts``), weighted as self-play weighs groups and kinds
        (``selfplay.GROUP_WEIGHTS``, ``KIND_WEIGHTS``: lands, casts and attacks are likely; no
        third mulligan)."""
        sizes = Counter(c.group for c in cands)
        legal_ones, weights = [], []
        for c in cands:
            if not legal.accepts(game, decision, c.input)[0]:
                continue
            w = sp.GROUP_WEIGHTS.get(c.group, sp.KIND_WEIGHTS.get(c.kind, 1)) / sizes[c.group]
            if c.kind == "mulligan" and decision.get("mulligans", 0) >= 2:
                w = 0
            legal_ones.append(c.input)
            weights.append(w)
        assert legal_ones, decision  # a pending question always has a legal answer
        return self.rng.choices(legal_ones, weights=weights if any(weights) else None)[0]

    def _was_refused(self, game: Any) -> bool:
        assert self.judged.pending is not None
        _, _, inp, _, n = self.judged.pending
        return len(game.events) > n and game.events[n]["type"] == "action_rejected" and \
            game.events[n].get("at") == inp.get("at")

def test_perturbed_and_legal_answers_in_self_play_get_the_engine_s_verdict():
    """Self-play from the start of the game (CR 103, every ruleset): each perturbed answer is
    refused by the engine with the code ``accepts`` gave, or accepted by both; each listed
    legal answer is accepted (docs/FORMAT.md §8)."""
    decks = sp.load_decks()
    kinds: Counter[str] = Counter()
    refused: Counter[str] = Counter()
    for i in range(3):
        pair = (decks[i % len(decks)], decks[(i + 3) % len(decks)])
        source = Perturbing(900 + i)
        game = build_game({"setup": sp.build_setup(900 + i, pair, deck_size=24)}, sp.RULESETS[i % 3], DB, source)
        try:
            game.play()
        except (ScriptExhausted, GameOver):
            pass
        source.judged.settle(game)
        assert not source.judged.disagreements, source.judged.disagreements[:5]
        kinds.update(source.judged.kinds)
        refused.update(source.judged.refused)
    assert set(kinds) >= {"mulligan", "priority", "declare_attackers", "declare_blockers"}, kinds
    assert set(refused) >= {"mulligan", "priority", "declare_attackers", "declare_blockers"}, refused


def test_keep_with_one_card_named_twice_is_invalid_choice_for_both():
    """Issue 26's drift: after one London mulligan (CR 103.5), ``keep`` with one card of the
    hand named twice, by its alias and by its reference, must put one card on the bottom but
    names one card: the engine answers ``invalid_choice`` (not ``not_in_hand``), and so does
    ``accepts``, which is now the engine's own check (``start.mulligan_answer``)."""
    setup = {"seed": 5, "start_of_game": True, "players": [
        {"id": "alice", "library": [{"alias": f"c{i:02d}", "card": "Island"} for i in range(20)]},
        {"id": "bob", "library": [{"alias": f"b{i}", "card": "Island"} for i in range(20)]}]}
    script: list[dict[str, Any]] = [{"action": "mulligan", "player": "alice"}, {"action": "mulligan", "player": "alice"}]
    judged = Judged()
    source = JudgedScript(script, judged)
    game = build_game({"setup": setup}, "modern", DB, source)
    try:
        game.play()
    except ScriptExhausted:
        pass
    decision = game.asking.decision
    assert decision == {"kind": "mulligan", "player": "alice", "mulligans": 2}
    card = game.players["alice"].hand[0]
    alias = next(a for a, o in game.by_card.items() if o is card)
    assert alias != card.ref
    keep = {"action": "keep", "player": "alice", "bottom": [alias, card.ref]}
    assert legal.accepts(game, decision, keep) == (False, "invalid_choice")
    result = run_scenario({"setup": setup, "script": script + [keep]}, "modern", DB)
    [rejected] = [e for e in result["events"] if e["type"] == "action_rejected"]
    assert (rejected["at"], rejected["code"]) == (2, "invalid_choice")


def _private_calls(tree: ast.AST) -> list[ast.Call]:
    """``x._name(...)`` calls where ``x`` is not ``self``/``cls``: code reaching into another
    module's (or object's) private helper."""
    out = []
    for node in ast.walk(tree):
        if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)):
            continue
        name, owner = node.func.attr, node.func.value
        if not name.startswith("_") or name.startswith("__"):
            continue
        if isinstance(owner, ast.Name) and owner.id in ("self", "cls"):
            continue
        out.append(node)
    return out


def test_no_engine_module_calls_another_module_s_private_helpers():
    """Issue 26: ``legal.py`` called ``game._total_cost``, ``combat._declare_attackers`` ...;
    a helper another module needs gets a public, documented entry point."""
    found = [f"{path.relative_to(ENGINE.parent)}:{call.lineno}: {ast.unparse(call.func)}"
             for path in sorted(ENGINE.rglob("*.py"))
             for call in _private_calls(ast.parse(path.read_text(encoding="utf-8")))]
    assert found == []


def test_the_private_call_walk_finds_a_private_call():
    """The walk is not vacuous: it reports ``combat._declare_attackers(g)`` and ``game._x()``,
    not ``self._x()`` nor a public call."""
    tree = ast.parse("combat._declare_attackers(g, inp)\nself._x()\ngame.public()\ng.game._y()\n")
    assert [ast.unparse(c.func) for c in _private_calls(tree)] == ["combat._declare_attackers", "g.game._y"]
