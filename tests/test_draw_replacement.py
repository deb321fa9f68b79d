"""Draw replacements (engine/draw_replacement.py; CR 614.1a, 614.11) and the condition
``library_at_most`` (FORMAT §12.2): Laboratory Maniac, issue 23's #14 leftover. The fixture
classic.game.a-replaced-draw-is-no-draw-from-an-empty-library plays the card; these check
whose draws it replaces and what ``validate`` refuses."""

from __future__ import annotations

import copy
import json

from mtg_judge.conformance import card_semantics
from mtg_judge.conformance.resources import CARDS_DIR
from mtg_judge.engine import run_scenario

MANIAC = json.loads((CARDS_DIR / "laboratory-maniac.json").read_text(encoding="utf-8"))


def _recall_on(target: str, maniac_controller: str, library: int) -> dict:
    """Alice casts Ancestral Recall on ``target``, whose library holds ``library`` Islands;
    ``maniac_controller`` controls Laboratory Maniac."""
    players = []
    for pid in ("alice", "bob"):
        lib = library if pid == target else 5
        players.append({"id": pid, "life": 20,
                        "library": [{"alias": f"{pid[0]}_lib{i}", "card": "Island"} for i in range(lib)],
                        "hand": [{"alias": "recall", "card": "Ancestral Recall"}] if pid == "alice" else [],
                        "graveyard": [], "exile": [],
                        "battlefield": ([{"alias": "island", "card": "Island"}] if pid == "alice" else [])
                        + ([{"alias": "maniac", "card": "Laboratory Maniac"}] if pid == maniac_controller else [])})
    return {"id": "engine.draw-replacement", "title": "t", "rulings": [], "rulesets": ["modern"],
            "setup": {"seed": 1, "turn": 3, "active_player": "alice", "step": "precombat_main",
                      "lands_played": 0, "players": players},
            "script": [{"action": "cast", "player": "alice", "card": "recall", "targets": [target],
                        "pay_with": ["island"]}, {"action": "resolve"}],
            "expect": {}}


def _types(result: dict) -> list[str]:
    return [e["type"] for e in result["events"]]


def test_only_its_controllers_draws_are_replaced():
    """An opponent's Laboratory Maniac does nothing to Bob's draws: he draws from his empty
    library and loses (CR 704.5b); his own makes him win on the first draw from it."""
    theirs = run_scenario(_recall_on("bob", "alice", 1), "modern")
    assert "draw_from_empty_library" in _types(theirs) and "replacement_applied" not in _types(theirs)
    assert theirs["state"]["players"]["bob"]["lost"] is True
    his = run_scenario(_recall_on("bob", "bob", 1), "modern")
    assert _types(his).count("card_drawn") == 1  # the one card, then the replaced draw
    assert "draw_from_empty_library" not in _types(his)
    assert his["state"]["game_over"]["winners"] == ["bob"]


def test_with_cards_left_every_draw_is_a_draw():
    """The condition is checked at each draw: with three cards Bob draws three, nothing is
    replaced, the game goes on."""
    result = run_scenario(_recall_on("bob", "bob", 3), "modern")
    assert _types(result).count("card_drawn") == 3 and "replacement_applied" not in _types(result)
    assert result["state"]["game_over"] is None


def test_a_draw_replacement_the_engine_would_not_apply_is_refused():
    """validate (conformance/card_semantics.py check 7): a draw replacement affecting its
    own permanent, or replaced by a zone instead of effects; a condition on a permanent's own
    trip to the graveyard, which the engine never reads."""
    wrong_affected = copy.deepcopy(MANIAC)
    wrong_affected["abilities"][0]["affected"] = "self"
    wrong_instead = copy.deepcopy(MANIAC)
    wrong_instead["abilities"][0]["instead"] = {"to": "library_top"}
    graveyard = copy.deepcopy(MANIAC)
    graveyard["abilities"][0] = {"kind": "replacement", "event": "put_into_graveyard_from_battlefield",
                                 "affected": "self", "condition": {"library_at_most": 0},
                                 "instead": {"to": "library_top"}}
    for card, path, words in ((wrong_affected, "$.abilities[0].affected", "applies it only to its controller"),
                              (wrong_instead, "$.abilities[0].instead", "is replaced by {\"effects\": ...}"),
                              (graveyard, "$.abilities[0].condition", "reads no condition")):
        problems = card_semantics.card_problems(card, "fixtures/cards/x.json")
        assert [(p.path, words in p.message) for p in problems] == [(path, True)], problems
    assert card_semantics.card_problems(MANIAC, "fixtures/cards/laboratory-maniac.json") == []
