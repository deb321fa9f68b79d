"""Real cards the seed documents name and no ruling unit reaches (issue 23: real cards first;
the breadth figure counts them): each card file checked against its Oracle text in play."""

from __future__ import annotations

from mtg_judge.engine import characteristics as ch
from mtg_judge.engine.cards import load_card_db
from mtg_judge.engine.scenario import ScriptInputs, build_game


def _game(alice: dict, bob: dict | None = None):
    scenario = {"setup": {"turn": 3, "players": [{"id": "alice", **alice}, {"id": "bob", **(bob or {})}]}}
    return build_game(scenario, "modern", load_card_db(), ScriptInputs([]))


def _forests(n: int) -> list[dict]:
    return [{"alias": f"f{i}", "card": "Forest"} for i in range(n)]


def test_mystic_enforcer_has_threshold_from_its_controllers_graveyard():
    """Mystic Enforcer (the Time Spiral notes' threshold example, CR 207.2c): protection from
    black; with seven or more cards in its controller's graveyard (CR 109.5) it is 6/6 with
    flying, with six it is a 3/3 without."""
    six = _game({"graveyard": _forests(6), "battlefield": [{"alias": "me", "card": "Mystic Enforcer"}]},
                {"hand": [{"alias": "terror", "card": "Terror"}, {"alias": "bolt", "card": "Lightning Bolt"}]})
    me = six.find("me")
    assert ch.power_toughness(six, me) == (3, 3)
    assert not ch.has_keyword(six, me, "flying")
    assert ch.protected_from(six, me, six.find("terror"))  # black
    assert not ch.protected_from(six, me, six.find("bolt"))  # red
    seven = _game({"graveyard": _forests(7), "battlefield": [{"alias": "me", "card": "Mystic Enforcer"}]})
    me = seven.find("me")
    assert ch.power_toughness(seven, me) == (6, 6)
    assert ch.has_keyword(seven, me, "flying")
    # the opponent's graveyard doesn't count
    theirs = _game({"battlefield": [{"alias": "me", "card": "Mystic Enforcer"}]}, {"graveyard": _forests(9)})
    assert ch.power_toughness(theirs, theirs.find("me")) == (3, 3)
