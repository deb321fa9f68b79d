"""Legal moves for adventurer cards (CR 715.3, 715.3d; FORMAT §11.7): the Adventure of a card
in hand — a Town land's too — and, once it is on an adventure, the permanent from exile
(cast, or played as the land), never the Adventure again."""

from __future__ import annotations

from test_selfplay import position

from mtg_judge.engine import legal


def _position(script=()):
    """The game and the pending decision: alice's main phase with an adventurer and a Town
    land in hand and nine Mountains (``test_selfplay.position``)."""
    setup = {"seed": 1, "turn": 3, "active_player": "alice", "step": "precombat_main", "players": [
        {"id": "alice", "library": [{"alias": f"al{i}", "card": "Island"} for i in range(5)],
         "hand": [{"alias": "giant", "card": "Bonecrusher Giant"},
                  {"alias": "lind", "card": "Lindblum, Industrial Regency"}],
         "battlefield": [{"alias": f"m{i}", "card": "Mountain"} for i in range(1, 10)]},
        {"id": "bob", "library": [{"alias": f"bl{i}", "card": "Island"} for i in range(5)]}]}
    return position(setup, script)


def _moves(game, decision, card):
    """The candidates naming ``card`` (an alias, or a later object of it: ``giant#3``)."""
    return [a for a in legal.legal_actions(game, decision) if str(a.get("card", "")).split("#")[0] == card]


def test_the_adventure_of_a_card_in_hand_is_offered_a_land_s_too():
    game, decision = _position()
    giant = _moves(game, decision, "giant")
    assert any(a["action"] == "cast" and a.get("face") == "adventure" for a in giant)
    assert any(a["action"] == "cast" and "face" not in a for a in giant)
    lind = _moves(game, decision, "lind")
    assert {"action": "play_land", "player": "alice", "card": "lind"} in lind
    assert any(a["action"] == "cast" and a.get("face") == "adventure" for a in lind)
    assert not any(a["action"] == "cast" and "face" not in a for a in lind)  # a land is never cast


def test_on_an_adventure_the_permanent_only_is_offered_from_exile():
    script = [{"action": "cast", "player": "alice", "card": "giant", "face": "adventure", "targets": ["bob"],
               "pay_with": ["m1", "m2"]}, {"action": "resolve"},
              {"action": "cast", "player": "alice", "card": "lind", "face": "adventure",
               "pay_with": ["m3", "m4", "m5"]}, {"action": "resolve"}]
    game, decision = _position(script)
    assert game.find("giant").zone == "exile" and game.find("lind").zone == "exile"
    giant = _moves(game, decision, "giant")
    assert giant and all(a["action"] == "cast" and "face" not in a for a in giant)
    assert not any(a.get("face") == "adventure" for a in giant + _moves(game, decision, "lind"))
    assert [a["action"] for a in _moves(game, decision, "lind")] == ["play_land"]
