"""Legal moves under Future Sight (static ``play_from_library_top``, engine/library_top.py,
FORMAT §10): the top card of the controller's library is offered — a spell for its mana cost
and, with morph, face down for {3} (CR 702.37c; timespiral.morph.01, .02), a land as the land
play — and no other card of the library; nothing for the opponent."""

from __future__ import annotations

from test_selfplay import position

from mtg_judge.engine import legal


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
