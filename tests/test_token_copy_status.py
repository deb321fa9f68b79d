"""A token that becomes a copy of a permanent is still a token (CR 111.1, 707.2: whether an
object is a token is not a copiable value), so it still ceases to exist in another zone
(CR 704.5d). Found by the self-play conservation invariant (seed 522, classic-1999): a
Cytoshaped token was counted as a card (engine/copy_effects.py)."""

from __future__ import annotations

import json

import test_vocabulary_effects as shapes  # tests/ is on sys.path

from mtg_judge.engine import run_scenario


def test_a_token_that_becomes_a_copy_is_still_a_token() -> None:
    maker = shapes._test_card("Test Token Maker", ["Instant"], "Create a 1/1 Soldier token.", spell={
        "targets": [], "effects": [{"type": "create_token", "count": 1, "token": {
            "types": ["Creature"], "subtypes": ["Soldier"], "colors": ["white"], "power": 1, "toughness": 1}}]})
    scenario, ruleset = shapes._game(
        {"hand": ["m=Test Token Maker", "c=Cytoshape"], "battlefield": ["bears=Grizzly Bears"],
         "mana_pool": {"C": 2, "G": 1, "U": 1}}, {},
        [{"action": "cast", "player": "alice", "card": "m"}, {"action": "resolve"},
         {"action": "cast", "player": "alice", "card": "c", "targets": ["token#1"]}, {"action": "resolve"},
         {"action": "choose", "player": "alice", "choice": "bears"}], [maker])
    result = run_scenario(json.loads(json.dumps(scenario)), ruleset, cards=scenario["cards"])
    token = result["state"]["battlefield"]["token#1"]
    assert any(e["type"] == "became_copy" and e["object"] == "token#1" for e in result["events"])
    assert token["name"] == "Grizzly Bears" and token["token"] is True
