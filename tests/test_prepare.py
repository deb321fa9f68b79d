"""Prepare (engine/prepare.py, FORMAT §11.9): the legal-move generator offers a prepared
permanent's copy to its current controller only (rulings strixhaven.prepare.05, .10), and
every offer is accepted for real; a rejected cast of the copy changes nothing."""

from __future__ import annotations

from test_selfplay import position

from mtg_judge.engine import legal, load_card_db, run_scenario

DB = load_card_db()


def _setup(controller="alice"):
    return {"seed": 1, "turn": 3, "active_player": "alice", "step": "precombat_main", "players": [
        {"id": "alice", "library": [{"alias": f"al{i}", "card": "Island"} for i in range(5)],
         "battlefield": [{"alias": "m1", "card": "Mountain"},
                         {"alias": "emc", "card": "Emeritus of Conflict", "prepared": True, "controller": controller}]},
        {"id": "bob", "library": [{"alias": f"bl{i}", "card": "Island"} for i in range(5)],
         "battlefield": [{"alias": "m2", "card": "Mountain"}]}]}


def _actions(setup, script=()):
    """The game and the legal actions at the decision after ``script``."""
    game, decision = position(setup, script)
    return game, legal.legal_actions(game, decision)


def test_the_controller_is_offered_the_copy_and_each_offer_is_accepted():
    game, actions = _actions(_setup())
    casts = [a for a in actions if a.get("card") == "prepared#1"]
    assert casts and all(a["player"] == "alice" for a in casts)
    assert sorted(t for a in casts for t in a["targets"]) == ["alice", "bob", "emc"]
    for inp in casts:
        result = run_scenario({"setup": _setup(), "script": [inp]}, "modern", DB)
        assert not [e for e in result["events"] if e["type"] in ("action_rejected", "script_error")]
        assert any(e["type"] == "unprepared" and e["card"] == "emc" for e in result["events"])


def test_a_player_who_doesnt_control_the_permanent_is_not_offered_the_copy():
    # bob controls the Emeritus: alice (active, with priority) isn't offered the copy
    game, actions = _actions(_setup(controller="bob"))
    assert not [a for a in actions if a.get("card") == "prepared#1"]


def test_a_rejected_cast_of_the_copy_changes_nothing():
    inp = {"action": "cast", "player": "alice", "card": "prepared#1", "targets": ["bob"], "alternative": "flashback"}
    result = run_scenario({"setup": _setup(), "script": [inp]}, "modern", DB)
    assert [e["code"] for e in result["events"] if e["type"] == "action_rejected"] == ["invalid_alternative"]
    assert result["state"]["battlefield"]["emc"]["prepared"] is True
    assert result["state"]["players"]["alice"]["exile"] == ["prepared#1"]
