"""Bonecrusher Giant // Stomp: a "becomes the target of a spell" trigger (CR 603.2, 115.1;
trigger ``becomes_target`` with ``targeted_by``) and "Damage can't be prevented this turn"
(CR 615.12; effect ``damage_cant_be_prevented``, engine/unpreventable.py)."""

from __future__ import annotations

from mtg_judge.engine import run_scenario


def _lib(p):
    return [{"alias": f"{p}_lib{i}", "card": "Island"} for i in range(5)]


def _run(alice_bf, bob_bf, script, alice_hand=(), bob_hand=()):
    setup = {"seed": 1, "turn": 3, "active_player": "alice", "step": "precombat_main", "players": [
        {"id": "alice", "library": _lib("a"), "hand": [{"alias": a, "card": c} for a, c in alice_hand],
         "battlefield": [{"alias": a, "card": c} for a, c in alice_bf]},
        {"id": "bob", "library": _lib("b"), "hand": [{"alias": a, "card": c} for a, c in bob_hand],
         "battlefield": [{"alias": a, "card": c} for a, c in bob_bf]}]}
    return run_scenario({"setup": setup, "script": script})


def _events(result, type_):
    return [e for e in result["events"] if e["type"] == type_]


PASS = [{"action": "pass", "player": "alice"}, {"action": "pass", "player": "bob"}]


def test_a_spell_targeting_it_makes_the_giant_deal_2_damage_to_that_spells_controller():
    """CR 603.2: it triggers as the spell is cast (before the spell resolves), and "that
    spell's controller" is whoever cast it: bob's Lightning Bolt costs bob 2 life."""
    result = _run([("giant", "Bonecrusher Giant")], [("m1", "Mountain")],
                  [{"action": "pass", "player": "alice"},
                   {"action": "cast", "player": "bob", "card": "bolt", "targets": ["giant"], "pay_with": ["m1"]}]
                  + [{"action": "resolve"}] * 2,
                  bob_hand=[("bolt", "Lightning Bolt")])
    triggered = _events(result, "ability_triggered")
    assert [(t["source_card"], t["trigger"]) for t in triggered] == [("giant", "becomes_target")]
    damage = _events(result, "damage_dealt")
    assert [(d["source_card"], d["target"], d["amount"]) for d in damage] == [("giant", "bob", 2), ("bolt", "giant", 3)]
    assert result["state"]["players"]["bob"]["life"] == 18
    assert "giant" in result["state"]["players"]["alice"]["graveyard"]


def test_its_controllers_own_spell_costs_its_controller_2_life():
    result = _run([("giant", "Bonecrusher Giant"), ("f1", "Forest")], [],
                  [{"action": "cast", "player": "alice", "card": "growth", "targets": ["giant"], "pay_with": ["f1"]}]
                  + PASS * 2, alice_hand=[("growth", "Giant Growth")])
    assert result["state"]["players"]["alice"]["life"] == 18
    assert result["state"]["battlefield"]["giant"]["power"] == 7


def test_an_ability_targeting_it_does_not_trigger_it():
    """"Becomes the target of a spell": an activated ability is no spell."""
    result = _run([("giant", "Bonecrusher Giant")], [("sorc", "Prodigal Sorcerer")],
                  [{"action": "pass", "player": "alice"},
                   {"action": "activate", "player": "bob", "source": "sorc", "ability": 0, "targets": ["giant"]}]
                  + [{"action": "pass", "player": "bob"}, {"action": "pass", "player": "alice"}])
    assert _events(result, "ability_triggered") == []
    assert result["state"]["players"]["bob"]["life"] == 20
    assert result["state"]["battlefield"]["giant"]["damage"] == 1


def _salve_then(spell_script, alice_hand):
    """Bob's Healing Salve puts a 3-damage shield on his Grizzly Bears, then alice acts."""
    return _run([("m1", "Mountain"), ("m2", "Mountain"), ("m3", "Mountain")],
                [("p1", "Plains"), ("bears", "Grizzly Bears")],
                [{"action": "pass", "player": "alice"},
                 {"action": "cast", "player": "bob", "card": "salve", "modes": [1], "targets": ["bears"],
                  "pay_with": ["p1"]},
                 {"action": "pass", "player": "bob"}, {"action": "pass", "player": "alice"}] + spell_script,
                alice_hand=alice_hand, bob_hand=[("salve", "Healing Salve")])


def test_after_stomp_a_prevention_shield_prevents_nothing():
    """CR 615.12: after "Damage can't be prevented this turn" the shield prevents nothing:
    Stomp's 2 damage is dealt to the Bears its 3-damage shield protects (they die) and no
    damage_prevented is logged."""
    result = _salve_then([{"action": "cast", "player": "alice", "card": "giant", "face": "adventure",
                           "targets": ["bears"], "pay_with": ["m1", "m2"]}] + PASS,
                         [("giant", "Bonecrusher Giant")])
    assert _events(result, "damage_prevented") == []
    assert [(d["target"], d["amount"]) for d in _events(result, "damage_dealt")] == [("bears", 2)]
    assert "bears" in result["state"]["players"]["bob"]["graveyard"]


def test_without_stomp_the_shield_prevents_the_damage():
    """The control case: Shock (no "can't be prevented") at the shielded Bears is prevented."""
    result = _salve_then([{"action": "cast", "player": "alice", "card": "shock", "targets": ["bears"],
                           "pay_with": ["m1"]}] + PASS, [("shock", "Shock")])
    assert [(d["target"], d["amount"]) for d in _events(result, "damage_prevented")] == [("bears", 2)]
    assert "bears" in result["state"]["battlefield"]
