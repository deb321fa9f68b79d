"""Conventions of docs/PROTOCOL.md §10 stated in prose (not in its tables), checked on the
reference engine: ``state.priority`` (§10.1), the reveals after ``game_ended`` (§10.1, CR
708.9), decisions asked with a single legal answer (§10.2), the resolving object on the
stack during its choices but not during ``may_cast`` (§10.8), tokens (§10.4, FORMAT §1)
and the suspended card of a setup (FORMAT §10).

The scenarios are built like those of tests/test_protocol_doc.py; the state of a pending
decision is the final state of the script cut just before the input that answers it.
"""

from __future__ import annotations

from test_protocol_doc import SCENARIOS, act, card, play_raw, setup


def _final(s: dict, script: list, ruleset: str = "modern") -> dict:
    return play_raw(s, script, ruleset)


def _types(log: list[dict]) -> list[str]:
    return [e["type"] for e in log]


# ------------------------------------------------------------------------ state.priority
def test_priority_is_null_while_a_declaration_is_pending():
    s, script, _ = SCENARIOS["declare-blockers"]
    assert _final(s, [])["state"]["priority"] is None                 # declare_attackers
    assert _final(s, script[:2])["state"]["priority"] is None         # declare_blockers


def test_priority_during_a_resolution_is_the_last_player_who_passed():
    s, script, _ = SCENARIOS["search-fails"]
    r = _final(s, script[:2])  # the search is pending while Sylvan Scrying resolves
    assert r["events"][-1]["type"] == "spell_resolved"
    assert r["state"]["priority"] == "bob"
    assert [x["object"] for x in r["state"]["stack"]] == ["ss#2"]  # still on the stack (§10.8)


def test_priority_while_triggers_go_on_the_stack_is_the_next_to_receive_it():
    s, script, _ = SCENARIOS["trigger-with-target"]
    r = _final(s, script[:2])  # choose_targets pending after the Orangutan resolved
    assert r["events"][-1]["type"] == "ability_triggered"
    assert r["state"]["priority"] == "alice"


def test_priority_after_the_game_ended_is_the_player_who_would_have_received_it():
    s, script, _ = SCENARIOS["sba-zero-life"]
    r = _final(s, script)
    assert r["events"][-1]["type"] == "game_ended"
    assert r["state"]["priority"] == "alice"


# ------------------------------------------------------------- may_cast and the stack
def test_may_cast_comes_after_the_ability_left_the_stack():
    s, script, _ = SCENARIOS["suspend-cast"]
    r = _final(s, script[:2])  # may_cast pending: the last-time-counter trigger has resolved
    assert r["events"][-1]["type"] == "ability_resolved"
    assert r["state"]["stack"] == []
    assert r["state"]["priority"] == "bob"


# ----------------------------------------------------------------- the end of the game
def test_face_down_permanents_are_revealed_after_game_ended():
    s = setup({"hand": [card("bolt", "Lightning Bolt")], "mana_pool": {"R": 1},
               "battlefield": [card("fd", "Fledgling Mawcor", face_down=True)]}, {"life": 3})
    log = _final(s, [act("cast", "alice", card="bolt", targets=["bob"]), act("resolve")])["events"]
    k = _types(log).index("game_ended")
    assert log[k + 1:] == [{"type": "card_revealed", "player": "alice", "object": "fd", "card": "fd",
                            "name": "Fledgling Mawcor"}]


# ------------------------------------------------------- a decision with one answer
def test_a_discard_without_a_real_choice_is_still_asked():
    s = setup({"hand": [card("mr", "Mind Rot")], "mana_pool": {"B": 3}},
              {"hand": [card("b1", "Forest"), card("b2", "Island")]})
    script = [act("cast", "alice", card="mr", targets=["bob"]), act("resolve")]
    r = _final(s, script)
    assert r["events"][-1]["type"] == "spell_resolved"  # waiting for bob's discard
    r = _final(s, [*script, act("discard", "bob", cards=["b2", "b1"])])
    assert _types(r["events"]).count("card_discarded") == 2


def test_a_discard_from_an_empty_hand_is_not_asked():
    s = setup({"hand": [card("mr", "Mind Rot")], "mana_pool": {"B": 3}})
    r = _final(s, [act("cast", "alice", card="mr", targets=["bob"]), act("resolve")])
    assert "card_discarded" not in _types(r["events"])
    assert r["events"][-1] == {"type": "priority_received", "player": "alice"}


# ------------------------------------------------------------------------------ tokens
def test_a_token_keeps_its_reference_when_it_dies_then_ceases_to_exist():
    s = setup({"hand": [card("ra", "Raise the Alarm"), card("bolt", "Lightning Bolt")],
               "mana_pool": {"W": 2, "R": 1}})
    log = _final(s, [act("cast", "alice", card="ra"), act("resolve"),
                     act("cast", "alice", card="bolt", targets=["token#1"]), act("resolve")])["events"]
    assert "permanent_entered" not in _types(log)
    moves = [e for e in log if e["type"] == "zone_changed" and e["card"] == "token#1"]
    assert moves and all(e["object"] == e["new_object"] == "token#1" for e in moves)
    k = _types(log).index("token_ceased_to_exist")
    assert log[k - 1]["type"] == "state_based_action" and log[k - 1]["rule"] == "704.5d"


# ------------------------------------------------------------- the suspended setup card
def test_a_card_with_suspend_and_time_counters_in_exile_is_suspended_without_a_flag():
    s, script, _ = SCENARIOS["suspend-cast"]
    assert "suspended" not in s["players"][0]["exile"][0]
    log = _final(s, [])["events"]
    assert any(e["type"] == "ability_triggered" and e["ability"] == "suspend" for e in log)
