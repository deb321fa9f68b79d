"""engine/harmonize.py and engine/graveyard_abilities.py: harmonize (CR 702.180a) and renew
abilities that work from the graveyard (CR 113.6k, 602.2) — the parts the fixtures of
fixtures/tarkir/harmonize and fixtures/tarkir/renew don't reach (X in a harmonize cost, a
creature tapped for mana and for harmonize, the legal-action candidates)."""

import pytest

from mtg_judge.engine import harmonize, legal
from mtg_judge.engine.cards import CardDefinition
from mtg_judge.engine.errors import IllegalAction
from mtg_judge.engine.mana import ManaCost
from mtg_judge.engine.scenario import ScriptInputs, _card_db, build_game

#: a test card with X in its harmonize cost (like Nature's Rhythm, whose effect the card
#: vocabulary lacks): the reduction applies to X's value too (generic mana)
TEST_X = CardDefinition.from_dict({
    "name": "Test Harmonize X", "mana_cost": "{X}{G}{G}", "type_line": "Sorcery", "supertypes": [],
    "types": ["Sorcery"], "subtypes": [], "layout": "normal",
    "oracle_text": "You gain X life.\nHarmonize {X}{G}{G}{G}{G}",
    "keywords": [{"keyword": "harmonize", "cost": "{X}{G}{G}{G}{G}"}], "abilities": [],
    "spell": {"targets": [], "effects": [{"type": "gain_life", "player": "controller", "amount": "X"}]}})


def _game(alice: dict, bob: dict | None = None, **setup):
    cards = dict(_card_db(None))
    cards[TEST_X.name] = TEST_X
    scenario = {"setup": {**setup, "players": [{"id": "alice", **alice}, {"id": "bob", **(bob or {})}]}}
    return build_game(scenario, "modern", cards, ScriptInputs([]))


def _cards(*pairs):
    return [{"alias": a, "card": c} for a, c in pairs]


def test_the_reduction_takes_generic_mana_including_x_never_colored():
    game = _game({"battlefield": _cards(("giant", "Hill Giant"))})
    giant = game.find("giant")
    cost = ManaCost.parse("{X}{G}{G}{G}{G}")
    assert harmonize.reduced_cost(game, cost, 2, giant) == ManaCost.parse("{G}{G}{G}{G}")
    assert harmonize.reduced_cost(game, cost, 5, giant) == ManaCost.parse("{2}{G}{G}{G}{G}")
    assert harmonize.reduced_cost(game, cost, 5, None) == ManaCost.parse("{5}{G}{G}{G}{G}")


def test_x_harmonize_cast_pays_the_reduced_total_and_keeps_x():
    game = _game({"graveyard": _cards(("xcard", "Test Harmonize X")),
                  "battlefield": _cards(("giant", "Hill Giant")), "mana_pool": {"G": 4, "R": 1}})
    item = game.cast("alice", {"card": "xcard", "alternative": "harmonize", "harmonize_tap": "giant", "x": 4,
                               "mana": {"G": 4, "R": 1}})
    assert item.x == 4 and item.obj.exile_on_leaving_stack
    assert game.find("giant").tapped
    cast = [e for e in game.events if e["type"] == "spell_cast"][-1]
    assert cast["mana_paid"] == {"G": 4, "R": 1} and cast["alternative"] == "harmonize"


def test_a_creature_tapped_for_mana_cant_also_be_tapped_for_harmonize():
    game = _game({"graveyard": _cards(("ride", "Wild Ride")),
                  "battlefield": _cards(("elves", "Llanowar Elves"), ("m1", "Mountain"), ("m2", "Mountain"),
                                        ("m3", "Mountain"))})
    with pytest.raises(IllegalAction) as err, game.transaction():  # {4}{R} - 1 = {3}{R}: the Elves' {G} and three {R} pay it
        game.cast("alice", {"card": "ride", "alternative": "harmonize", "harmonize_tap": "elves",
                            "targets": ["elves"], "pay_with": ["elves", "m1", "m2", "m3"]})
    assert err.value.code == "already_tapped"
    assert not game.find("elves").tapped and game.find("ride").zone == "graveyard"


def test_harmonize_tap_needs_the_harmonize_alternative():
    game = _game({"hand": _cards(("ride", "Wild Ride")),
                  "battlefield": _cards(("giant", "Hill Giant"), ("m1", "Mountain"))})
    with pytest.raises(IllegalAction) as err:
        game.cast("alice", {"card": "ride", "harmonize_tap": "giant", "targets": ["giant"], "pay_with": ["m1"]})
    assert err.value.code == "invalid_alternative"
    with pytest.raises(IllegalAction) as err:
        game.cast("alice", {"card": "ride", "alternative": "harmonize", "targets": ["giant"], "pay_with": ["m1"]})
    assert err.value.code == "invalid_alternative"


def test_legal_actions_offer_harmonize_with_and_without_a_creature():
    game = _game({"graveyard": _cards(("ride", "Wild Ride")),
                  "battlefield": _cards(("giant", "Hill Giant"), ("m1", "Mountain"), ("m2", "Mountain"))})
    acts = legal.legal_actions(game, {"kind": "priority", "player": "alice"})
    casts = [a for a in acts if a["action"] == "cast" and a.get("alternative") == "harmonize"]
    assert casts and all("harmonize_tap" in a for a in casts)  # {4}{R} is too much for two Mountains
    assert {a["harmonize_tap"] for a in casts} == {"giant"}


def test_legal_actions_offer_renew_only_at_sorcery_timing_and_only_from_the_graveyard():
    alice = {"graveyard": _cards(("agent", "Agent of Kotis")),
             "battlefield": _cards(("agent_bf", "Agent of Kotis"), ("bears", "Grizzly Bears"))
             + _cards(*[(f"i{i}", "Island") for i in range(4)])}
    game = _game(alice)
    acts = [a for a in legal.legal_actions(game, {"kind": "priority", "player": "alice"})
            if a["action"] == "activate" and a.get("source", "").startswith("agent")]
    assert acts and {a["source"] for a in acts} == {"agent"}
    upkeep = _game(alice, step="upkeep")
    assert not [a for a in legal.legal_actions(upkeep, {"kind": "priority", "player": "alice"})
                if a["action"] == "activate" and a.get("source") == "agent"]


def test_the_reduction_keeps_hybrid_symbols(monkeypatch):
    """A harmonize cost with a hybrid symbol keeps it after the reduction: only generic mana
    is reduced (CR 702.180a, 107.4e)."""
    from mtg_judge.engine import harmonize
    from mtg_judge.engine.mana import ManaCost
    monkeypatch.setattr(harmonize.ch, "power_toughness", lambda game, obj: (3, 3))
    reduced = harmonize.reduced_cost(None, ManaCost.parse("{4}{R/G}"), 0, object())
    assert reduced == ManaCost.parse("{1}{R/G}")
