"""Hexproof (CR 702.11b) and indestructible (CR 702.12b), the keywords Restoration Magic
grants (tiered, docs/FORMAT.md §11.1)."""

from mtg_judge.engine.scenario import run_scenario


def _run(script, alice_extra=None, bob_extra=None):
    return run_scenario({"setup": {"players": [
        {"id": "alice", "hand": [{"alias": "resto", "card": "Restoration Magic"},
                                 {"alias": "bolt", "card": "Lightning Bolt"}],
         "battlefield": [{"alias": "bears", "card": "Grizzly Bears"}],
         "mana_pool": {"W": 1, "R": 1}, **(alice_extra or {})},
        {"id": "bob", "hand": [{"alias": "bbolt", "card": "Lightning Bolt"}], "mana_pool": {"R": 1},
         **(bob_extra or {})}]},
        "script": script}, ruleset="modern")


def test_indestructible_survives_lethal_damage_and_hexproof_lets_its_controller_target_it():
    out = _run([{"action": "cast", "player": "alice", "card": "resto", "modes": [0], "targets": ["bears"]},
                {"action": "resolve"},
                {"action": "cast", "player": "alice", "card": "bolt", "targets": ["bears"]},
                {"action": "resolve"}])
    assert not any(e["type"] == "action_rejected" for e in out["events"])
    bears = out["state"]["battlefield"]["bears"]
    assert bears["damage"] == 3 and bears["keywords"] == ["hexproof", "indestructible"]
    assert not any(e["type"] in ("destroyed", "state_based_action") for e in out["events"])


def test_hexproof_stops_an_opponents_spell():
    out = _run([{"action": "cast", "player": "alice", "card": "resto", "modes": [0], "targets": ["bears"]},
                {"action": "resolve"},
                {"action": "pass", "player": "alice"},
                {"action": "cast", "player": "bob", "card": "bbolt", "targets": ["bears"]}])
    rejected = [e for e in out["events"] if e["type"] == "action_rejected"]
    assert [(e["at"], e["code"]) for e in rejected] == [(3, "invalid_target")]
