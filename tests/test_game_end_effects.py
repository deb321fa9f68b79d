"""engine/game_end.py: winning and losing the game by an effect (CR 104.2b, 104.3e), which no
ruling of the seed documents covers (classic.g-lose.01 and classic.object-of-game.01 name
only 0 life and drawing from an empty library: fixtures/classic/game-end). Played through
``run_scenario`` with Door to Nothingness ("target player loses the game") and Felidar
Sovereign ("at the beginning of your upkeep, if you have 40 or more life, you win")."""

import pytest

from mtg_judge.engine.scenario import run_scenario

DOOR_MANA = {"W": 2, "U": 2, "B": 2, "R": 2, "G": 2}


def _lib(prefix, n=5):
    return [{"alias": f"{prefix}{i}", "card": "Plains"} for i in range(n)]


def _scenario(script, alice=None, bob=None, step="precombat_main"):
    return {"setup": {"turn": 3, "active_player": "alice", "step": step,
                      "players": [{"id": "alice", "library": _lib("al"), **(alice or {})},
                                  {"id": "bob", "library": _lib("bl"), **(bob or {})}]},
            "script": script}


def _types(result):
    return [e["type"] for e in result["events"]]


@pytest.mark.parametrize("ruleset", ["modern", "timespiral-2006", "classic-1999"])
def test_target_player_loses_the_game_at_once(ruleset):
    door = {"battlefield": [{"alias": "door", "card": "Door to Nothingness"}], "mana_pool": DOOR_MANA}
    script = [{"action": "activate", "player": "alice", "source": "door", "ability": 0, "targets": ["bob"]},
              {"action": "resolve"}]
    r = run_scenario(_scenario(script, alice=door), ruleset)
    lost = [e for e in r["events"] if e["type"] == "player_lost"]
    assert lost == [{"type": "player_lost", "player": "bob", "reason": "effect"}]
    ended = r["events"][r["events"].index(lost[0]) + 1]  # immediately, not at a state-based action check
    assert ended == {"type": "game_ended", "winners": ["alice"], "losers": ["bob"], "draw": False}
    assert "state_based_action" not in _types(r)
    assert r["state"]["game_over"] == {"winners": ["alice"], "losers": ["bob"], "draw": False}
    assert r["state"]["players"]["bob"]["life"] == 20 and r["state"]["players"]["bob"]["lost"]


def test_a_player_can_make_themself_lose():
    door = {"battlefield": [{"alias": "door", "card": "Door to Nothingness"}], "mana_pool": DOOR_MANA}
    script = [{"action": "activate", "player": "alice", "source": "door", "ability": 0, "targets": ["alice"]},
              {"action": "resolve"}]
    r = run_scenario(_scenario(script, alice=door))
    assert r["state"]["game_over"] == {"winners": ["bob"], "losers": ["alice"], "draw": False}


def test_you_win_the_game_at_upkeep_with_40_life():
    sovereign = {"life": 40, "battlefield": [{"alias": "cat", "card": "Felidar Sovereign"}]}
    r = run_scenario(_scenario([{"action": "resolve"}], alice=sovereign, step="upkeep"))
    won = [e for e in r["events"] if e["type"] == "player_won"]
    assert won == [{"type": "player_won", "player": "alice", "reason": "effect"}]
    ended = r["events"][r["events"].index(won[0]) + 1]
    assert ended == {"type": "game_ended", "winners": ["alice"], "losers": ["bob"], "draw": False}
    assert "player_lost" not in _types(r)
    assert r["state"]["players"]["bob"]["lost"] and not r["state"]["players"]["alice"]["lost"]


def test_below_40_life_the_intervening_if_keeps_it_from_triggering():
    sovereign = {"life": 39, "battlefield": [{"alias": "cat", "card": "Felidar Sovereign"}]}
    r = run_scenario(_scenario([{"action": "advance", "to": "draw"}], alice=sovereign, step="upkeep"))
    assert "ability_triggered" not in _types(r) and r["state"]["game_over"] is None


def test_the_condition_is_checked_again_on_resolution():
    """CR 603.4: at 40 life it triggers; at 39 as it resolves it does nothing."""
    sovereign = {"life": 40, "battlefield": [{"alias": "cat", "card": "Felidar Sovereign"}],
                 "hand": [{"alias": "door", "card": "Door to Nothingness"}]}
    bolt = {"hand": [{"alias": "bolt", "card": "Lightning Bolt"}], "mana_pool": {"R": 1}}
    script = [{"action": "pass", "player": "alice"},
              {"action": "cast", "player": "bob", "card": "bolt", "targets": ["alice"]},
              {"action": "resolve"}, {"action": "resolve"}]
    r = run_scenario(_scenario(script, alice=sovereign, bob=bolt, step="upkeep"))
    assert "player_won" not in _types(r) and r["state"]["game_over"] is None
    assert [e for e in r["events"] if e["type"] == "ability_removed"][0]["reason"] == "condition_false"
