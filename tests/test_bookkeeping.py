"""engine/bookkeeping.py: the records the 2025–26 mechanics share (docs/FORMAT.md §11.1) —
mana spent to cast a spell (CR 601.2h), life gained this turn (CR 119.3), per-mode
additional costs (CR 700.2h) — and the conditions and amounts card data reads them with."""

import pytest

from mtg_judge.engine import bookkeeping
from mtg_judge.engine.conditions import condition_holds
from mtg_judge.engine.effects import Context
from mtg_judge.engine.errors import IllegalAction
from mtg_judge.engine.mana import ManaCost
from mtg_judge.engine.scenario import ScriptInputs, _card_db, build_game, run_scenario


def _game(alice: dict, bob: dict | None = None, **setup):
    scenario = {"setup": {**setup, "players": [{"id": "alice", **alice}, {"id": "bob", **(bob or {})}]}}
    return build_game(scenario, "modern", _card_db(None), ScriptInputs([]))


def _cards(*pairs):
    return [{"alias": a, "card": c} for a, c in pairs]


# ------------------------------------------------------------------ pure helpers
def test_totals_and_colors_of_a_record():
    assert bookkeeping.spent_total({"W": 1, "R": 2, "C": 3}) == 6
    assert bookkeeping.spent_colors({"W": 1, "R": 2, "C": 3}) == 2  # colorless is not a color
    assert bookkeeping.spent_colors({c: 1 for c in "WUBRGC"}) == 5
    assert bookkeeping.spent_total(None) == 0 and bookkeeping.spent_colors(None) == 0  # a copy
    assert bookkeeping.record({"R": 1, "G": 0}) == {"R": 1}


def test_mode_additional_costs_sum_the_chosen_modes_only():
    spell = {"choose": 2, "modes": [
        {"additional_cost": {"mana": "{1}"}, "effects": []},
        {"additional_cost": {"mana": "{R}", "pay_life": 2}, "effects": []},
        {"effects": []}]}
    mana, other = bookkeeping.mode_additional_costs(spell, [0, 1])
    assert mana == ManaCost.parse("{1}{R}") and other == {"pay_life": 2}
    assert bookkeeping.mode_additional_costs(spell, [2]) == (None, {})
    assert bookkeeping.mode_additional_costs({"effects": []}, []) == (None, {})


# ------------------------------------------------------------------ mana spent
def test_the_spell_records_the_mana_spent_and_a_copy_records_none():
    game = _game({"hand": _cards(("scorch", "Kaleidoscorch"), ("twincast", "Twincast")),
                  "mana_pool": {"W": 1, "R": 1, "U": 2}})
    item = game.cast("alice", {"card": "scorch", "targets": ["bob"], "mana": {"W": 1, "R": 1}})
    assert item.obj.mana_spent == {"W": 1, "R": 1}
    ctx = Context(game, item, [True])
    assert ctx.amount({"mana_spent": "colors"}) == 2 and ctx.amount({"mana_spent": "total"}) == 2
    game.cast("alice", {"card": "twincast", "targets": [item.ref], "mana": {"U": 2}})
    from mtg_judge.engine.effects import copy_spell
    copy = copy_spell(Context(game, game.stack[-1], [True]), item, new_targets=False)
    assert copy.obj.mana_spent is None
    assert Context(game, copy, [True]).amount({"mana_spent": "colors"}) == 0


def test_a_rejected_cast_records_nothing_on_the_card():
    game = _game({"hand": _cards(("scorch", "Kaleidoscorch")), "mana_pool": {"R": 1}})
    with pytest.raises(IllegalAction), game.transaction():  # as the engine casts (priority, CR 732.1)
        game.cast("alice", {"card": "scorch", "targets": ["bob"]})
    assert game.find("scorch").zone == "hand" and game.find("scorch").mana_spent is None


def test_the_permanent_keeps_the_record_of_its_spell():
    result = run_scenario({"setup": {"players": [
        {"id": "alice", "hand": _cards(("epicure", "Radiant Epicure")),
         "mana_pool": {"U": 1, "B": 1, "G": 1, "C": 2}},
        {"id": "bob"}]},
        "script": [{"action": "cast", "player": "alice", "card": "epicure",
                    "mana": {"U": 1, "B": 1, "G": 1, "C": 2}},
                   {"action": "resolve"}, {"action": "resolve"}]}, ruleset="modern")
    lost = [e for e in result["events"] if e["type"] == "life_lost"]
    assert [(e["player"], e["amount"]) for e in lost] == [("bob", 3)]
    assert result["state"]["players"]["alice"]["life"] == 23


def test_mana_spent_conditions_of_a_permanent_and_of_a_triggering_spell():
    game = _game({"battlefield": _cards(("graffalon", "Hungry Graffalon"))})
    graffalon = game.find("graffalon")
    graffalon.mana_spent = {"G": 2, "C": 2}
    assert condition_holds(game, graffalon, {"mana_spent_at_least": 4, "mana_spent_colors_at_least": 1})
    assert not condition_holds(game, graffalon, {"mana_spent_colors_at_least": 2})
    # increment: 4 > power 3 holds; 3 is greater than neither 3 nor 4
    exceeds = {"triggering_spell_mana_spent_exceeds_power_or_toughness": True}
    assert condition_holds(game, graffalon, exceeds, event={"spell_mana_spent": {"R": 4}})
    assert not condition_holds(game, graffalon, exceeds, event={"spell_mana_spent": {"R": 3}})
    assert condition_holds(game, graffalon, {"triggering_spell_mana_spent_at_least": 5},
                           event={"spell_mana_spent": {"R": 5}})
    assert not condition_holds(game, graffalon, {"triggering_spell_mana_spent_at_least": 5}, event=None)


# ------------------------------------------------------------------ life gained this turn
def test_life_gained_this_turn_adds_up_ignores_losses_and_resets_each_turn():
    game = _game({}, {})
    game.gain_life("alice", 3)
    game.lose_life("alice", 10)
    game.gain_life("alice", 1)
    game.gain_life("alice", 0)  # gaining 0 life is no life gain (CR 119.3)
    alice = game.players["alice"]
    assert alice.life_gained_this_turn == 4 and game.players["bob"].life_gained_this_turn == 0
    game.begin_turn(game.turn + 1, "bob")
    assert alice.life_gained_this_turn == 0


def test_gained_life_condition_and_amount_read_the_controller():
    game = _game({"battlefield": _cards(("bears", "Grizzly Bears"))},
                 {"hand": _cards(("salve", "Healing Salve"))})
    bears = game.find("bears")
    assert condition_holds(game, bears, {"gained_life_this_turn": False})
    game.gain_life("bob", 2)
    assert not condition_holds(game, bears, {"gained_life_this_turn": True})  # bob's gain, not alice's
    game.gain_life("alice", 5)
    assert condition_holds(game, bears, {"gained_life_this_turn": True})
    from mtg_judge.engine.objects import StackItem
    item = StackItem(ref="ability#9", kind="ability", controller="alice", ability={}, source_lki=bears.copy())
    assert Context(game, item, []).amount({"life_gained_this_turn": "you"}) == 5


# ------------------------------------------------------------------ per-mode additional costs
def test_a_modes_additional_cost_is_part_of_the_total_cost():
    game = _game({"hand": _cards(("thunder", "Thunder Magic")), "mana_pool": {"R": 2, "C": 5}},
                 {"battlefield": _cards(("wurm", "Craw Wurm"))})
    with pytest.raises(IllegalAction) as err, game.transaction():  # as the engine casts (CR 732.1)
        game.cast("alice", {"card": "thunder", "modes": [1], "targets": ["wurm"], "mana": {"R": 1}})
    assert err.value.code == "invalid_payment"
    with pytest.raises(IllegalAction) as err:
        game.cast("alice", {"card": "thunder", "modes": [0, 2], "targets": ["wurm", "wurm"]})
    assert err.value.code == "invalid_mode"
    item = game.cast("alice", {"card": "thunder", "modes": [2], "targets": ["wurm"]})
    assert item.obj.mana_spent == {"C": 5, "R": 2}  # {R} + Thundaga's {5}{R}
    assert item.obj.definition.mana_cost.mana_value() == 1  # CR 202.3


# ------------------------------------------------------------------ ward (engine/ward.py)
def _ward_game(answer: dict) -> dict:
    return run_scenario({"setup": {"players": [
        {"id": "alice", "hand": _cards(("scorch", "Kaleidoscorch")), "mana_pool": {"W": 1, "R": 1, "G": 1}},
        {"id": "bob", "battlefield": _cards(("striker", "Thornfist Striker"))}]},
        "script": [{"action": "cast", "player": "alice", "card": "scorch", "targets": ["striker"],
                    "mana": {"W": 1, "R": 1}},
                   {"action": "resolve"}, {"action": "choose", "player": "alice", **answer},
                   {"action": "resolve"}]}, ruleset="modern")


def test_ward_counters_the_spell_unless_its_controller_pays():
    """CR 702.21a: declining counters the spell; paying lets it resolve, and the ward mana is
    not mana spent to cast it (strixhaven.converge.02)."""
    declined = _ward_game({"choice": "no"})
    types = [e["type"] for e in declined["events"]]
    assert "spell_countered" in types and "damage_dealt" not in types
    paid = _ward_game({"choice": "yes", "mana": {"G": 1}})
    damage = [e for e in paid["events"] if e["type"] == "damage_dealt"]
    assert [(e["target_card"], e["amount"]) for e in damage] == [("striker", 2)]
    assert paid["state"]["players"]["alice"]["mana_pool"] == {}


def test_ward_ignores_its_controllers_own_spells():
    result = run_scenario({"setup": {"players": [
        {"id": "alice", "hand": _cards(("scorch", "Kaleidoscorch")), "mana_pool": {"W": 1, "R": 1},
         "battlefield": _cards(("striker", "Thornfist Striker"))},
        {"id": "bob"}]},
        "script": [{"action": "cast", "player": "alice", "card": "scorch", "targets": ["striker"]},
                   {"action": "resolve"}]}, ruleset="modern")
    assert not any(e["type"] == "ability_triggered" for e in result["events"])
    assert result["state"]["battlefield"]["striker"]["damage"] == 2


def test_amounts_and_conditions_about_the_triggering_spell():
    """"That spell" of a spell-cast trigger (opus, Magmablood Archaic): read from what the
    ability remembers, even once the spell has left the stack."""
    game = _game({"battlefield": _cards(("soloist", "Thunderdrum Soloist"))})
    from mtg_judge.engine.objects import StackItem
    soloist = game.find("soloist")
    item = StackItem(ref="ability#9", kind="ability", controller="alice", ability={}, source_lki=soloist.copy(),
                     trigger_event={"event": "spell_cast", "spell_mana_spent": {"U": 2, "R": 3}})
    ctx = Context(game, item, [])
    assert ctx.amount({"mana_spent": "total", "spell": "triggering"}) == 5
    assert ctx.amount({"mana_spent": "colors", "spell": "triggering"}) == 2
    assert ctx.amount({"mana_spent": "total"}) == 0  # the Soloist itself was not cast here
    from mtg_judge.engine.effects import condition_true
    assert condition_true(ctx, {"triggering_spell_mana_spent_at_least": 5,
                                "triggering_spell_mana_spent_colors_at_least": 2})
    assert not condition_true(ctx, {"triggering_spell_mana_spent_at_least": 6})


def test_ward_triggers_on_a_triggered_ability_too():
    """CR 702.21a: "a spell or ability an opponent controls": Thornscape Battlemage's
    enters trigger targeting a ward creature is countered unless its controller pays."""
    result = run_scenario({"setup": {"players": [
        {"id": "alice", "hand": _cards(("mage", "Thornscape Battlemage")), "mana_pool": {"G": 1, "R": 1, "C": 2}},
        {"id": "bob", "battlefield": _cards(("striker", "Thornfist Striker"))}]},
        "script": [{"action": "cast", "player": "alice", "card": "mage", "kicker": [0]},
                   {"action": "resolve"},
                   {"action": "choose_targets", "player": "alice", "targets": ["striker"]},
                   {"action": "resolve"}, {"action": "choose", "player": "alice", "choice": "no"},
                   {"action": "resolve"}]}, ruleset="modern")
    events = result["events"]
    assert any(e["type"] == "ability_triggered" and e.get("ability") == "ward" for e in events)
    assert any(e["type"] == "ability_countered" for e in events)
    assert not any(e["type"] == "damage_dealt" for e in events)
    assert not [e for e in events if e["type"] in ("action_rejected", "script_error")]
