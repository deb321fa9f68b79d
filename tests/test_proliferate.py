"""engine/proliferate.py: proliferate (CR 701.34a: one more counter of *each* kind already
there, on any number of chosen permanents), which no ruling of the seed documents covers.
Played through ``run_scenario`` with Steady Progress ("Proliferate. Draw a card.")."""

import pytest

from mtg_judge.engine import legal
from mtg_judge.engine.scenario import run_scenario


def _lib(prefix, n=5):
    return [{"alias": f"{prefix}{i}", "card": "Island"} for i in range(n)]


def _scenario(script, alice_bf=(), bob_bf=()):
    return {"setup": {"turn": 3, "active_player": "alice", "step": "precombat_main",
                      "players": [{"id": "alice", "library": _lib("al"), "mana_pool": {"U": 3},
                                   "hand": [{"alias": "sp", "card": "Steady Progress"}],
                                   "battlefield": list(alice_bf)},
                                  {"id": "bob", "library": _lib("bl"), "battlefield": list(bob_bf)}]},
            "script": script}


CAST = [{"action": "cast", "player": "alice", "card": "sp"}, {"action": "resolve"}]
PERMANENTS = ([{"alias": "bear", "card": "Grizzly Bears", "counters": {"+1/+1": 1, "time": 2}},
               {"alias": "garruk", "card": "Garruk Wildspeaker"}, {"alias": "forest", "card": "Forest"}],
              [{"alias": "rival", "card": "Hill Giant", "counters": {"-1/-1": 1}}])


def _run(choice):
    return run_scenario(_scenario(CAST + [{"action": "choose", "player": "alice", "choice": choice}], *PERMANENTS))


def test_each_chosen_permanent_gets_one_more_counter_of_each_kind():
    r = _run(["bear", "garruk"])
    bf = r["state"]["battlefield"]
    assert bf["bear"]["counters"] == {"+1/+1": 2, "time": 3}  # each kind, not one (the rule since 2023)
    assert bf["garruk"]["counters"] == {"loyalty": 4}
    assert bf["rival"]["counters"] == {"-1/-1": 1}  # not chosen
    added = [(e["card"], e["counter"], e["count"]) for e in r["events"] if e["type"] == "counters_added"]
    assert added == [("bear", "+1/+1", 1), ("bear", "time", 1), ("garruk", "loyalty", 1)]
    assert [e["type"] for e in r["events"]].index("card_drawn") > [e["type"] for e in r["events"]].index(
        "counters_added")  # proliferate, then draw


def test_the_choice_is_asked_with_the_permanents_that_have_counters():
    """The decision offers the permanents with counters (battlefield order); legal.py offers
    all of them, none, or each alone."""
    from mtg_judge.engine.scenario import _card_db, build_game
    seen = []

    class Answers:
        def next(self, game, decision):
            seen.append((decision, [c["choice"] for c in legal.legal_actions(game, decision)]))
            return {"action": "choose", "player": "alice", "choice": []}
    game = build_game(_scenario([], *PERMANENTS), "modern", _card_db(None), Answers())
    game.cast("alice", {"card": "sp"})
    game.resolve_top()
    decision, offered = seen[-1]
    assert decision["reason"] == "proliferate" and decision["options"] == ["bear", "garruk", "rival"]
    assert offered[:2] == [["bear", "garruk", "rival"], []] and ["rival"] in offered


def test_none_may_be_chosen_and_an_opponents_permanent_may():
    r = _run([])
    assert [e for e in r["events"] if e["type"] == "counters_added"] == []
    r = _run("rival")  # one reference stands for a one-element list
    assert r["state"]["battlefield"]["rival"]["counters"] == {"-1/-1": 2}


@pytest.mark.parametrize("bad", [["forest"], ["bear", "bear"], ["nobody"], "yes"])
def test_only_permanents_with_counters_each_once(bad):
    r = run_scenario(_scenario(CAST + [{"action": "choose", "player": "alice", "choice": bad},
                                       {"action": "choose", "player": "alice", "choice": []}], *PERMANENTS))
    assert [e["code"] for e in r["events"] if e["type"] == "action_rejected"] == ["invalid_choice"]


def test_not_asked_when_nothing_has_counters():
    r = run_scenario(_scenario(CAST, [{"alias": "forest", "card": "Forest"}]))
    assert [e["type"] for e in r["events"] if e["type"] in ("card_drawn", "action_rejected", "script_error")] == [
        "card_drawn"]
