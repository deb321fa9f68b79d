"""The cost "exile N cards from your graveyard" (``{"exile_from_graveyard": n}``, CR 118.3,
601.2h; FORMAT §5): the input's ``exile`` names the cards. In ``pay_optional`` ("you may
exile eight cards from your graveyard. If you do, …", Emeritus of Ideation, CR 603.5,
608.2d) and in an activated ability's cost (CR 602.2b)."""

from __future__ import annotations

import json
from pathlib import Path

from test_selfplay import applied, position

from mtg_judge.engine import legal, run_scenario

ROOT = Path(__file__).resolve().parent.parent


def _emeritus(graveyard: int):
    setup = {"seed": 1, "turn": 3, "active_player": "alice", "step": "precombat_main", "players": [
        {"id": "alice", "library": [{"alias": f"al{i}", "card": "Island"} for i in range(5)],
         "graveyard": [{"alias": f"g{i}", "card": "Grizzly Bears"} for i in range(1, graveyard + 1)],
         "battlefield": [{"alias": "emeritus", "card": "Emeritus of Ideation"}]},
        {"id": "bob", "library": [{"alias": f"bl{i}", "card": "Island"} for i in range(5)]}]}
    script = [{"action": "advance", "to": "declare_attackers"},
              {"action": "declare_attackers", "player": "alice", "attackers": ["emeritus"]},
              {"action": "resolve"}]
    return setup, script


def test_the_optional_exile_is_offered_with_eight_cards_and_each_offer_is_accepted():
    setup, script = _emeritus(9)
    game, decision = position(setup, script)
    assert decision["reason"] == "pay_optional"
    actions = legal.legal_actions(game, decision)
    yes = [a for a in actions if a["choice"] == "yes"]
    assert [a["exile"] for a in yes] == [[f"g{i}" for i in range(1, 9)], [f"g{i}" for i in range(2, 10)]]
    assert [a["choice"] for a in actions if a not in yes] == ["no"]
    for inp in actions:
        assert applied(setup, script, inp), inp


def test_with_seven_cards_only_no_is_offered():
    setup, script = _emeritus(7)
    game, decision = position(setup, script)
    assert [a["choice"] for a in legal.legal_actions(game, decision)] == ["no"]
    seven = {"action": "choose", "player": "alice", "choice": "yes", "exile": [f"g{i}" for i in range(1, 8)]}
    assert not applied(setup, script, seven)


def _eater_scenario(exile):
    card = json.loads((ROOT / "fixtures" / "cards" / "grizzly-bears.json").read_text())
    eater = {"name": "Test Graveyard Eater", "mana_cost": "{1}", "type_line": "Artifact", "supertypes": [],
             "types": ["Artifact"], "subtypes": [], "oracle_text": "Exile two cards from your graveyard: You gain 2 life.",
             "layout": "normal", "keywords": [], "abilities": [
                 {"kind": "activated", "cost": {"exile_from_graveyard": 2},
                  "effects": [{"type": "gain_life", "player": "controller", "amount": 2}]}]}
    island = json.loads((ROOT / "fixtures" / "cards" / "island.json").read_text())
    setup = {"seed": 1, "turn": 3, "active_player": "alice", "step": "precombat_main", "players": [
        {"id": "alice", "library": [{"alias": f"al{i}", "card": "Island"} for i in range(5)],
         "graveyard": [{"alias": f"g{i}", "card": "Grizzly Bears"} for i in range(1, 4)],
         "battlefield": [{"alias": "eater", "card": "Test Graveyard Eater"}]},
        {"id": "bob", "library": [{"alias": f"bl{i}", "card": "Island"} for i in range(5)]}]}
    script = [{"action": "activate", "player": "alice", "source": "eater", "ability": 0, "exile": exile},
              {"action": "pass", "player": "alice"}, {"action": "pass", "player": "bob"}]
    cards = {c["name"]: c for c in (card, eater, island)}
    return run_scenario({"setup": setup, "script": script, "cards": cards}, "modern", cards)


def test_an_activated_ability_exiles_the_named_cards_as_its_cost():
    result = _eater_scenario(["g1", "g3"])
    alice = result["state"]["players"]["alice"]
    assert alice["graveyard"] == ["g2"] and alice["exile"] == ["g1", "g3"] and alice["life"] == 22
    moves = [e for e in result["events"] if e["type"] == "zone_changed" and e.get("to") == "exile"]
    assert [(e["card"], e["cause"]) for e in moves] == [("g1", "cost"), ("g3", "cost")]


def test_naming_too_few_or_the_same_card_twice_cannot_pay():
    for exile in (["g1"], ["g1", "g1"], ["g1", "eater"]):
        result = _eater_scenario(exile)
        assert any(e["type"] == "action_rejected" and e["code"] == "cannot_pay" for e in result["events"]), exile
        assert result["state"]["players"]["alice"]["life"] == 20
