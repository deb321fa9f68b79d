"""engine/rollback.py: a rejected input or a dry run leaves the game exactly as it was.

Every restore is compared with a deep picture of the game taken when it was saved: values,
the order of every dict and list, and the identity of every object (a restore writes back
into the same objects, so references held across it stay valid). Run on every fixture case
and on a few self-play games (whose legality checks dry-run many inputs)."""

from dataclasses import dataclass

import pytest
from click.testing import CliRunner

from mtg_judge.conformance.runner import collect, run_case
from mtg_judge.engine import rollback
from mtg_judge.engine.cards import CardDefinition, FrozenDict
from mtg_judge.engine.errors import IllegalAction
from mtg_judge.engine.mana import ManaCost
from mtg_judge.engine.rulesets import Ruleset
from mtg_judge.engine.scenario import ScriptInputs, _card_db, build_game
from mtg_judge.tools.cli import main

_ATOMS = (str, int, bool, float, type(None))
_SHARED = (CardDefinition, FrozenDict, Ruleset, ManaCost)  # immutable, shared by every game


def picture(value, seen):
    """A deep, comparable picture of ``value``: contents in order, with object identities."""
    if isinstance(value, _ATOMS):
        return value
    if isinstance(value, _SHARED):
        return ("shared", id(value))
    if id(value) in seen:
        return ("seen", id(value))
    seen.add(id(value))
    if isinstance(value, (list, tuple)):
        return (type(value).__name__, id(value) if isinstance(value, list) else 0,
                tuple(picture(v, seen) for v in value))
    if isinstance(value, dict):
        return ("dict", id(value), tuple((k, picture(v, seen)) for k, v in value.items()))
    if isinstance(value, (set, frozenset)):
        return ("set", id(value), tuple(sorted(map(repr, value))))
    if hasattr(value, "__dict__"):
        return (type(value).__name__, id(value), picture(vars(value), seen))
    return ("other", repr(value))


def game_picture(game):
    seen: set = set()
    return tuple((k, picture(v, seen)) for k, v in vars(game).items() if k not in ("inputs", "cards"))


@dataclass
class Counts:
    saves: int = 0
    restores: int = 0


@pytest.fixture
def checked(monkeypatch):
    """Check every restore of the engine against the picture taken at its save."""
    counts = Counts()
    pictures = {}
    save, restore = rollback.save, rollback.Saved.restore

    def checked_save(game):
        saved = save(game)
        pictures[id(saved)] = (game_picture(game), list(game.events))
        counts.saves += 1
        return saved

    def checked_restore(self):
        restore(self)
        counts.restores += 1
        want, events = pictures.pop(id(self))
        assert game_picture(self.game) == want, "the restored game differs from the saved one"
        assert self.game.events == events

    monkeypatch.setattr(rollback, "save", checked_save)
    monkeypatch.setattr(rollback.Saved, "restore", checked_restore)
    return counts


def _run_cases(step: int) -> None:
    cases = [c for c in collect() if not c.problem][::step]
    assert cases
    for case in cases:
        result = run_case(case)
        assert result.status == "passed", (case.name, result.message[:500])


def test_fixture_cases_restore_exactly(checked):
    """Every fourth case (the slow test below runs them all)."""
    _run_cases(4)
    # enough restores to mean something (249 since a cast no longer dry-runs its payment)
    assert checked.restores > 200 and checked.saves > checked.restores


def test_self_play_restores_exactly(checked):
    out = CliRunner().invoke(main, ["selfplay", "--games", "2", "--seed", "11"])
    assert out.exit_code == 0, out.output
    assert checked.restores > 30


@pytest.mark.slow
def test_every_fixture_case_and_more_self_play_restore_exactly(checked):
    _run_cases(1)
    out = CliRunner().invoke(main, ["selfplay", "--games", "30", "--seed", "101"])
    assert out.exit_code == 0, out.output


def test_a_rejected_transaction_keeps_references_valid():
    """A failed transaction that moved, tapped, counted and paid is undone in the same
    objects: a reference taken before still names the game's object."""
    scenario = {"setup": {"players": [
        {"id": "alice", "hand": [{"alias": "bolt", "card": "Lightning Bolt"}],
         "battlefield": [{"alias": "mountain", "card": "Mountain"},
                         {"alias": "bears", "card": "Grizzly Bears", "counters": {"+1/+1": 1}}],
         "mana_pool": {"R": 2}},
        {"id": "bob", "life": 7}]}}
    game = build_game(scenario, "modern", _card_db(None), ScriptInputs([]))
    bears, bolt = game.find("bears"), game.find("bolt")
    before = game_picture(game)
    with pytest.raises(IllegalAction):
        with game.transaction():
            game.tap(bears)
            bears.counters["+1/+1"] = 5
            game.players["alice"].pool.pay(ManaCost.parse("{R}"))
            game.move(bolt, "graveyard")
            game.lose_life("bob", 3)
            raise IllegalAction("cannot_pay", "test")
    assert game_picture(game) == before
    assert game.find("bears") is bears and not bears.tapped and bears.counters == {"+1/+1": 1}
    assert game.find("bolt") is bolt and bolt in game.players["alice"].hand
    assert game.players["bob"].life == 7 and game.players["alice"].pool.as_dict() == {"R": 2}


def test_a_dry_run_changes_nothing_even_when_it_succeeds():
    scenario = {"setup": {"players": [
        {"id": "alice", "battlefield": [{"alias": "mountain", "card": "Mountain"}]},
        {"id": "bob"}]}}
    game = build_game(scenario, "modern", _card_db(None), ScriptInputs([]))
    before = game_picture(game)
    inputs = game.inputs
    game.dry_run(lambda g: g.activate("alice", {"action": "activate", "source": "mountain", "ability": 0}))
    assert game_picture(game) == before and game.inputs is inputs


def test_bookkeeping_records_are_restored():
    """The records of engine/bookkeeping.py (life gained this turn, mana spent to cast a
    spell) are undone with the rest of a rejected transaction."""
    scenario = {"setup": {"players": [
        {"id": "alice", "hand": [{"alias": "scorch", "card": "Kaleidoscorch"}], "mana_pool": {"W": 1, "R": 1}},
        {"id": "bob"}]}}
    game = build_game(scenario, "modern", _card_db(None), ScriptInputs([]))
    game.gain_life("alice", 2)
    before = game_picture(game)
    scorch = game.find("scorch")
    with pytest.raises(IllegalAction):
        with game.transaction():
            game.gain_life("alice", 3)
            item = game.cast("alice", {"card": "scorch", "targets": ["bob"], "mana": {"W": 1, "R": 1}})
            assert item.obj.mana_spent == {"W": 1, "R": 1}
            assert game.players["alice"].life_gained_this_turn == 5
            raise IllegalAction("cannot_pay", "test")
    assert game_picture(game) == before
    assert game.players["alice"].life_gained_this_turn == 2
    assert game.find("scorch") is scorch and scorch.zone == "hand" and scorch.mana_spent is None
    assert game.stack == []
