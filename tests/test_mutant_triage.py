"""Tests that kill random mutants (``mtg-judge mutants --random``, docs/MUTANTS.md) in engine
code that no ruling reaches, so no fixture can: each names the mutant it was written for."""

from __future__ import annotations

import copy
import json
from pathlib import Path

import pytest

from mtg_judge.engine import adventure, flicker, harmonize
from mtg_judge.engine import characteristics as ch
from mtg_judge.engine.cards import CardDefinition, FrozenDict, load_card_db
from mtg_judge.engine.conditions import _card_has
from mtg_judge.engine.creature_types import card_has_subtype
from mtg_judge.engine.effects import Context, run
from mtg_judge.engine.errors import IllegalAction
from mtg_judge.engine.inputs import shape_problem
from mtg_judge.engine.objects import StackItem
from mtg_judge.engine.scenario import ScriptInputs, _card_db, build_game, run_scenario


def test_frozen_card_data_is_shared_by_copy_and_deepcopy():
    # engine/cards.py FrozenDict.__copy__ `return self` -> `return None` (seed 1 sample):
    # card data is read-only and shared by every game, never copied.
    data = FrozenDict({"name": "Grizzly Bears", "power": 2})
    assert copy.copy(data) is data
    assert copy.deepcopy(data) is data
    assert copy.deepcopy({"card": data})["card"] is data
    with pytest.raises(TypeError, match="read-only"):
        data["power"] = 3


def _battlefield_game(battlefield: list[dict]):
    scenario = {"setup": {"turn": 3, "active_player": "alice", "step": "precombat_main",
                          "players": [{"id": "alice", "battlefield": battlefield}, {"id": "bob"}]}}
    return build_game(scenario, "modern", _card_db(None), ScriptInputs([]))


def test_harmonize_offers_the_untapped_creature_of_greatest_power():
    # engine/harmonize.py best_tap's key `power_toughness(...)[0]` -> `[1]` (seed 2 sample):
    # the reduction is the tapped creature's power (CR 702.180a; tarkir.harmonize.01, .03),
    # so the move generator offers the untapped creature with the greatest power, not the
    # greatest toughness, and none whose power is 0 (it would reduce nothing).
    game = _battlefield_game([{"alias": "wall", "card": "Wall of Stone"},  # 0/8
                  {"alias": "wurm", "card": "Craw Wurm"},  # 6/4
                  {"alias": "giant", "card": "Hill Giant", "tapped": True},  # 3/3, tapped
                  {"alias": "bears", "card": "Grizzly Bears"}])  # 2/2
    best = harmonize.best_tap(game, "alice")
    assert best is not None and best.ref == "wurm"
    only_wall = _battlefield_game([{"alias": "wall", "card": "Wall of Stone"}, {"alias": "giant", "card": "Hill Giant", "tapped": True}])
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


# ------------------------------------------------------------------ seed 2 (tree of e69dfdf)
CARDS = Path(__file__).resolve().parents[1] / "fixtures" / "cards"


def _card(slug: str) -> dict:
    return json.loads((CARDS / f"{slug}.json").read_text(encoding="utf-8"))


def _game(alice: dict, bob: dict | None = None, extra: dict[str, dict] | None = None):
    db = dict(_card_db(None))
    for name, data in (extra or {}).items():
        db[name] = CardDefinition.from_dict(data, source=f"test card {name!r}")
    scenario = {"setup": {"turn": 3, "players": [{"id": "alice", **alice}, {"id": "bob", **(bob or {})}]}}
    return build_game(scenario, "modern", db, ScriptInputs([]))


def _cards(*pairs):
    return [{"alias": a, "card": c} for a, c in pairs]


def test_only_an_adventurer_card_with_its_adventure_face_has_an_adventure():
    # engine/adventure.py has_adventure `layout == "adventure" and get_face(FACE) is not None`,
    # `and` -> `or` (seed 2): CR 715.2a, FORMAT §5.1: "has an Adventure" means an adventurer
    # card (layout "adventure") with its Adventure face; neither half alone makes one.
    giant = _card("bonecrusher-giant")
    faceless = {**giant, "name": "Test Faceless Adventurer"}
    faceless.pop("faces")
    not_adventurer = {**giant, "name": "Test Normal Card With A Spell Face", "layout": "normal"}
    game = _game({"hand": _cards(("giant", "Bonecrusher Giant"), ("faceless", "Test Faceless Adventurer"),
                                 ("normal", "Test Normal Card With A Spell Face"))},
                 extra={faceless["name"]: faceless, not_adventurer["name"]: not_adventurer})
    assert adventure.has_adventure(game.find("giant"))
    assert not adventure.has_adventure(game.find("faceless"))
    assert not adventure.has_adventure(game.find("normal"))


def test_load_card_db_reads_every_card_file_of_a_folder(tmp_path):
    # engine/cards.py load_card_db `return db` -> `return None` (seed 2): no fixture loads
    # cards from a folder (the harness sends card dicts; the default database is cached
    # before any case runs). Contract: {name: CardDefinition} for every *.json file.
    db = load_card_db()
    assert isinstance(db, dict) and len(db) == len(list(CARDS.glob("*.json")))
    assert isinstance(db["Lightning Bolt"], CardDefinition) and db["Lightning Bolt"].name == "Lightning Bolt"
    (tmp_path / "bolt.json").write_text(json.dumps(_card("lightning-bolt")), encoding="utf-8")
    one = load_card_db(tmp_path)
    assert list(one) == ["Lightning Bolt"] and one["Lightning Bolt"].types == db["Lightning Bolt"].types


def test_protection_from_a_card_type_applies_to_a_spell_of_that_type():
    # engine/characteristics.py protected_from `isinstance(source, StackItem) and src_obj is
    # None` -> `or` (seed 2): the quality of a spell is read from the spell's own object, not
    # from a source's last known information (a spell has none). CR 702.16a: protection from
    # a card type ("protection from instants"); 702.16b: it can't be the target of such spells.
    knight = {**_card("grizzly-bears"), "name": "Test Instant-Proof Bear",
              "keywords": [{"keyword": "protection", "from": {"types": ["Instant"]}}]}
    game = _game({"hand": _cards(("bolt", "Lightning Bolt"), ("bolt2", "Lightning Bolt")), "mana_pool": {"R": 2}},
                 {"battlefield": _cards(("knight", "Test Instant-Proof Bear"), ("bears", "Grizzly Bears"))},
                 extra={knight["name"]: knight})
    with pytest.raises(IllegalAction) as err:
        game.cast("alice", {"card": "bolt", "targets": ["knight"], "mana": {"R": 1}})
    assert err.value.code == "invalid_target"
    item = game.cast("alice", {"card": "bolt", "targets": ["bears"], "mana": {"R": 1}})
    assert ch.protected_from(game, game.find("knight"), item)
    assert not ch.protected_from(game, game.find("bears"), item)


def test_a_changeling_creature_card_has_every_creature_type_in_any_zone():
    # engine/creature_types.py card_has_subtype `"Creature" in card.chars.types` -> `not in`
    # (seed 2): CR 702.73a, changeling: the card is every creature type, in every zone; the
    # pool's only card_in_graveyard condition asks for Lesson, not a creature type.
    game = _game({"graveyard": _cards(("amoeboid", "Amoeboid Changeling"), ("bears", "Grizzly Bears"))})
    amoeboid, bears = game.find("amoeboid"), game.find("bears")
    assert card_has_subtype(amoeboid, "Sliver") and card_has_subtype(amoeboid, "Elf")
    assert card_has_subtype(amoeboid, "Shapeshifter")  # printed
    assert not card_has_subtype(amoeboid, "Lesson")  # not a creature type
    assert card_has_subtype(bears, "Bear") and not card_has_subtype(bears, "Elf")
    assert _card_has(amoeboid, {"types": ["Creature"], "subtypes": ["Sliver"]})


def test_turning_face_up_an_effect_skips_a_face_up_permanent():
    # engine/effects.py _turn_face_up `obj.zone == "battlefield" and obj.face_down` -> `or`
    # (seed 2): Break Open, the pool's one turn_face_up card, targets only face-down
    # creatures; an effect whose reference reaches a face-up permanent leaves it as it is
    # (CR 708.8: turning face up is for a face-down permanent): no turned_face_up event.
    game = _game({"battlefield": _cards(("bears", "Grizzly Bears"))})
    bears = game.find("bears")
    item = StackItem(ref="ability#1", kind="ability", controller="alice", ability={"effects": []},
                     source=bears.ref, source_card=bears.card, source_lki=bears.copy())
    before = len(game.events)
    run(Context(game, item, []), [{"type": "turn_face_up", "what": "self"}])
    assert not bears.face_down
    assert not [e for e in game.events[before:] if e["type"] == "turned_face_up"]


# ---------------------------------------------------------------- seed 5 (tree of 0468a77)


def test_a_card_definition_is_shared_by_deepcopy():
    # engine/cards.py CardDefinition.__deepcopy__ `return self` -> `return None` (seed 5): card
    # definitions are immutable and shared by every game; a deep copy of game data keeps them.
    card = _card_db(None)["Grizzly Bears"]
    assert copy.deepcopy(card) is card
    assert copy.deepcopy({"def": card})["def"] is card


def test_the_seeded_generator_draws_below_one_and_refuses_zero():
    # engine/rng.py SplitMix64.below `n < 1` -> `n <= 1` (seed 5): below(1) is a legal draw
    # (the one index of a one-element range, docs/FORMAT.md §7) and consumes one output;
    # below(0) has no value to give.
    from mtg_judge.engine.rng import SplitMix64
    r = SplitMix64(7)
    assert r.below(1) == 0
    with pytest.raises(ValueError):
        SplitMix64(7).below(0)


def test_mana_cost_text_and_hybrid_mana_values():
    # engine/mana.py ManaCost.text `self.generic or not (self.colored or self.hybrid)` ->
    # `and`, and ManaCost.mana_value's `2` -> `3` for a {2/W} symbol (seed 5): the cost's text
    # round-trips (CR 107.4), and a monocolored hybrid symbol {2/W} counts 2 (CR 202.3f).
    from mtg_judge.engine.mana import ManaCost
    for text in ("{2}{U}", "{0}", "{3}", "{X}{R}", "{1}{W}{W}", "{W/U}"):
        assert ManaCost.parse(text).text() == text
    assert ManaCost.parse("{2/W}").mana_value() == 2
    assert ManaCost.parse("{W/U}").mana_value() == 1
    assert ManaCost.parse("{1}{2/W}{2/W}").mana_value() == 5


def test_input_shape_messages_for_what_is_not_an_object():
    # engine/inputs.py shape_problem `return f"an input is a JSON object, not {...}"` ->
    # `return None` for a script entry that is not an object, rejection_fields' `return
    # {...None}` -> `return None`, and _short's `return ...` -> `return None` (seed 5): the
    # message names the JSON type (docs/FORMAT.md §3.2, PROTOCOL's bad_input), the rejection
    # echoes None fields, and a long value is cut to 60 characters.
    from mtg_judge.engine.inputs import NOT_AN_OBJECT, _short, rejection_fields
    assert shape_problem({NOT_AN_OBJECT: "number"}) == "an input is a JSON object, not number"
    assert rejection_fields(5) == {"at": None, "player": None, "action": None}
    assert _short({"b": 1}) == '{"b": 1}'
    long = _short("x" * 100)
    assert len(long) == 60 and long.endswith("…")


def test_lands_played_defaults_to_none_played():
    # engine/scenario.py build_game `setup.get("lands_played", 0)` -> `1` (seed 5): a setup
    # that doesn't say how many lands the active player played this turn means none
    # (docs/FORMAT.md §2), so one land may be played (CR 305.2). Every fixture that plays a
    # land states lands_played, so only a test reaches the default.
    scenario = {"setup": {"turn": 3, "active_player": "alice", "step": "precombat_main",
                          "players": [{"id": "alice", "hand": _cards(("f", "Forest"))}, {"id": "bob"}]},
                "script": [{"action": "play_land", "player": "alice", "card": "f"}]}
    result = run_scenario(scenario, "modern")
    assert not [e for e in result["events"] if e["type"] in ("action_rejected", "script_error")]
    assert "f" in result["state"]["battlefield"]


def test_inputs_left_after_the_game_ended_are_rejected_except_macros():
    # engine/scenario.py _play `inp.get("action") not in MACROS` -> `in` (seed 5): once the
    # game is over (CR 104.1) every input left is rejected with game_over; a macro such as
    # `resolve` is shorthand for passes and is dropped silently (docs/FORMAT.md §3.1).
    scenario = {"setup": {"turn": 3, "active_player": "alice", "step": "precombat_main",
                          "players": [{"id": "alice", "hand": _cards(("bolt", "Lightning Bolt")), "mana_pool": {"R": 1}},
                                      {"id": "bob", "life": 3}]},
                "script": [{"action": "cast", "player": "alice", "card": "bolt", "targets": ["bob"]},
                           {"action": "resolve"},
                           {"action": "pass", "player": "alice"},
                           {"action": "resolve"}]}
    result = run_scenario(scenario, "modern")
    assert result["state"]["players"]["bob"]["life"] == 0
    rejected = [(e["at"], e["code"]) for e in result["events"] if e["type"] == "action_rejected"]
    assert rejected == [(2, "game_over")]


def test_a_combination_of_mana_must_add_up_to_the_amount():
    # engine/mana_abilities.py mana_produced `not isinstance(produce, dict) or sum(...) !=
    # amount or any(...)` -> `and` (seed 5): Calciform Pools' "Add X mana in any combination of
    # {W} and/or {U}" (CR 106.1a, 605): the player's combination must be X mana of those
    # colors; timespiral.storage-lands.01 is about tapping, not the combination.
    def play(produce):
        scenario = {"setup": {"turn": 3, "active_player": "alice", "step": "precombat_main",
                              "players": [{"id": "alice", "battlefield": [
                                  {"alias": "pools", "card": "Calciform Pools", "counters": {"storage": 3}}],
                                  "mana_pool": {"C": 1}}, {"id": "bob"}]},
                    "script": [{"action": "activate", "player": "alice", "source": "pools", "ability": 2, "x": 3,
                                "produce": produce, "mana": {"C": 1}}]}
        result = run_scenario(scenario, "modern")
        return ([e["code"] for e in result["events"] if e["type"] == "action_rejected"],
                result["state"]["players"]["alice"]["mana_pool"])
    assert play({"W": 1, "U": 2}) == ([], {"W": 1, "U": 2})
    for wrong in ({"W": 1, "U": 1}, {"W": 4}, {"W": 2, "R": 1}, {"W": 4, "U": -1}):
        codes, pool = play(wrong)
        assert len(codes) == 1 and pool == {"C": 1}, (wrong, codes, pool)


def test_filters_tapped_colorless_and_opponent():
    # engine/layers/filters.py matches: `key == "colorless"`'s comparison `!=` -> `==` and its
    # `return False` -> `return True`, `controller: opponent`'s and `tapped`'s `return False`
    # -> `return True`, and object_colors' `return []` -> `return None` for no object (seed 5):
    # filter keys of docs/FORMAT.md §5 no fixture tries on an object that fails them (Summon:
    # Primal Garuda's "target tapped creature an opponent controls" is aimed at one that
    # passes). CR 105.2c (colorless), 109.4 (controller), 110.5 (tapped).
    from mtg_judge.engine.layers import filters
    game = _game({"battlefield": [{"alias": "bears", "card": "Grizzly Bears"}, {"alias": "tome", "card": "Jayemdae Tome"}]},
                 {"battlefield": [{"alias": "wurm", "card": "Craw Wurm", "tapped": True}]})
    bears, tome, wurm = game.find("bears"), game.find("tome"), game.find("wurm")
    assert ch.matches(game, tome, {"colorless": True}, "alice") and not ch.matches(game, bears, {"colorless": True}, "alice")
    assert ch.matches(game, bears, {"colorless": False}, "alice") and not ch.matches(game, tome, {"colorless": False}, "alice")
    assert ch.matches(game, wurm, {"controller": "opponent"}, "alice")
    assert not ch.matches(game, bears, {"controller": "opponent"}, "alice")
    assert ch.matches(game, wurm, {"tapped": True}, "alice") and not ch.matches(game, bears, {"tapped": True}, "alice")
    assert filters.object_colors(game.layers, None) == []


def test_effect_defaults_and_conditions_no_card_writes():
    # engine/effects.py _discard's default count `1` -> `2`, and condition_true's threshold
    # `return False` -> `return True` (seed 5): a discard effect without `count` discards one
    # card (docs/FORMAT.md §5; every card of the pool gives the count); a conditional effect
    # with `threshold` (no card of the pool has one; First-Time Flyer-style statics read it
    # elsewhere) is false with fewer cards in the graveyard (threshold: seven or more cards in
    # your graveyard).
    discard = {"name": "Test Discard One", "mana_cost": "{B}", "type_line": "Sorcery", "supertypes": [],
               "types": ["Sorcery"], "subtypes": [], "oracle_text": "Discard a card.", "layout": "normal",
               "keywords": [], "spell": {"effects": [{"type": "discard", "player": "controller"}]}}
    thresh = {**discard, "name": "Test Threshold Gain", "oracle_text": "Threshold — gain 1 life.",
              "spell": {"effects": [{"type": "conditional", "condition": {"threshold": 7},
                                     "then": [{"type": "gain_life", "player": "controller", "amount": 1}]}]}}
    def play(card, hand):
        scenario = {"setup": {"turn": 3, "active_player": "alice", "step": "precombat_main",
                              "players": [{"id": "alice", "hand": [{"alias": "s", "card": card["name"]}, *hand],
                                           "mana_pool": {"B": 1}}, {"id": "bob"}]},
                    "script": [{"action": "cast", "player": "alice", "card": "s"}, {"action": "resolve"},
                               *([{"action": "discard", "player": "alice", "cards": ["c1"]}] if hand else [])]}
        db = {**{k: v for k, v in _card_db(None).items()}}
        db[card["name"]] = CardDefinition.from_dict(card, source="test card")
        return run_scenario(scenario, "modern", cards=db)
    result = play(discard, _cards(("c1", "Forest"), ("c2", "Island")))
    assert [e["card"] for e in result["events"] if e["type"] == "card_discarded"] == ["c1"]
    assert result["state"]["players"]["alice"]["hand"] == ["c2"]
    result = play(thresh, [])
    assert result["state"]["players"]["alice"]["life"] == 20


def test_modes_pool_spending_and_a_you_player_filter():
    # engine/casting.py _spell_ability `isinstance(m, int) and 0 <= m < len(modes)` -> `or`,
    # engine/mana.py _pay_exact `n < 0` -> `n < 1`, engine/characteristics.py _player_filter
    # `return player == you` -> `return None` (seed 5): a mode index out of range is refused
    # with invalid_mode (CR 700.2a, FORMAT §3.2); naming 0 of a symbol while paying is no error
    # (FORMAT §3.2 `mana`); a player target restricted to "you" accepts its controller (no
    # card of the pool restricts a player target that way).
    from mtg_judge.engine.mana import ManaCost, ManaPool
    game = _game({"hand": _cards(("salve", "Healing Salve")), "mana_pool": {"W": 1}})
    with pytest.raises(IllegalAction) as err:
        game.cast("alice", {"card": "salve", "modes": [2], "targets": ["alice"], "mana": {"W": 1}})
    assert err.value.code == "invalid_mode"
    pool = ManaPool({"R": 1})
    assert pool.pay(ManaCost.parse("{R}"), {"R": 1, "G": 0}) == {"R": 1}
    spec = {"kind": "player", "filter": {"player": "you"}}
    assert ch.target_kinds_match(game, spec, "alice", "alice", None)
    assert not ch.target_kinds_match(game, spec, "bob", "alice", None)


# ------------------------------------------- seed 5, the open rows (branch mutfix)


def test_a_damage_assignment_amount_is_a_whole_number_of_zero_or_more():
    # engine/combat.py _check_assignment `not isinstance(n, int) or isinstance(n, bool) or n < 0`
    # -> `and` (seed 5): an amount that is negative, a boolean or not a number is
    # invalid_damage_assignment (FORMAT §8, CR 510.1c), even when the amounts add up to the
    # attacker's power. The scenario schema already refuses such amounts in a fixture
    # (`minimum: 0`, `integer`), so only an engine client sends them.
    from mtg_judge.engine.combat import _check_assignment
    game = _game({"battlefield": _cards(("wurm", "Craw Wurm"))},
                 {"battlefield": _cards(("bear", "Grizzly Bears"), ("giant", "Hill Giant"))})
    wurm, bear, giant = game.find("wurm"), game.find("bear"), game.find("giant")
    for bad in ({"bear": -1, "giant": 7}, {"bear": True, "giant": 5}, {"bear": "1", "giant": 5}, {"bear": 1.0, "giant": 5}):
        with pytest.raises(IllegalAction) as err:
            _check_assignment(game, {"attacker": "wurm", "assignment": bad}, wurm, [bear, giant], "bob", 6, False)
        assert err.value.code == "invalid_damage_assignment"
    assert _check_assignment(game, {"attacker": "wurm", "assignment": {"bear": 0, "giant": 6}}, wurm,
                             [bear, giant], "bob", 6, False) == [(bear, 0), (giant, 6)]


_THRESHOLD_BEAR = {"name": "Test Threshold Bear", "mana_cost": "{1}{G}", "type_line": "Creature — Bear", "supertypes": [],
                   "types": ["Creature"], "subtypes": ["Bear"], "layout": "normal", "keywords": [], "power": 2, "toughness": 2,
                   "oracle_text": "Threshold — This creature gets +1/+1 as long as seven or more cards are in your graveyard.",
                   "abilities": [{"kind": "static", "condition": {"threshold": 7},
                                  "effect": {"type": "modify_pt", "affected": "self", "power": 1, "toughness": 1}}]}


def test_threshold_counts_the_graveyard_of_the_permanents_controller():
    # engine/conditions.py condition_holds, threshold's `current.controller or current.owner`
    # -> `and` (seed 5): "your graveyard" is the graveyard of the permanent's controller (CR
    # 109.5), not its owner's. No card of the pool has threshold; a stolen threshold creature
    # would tell.
    seven = [("g%d" % i, "Forest") for i in range(7)]
    stolen = _game({"battlefield": [{"alias": "bear", "card": "Test Threshold Bear", "controller": "bob"}]},
                   {"graveyard": _cards(*seven)}, extra={"Test Threshold Bear": _THRESHOLD_BEAR})
    assert ch.power_toughness(stolen, stolen.find("bear")) == (3, 3)
    owners = _game({"graveyard": _cards(*seven), "battlefield": [{"alias": "bear", "card": "Test Threshold Bear",
                                                                   "controller": "bob"}]},
                   extra={"Test Threshold Bear": _THRESHOLD_BEAR})
    assert ch.power_toughness(owners, owners.find("bear")) == (2, 2)


def test_self_in_a_spells_effect_is_the_spell_as_it_last_existed():
    # engine/effects.py Context.refs `self.item.kind == "ability" and src is not None` -> `or`
    # (seed 5): for an ability, `self` is its source's current object (none once it left the
    # battlefield); for a spell it is the spell's own object, whose information is used as it
    # last existed once it has left the stack (CR 608.2h). No card of the pool says `self` in
    # a spell's effect; a spell whose object has moved would tell.
    game = _game({"hand": _cards(("bolt", "Lightning Bolt"))})
    bolt = game.find("bolt")
    item = StackItem(ref=bolt.ref, kind="spell", controller="alice", ability={"effects": []}, obj=bolt)
    assert Context(game, item, []).refs("self") == [bolt]
    game.move(bolt, "graveyard", cause="test")
    assert game.objects.get(bolt.ref) is None  # a new object now (CR 400.7)
    assert Context(game, item, []).refs("self") == [bolt]
    bears = _game({"battlefield": _cards(("bears", "Grizzly Bears"))})
    src = bears.find("bears")
    ability = StackItem(ref="ability#1", kind="ability", controller="alice", ability={"effects": []},
                        source=src.ref, source_card=src.card, source_lki=src.copy())
    assert Context(bears, ability, []).refs("self") == [src]
    bears.move(src, "graveyard", cause="test")
    assert Context(bears, ability, []).refs("self") == []


def test_endure_of_a_target_that_cant_get_counters_creates_the_token_for_the_abilitys_controller():
    # engine/endure_behold.py endure `lki is not None and lki.controller` -> `or` (seed 5): when
    # counters can't be put on the permanent that endures (it is gone), its controller's
    # Spirit token is created without a choice (ruling tarkir.endure.03); for a permanent other
    # than `self` there is no last known controller to read, so the ability's controller gets
    # it. Every endure card of the pool endures itself.
    game = _game({"battlefield": _cards(("bears", "Grizzly Bears"))})
    bears = game.find("bears")
    item = StackItem(ref="ability#1", kind="ability", controller="alice", ability={"effects": []},
                     source=bears.ref, source_card=bears.card, source_lki=bears.copy(), targets=["gone"])
    run(Context(game, item, [False]), [{"type": "endure", "what": {"target": 0}, "n": 2}])
    tokens = [o for o in game.battlefield if o.is_token]
    assert [(t.controller, ch.power_toughness(game, t)) for t in tokens] == [("alice", (2, 2))]


def test_a_discard_trigger_for_any_player_triggers_on_its_controllers_discard_too():
    # engine/triggers.py matches `who == "any"` -> `!=` (seed 5): a `discarded` trigger without
    # `player` (or `player: any`, FORMAT §5) triggers whoever discards, its controller
    # included. The pool's one discard trigger (Megrim) says `opponent`.
    from mtg_judge.engine.triggers import matches
    game = _game({"battlefield": _cards(("megrim", "Megrim"))})
    megrim = game.find("megrim")
    for spec in ({"event": "discarded"}, {"event": "discarded", "player": "any"}):
        assert matches(game, megrim, spec, {"event": "discarded", "player": "alice"})
        assert matches(game, megrim, spec, {"event": "discarded", "player": "bob"})
    assert not matches(game, megrim, {"event": "discarded", "player": "opponent"}, {"event": "discarded", "player": "alice"})
    assert matches(game, megrim, {"event": "discarded", "player": "you"}, {"event": "discarded", "player": "alice"})


def test_a_planeswalker_with_printed_loyalty_one_starts_with_one_loyalty_counter():
    # engine/planeswalkers.py setup_counters `n > 0` -> `n > 1` (seed 5): a planeswalker the
    # setup puts on the battlefield without `counters` has its printed loyalty in loyalty
    # counters (FORMAT §3.1, CR 306.5b), 1 included; 0 gives none. No card of the pool has
    # loyalty 1.
    from mtg_judge.engine.planeswalkers import setup_counters
    walker = {**_card("garruk-wildspeaker"), "name": "Test One-Loyalty Walker", "loyalty": 1}
    zero = {**walker, "name": "Test Zero-Loyalty Walker", "loyalty": 0}
    game = _game({"battlefield": _cards(("one", "Test One-Loyalty Walker"), ("zero", "Test Zero-Loyalty Walker"),
                                        ("bears", "Grizzly Bears"))},
                 extra={"Test One-Loyalty Walker": walker, "Test Zero-Loyalty Walker": zero})
    assert setup_counters(game.find("one")) == {"loyalty": 1}
    assert game.find("one").counters.get("loyalty") == 1
    assert setup_counters(game.find("zero")) == {}
    assert setup_counters(game.find("bears")) == {}


def test_boards_keeps_the_board_before_each_input_is_read():
    # engine/scenario.py boards' on_read `not kept or kept[-1]["input"] != i` -> `if not`
    # (seed 5): the runner's case pages (issue 25) show the board before each script input,
    # once per input (an input read again after a rejection keeps its first board), and one
    # after the last. Public API: no fixture runs it.
    from mtg_judge.engine.scenario import boards
    scenario = {"setup": {"turn": 3, "players": [
        {"id": "alice", "hand": _cards(("bolt", "Lightning Bolt")), "battlefield": _cards(("m", "Mountain"))}, {"id": "bob"}]},
        "script": [{"action": "pass", "player": "bob"},
                   {"action": "cast", "player": "alice", "card": "bolt", "targets": ["bob"], "pay_with": ["m"]},
                   {"action": "resolve"}]}
    out = boards(scenario)
    assert [b["input"] for b in out["boards"]] == [0, 1, 2, 3]
    assert [b["state"]["players"]["bob"]["life"] for b in out["boards"]] == [20, 20, 20, 17]
    assert [len(b["state"]["stack"]) for b in out["boards"]] == [0, 0, 1, 0]
    assert out["boards"][-1]["events"] <= len(out["events"])


def test_the_same_target_of_a_copy_is_named_by_a_name_that_finds_it():
    # engine/targets.py _same_target `target is not None` -> `is` (seed 5): an input leaves a
    # copy's target unchanged (CR 707.10c) only when its name finds that target; a name that
    # finds nothing is no target at all, even when the copied target is gone too.
    from mtg_judge.engine.targets import _same_target
    game = _game({"battlefield": _cards(("bears", "Grizzly Bears"))})
    assert _same_target(game, "bears", "bears")
    assert _same_target(game, "bears", game.find("bears").ref)
    assert not _same_target(game, "nothing", "gone")
    assert not _same_target(game, "bob", "alice")


def test_one_sources_static_effects_in_one_layer_apply_in_the_order_written():
    # engine/layers/apply.py collect `n += 1` -> `n -= 1` (seed 5): effects with the same
    # timestamp (the static abilities of one permanent, CR 613.7a) that don't depend on each
    # other apply in the order they are found in, the card's text order (LayerEffect.order).
    # Layer 6: "Creatures you control have flying" then "Other creatures lose all abilities":
    # the other creature gets flying, then loses it (a later grant would still apply, CR
    # 613.1f). Neither depends on the other (CR 613.8a: neither changes what the other
    # applies to or whether it exists). No card of the pool has two static effects of one
    # layer whose order matters.
    card = {"name": "Test Wind and Silence", "mana_cost": "{1}", "type_line": "Enchantment", "supertypes": [],
            "types": ["Enchantment"], "subtypes": [], "layout": "normal", "keywords": [],
            "oracle_text": "Creatures you control have flying. Other creatures lose all abilities.",
            "abilities": [{"kind": "static", "effect": {"type": "grant_keywords", "keywords": ["flying"],
                                                        "affected": {"all": {"types": ["Creature"], "controller": "you"}}}},
                          {"kind": "static", "effect": {"type": "lose_all_abilities",
                                                        "affected": {"all": {"types": ["Creature"], "other": True}}}}]}
    game = _game({"battlefield": _cards(("wind", "Test Wind and Silence"), ("bears", "Grizzly Bears"))},
                 extra={"Test Wind and Silence": card})
    assert not ch.has_keyword(game, game.find("bears"), "flying")
    swapped = {**card, "name": "Test Silence and Wind", "abilities": list(reversed(card["abilities"]))}
    game = _game({"battlefield": _cards(("wind", "Test Silence and Wind"), ("bears", "Grizzly Bears"))},
                 extra={"Test Silence and Wind": swapped})
    assert ch.has_keyword(game, game.find("bears"), "flying")


def test_last_known_information_of_a_permanent_keeps_its_own_counters():
    # engine/layers/system.py _of_extra `live == obj` -> `!=` (seed 5): the characteristics of
    # an object whose zone is the battlefield but that the battlefield doesn't hold (a copy
    # taken as last known information, CR 113.7a) are worked out from that object: the live
    # permanent's record stands for it only when the two are equal. In the suite every such
    # copy that differs from the live permanent has the same characteristics, so no fixture
    # tells.
    game = _game({"battlefield": _cards(("bears", "Grizzly Bears"))})
    bears = game.find("bears")
    same = bears.copy()
    assert same == bears and game.layers.of(same) == game.layers.of(bears)
    lki = bears.copy()  # taken while it had a +1/+1 counter that it has since lost
    lki.counters["+1/+1"] = 1
    assert lki != bears
    assert ch.power_toughness(game, lki) == (3, 3)
    assert ch.power_toughness(game, bears) == (2, 2)
