"""engine/endure_behold.py: endure (CR 701.63) and behold (CR 701.4) — the parts the fixtures
of fixtures/tarkir/endure and fixtures/tarkir/behold don't reach (endure 0, the legal-action
candidates, a spell beholding itself, a copy keeping what was beheld, a rejected behold
leaving nothing behind)."""

import pytest

from mtg_judge.engine import endure_behold, legal
from mtg_judge.engine.effects import Context, copy_spell
from mtg_judge.engine.errors import IllegalAction
from mtg_judge.engine.objects import StackItem
from mtg_judge.engine.scenario import ScriptInputs, _card_db, build_game


def _game(alice: dict, bob: dict | None = None, **setup):
    scenario = {"setup": {**setup, "players": [{"id": "alice", **alice}, {"id": "bob", **(bob or {})}]}}
    return build_game(scenario, "modern", dict(_card_db(None)), ScriptInputs([]))


def _cards(*pairs):
    return [{"alias": a, "card": c} for a, c in pairs]


def _ctx(game, source_ref):
    item = StackItem(ref="ability#9", kind="ability", controller="alice", ability={"effects": []},
                     source=source_ref, source_lki=game.find(source_ref).copy())
    return Context(game, item, [])


def test_endure_0_does_nothing_and_asks_nothing():
    game = _game({"battlefield": _cards(("kg", "Fortress Kin-Guard"))})
    n_events = len(game.events)
    endure_behold.endure(_ctx(game, "kg"), {"type": "endure", "what": "self", "n": 0})  # CR 701.63b
    assert game.events[n_events:] == [] and game.find("kg").counters == {}


def test_endure_decision_offers_counters_and_token():
    game = _game({"battlefield": _cards(("kg", "Fortress Kin-Guard"))})
    seen = {}

    class Answer:
        def next(self, g, decision):
            seen.update(decision)
            return {"action": "choose", "player": "alice", "choice": "token", "at": 0}

    game.inputs = Answer()
    endure_behold.endure(_ctx(game, "kg"), {"type": "endure", "what": "self", "n": 2})
    assert seen["reason"] == "endure" and seen["options"] == ["counters", "token"] and seen["n"] == 2
    assert [c.input["choice"] for c in legal.candidate_actions(game, seen)] == ["counters", "token"]
    token = game.find("token#1")
    assert (token.definition.power, token.definition.toughness, token.definition.colors) == (2, 2, ("white",))


def test_legal_casts_offer_each_behold_and_the_other_cost():
    game = _game({"hand": _cards(("ce", "Caustic Exhale"), ("dragon", "Shivan Dragon"),
                                 ("trainer", "Dragon Trainer")),
                  "battlefield": _cards(("s1", "Swamp"), ("s2", "Swamp"))},
                 {"battlefield": _cards(("bear", "Grizzly Bears"))})
    decision = {"kind": "priority", "player": "alice"}
    casts = [a for a in legal.legal_actions(game, decision) if a.get("action") == "cast" and a["card"] == "ce"]
    assert {a.get("behold") for a in casts} == {"dragon", None}  # never the Dragon Trainer
    assert all(len(a.get("pay_with", [])) == (1 if a.get("behold") else 2) for a in casts)


def test_a_spell_cant_behold_itself_and_a_rejected_behold_changes_nothing():
    game = _game({"hand": _cards(("ce", "Caustic Exhale")), "battlefield": _cards(("s1", "Swamp"))},
                 {"battlefield": _cards(("bear", "Grizzly Bears"))})
    before = game.state()
    with pytest.raises(IllegalAction) as err:
        with game.transaction():
            game.cast("alice", {"card": "ce", "targets": ["bear"], "behold": "ce", "pay_with": ["s1"]})
    assert err.value.code == "invalid_payment"
    assert game.state() == before
    with pytest.raises(IllegalAction) as err:
        game.cast("alice", {"card": "ce", "targets": ["bear"], "behold": "nobody"})
    assert err.value.code == "unknown_object"


def test_behold_on_a_card_without_a_behold_cost_is_rejected():
    game = _game({"hand": _cards(("bolt", "Lightning Bolt"), ("dragon", "Shivan Dragon")),
                  "mana_pool": {"R": 1}})
    with pytest.raises(IllegalAction) as err:
        game.cast("alice", {"card": "bolt", "targets": ["bob"], "behold": "dragon"})
    assert err.value.code == "invalid_alternative"


def test_a_copy_keeps_what_was_beheld():
    game = _game({"hand": _cards(("ce", "Caustic Exhale"), ("dragon", "Shivan Dragon")),
                  "battlefield": _cards(("s1", "Swamp"))},
                 {"battlefield": _cards(("bear", "Grizzly Bears"))})
    item = game.cast("alice", {"card": "ce", "targets": ["bear"], "behold": "dragon", "pay_with": ["s1"]})
    assert item.beheld["card"] == "dragon" and endure_behold.revealed_cards(game, "alice") == ["dragon"]
    copy = copy_spell(Context(game, item, [True]), item, new_targets=False)  # CR 707.10
    assert endure_behold.beheld_condition(copy, True)
