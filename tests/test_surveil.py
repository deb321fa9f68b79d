"""Surveil (CR 701.25a; effect ``surveil``, engine/surveil.py, FORMAT §5): the player looks at
the top N cards of their library, puts any number into their graveyard (``choose`` reason
``surveil``) and the rest back on top in any order (reason ``surveil_order``). Garland,
Knight of Cornelia: "Whenever you cast a noncreature spell, surveil 1"."""

from __future__ import annotations

import json
from pathlib import Path

from test_selfplay import applied, position

from mtg_judge.conformance.lint import card_slug
from mtg_judge.engine import legal, run_scenario

ROOT = Path(__file__).resolve().parent.parent
WORD = {"name": "Test Surveil Word", "mana_cost": "{U}", "type_line": "Sorcery", "supertypes": [],
        "types": ["Sorcery"], "subtypes": [], "oracle_text": "Surveil 2.", "layout": "normal", "keywords": [],
        "abilities": [], "spell": {"effects": [{"type": "surveil", "player": "controller", "count": 2}]}}


def _card(name):
    return json.loads((ROOT / "fixtures" / "cards" / f"{card_slug(name)}.json").read_text())


def _setup(hand, battlefield, library=("Island", "Forest", "Swamp")):
    return {"seed": 1, "turn": 3, "active_player": "alice", "step": "precombat_main", "players": [
        {"id": "alice", "library": [{"alias": f"l{i}", "card": c} for i, c in enumerate(library, 1)],
         "hand": [{"alias": a, "card": c} for a, c in hand],
         "battlefield": [{"alias": a, "card": c} for a, c in battlefield]},
        {"id": "bob", "library": [{"alias": f"bl{i}", "card": "Island"} for i in range(5)]}]}


def _run(setup, script, extra=()):
    names = {e["card"] for p in setup["players"] for z in ("library", "hand", "battlefield") for e in p.get(z, [])}
    cards = {n: _card(n) for n in names if n != WORD["name"]}
    cards.update({c["name"]: c for c in extra})
    return run_scenario({"setup": setup, "script": script, "cards": cards}, "modern", cards)


GARLAND = [("garland", "Garland, Knight of Cornelia"), ("m1", "Mountain"), ("f1", "Forest"), ("f2", "Forest")]
SHOCK = [{"action": "cast", "player": "alice", "card": "shock", "targets": ["bob"], "pay_with": ["m1"]},
         {"action": "resolve"}]


def _choose(choice):
    return {"action": "choose", "player": "alice", "choice": choice}


def test_a_noncreature_spell_makes_garland_surveil_1_into_the_graveyard():
    result = _run(_setup([("shock", "Shock")], GARLAND), SHOCK + [_choose("l1"), {"action": "resolve"}])
    alice = result["state"]["players"]["alice"]
    assert alice["library"] == ["l2", "l3"] and alice["graveyard"] == ["l1", "shock"]
    surveilled = [e for e in result["events"] if e["type"] == "surveilled"]
    assert surveilled == [{"type": "surveilled", "player": "alice", "count": 1, "graveyard": ["l1"]}]
    assert any(e["type"] == "zone_changed" and e.get("card") == "l1" and e.get("cause") == "surveil"
               for e in result["events"])


def test_the_card_may_stay_on_top():
    result = _run(_setup([("shock", "Shock")], GARLAND), SHOCK + [_choose("none"), {"action": "resolve"}])
    assert result["state"]["players"]["alice"]["library"] == ["l1", "l2", "l3"]


def test_a_creature_spell_does_not_trigger_it():
    result = _run(_setup([("bears", "Grizzly Bears")], GARLAND),
                  [{"action": "cast", "player": "alice", "card": "bears", "pay_with": ["f1", "f2"]},
                   {"action": "resolve"}])
    assert not [e for e in result["events"] if e["type"] in ("ability_triggered", "surveilled")]


def _word(script):
    return _run(_setup([("word", "Test Surveil Word")], [("i1", "Island")]),
                [{"action": "cast", "player": "alice", "card": "word", "pay_with": ["i1"]},
                 {"action": "resolve"}] + script, [WORD])


def test_surveil_2_keeps_the_rest_on_top_in_the_order_chosen():
    result = _word([_choose("none"), _choose(["l2", "l1"])])
    assert result["state"]["players"]["alice"]["library"] == ["l2", "l1", "l3"]
    result = _word([_choose(["l2"])])  # one kept: no order to choose
    assert result["state"]["players"]["alice"]["library"] == ["l1", "l3"]
    assert result["state"]["players"]["alice"]["graveyard"] == ["l2", "word"]


def test_a_card_not_looked_at_or_named_twice_or_a_partial_order_is_invalid_choice():
    result = _word([_choose(["l3"]), _choose(["l1", "l1"]), _choose("none"), _choose(["l1"]),
                    _choose(["l1", "l2"])])
    codes = [(e["at"], e["code"]) for e in result["events"] if e["type"] == "action_rejected"]
    assert codes == [(2, "invalid_choice"), (3, "invalid_choice"), (5, "invalid_choice")]
    assert result["state"]["players"]["alice"]["library"] == ["l1", "l2", "l3"]


def test_legal_moves_offer_every_subset_and_every_order_and_each_is_accepted():
    setup = _setup([("shock", "Shock")], GARLAND)
    script = SHOCK
    game, decision = position(setup, script)
    assert decision["reason"] == "surveil" and decision["options"] == ["l1"]
    moves = legal.legal_actions(game, decision)
    assert [m["choice"] for m in moves] == ["none", ["l1"]]
    for inp in moves:
        assert applied(setup, script, inp), inp
