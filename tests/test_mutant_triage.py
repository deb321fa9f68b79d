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
