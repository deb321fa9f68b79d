"""docs/EVENT_ORDER.md and docs/OMITTED_KEYS.md are generated from the reference engine's logs
(issue 27 items 2 and 3): the committed text must be what the tools make of today's fixtures
and engine (regenerate-and-compare, like docs/AUDIT.md), and the omitted-keys rules must hold
on every case's log and state.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

import pytest

from mtg_judge.tools import event_order, omitted_keys


@lru_cache(maxsize=1)
def results() -> list[tuple[Any, dict]]:
    return event_order.reference_results()


def test_event_order_doc_is_up_to_date():
    assert event_order.EVENT_ORDER_DOC.read_text(encoding="utf-8") == event_order.render(results()), \
        "docs/EVENT_ORDER.md is out of date: run python -m mtg_judge.tools.event_order"


def test_every_mechanic_has_one_representative_that_passes():
    from mtg_judge.conformance.runner import check_result

    mechanics = {f"{c.document}/{c.mechanic}" for c, _ in results() if c.mechanic}
    reps = event_order.representatives(results())
    assert set(reps) == mechanics
    assert set(event_order.CHOSEN) <= mechanics
    text = event_order.EVENT_ORDER_DOC.read_text(encoding="utf-8")
    for mechanic, (case, result) in reps.items():
        assert f"### {mechanic.replace('/', ' / ')}\n" in text
        assert f"`{case.fixture_id}` [{case.ruleset}]" in text
        assert case.ruleset == case.scenario["rulesets"][0]
        assert not check_result(case.scenario, result)[1], case.name  # the reference meets the expectation


def test_the_derived_choice_is_deterministic_and_prefers_clean_logs():
    reps = event_order.representatives(list(reversed(results())))
    assert {m: c.fixture_id for m, (c, _) in reps.items()} == \
        {m: c.fixture_id for m, (c, _) in event_order.representatives(results()).items()}
    def clean(result: dict) -> bool:
        return not any(e["type"] in ("action_rejected", "script_error") for e in result["events"])

    by_mechanic: dict[str, list[dict]] = {}
    for case, result in results():
        if case.mechanic and case.ruleset == case.scenario["rulesets"][0]:
            by_mechanic.setdefault(f"{case.document}/{case.mechanic}", []).append(result)
    for mechanic, (case, result) in reps.items():
        if mechanic not in event_order.CHOSEN and any(clean(r) for r in by_mechanic[mechanic]):
            assert clean(result), mechanic


def test_compact_form_and_marks():
    e = {"type": "zone_changed", "object": "bolt#2", "new_object": "bolt#3", "card": "bolt", "name": "Lightning Bolt",
         "owner": "alice", "from": "stack", "to": "graveyard"}
    assert event_order.compact(e) == "zone_changed(object=bolt#2, new_object=bolt#3, from=stack, to=graveyard)"
    assert event_order.compact({"type": "game_ended", "winners": [], "losers": ["a", "b"], "draw": True}) == \
        "game_ended(draw=true, losers=[a; b])"
    log = [{"type": "destroyed", "object": "x", "card": "x"}, {"type": "zone_changed", "object": "x"},
           {"type": "untapped", "object": "a"}, {"type": "untapped", "object": "b"},
           {"type": "state_based_action", "rule": "704.5g"}, {"type": "destroyed"},
           {"type": "state_based_action", "rule": "704.5g"}]
    assert event_order.marks(log) == [[], ["c1"], [], ["c2"], [], [], ["c5"]]


# ---------------------------------------------------------------------- omitted keys
def test_omitted_keys_doc_is_up_to_date():
    assert omitted_keys.OMITTED_KEYS_DOC.read_text(encoding="utf-8") == omitted_keys.render(results()), \
        "docs/OMITTED_KEYS.md is out of date: run python -m mtg_judge.tools.omitted_keys"


def test_every_field_some_log_leaves_out_has_a_condition_and_no_condition_is_stale():
    counts = omitted_keys.field_counts(results())
    status = {key: omitted_keys.status(counts, key) for key in counts}
    undocumented = sorted(k for k, s in status.items() if s == "sometimes" and k not in omitted_keys.WHEN)
    assert not undocumented, f"fields the reference sometimes leaves out, with no WHEN entry: {undocumented}"
    stale = sorted(k for k in omitted_keys.WHEN if k not in status or status[k] == "always")
    assert not stale, f"WHEN entries for fields every log writes (or no schema field): {stale}"
    assert "`: ?" not in omitted_keys.render(results())


def test_fields_the_schema_requires_are_always_written():
    counts = omitted_keys.field_counts(results())
    for table in (omitted_keys.event_fields(), omitted_keys.state_fields()):
        for kind, (_fields, required) in table.items():
            for f in required:
                assert omitted_keys.status(counts, (kind, f)) in ("always", "unseen"), (kind, f)


def _events(etype: str):
    for case, result in results():
        for e in result["events"]:
            if e["type"] == etype:
                yield case, e


def _player_ids(case) -> set[str]:
    return {p["id"] for p in case.scenario["setup"]["players"]}


# the conditions of WHEN that a predicate can state exactly, checked on every case
def test_damage_dealt_target_card_only_for_an_object_target():
    for case, e in _events("damage_dealt"):
        assert ("target_card" in e) == (e["target"] not in _player_ids(case)), (case.name, e)


def test_turn_began_extra_only_when_true():
    for case, e in _events("turn_began"):
        assert e.get("extra", True) is True, (case.name, e)


def test_state_based_action_names_an_object_or_a_player():
    for case, e in _events("state_based_action"):
        assert ("object" in e) == ("card" in e) != ("player" in e), (case.name, e)


def test_copy_ceased_to_exist_after_values():
    values = {e.get("after") for _, e in _events("copy_ceased_to_exist")}
    documented = {None, "to_hand", "shuffled_into_library", "exiled", "left_battlefield", "unprepared"}
    assert values <= documented, values - documented


def _states(case, result):
    yield result["state"]
    for cp in result.get("checkpoints") or []:
        yield cp["state"]


@pytest.mark.parametrize("part", ["power", "exile", "stack"])
def test_state_conditions(part):
    for case, result in results():
        for state in _states(case, result):
            if part == "power":
                for entry in state["battlefield"].values():
                    assert ("power" in entry) == ("toughness" in entry) == ("Creature" in entry["types"]), entry
            elif part == "exile":
                key = "exile" if case.ruleset == "modern" else "removed_from_game"
                for entry in state["players"].values():
                    assert key in entry and ({"exile", "removed_from_game"} - {key}).isdisjoint(entry), case.name
            else:
                for entry in state["stack"]:
                    assert ("name" in entry) == (entry["kind"] == "spell"), entry
                    assert ("source" in entry) == (entry["kind"] == "ability"), entry
