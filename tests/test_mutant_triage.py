"""Tests that kill random mutants (``mtg-judge mutants --random``, docs/MUTANTS.md) in engine
code that no ruling reaches, so no fixture can: each names the mutant it was written for."""

from __future__ import annotations

import copy

import pytest

from mtg_judge.engine import flicker, harmonize
from mtg_judge.engine.cards import FrozenDict
from mtg_judge.engine.inputs import shape_problem
from mtg_judge.engine.scenario import ScriptInputs, _card_db, build_game


def test_frozen_card_data_is_shared_by_copy_and_deepcopy():
    # engine/cards.py FrozenDict.__copy__ `return self` -> `return None` (seed 1 sample):
    # card data is read-only and shared by every game, never copied.
    data = FrozenDict({"name": "Grizzly Bears", "power": 2})
    assert copy.copy(data) is data
    assert copy.deepcopy(data) is data
    assert copy.deepcopy({"card": data})["card"] is data
    with pytest.raises(TypeError, match="read-only"):
        data["power"] = 3


def _game(battlefield: list[dict]):
    scenario = {"setup": {"turn": 3, "active_player": "alice", "step": "precombat_main",
                          "players": [{"id": "alice", "battlefield": battlefield}, {"id": "bob"}]}}
    return build_game(scenario, "modern", _card_db(None), ScriptInputs([]))


def test_harmonize_offers_the_untapped_creature_of_greatest_power():
    # engine/harmonize.py best_tap's key `power_toughness(...)[0]` -> `[1]` (seed 2 sample):
    # the reduction is the tapped creature's power (CR 702.180a; tarkir.harmonize.01, .03),
    # so the move generator offers the untapped creature with the greatest power, not the
    # greatest toughness, and none whose power is 0 (it would reduce nothing).
    game = _game([{"alias": "wall", "card": "Wall of Stone"},  # 0/8
                  {"alias": "wurm", "card": "Craw Wurm"},  # 6/4
                  {"alias": "giant", "card": "Hill Giant", "tapped": True},  # 3/3, tapped
                  {"alias": "bears", "card": "Grizzly Bears"}])  # 2/2
    best = harmonize.best_tap(game, "alice")
    assert best is not None and best.ref == "wurm"
    only_wall = _game([{"alias": "wall", "card": "Wall of Stone"}, {"alias": "giant", "card": "Hill Giant", "tapped": True}])
    assert harmonize.best_tap(only_wall, "alice") is None
    assert harmonize.best_tap(game, "bob") is None  # bob controls no creature


def test_a_non_string_action_is_a_wrong_type_not_an_unknown_action():
    # engine/inputs.py shape_problem `key == "action" and isinstance(inp[key], str)` -> `or`
    # (seed 2 sample): only a string action can be an unknown action; any other field of the
    # wrong type, a string included, is reported as that field's wrong type (docs/FORMAT.md
    # §3.2, the input shapes; PROTOCOL's bad_input message names the field).
    assert shape_problem({"action": 5}) == "field 'action' has the wrong type (number); see docs/FORMAT.md §3.2"
    assert shape_problem({"action": "pass", "x": "3"}) == "field 'x' has the wrong type (string); see docs/FORMAT.md §3.2"
    assert shape_problem({"action": "fly"}).startswith("unknown action 'fly'; the actions are pass, ")
    assert shape_problem({"action": "cast", "x": 3}) is None


def test_flicker_handlers_are_bound_at_call_time(monkeypatch):
    # engine/flicker.py _late `return late_handler(globals(), name)` -> `return None` (seed 2
    # sample): _late builds flicker's EFFECTS handlers, which look the module's function up
    # when they run (so a patched or mutated function is the one called). _late runs only at
    # import time, so `mtg-judge mutants --random` (which swaps code after import) can't judge
    # it; this test calls it.
    calls = []
    monkeypatch.setattr(flicker, "return_to_battlefield", lambda ctx, eff: calls.append((ctx, eff)))
    handler = flicker._late("return_to_battlefield")
    assert callable(handler) and handler.__name__ == "return_to_battlefield"
    handler("ctx", {"type": "return_to_battlefield"})
    assert calls == [("ctx", {"type": "return_to_battlefield"})]
    flicker.EFFECTS["return_to_battlefield"]("ctx2", {})  # the handler the engine uses, late-bound too
    assert calls[-1] == ("ctx2", {})


# ---------------------------------------------------------------- seed 2 sample (triage-c)

def _two_players(alice_bf=(), bob_bf=(), hand=(), pool=None):
    alice = {"id": "alice", "library": [{"alias": f"al{i}", "card": "Forest"} for i in range(4)],
             "hand": list(hand), "battlefield": list(alice_bf)}
    if pool:
        alice["mana_pool"] = pool
    bob = {"id": "bob", "library": [{"alias": f"bl{i}", "card": "Forest"} for i in range(4)],
           "battlefield": list(bob_bf)}
    return {"setup": {"turn": 3, "active_player": "alice", "step": "precombat_main", "players": [alice, bob]}}


def test_damage_to_a_planeswalker_creature_is_marked_and_removes_loyalty():
    # engine/planeswalkers.py marks_damage `or` -> `and` (seed 2): a permanent that is both a
    # creature and a planeswalker has damage marked on it (CR 120.3e) as well as losing that many
    # loyalty counters (CR 120.3c). No card of the pool is both (no ruling of the seeds has one).
    from mtg_judge.engine.cards import load_card_db
    from mtg_judge.engine.scenario import run_scenario

    walker = {"name": "Test Walker Creature", "mana_cost": "{2}{G}", "type_line": "Legendary Creature Planeswalker — Test",
              "supertypes": ["Legendary"], "types": ["Creature", "Planeswalker"], "subtypes": ["Test"],
              "oracle_text": "", "power": 2, "toughness": 5, "loyalty": 4, "layout": "normal", "keywords": [],
              "abilities": []}
    db = {**load_card_db(), **load_card_db({walker["name"]: walker})}
    scenario = _two_players(hand=[{"alias": "bolt", "card": "Lightning Bolt"}], pool={"R": 1},
                            bob_bf=[{"alias": "walker", "card": walker["name"]}])
    scenario["script"] = [{"action": "cast", "player": "alice", "card": "bolt", "targets": ["walker"]},
                          {"action": "resolve"}]
    state = run_scenario(scenario, cards=db)["state"]["battlefield"]["walker"]
    assert state["damage"] == 3
    assert state["counters"] == {"loyalty": 1}


def test_probe_replays_the_prefix_and_judges_the_next_input():
    # engine/scenario.py probe `list(prefix) + [action]` `+` -> `-` (seed 2; no case calls it:
    # checkpoints go through probe_all, which calls probe only for an input that is not an
    # object). The public probe (engine/__init__.py) answers whether an input would be
    # accepted next, with the rejection code (docs/FORMAT.md §9; CR 115.1: any target is a
    # creature, player, planeswalker or battle, not a land).
    from mtg_judge.engine import load_card_db, probe

    db = load_card_db()
    scenario = _two_players(hand=[{"alias": "bolt", "card": "Lightning Bolt"}], pool={"R": 1},
                            bob_bf=[{"alias": "b_forest", "card": "Forest"}])
    at_bob = {"action": "cast", "player": "alice", "card": "bolt", "targets": ["bob"]}
    at_land = {"action": "cast", "player": "alice", "card": "bolt", "targets": ["b_forest"]}
    assert probe(scenario, "modern", db, [], at_bob) == {"action": at_bob, "legal": True, "code": None}
    assert probe(scenario, "modern", db, [], at_land) == {"action": at_land, "legal": False, "code": "invalid_target"}
    # after the Bolt was cast, nothing is left in hand to cast again
    assert probe(scenario, "modern", db, [at_bob], at_bob)["legal"] is False


@pytest.mark.parametrize("whole", ["missing", "normal"])
def test_a_meld_pair_whose_result_is_no_meld_result_card_stays_in_exile(whole):
    # engine/transform.py meld `result is None or result.layout != "meld_result"` `or` -> `and`
    # (seed 2): card data whose meld result names no card, or a card that isn't a melded face
    # (layout meld_result, CR 712.4), melds into nothing: the two exiled cards stay in exile
    # (the rule of ruling finalfantasy.meld.05 for cards that can't meld). The project's cards are
    # valid, so no fixture reaches this: it is bad card data (a protocol run's cards).
    import json
    from pathlib import Path

    from mtg_judge.engine.cards import load_card_db
    from mtg_judge.engine.scenario import run_scenario

    folder = Path(__file__).resolve().parents[1] / "fixtures" / "cards"
    raw = {c["name"]: c for c in (json.loads(p.read_text(encoding="utf-8")) for p in folder.glob("*.json"))}
    if whole == "missing":
        del raw["Test Meld Whole"]
    else:
        raw["Test Meld Whole"] = dict(raw["Test Meld Whole"], layout="normal", mana_cost="{4}")
    db = load_card_db(raw)
    scenario = _two_players(alice_bf=[{"alias": "sun", "card": "Test Meld Sunward Half"},
                                      {"alias": "moon", "card": "Test Meld Moonward Half"}])
    scenario["setup"]["step"] = "beginning_of_combat"
    scenario["script"] = [{"action": "resolve"}]
    result = run_scenario(scenario, cards=db)
    assert not [e for e in result["events"] if e["type"] in ("melded", "permanent_entered")]
    assert sorted(result["state"]["players"]["alice"]["exile"]) == ["moon", "sun"]
    assert "sun" not in result["state"]["battlefield"] and "moon" not in result["state"]["battlefield"]


def test_counter_annihilation_alone_counts_as_a_state_based_action_performed():
    # engine/sba.py _sba_once `done = True` after 704.5q -> False (seed 2): check_state returns
    # whether any state-based action was performed (CR 704.3); its callers act on it: in the
    # cleanup step a performed state-based action gives the players priority and another
    # cleanup step (CR 514.3a), which no setup reaches with counters that annihilate only there.
    from mtg_judge.engine.cards import load_card_db
    from mtg_judge.engine.scenario import ScriptInputs, build_game

    scenario = _two_players(alice_bf=[{"alias": "bear", "card": "Grizzly Bears",
                                       "counters": {"+1/+1": 2, "-1/-1": 1}}])
    game = build_game(scenario, "modern", load_card_db(), ScriptInputs([]))
    assert game.check_state() is True
    bear = game.find("bear")
    assert bear is not None and bear.counters == {"+1/+1": 1}
    assert [e["rule"] for e in game.events if e["type"] == "state_based_action"] == ["704.5q"]
    assert game.check_state() is False  # nothing left to perform
