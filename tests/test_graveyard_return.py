"""Returning a card of your choice from your graveyard, untargeted (effect
``return_from_graveyard_to_hand``, engine/graveyard_return.py, FORMAT §5): Vanille, Cheerful
l'Cie's "When Vanille enters, mill two cards, then return a permanent card from your
graveyard to your hand" (CR 608.2c: in order, so a card just milled may be chosen; CR 115.1:
no target, the card is chosen as the ability resolves)."""

from __future__ import annotations

from test_selfplay import applied, position

from mtg_judge.engine import legal, run_scenario


def _setup(library, graveyard=()):
    return {"seed": 1, "turn": 3, "active_player": "alice", "step": "precombat_main", "players": [
        {"id": "alice", "library": [{"alias": a, "card": c} for a, c in library],
         "hand": [{"alias": "vanille", "card": "Vanille, Cheerful l'Cie"}],
         "graveyard": [{"alias": a, "card": c} for a, c in graveyard],
         "battlefield": [{"alias": f"s{i}", "card": "Swamp"} for i in range(1, 4)] + [{"alias": "f1", "card": "Forest"}]},
        {"id": "bob", "library": [{"alias": f"bl{i}", "card": "Island"} for i in range(5)]}]}


CAST = [{"action": "cast", "player": "alice", "card": "vanille", "pay_with": ["s1", "s2", "s3", "f1"]},
        {"action": "resolve"}, {"action": "resolve"}]
LIBRARY = [("bolt", "Lightning Bolt"), ("bears", "Grizzly Bears"), ("l3", "Island")]


def _choose(choice):
    return {"action": "choose", "player": "alice", "choice": choice}


def test_a_milled_permanent_card_may_be_returned_and_an_instant_may_not():
    setup = _setup(LIBRARY, [("swamp9", "Swamp")])
    result = run_scenario({"setup": setup, "script": CAST + [_choose("bolt"), _choose("bears")]})
    alice = result["state"]["players"]["alice"]
    assert alice["hand"] == ["bears"] and alice["graveyard"] == ["swamp9", "bolt"] and alice["library"] == ["l3"]
    rejected = [(e["at"], e["code"]) for e in result["events"] if e["type"] == "action_rejected"]
    assert rejected == [(3, "invalid_choice")]  # Lightning Bolt is no permanent card


def test_the_only_permanent_card_is_returned_without_a_decision():
    result = run_scenario({"setup": _setup([("bolt", "Lightning Bolt"), ("bears", "Grizzly Bears")]), "script": CAST})
    assert result["state"]["players"]["alice"]["hand"] == ["bears"]


def test_with_no_permanent_card_nothing_is_returned():
    result = run_scenario({"setup": _setup([("bolt", "Lightning Bolt"), ("b2", "Lightning Bolt")]), "script": CAST})
    alice = result["state"]["players"]["alice"]
    assert alice["hand"] == [] and alice["graveyard"] == ["bolt", "b2"]


def test_legal_moves_offer_each_permanent_card_and_each_is_accepted():
    setup = _setup(LIBRARY, [("swamp9", "Swamp")])
    game, decision = position(setup, CAST)
    assert decision["reason"] == "graveyard_card" and decision["options"] == ["swamp9", "bears"]
    moves = legal.legal_actions(game, decision)
    assert [m["choice"] for m in moves] == ["swamp9", "bears"]
    for inp in moves:
        assert applied(setup, CAST, inp), inp
