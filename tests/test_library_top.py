"""Legal moves under Future Sight (static ``play_from_library_top``, engine/library_top.py,
FORMAT §10) and its revealed top card (static ``reveal_library_top``, CR 401.5): the top card of the controller's library is offered — a spell for its mana cost
and, with morph, face down for {3} (CR 702.37c; timespiral.morph.01, .02), a land as the land
play — and no other card of the library; nothing for the opponent."""

from __future__ import annotations

from test_selfplay import position

from mtg_judge.engine import legal, run_scenario


def _position(top: str, script=()):
    setup = {"seed": 1, "turn": 3, "active_player": "alice", "step": "precombat_main", "players": [
        {"id": "alice", "library": [{"alias": "top", "card": top}, {"alias": "second", "card": "Hystrodon"}]
         + [{"alias": f"al{i}", "card": "Island"} for i in range(3)],
         "battlefield": [{"alias": "sight", "card": "Future Sight"}]
         + [{"alias": f"f{i}", "card": "Forest"} for i in range(1, 6)]},
        {"id": "bob", "library": [{"alias": f"bl{i}", "card": "Island"} for i in range(5)]}]}
    return position(setup, script)


def _moves(game, decision, card):
    return [a for a in legal.legal_actions(game, decision) if str(a.get("card", "")).split("#")[0] == card]


def test_a_morph_card_on_top_is_offered_face_up_and_face_down_and_the_next_card_is_not():
    game, decision = _position("Hystrodon")
    moves = _moves(game, decision, "top")
    assert {(m["action"], m.get("alternative")) for m in moves} == {("cast", None), ("cast", "morph")}
    assert _moves(game, decision, "second") == []


def test_a_land_on_top_is_offered_as_the_land_play():
    game, decision = _position("Forest")
    assert [m["action"] for m in _moves(game, decision, "top")] == ["play_land"]


def test_nothing_is_offered_to_the_opponent():
    game, decision = _position("Hystrodon", [{"action": "pass", "player": "alice"}])
    assert decision["player"] == "bob"
    assert _moves(game, decision, "top") == []


def _state_after(script, top="Forest"):
    setup = {"seed": 1, "turn": 3, "active_player": "alice", "step": "precombat_main", "players": [
        {"id": "alice", "library": [{"alias": "top", "card": top}, {"alias": "second", "card": "Hystrodon"}],
         "hand": [{"alias": "grip", "card": "Krosan Grip"}],
         "battlefield": [{"alias": "sight", "card": "Future Sight"}]
         + [{"alias": f"f{i}", "card": "Forest"} for i in range(1, 6)]},
        {"id": "bob", "library": [{"alias": f"bl{i}", "card": "Island"} for i in range(5)]}]}
    return run_scenario({"setup": setup, "script": script})["state"]


def test_the_top_card_is_revealed_and_the_next_one_once_it_is_played():
    """CR 401.5: "play with the top card of your library revealed" (Future Sight's static
    ``reveal_library_top``): the state names the revealed card; once the land on top is
    played, the card under it is the one revealed; the opponent's top card is not."""
    state = _state_after([])
    assert state["players"]["alice"]["library_top_revealed"] == "top"
    assert "library_top_revealed" not in state["players"]["bob"]
    state = _state_after([{"action": "play_land", "player": "alice", "card": "top"}])
    assert state["players"]["alice"]["library_top_revealed"] == "second"


def test_nothing_is_revealed_once_the_source_is_gone():
    """The static ability works only while Future Sight is on the battlefield (CR 611.3)."""
    state = _state_after([{"action": "cast", "player": "alice", "card": "grip", "targets": ["sight"],
                           "pay_with": ["f1", "f2", "f3"]},
                          {"action": "pass", "player": "alice"}, {"action": "pass", "player": "bob"}])
    assert "sight" in state["players"]["alice"]["graveyard"]
    assert "library_top_revealed" not in state["players"]["alice"]
