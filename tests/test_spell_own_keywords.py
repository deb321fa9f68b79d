"""Issue 23 item 4: a spell's own conditional keyword on the stack (CR 113.6, 702.61a):
"If this spell was kicked, it has split second" (Molten Disaster; engine/spell_statics.py
``own_keywords``; fixture timespiral.split-second.a-kicked-spell-that-has-split-second-only-if-kicked).

validate accepts on an instant or sorcery only the narrow static shape the engine reads on
the stack: ``grant_keywords`` of ``split_second`` with ``"affected": "self"`` (and a condition);
any other static ability there is still refused (conformance/card_semantics.py check 1).
"""

from __future__ import annotations

import copy
import json

import test_vocabulary_effects as shapes  # tests/ is on sys.path

from mtg_judge.conformance import card_semantics
from mtg_judge.engine import run_scenario

MOLTEN = shapes._fixture_card("Molten Disaster")


def test_validate_accepts_a_spells_own_conditional_split_second() -> None:
    assert card_semantics.card_problems(MOLTEN, "fixtures/cards/molten-disaster.json") == []


def test_validate_refuses_other_keywords_or_other_objects_in_that_shape() -> None:
    """Flying on a sorcery, or split second given to other objects: nothing would read it."""
    for keywords, affected in ((["flying"], "self"), (["split_second"], {"all": {"types": ["Creature"]}})):
        card = copy.deepcopy(MOLTEN)
        card["abilities"][0]["effect"].update(keywords=keywords, affected=affected)
        problems = card_semantics.card_problems(card, "fixtures/cards/molten-disaster.json")
        assert [p.path for p in problems] == ["$.abilities[0]"], problems
        assert "CR 113.6" in problems[0].message


def _cast_then_answer(kicked: bool, answer: str = "bolt") -> dict:
    """Alice casts Molten Disaster (X = 1), kicked or not; Bob answers with Lightning Bolt at
    her, or tries to copy it with Twincast."""
    script = [{"action": "cast", "player": "alice", "card": "md", "x": 1, **({"kicker": [0]} if kicked else {})},
              {"action": "pass", "player": "alice"},
              {"action": "cast", "player": "bob", "card": answer, "targets": ["alice" if answer == "bolt" else "md"]},
              {"action": "resolve"}, {"action": "resolve"}]
    scenario, ruleset = shapes._game({"hand": ["md=Molten Disaster"], "mana_pool": {"R": 3, "C": 1}},
                                     {"hand": ["bolt=Lightning Bolt", "tc=Twincast"], "mana_pool": {"R": 1, "U": 2}},
                                     script)
    return run_scenario(json.loads(json.dumps(scenario)), ruleset, cards=scenario["cards"])


def _rejections(result: dict) -> list[str]:
    return [e["code"] for e in result["events"] if e["type"] == "action_rejected"]


def test_only_the_kicked_spell_has_split_second() -> None:
    """CR 702.61a with the ability's condition (kicked 0, CR 702.33d): unkicked, Bob's
    Lightning Bolt is cast in response; kicked, it is refused split_second."""
    assert _rejections(_cast_then_answer(False)) == []
    assert _rejections(_cast_then_answer(True)) == ["split_second"]
    assert _rejections(_cast_then_answer(True, "tc")) == ["split_second"]  # no Twincast either
