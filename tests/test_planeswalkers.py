"""engine/planeswalkers.py: planeswalkers (CR 306, 606, 120.3c, 704.5i, 506.3, 508.1b), the
parts no ruling of the seed documents covers (the seeds predate planeswalkers or mention
them only in passing: tarkir.mobilize.04, fixtures/tarkir/mobilize). Played through
``run_scenario`` like a fixture, with Garruk Wildspeaker (loyalty 3: +1 untap two target
lands; -1 a 3/3 Beast; -4 creatures you control get +3/+3 and trample)."""

import pytest

from mtg_judge.engine.errors import ScenarioError
from mtg_judge.engine.scenario import run_scenario


def _lib(prefix, n=5):
    return [{"alias": f"{prefix}{i}", "card": "Forest"} for i in range(n)]


def _scenario(script, alice_bf=(), bob_bf=(), hand=(), pool=None, step="precombat_main", **setup):
    alice = {"id": "alice", "library": _lib("al"), "hand": list(hand), "battlefield": list(alice_bf)}
    if pool:
        alice["mana_pool"] = pool
    return {"setup": {"turn": 3, "active_player": "alice", "step": step, **setup,
                      "players": [alice, {"id": "bob", "library": _lib("bl"), "battlefield": list(bob_bf)}]},
            "script": script}


def _events(result, type_):
    return [e for e in result["events"] if e["type"] == type_]


def _rejections(result):
    return [e["code"] for e in _events(result, "action_rejected")]


GARRUK = {"alias": "garruk", "card": "Garruk Wildspeaker"}


def test_a_cast_planeswalker_enters_with_its_printed_loyalty():
    r = run_scenario(_scenario([{"action": "cast", "player": "alice", "card": "garruk"}, {"action": "resolve"}],
                               hand=[GARRUK], pool={"G": 4}))
    entered = _events(r, "permanent_entered")[0]
    added = r["events"][r["events"].index(entered) + 1]  # CR 306.5b: right as it enters
    assert added == {"type": "counters_added", "object": "garruk#3", "card": "garruk", "counter": "loyalty",
                     "count": 3}
    assert r["state"]["battlefield"]["garruk"]["counters"] == {"loyalty": 3}
    assert "power" not in r["state"]["battlefield"]["garruk"]


def test_a_set_up_planeswalker_has_its_loyalty_unless_the_setup_says_otherwise():
    r = run_scenario(_scenario([], alice_bf=[GARRUK, {"alias": "g2", "card": "Garruk Wildspeaker",
                                                       "controller": "bob", "counters": {"loyalty": 1}}]))
    assert r["state"]["battlefield"]["garruk"]["counters"] == {"loyalty": 3}
    assert r["state"]["battlefield"]["g2"]["counters"] == {"loyalty": 1}


def test_loyalty_abilities_cost_counters_once_per_turn_at_sorcery_speed():
    script = [{"action": "activate", "player": "alice", "source": "garruk", "ability": 1},
              {"action": "resolve"},
              {"action": "activate", "player": "alice", "source": "garruk", "ability": 0,  # CR 606.3: once
               "targets": ["garruk", "garruk"]}]
    r = run_scenario(_scenario(script, alice_bf=[GARRUK]))
    assert _rejections(r) == ["loyalty_ability_used"]
    assert _events(r, "counters_removed")[0] == {"type": "counters_removed", "object": "garruk", "card": "garruk",
                                                 "counter": "loyalty", "count": 1}
    assert _events(r, "token_created")[0]["name"] == "Beast Token"  # CR 111.4 (current wording)
    assert r["state"]["battlefield"]["garruk"]["counters"] == {"loyalty": 2}


def test_a_plus_ability_puts_counters_and_targets():
    land = [{"alias": f"f{i}", "card": "Forest", "tapped": True} for i in range(2)]
    script = [{"action": "activate", "player": "alice", "source": "garruk", "ability": 0, "targets": ["f0", "f1"]},
              {"action": "resolve"}]
    r = run_scenario(_scenario(script, alice_bf=[GARRUK, *land]))
    assert r["state"]["battlefield"]["garruk"]["counters"] == {"loyalty": 4}
    assert not r["state"]["battlefield"]["f0"]["tapped"] and not r["state"]["battlefield"]["f1"]["tapped"]


def test_a_minus_cost_cant_remove_more_counters_than_there_are():
    script = [{"action": "activate", "player": "alice", "source": "garruk", "ability": 2}]
    r = run_scenario(_scenario(script, alice_bf=[GARRUK]))
    assert _rejections(r) == ["cannot_pay"]  # CR 606.6: -4 with 3 loyalty
    assert r["state"]["battlefield"]["garruk"]["counters"] == {"loyalty": 3}


def test_a_loyalty_ability_is_not_activated_at_instant_speed_nor_in_the_opponents_turn():
    script = [{"action": "activate", "player": "alice", "source": "garruk", "ability": 1}]
    r = run_scenario(_scenario(script, alice_bf=[GARRUK], step="upkeep"))
    assert _rejections(r) == ["sorcery_timing"]


def test_a_minus_to_zero_puts_it_into_the_graveyard_as_a_state_based_action():
    pw = dict(GARRUK, counters={"loyalty": 1})
    script = [{"action": "activate", "player": "alice", "source": "garruk", "ability": 1}]
    r = run_scenario(_scenario(script, alice_bf=[pw]))
    sba = _events(r, "state_based_action")
    assert sba and sba[0]["rule"] == "704.5i" and sba[0]["card"] == "garruk"
    assert r["state"]["players"]["alice"]["graveyard"] == ["garruk"]
    assert r["state"]["stack"][0]["source"] == "garruk"  # the ability resolves on its own (CR 113.7a)


def test_damage_to_a_planeswalker_removes_loyalty_counters():
    bolt = {"alias": "bolt", "card": "Lightning Bolt"}
    script = [{"action": "cast", "player": "alice", "card": "bolt", "targets": ["garruk"]}, {"action": "resolve"}]
    r = run_scenario(_scenario(script, hand=[bolt], pool={"R": 1},
                               bob_bf=[dict(GARRUK, counters={"loyalty": 4})]))
    dealt = _events(r, "damage_dealt")[0]
    assert dealt["target_card"] == "garruk" and dealt["amount"] == 3
    assert r["state"]["battlefield"]["garruk"]["counters"] == {"loyalty": 1}  # CR 120.3c
    assert r["state"]["battlefield"]["garruk"]["damage"] == 0


def _attack(target, blocks=(), counters=3):
    bear = {"alias": "bear", "card": "Grizzly Bears"}
    script = [{"action": "advance", "to": "declare_attackers"},
              {"action": "declare_attackers", "player": "alice", "attackers": [{"attacker": "bear", "target": target}]},
              {"action": "resolve"},
              {"action": "declare_blockers", "player": "bob", "blocks": list(blocks)},
              {"action": "advance", "to": "postcombat_main"}]
    return run_scenario(_scenario(script, alice_bf=[bear], bob_bf=[dict(GARRUK, counters={"loyalty": counters}),
                                                                {"alias": "wall", "card": "Grizzly Bears"}]))


def test_an_unblocked_creature_attacking_a_planeswalker_deals_it_combat_damage():
    r = _attack("garruk")
    declared = _events(r, "attackers_declared")[0]["attackers"]
    assert declared == [{"object": "bear", "card": "bear", "defender": "bob", "planeswalker": "garruk",
                         "planeswalker_card": "garruk"}]
    dealt = [e for e in _events(r, "damage_dealt") if e["combat"]]
    assert [(e["target"], e["amount"]) for e in dealt] == [("garruk", 2)]
    assert r["state"]["players"]["bob"]["life"] == 20
    assert r["state"]["battlefield"]["garruk"]["counters"] == {"loyalty": 1}


def test_combat_damage_to_zero_loyalty_and_the_state_shows_the_planeswalker_attacked():
    r = _attack("garruk", counters=2)
    assert [e["rule"] for e in _events(r, "state_based_action")] == ["704.5i"]
    assert "garruk" not in r["state"]["battlefield"]


def test_a_blocked_attacker_deals_no_damage_to_the_planeswalker():
    r = _attack("garruk", blocks=[{"blocker": "wall", "attacker": "bear"}])
    assert all(e.get("target") != "garruk" for e in _events(r, "damage_dealt"))
    assert r["state"]["battlefield"]["garruk"]["counters"] == {"loyalty": 3}


def test_the_attack_target_defaults_to_the_player_and_may_name_them():
    r = _attack("bob")
    assert _events(r, "attackers_declared")[0]["attackers"][0] == {"object": "bear", "card": "bear",
                                                                   "defender": "bob"}
    assert r["state"]["players"]["bob"]["life"] == 18


@pytest.mark.parametrize("target", ["alice", "wall", "nobody"])
def test_only_an_opponent_or_their_planeswalker_can_be_attacked(target):
    r = _attack(target)
    assert _rejections(r)[0] == "cannot_attack"


def test_the_legend_rule_applies_to_a_legendary_planeswalker():
    script = [{"action": "cast", "player": "alice", "card": "g2"}, {"action": "resolve"},
              {"action": "choose", "player": "alice", "choice": "garruk"}]
    r = run_scenario(_scenario(script, alice_bf=[GARRUK], hand=[{"alias": "g2", "card": "Garruk Wildspeaker"}],
                               pool={"G": 4}))
    assert [e["rule"] for e in _events(r, "state_based_action")] == ["704.5j"]
    assert r["state"]["players"]["alice"]["graveyard"] == ["g2"]


@pytest.mark.parametrize("ruleset", ["classic-1999", "timespiral-2006"])
def test_the_older_rulesets_have_no_planeswalkers(ruleset):
    r = run_scenario(_scenario([{"action": "cast", "player": "alice", "card": "garruk"}],
                               hand=[GARRUK], pool={"G": 4}), ruleset)
    assert _rejections(r) == ["not_in_ruleset"]
    with pytest.raises(ScenarioError, match="no planeswalkers"):
        run_scenario(_scenario([], alice_bf=[GARRUK]), ruleset)


def test_legal_actions_offer_attacking_the_planeswalker_and_loyalty_abilities():
    from test_selfplay import position

    from mtg_judge.engine import legal
    bf = [{"alias": "bear", "card": "Grizzly Bears"}, GARRUK]
    setup = _scenario([], alice_bf=bf, bob_bf=[dict(GARRUK, alias="bgarruk")])["setup"]
    game, decision = position(setup)
    assert decision["kind"] == "priority"
    abilities = [a for a in legal.legal_actions(game, decision)
                 if a.get("action") == "activate" and a.get("source") == "garruk"]
    assert sorted(a["ability"] for a in abilities) == [1]  # -1; +1 has no two lands to target, -4 too few counters
    game, decision = position(setup, [{"action": "advance", "to": "declare_attackers"}])
    attacks = legal.legal_actions(game, decision)
    assert {"action": "declare_attackers", "player": "alice",
            "attackers": [{"attacker": "bear", "target": "bgarruk"}]} in attacks
    assert not any(isinstance(a, dict) and a["target"] == "garruk" for d in attacks for a in d["attackers"])


def test_the_transcript_names_the_planeswalker_attacked():
    from mtg_judge.conformance import transcript
    fixture = {"setup": {"players": [{"id": "alice", "battlefield": [{"alias": "bear", "card": "Grizzly Bears"}]},
                                     {"id": "bob", "battlefield": [GARRUK]}]}}
    event = {"type": "attackers_declared", "player": "alice", "attackers": [
        {"object": "bear", "card": "bear", "defender": "bob", "planeswalker": "garruk", "planeswalker_card": "garruk"}]}
    line = transcript.describe_event(event, transcript._Namer(fixture), [])
    assert line == "alice attacks with Grizzly Bears (bear) → Garruk Wildspeaker (garruk) (bob)"
