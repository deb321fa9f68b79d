"""engine/rollback.py: a rejected input or a dry run leaves the game exactly as it was.

Every restore is compared with a deep picture of the game taken when it was saved: values,
the order of every dict and list, and the identity of every object (a restore writes back
into the same objects, so references held across it stay valid). Run on every fixture case
and on a few self-play games (whose legality checks dry-run many inputs)."""

import json
from dataclasses import dataclass

import pytest

from mtg_judge.conformance import selfplay as sp
from mtg_judge.conformance.runner import collect, run_case
from mtg_judge.engine import rollback
from mtg_judge.engine.cards import CardDefinition, FrozenDict
from mtg_judge.engine.errors import IllegalAction
from mtg_judge.engine.mana import ManaCost
from mtg_judge.engine.rulesets import Ruleset
from mtg_judge.engine.scenario import ScriptInputs, _card_db, build_game

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
    """The picture of every field of ``game`` but its inputs and card database. The event
    log, append-only and the largest part by far late in a game, is pictured as its list's
    identity, its events' identities and their JSON text (the same values and order, found
    by the C encoder instead of a walk)."""
    seen: set = set()
    events = game.events
    return tuple((k, picture(v, seen)) if k != "events" else
                 (k, (id(events), tuple(map(id, events)), json.dumps(events)))
                 for k, v in vars(game).items() if k not in ("inputs", "cards"))


@dataclass
class Counts:
    saves: int = 0
    restores: int = 0


class Checked:
    """Checks every restore of the engine against the picture of the game taken at its save.

    A picture is costly and most saves are never restored (a transaction that succeeds
    keeps its changes), so :meth:`run` plays its work twice: the first time it only notes
    which saves, counted in order, are restored; the second time it takes the pictures of
    those saves alone and compares each restore with its picture. The engine is
    deterministic, so the second time makes the same saves (checked: the same count and
    the same restored ones)."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.counts = Counts()
        self._monkeypatch = monkeypatch

    @property
    def saves(self) -> int:
        return self.counts.saves

    @property
    def restores(self) -> int:
        return self.counts.restores

    def run(self, work) -> None:
        """Play ``work()`` twice as the class docstring says; add its saves and restores to
        the counts. Raises AssertionError for a restore that differs from its save."""
        save, restore = rollback.save, rollback.Saved.restore
        index: dict[int, int] = {}  # id(saved) -> its number, while it lives
        restored: list[int] = []
        pictures: dict[int, tuple] = {}
        second = False
        n = 0

        def checked_save(game):
            nonlocal n
            saved = save(game)
            index[id(saved)] = n
            if second and n in wanted:
                pictures[id(saved)] = (game_picture(game), list(game.events))
            n += 1
            return saved

        def checked_restore(self):
            restore(self)
            number = index[id(self)]
            restored.append(number)
            if second:
                want, events = pictures.pop(id(self))
                assert game_picture(self.game) == want, "the restored game differs from the saved one"
                assert self.game.events == events

        wanted: set[int] = set()
        with self._monkeypatch.context() as m:
            m.setattr(rollback, "save", checked_save)
            m.setattr(rollback.Saved, "restore", checked_restore)
            work()
            first_saves, first_restored = n, list(restored)
            wanted = set(first_restored)
            second, n = True, 0
            index.clear()
            restored.clear()
            work()
        assert (n, restored) == (first_saves, first_restored), "the second run made other saves"
        self.counts.saves += n
        self.counts.restores += len(restored)


@pytest.fixture
def checked(monkeypatch):
    """A :class:`Checked` for the test."""
    return Checked(monkeypatch)


def _run_cases(every_fourth: bool) -> None:
    """Run every fourth case (``every_fourth``) or the other three quarters."""
    cases = [c for i, c in enumerate(c for c in collect() if not c.problem) if (i % 4 == 0) == every_fourth]
    assert cases
    for case in cases:
        result = run_case(case)
        assert result.status == "passed", (case.name, result.message[:500])


def _selfplay(games: int, seed: int) -> None:
    """Play the ``games`` self-play games of ``mtg-judge selfplay --games GAMES --seed SEED``
    (the same decks, rulesets, setups and inputs), each once, with every invariant checked:
    without the run's determinism replay of each game, which gives the same inputs again
    (and so, with the hostile ones, the same restores) through a script."""
    decks, settings = sp.load_decks(), sp.Settings()
    for i in range(games):
        low = i % settings.low_life_every == settings.low_life_every - 1
        setup = sp.build_setup(seed + i, sp._decks_for(i, decks), settings.deck_size,
                               settings.low_life if low else None)
        _, outcome, err = sp.play_record(sp.Record(sp._ruleset_for(i, sp.RULESETS), setup), settings, sp.Stats())
        assert err is None and outcome in ("ended", "turn_cap"), (seed + i, outcome, err)


def test_fixture_cases_restore_exactly(checked):
    """Every fourth case (the slow test below runs the others)."""
    checked.run(lambda: _run_cases(True))
    # enough restores to mean something (about 200-250 since a cast no longer dry-runs its
    # payment; the subset moves as fixtures are added)
    assert checked.restores > 150 and checked.saves > checked.restores


def test_self_play_restores_exactly(checked):
    checked.run(lambda: _selfplay(2, 11))
    assert checked.restores > 30


@pytest.mark.slow
def test_every_fixture_case_and_more_self_play_restore_exactly(checked):
    """The other three quarters of the cases (with the test above: every case, each run
    once) and 30 more self-play games."""
    checked.run(lambda: _run_cases(False))
    checked.run(lambda: _selfplay(30, 101))
    assert checked.restores > 1000


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
