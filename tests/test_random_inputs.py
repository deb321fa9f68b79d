"""FORMAT §7: a ``random`` script input is consumed by the next random outcome of the input
processed right before it. ``resolve`` and ``advance`` are one input each (FORMAT §3.2: they
expand into passes and empty declarations), so a ``random`` input right after a ``resolve``
fixes the random outcome of that resolution, exactly as it does after the explicit passes the
macro stands for; a ``random`` input where nothing random happens next is still rejected
(``wrong_decision``, ``player`` null)."""

import json
from pathlib import Path

import pytest

from mtg_judge.engine.scenario import run_scenario

HYMN = Path(__file__).parent.parent / "fixtures" / "classic" / "zones" / "random-discard-is-not-chosen.json"
CAST = {"action": "cast", "player": "alice", "card": "hymn", "targets": ["bob"], "pay_with": ["s1", "s2"]}
RANDOM = [{"action": "random", "outcome": "b_forest"}, {"action": "random", "outcome": "b_bolt"}]


def _hymn(script: list) -> dict:
    scenario = json.loads(HYMN.read_text(encoding="utf-8"))
    scenario["script"] = script
    scenario.pop("expect", None)
    return scenario


def _random_outcomes(result: dict) -> list:
    return [(e["result"], e["scripted"]) for e in result["events"] if e["type"] == "random_outcome"]


def _rejections(result: dict) -> list:
    return [(e["at"], e["action"], e["code"]) for e in result["events"] if e["type"] == "action_rejected"]


@pytest.mark.parametrize("ruleset", ["modern", "classic-1999"])
def test_random_after_resolve_fixes_the_resolution_s_random_discards(ruleset):
    by_macro = run_scenario(_hymn([CAST, {"action": "resolve"}, *RANDOM]), ruleset)
    assert _rejections(by_macro) == []
    assert _random_outcomes(by_macro) == [("b_forest", True), ("b_bolt", True)]
    assert by_macro["state"]["players"]["bob"]["hand"] == ["b_bears"]
    # the same game as with the passes the macro stands for
    by_passes = run_scenario(_hymn([CAST, {"action": "pass", "player": "alice"},
                                    {"action": "pass", "player": "bob"}, *RANDOM]), ruleset)
    strip = [{k: v for k, v in e.items() if k != "at"} for e in by_passes["events"]]
    assert [{k: v for k, v in e.items() if k != "at"} for e in by_macro["events"]] == strip
    assert by_macro["state"] == by_passes["state"]


def test_one_random_after_resolve_fixes_the_first_outcome_only():
    result = run_scenario(_hymn([CAST, {"action": "resolve"}, RANDOM[1]]), "modern")
    assert _rejections(result) == []
    outcomes = _random_outcomes(result)
    assert outcomes[0] == ("b_bolt", True) and len(outcomes) == 2 and outcomes[1][1] is False


def test_random_after_a_resolve_with_nothing_random_is_rejected():
    # the cast itself is not random: a random input right after it answers no decision
    result = run_scenario(_hymn([CAST, RANDOM[0], {"action": "resolve"}]), "modern")
    assert _rejections(result) == [(1, "random", "wrong_decision")]
    rejected = next(e for e in result["events"] if e["type"] == "action_rejected")
    assert rejected["player"] is None
    # a resolve that resolves nothing random (Hymn already resolved): rejected too
    result = run_scenario(_hymn([CAST, {"action": "resolve"}, *RANDOM, {"action": "resolve"}, RANDOM[0]]),
                          "modern")
    assert _rejections(result) == [(5, "random", "wrong_decision")]
