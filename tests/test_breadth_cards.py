"""Real cards made fully expressible for the breadth bar (issue 23 item 4), where no seed
unit's fixture applies: each test plays the card's own data (fixtures/cards/) and checks
what the Comprehensive Rules rule it cites demands. Fixtures cover the parts a seed unit
speaks about (finalfantasy.transform.02: Galian Beast returns front face up)."""

from __future__ import annotations

import json
from typing import Any

import test_vocabulary_effects as shapes  # tests/ is on sys.path: the shape walk's builders

from mtg_judge.engine import run_scenario


def _play(alice: dict, bob: dict, script: list[dict], inline: list[dict] = (), **kw: Any) -> dict:
    scenario, ruleset = shapes._game(alice, bob, script, list(inline), **kw)
    return run_scenario(json.loads(json.dumps(scenario)), ruleset, cards=scenario["cards"])


def _events(result: dict, etype: str) -> list[dict]:
    return [e for e in result["events"] if e["type"] == etype]


def _clean(result: dict) -> None:
    bad = [e for e in result["events"] if e["type"] in ("action_rejected", "script_error")]
    assert not bad, bad


# ------------------------------------------------------------------ Vincent Valentine
def _bolt(target: str, *, transformed: bool = False, bob_bears: str = "Grizzly Bears",
          counters: dict[str, int] | None = None) -> dict:
    bears: dict[str, Any] = {"alias": "bears", "card": bob_bears}
    if counters:
        bears["counters"] = counters
    return _play({"hand": ["bolt=Lightning Bolt"], "mana_pool": {"R": 1},
                  "battlefield": [{"alias": "vincent", "card": "Vincent Valentine", "transformed": transformed},
                                  "mine=Grizzly Bears"]},
                 {"battlefield": [bears]},
                 [{"action": "cast", "player": "alice", "card": "bolt", "targets": [target]},
                  {"action": "resolve"}, {"action": "resolve"}])


def test_vincent_gets_counters_equal_to_the_dead_creatures_last_known_power() -> None:
    """"Whenever a creature an opponent controls dies, put a number of +1/+1 counters on
    Vincent Valentine equal to that creature's power": the creature is in the graveyard as
    the ability resolves, so its power is its last known information (CR 608.2h, 603.10a):
    Bob's Grizzly Bears with a +1/+1 counter died as a 3/3 (the card in the graveyard is a
    2/2): three counters, Vincent is a 5/5."""
    result = _bolt("bears", counters={"+1/+1": 1})
    _clean(result)
    assert [(e["object"], e["counter"], e["count"]) for e in _events(result, "counters_added")] == [
        ("vincent", "+1/+1", 3)]
    v = result["state"]["battlefield"]["vincent"]
    assert (v["power"], v["toughness"]) == (5, 5)


def test_vincent_ignores_a_creature_its_controller_controls() -> None:
    """"A creature an opponent controls": Alice's own Grizzly Bears dying triggers nothing
    (CR 603.10a: the trigger condition is checked as the creature last existed, under Alice)."""
    result = _bolt("mine")
    _clean(result)
    assert _events(result, "ability_triggered") == []
    assert result["state"]["battlefield"]["vincent"]["counters"] == {}


def test_galian_beast_has_only_the_back_faces_abilities() -> None:
    """CR 712.8e (finalfantasy.transform.03): with its back face up it has only the back
    face's abilities, so Bob's creature dying gives Galian Beast no counters."""
    result = _bolt("bears", transformed=True)
    _clean(result)
    assert _events(result, "counters_added") == []
