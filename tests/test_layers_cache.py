"""The layer system's cache (engine/layers/system.py) is never stale: in checking mode
(``MTG_JUDGE_CHECK_LAYERS=1``) every characteristic query also recomputes the layers from
scratch and raises ``LayerCacheError`` if the kept result differs, so a change of the game
that doesn't invalidate the cache fails here. Run under it: the whole suite, the layers
table (tests/test_layers_table.py) and self-play; and a check that the checking mode does
catch a change made behind the rules' back."""

from __future__ import annotations

import pytest
import test_layers_table as table

from mtg_judge.conformance import selfplay as sp
from mtg_judge.conformance.runner import collect
from mtg_judge.engine import characteristics as ch
from mtg_judge.engine import run_scenario
from mtg_judge.engine.layers import CHECK_ENV, LayerCacheError
from mtg_judge.engine.objects import ContinuousEffect


@pytest.fixture
def checking(monkeypatch):
    """Games built while this fixture is active check every query against a fresh result."""
    monkeypatch.setenv(CHECK_ENV, "1")


SHARDS = 4


@pytest.mark.parametrize("shard", range(SHARDS))
def test_the_whole_suite_under_checking_mode(checking, shard):
    cases = [c for c in collect() if not c.problem]
    assert len(cases) > 1000
    for case in cases[shard::SHARDS]:
        try:
            run_scenario(case.scenario, case.ruleset, cards=case.scenario.get("cards"))
        except LayerCacheError as err:  # pragma: no cover - the failure being tested for
            pytest.fail(f"{case.name}: {err}")


#: every 7th case of the big table (7 is prime to each of its dimensions' sizes, so every
#: value of every dimension is among them); the smaller tables whole
STRIDE = 7


def test_the_layers_table_under_checking_mode(checking):
    wrong = [(c.id, why) for c in table.CASES[::STRIDE] if (why := table.check(c)) is not None]
    wrong += [(c.id, why) for c in table.CARD_TYPE_CASES if (why := table.card_type_check(c)) is not None]
    wrong += [(c.id, why) for c in table.TYPE_CASES if (why := table.type_check(c)) is not None]
    wrong += [(c.id, why) for c in table.SBA_CASES if (why := table.sba_check(c)) is not None]
    assert wrong == []


@pytest.mark.parametrize("index", range(12))
def test_self_play_under_checking_mode(checking, index):
    decks = sp.load_decks()
    pair = (decks[index % len(decks)], decks[(index + 1) % len(decks)])
    settings = sp.Settings(turn_cap=8, deck_size=30)
    result = sp.play_game(index, 1000 + index, pair, sp.RULESETS[index % len(sp.RULESETS)], settings, shrink=False)
    assert result.failure is None, result.failure.summary()
    assert result.stats.inputs > 20


def _goblin_game():
    cards = table._cards()
    scenario = {"setup": {"turn": 3, "active_player": "alice", "step": "precombat_main", "players": [
        {"id": "alice", "battlefield": [{"alias": "S", "card": "Table Goblin"}]}, {"id": "bob"}]}}
    return table.build_game(scenario, "modern", cards, table._Source())


def test_checking_mode_catches_a_change_behind_the_rules_back(checking):
    game = _goblin_game()
    s = game.find("S")
    assert ch.power_toughness(game, s) == (2, 2)
    s.counters["+1/+1"] = 1  # no event, no invalidation: the kept result is stale
    with pytest.raises(LayerCacheError):
        ch.power_toughness(game, s)


def test_invalidate_and_the_key_see_such_changes():
    """Outside checking mode: a new effect changes the key; a direct edit needs invalidate."""
    game = _goblin_game()
    s = game.find("S")
    assert ch.power_toughness(game, s) == (2, 2)
    game.effects.append(ContinuousEffect("modify_pt", [s.ref], game.new_timestamp(), power=1, toughness=1))
    assert ch.power_toughness(game, s) == (3, 3)
    s.counters["+1/+1"] = 1
    game.layers.invalidate()
    assert ch.power_toughness(game, s) == (4, 4)
    s.counters["+1/+1"] = 2
    game.log("counters_added", object=s.ref, card=s.card, counter="+1/+1", count=1)  # the rules' way
    assert ch.power_toughness(game, s) == (5, 5)
