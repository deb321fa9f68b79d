"""Issue 23 item 5: a loyalty cost of minus X (CR 606.4, 107.3a; docs/FORMAT.md §13.6):
Chandra Nalaar's "[−X]: Chandra Nalaar deals X damage to target creature". X is the
activation's ``x``; that many loyalty counters are removed as the cost is paid, and X can't
be more than the planeswalker's loyalty (CR 606.6)."""

from __future__ import annotations

import test_vocabulary_effects as shapes  # tests/ is on sys.path
from test_legal_choices import agree


def _chandra(x: object) -> tuple[dict, str]:
    act = {"action": "activate", "player": "alice", "source": "chandra", "ability": 1, "targets": ["angel"]}
    if x is not None:
        act["x"] = x
    return shapes._game({"battlefield": ["chandra=Chandra Nalaar"]}, {"battlefield": ["angel=Serra Angel"]},
                        [act, {"action": "resolve"}])


def _run(x: object) -> dict:
    return shapes.run_built(_chandra(x))


def _rejections(result: dict) -> list[str]:
    return [e["code"] for e in result["events"] if e["type"] == "action_rejected"]


def test_minus_x_removes_x_loyalty_and_the_effect_uses_that_x() -> None:
    result = _run(3)
    assert _rejections(result) == []
    removed = [e for e in result["events"] if e["type"] == "counters_removed"]
    assert [(e["counter"], e["count"]) for e in removed][:1] == [("loyalty", 3)]
    assert [e["amount"] for e in result["events"] if e["type"] == "damage_dealt"] == [3]
    assert result["state"]["battlefield"]["chandra"]["counters"] == {"loyalty": 3}
    assert result["state"]["battlefield"]["angel"]["damage"] == 3


def test_x_can_be_all_of_its_loyalty_but_not_more() -> None:
    """CR 606.6: X = 6 with 6 loyalty counters is paid (Chandra then has none and is put into
    her owner's graveyard, CR 704.5i); X = 7 can't be paid; a missing X is invalid_x."""
    all_of_it = _run(6)
    assert _rejections(all_of_it) == [] and "chandra" not in all_of_it["state"]["battlefield"]
    assert _rejections(_run(7)) == ["cannot_pay"]
    assert _rejections(_run(None)) == ["invalid_x"]


def test_the_legal_moves_offer_values_of_x_up_to_the_loyalty() -> None:
    scenario, _ = _chandra(0)
    moves = agree(scenario["setup"], [], [])
    xs = sorted({m["x"] for m in moves if m["action"] == "activate" and m.get("ability") == 1})
    assert xs and xs[0] == 0 and xs[-1] == 6
