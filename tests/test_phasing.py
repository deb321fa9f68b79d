"""Phasing (CR 702.26; engine/phasing.py, FORMAT §13.5) beyond the fixtures: a phased-out
permanent can't be targeted nor have its abilities activated, is listed in the state's
``phased_out`` and phases in at its controller's next untap step only; echo doesn't trigger
for it today (CR 702.26d: no change of zone or control), only under the 2006 rules."""

from __future__ import annotations

from test_selfplay import position

from mtg_judge.engine import legal
from mtg_judge.engine.state import snapshot


def _setup(turn=3, active="alice", creature="Fledgling Mawcor"):
    return {"seed": 1, "turn": turn, "active_player": active, "step": "precombat_main", "players": [
        {"id": "alice", "library": [{"alias": f"al{i}", "card": "Island"} for i in range(8)],
         "hand": [{"alias": "bolt", "card": "Lightning Bolt"}],
         "battlefield": [{"alias": "crit", "card": creature}, {"alias": "van", "card": "Vanishing", "attached_to": "crit"}]
         + [{"alias": f"i{i}", "card": "Island"} for i in range(1, 4)] + [{"alias": "m1", "card": "Mountain"}]},
        {"id": "bob", "library": [{"alias": f"bl{i}", "card": "Island"} for i in range(8)]}]}


PHASE_OUT = [{"action": "activate", "player": "alice", "source": "van", "ability": 0, "pay_with": ["i1", "i2"]},
             {"action": "resolve"}]


def test_a_phased_out_permanent_is_treated_as_though_it_does_not_exist():
    game, decision = position(_setup(), PHASE_OUT)
    state = snapshot(game)
    assert "crit" not in state["battlefield"] and "van" not in state["battlefield"]
    assert state["players"]["alice"]["phased_out"] == ["crit", "van"]
    assert legal.accepts(game, decision, {"action": "activate", "player": "alice", "source": "crit", "ability": 0,
                                          "targets": ["bob"]}) == (False, "not_on_battlefield")
    assert legal.accepts(game, decision, {"action": "cast", "player": "alice", "card": "bolt", "targets": ["crit"],
                                          "pay_with": ["m1"]}) == (False, "invalid_target")


def test_it_phases_in_at_its_controller_s_next_untap_step_only():
    game, _ = position(_setup(), PHASE_OUT + [{"action": "advance", "to": "upkeep", "turn": 4}])
    assert snapshot(game)["players"]["alice"]["phased_out"] == ["crit", "van"]  # bob's turn: still out
    game, _ = position(_setup(), PHASE_OUT + [{"action": "advance", "to": "upkeep", "turn": 5}])
    state = snapshot(game)
    assert "phased_out" not in state["players"]["alice"]
    assert state["battlefield"]["crit"]["object"] == "crit" and state["battlefield"]["van"]["attached_to"] == "crit"


def test_echo_does_not_trigger_for_a_permanent_that_phased_in_today_but_did_in_2006():
    script = PHASE_OUT + [{"action": "advance", "to": "upkeep", "turn": 5}]
    modern, _ = position(_setup(creature="Basalt Gargoyle"), script)
    assert snapshot(modern)["stack"] == []
    old, _ = position(_setup(creature="Basalt Gargoyle"), script, ruleset="timespiral-2006")
    assert [it["source"] for it in snapshot(old)["stack"]] == ["crit"]


def _drake_setup(with_aura: bool = False):
    battlefield = [{"alias": "drake", "card": "Teferi's Drake"}]
    if with_aura:
        battlefield.append({"alias": "rage", "card": "Vanishing", "attached_to": "drake"})
    return {"seed": 1, "turn": 2, "active_player": "bob", "step": "precombat_main", "players": [
        {"id": "alice", "library": [{"alias": f"al{i}", "card": "Island"} for i in range(8)], "battlefield": battlefield},
        {"id": "bob", "library": [{"alias": f"bl{i}", "card": "Island"} for i in range(8)]}]}


def test_the_phasing_keyword_phases_out_and_in_on_alternate_untap_steps():
    """Teferi's Drake (CR 702.26a, 502.1): in Alice's untap step it phases out (with the Aura
    on it, indirectly, CR 702.26g); in her next one it phases in and, taken before, is not
    phased out again at once; it phases out again the untap step after. Bob's untap steps do
    nothing to it."""
    game, _ = position(_drake_setup(with_aura=True), [{"action": "advance", "to": "upkeep", "turn": 3}])
    assert snapshot(game)["players"]["alice"]["phased_out"] == ["drake", "rage"]
    outs = [e for e in game.events if e["type"] == "phased_out"]
    assert [(e["object"], e.get("indirectly", False)) for e in outs] == [("drake", False), ("rage", True)]
    game, _ = position(_drake_setup(), [{"action": "advance", "to": "upkeep", "turn": 4}])
    assert snapshot(game)["players"]["alice"]["phased_out"] == ["drake"]  # bob's turn: still out
    game, _ = position(_drake_setup(), [{"action": "advance", "to": "upkeep", "turn": 5}])
    state = snapshot(game)
    assert "phased_out" not in state["players"]["alice"] and "drake" in state["battlefield"]
    game, _ = position(_drake_setup(), [{"action": "advance", "to": "upkeep", "turn": 7}])
    assert snapshot(game)["players"]["alice"]["phased_out"] == ["drake"]
