"""Unit tests of mtg_judge.conformance.expect (FORMAT §3.3) and mtg_judge.conformance.canonical on hand-written logs."""

import json

import pytest

from mtg_judge.conformance.canonical import dumps, normalize, snapshot_text
from mtg_judge.conformance.expect import Mismatch, check, differences, matches, summarize_event

# A Lightning Bolt at bob's Grizzly Bears, written by hand (FORMAT §6 vocabulary).
LOG = [
    {"type": "game_started", "players": ["alice", "bob"], "active_player": "alice",
     "turn": 3, "step": "precombat_main", "ruleset": "modern", "seed": 1},
    {"type": "priority_received", "player": "alice"},
    {"type": "spell_cast", "player": "alice", "object": "bolt#2", "card": "bolt",
     "name": "Lightning Bolt", "targets": ["bear"], "modes": [], "x": None,
     "mana_paid": {"R": 1}},
    {"type": "priority_passed", "player": "alice"},
    {"type": "priority_passed", "player": "bob"},
    {"type": "damage_dealt", "source": "bolt#2", "source_card": "bolt", "target": "bear",
     "target_card": "bear", "amount": 3, "combat": False},
    {"type": "spell_resolved", "object": "bolt#2", "card": "bolt"},
    {"type": "state_based_action", "rule": "704.5g", "object": "bear", "card": "bear"},
    {"type": "zone_changed", "object": "bear", "new_object": "bear#2", "card": "bear",
     "name": "Grizzly Bears", "owner": "bob", "from": "battlefield", "to": "graveyard"},
]
STATE = {
    "turn": 3, "active_player": "alice", "priority": "alice",
    "players": {"alice": {"life": 20, "hand": [], "graveyard": ["bolt"]},
                "bob": {"life": 20, "graveyard": ["bear"], "lost": False}},
    "battlefield": {"mountain": {"object": "mountain", "tapped": True, "counters": {}}},
    "stack": [],
}


def fixture(**expect):
    return {"id": "t.bolt", "script": [
        {"action": "cast", "player": "alice", "card": "bolt", "targets": ["bear"]},
        {"action": "resolve"},
        {"action": "play_land", "player": "bob", "card": "forest"},
    ], "expect": expect}


def result(events=LOG, state=STATE, checkpoints=()):
    return {"events": list(events), "state": state, "checkpoints": list(checkpoints)}


# -- canonical -------------------------------------------------------------------------------

def test_dumps_is_sorted_compact_and_utf8():
    assert dumps({"b": [1, None, True], "a": "é"}) == '{"a":"é","b":[1,null,true]}'


@pytest.mark.parametrize("bad", [1.5, {"a": [0.0]}, {1: "x"}, {"a": object()}])
def test_dumps_rejects_non_canonical_data(bad):
    with pytest.raises(TypeError):
        dumps(bad)


def test_normalize_keeps_the_three_parts_and_fills_defaults():
    assert normalize({"events": [{"type": "x"}], "extra": 1}) == {
        "events": [{"type": "x"}], "state": {}, "checkpoints": []}
    text = snapshot_text({"events": [{"type": "x", "a": 1}, {"type": "y"}], "state": {"t": 1}})
    assert '\n    {"a":1,"type":"x"},\n    {"type":"y"}\n' in text  # one event per line
    assert json.loads(text) == {"events": [{"a": 1, "type": "x"}, {"type": "y"}],
                                "state": {"t": 1}, "checkpoints": []}


# -- patterns --------------------------------------------------------------------------------

def test_pattern_lists_only_the_fields_that_matter():
    assert matches({"type": "damage_dealt", "amount": 3}, LOG[5])
    assert not matches({"type": "damage_dealt", "amount": 2}, LOG[5])
    assert not matches({"type": "damage_dealt", "combat": 0}, LOG[5])  # false is not 0
    assert matches({"a": {"b": 1}}, {"a": {"b": 1, "c": 2}})
    assert not matches({"l": [1]}, {"l": [1, 2]})  # lists must be equal


def test_operators():
    state = {"hand": ["a", "b"], "bf": {"x": {}}}
    assert matches({"hand": {"$len": 2, "$contains": ["b"]}, "bf": {"y": {"$absent": True}}}, state)
    assert differences({"hand": {"$not_contains": ["a"]}}, state) == ["$.hand: contains a"]
    assert differences({"bf": {"x": {"$absent": True}}}, state) == [
        "$.bf.x: expected to be absent, got {}"]
    assert differences({"hand": {"$bogus": 1}}, state)[0].startswith("$.hand: unknown operator")


# -- events ----------------------------------------------------------------------------------

def test_conforming_result_has_no_mismatches():
    fx = fixture(
        events=[{"type": "spell_cast", "card": "bolt", "targets": ["bear"]},
                {"type": "damage_dealt", "target": "bear", "amount": 3},
                {"type": "zone_changed", "card": "bear", "to": "graveyard"}],
        absent=[{"type": "life_lost"}],
        state={"players": {"bob": {"life": 20, "graveyard": {"$contains": ["bear"]}}},
               "battlefield": {"bear": {"$absent": True}}},
    )
    assert check(fx, result()) == []


def test_events_are_an_ordered_subsequence():
    fx = fixture(events=[{"type": "spell_resolved", "card": "bolt"},
                         {"type": "spell_cast", "card": "bolt"}])
    [m] = check(fx, result())
    assert m.where == "expect.events[1]"
    text = str(m)
    assert "no matching event after event #6" in text
    assert "#7 state_based_action" in text          # the events after the last match
    assert "earlier #2 spell_cast" in text          # the candidate that came too early
    assert "\n" in text and "{\n" not in text       # one-line summaries, not a JSON wall


def test_missing_event_shows_field_differences():
    fx = fixture(events=[{"type": "damage_dealt", "target": "bear", "amount": 2}])
    [m] = check(fx, result())
    assert "$.amount: expected 2, got 3" in str(m)


def test_each_missing_pattern_is_reported_and_later_ones_still_match():
    fx = fixture(events=[{"type": "spell_cast"}, {"type": "card_drawn"},
                         {"type": "spell_resolved"}, {"type": "game_ended"}])
    assert [m.where for m in check(fx, result())] == ["expect.events[1]", "expect.events[3]"]


def test_absent_pattern_that_occurs():
    fx = fixture(absent=[{"type": "state_based_action", "rule": "704.5g"}])
    [m] = check(fx, result())
    assert m.where == "expect.absent[0]" and "#7 state_based_action" in str(m)


# -- final state -----------------------------------------------------------------------------

def test_state_mismatches_name_the_path():
    fx = fixture(state={"players": {"bob": {"life": 17, "lost": False}},
                        "battlefield": {"mountain": {"tapped": False}, "bear": {"tapped": False}},
                        "stack": {"$len": 1}})
    msgs = sorted(m.message for m in check(fx, result()))
    assert msgs == [
        "state.battlefield.bear: missing, expected {\"tapped\":false}",
        "state.battlefield.mountain.tapped: expected false, got true",
        "state.players.bob.life: expected 17, got 20",
        "state.stack: expected length 1, got 0",
    ]


# -- checkpoints -----------------------------------------------------------------------------

GROWTH = {"player": "bob", "action": "cast", "card": "growth", "targets": ["bear"]}
LAND = {"player": "bob", "action": "play_land", "card": "forest"}


def checkpoint(state=None, probes=()):
    return {"after": 0, "state": state or {"priority": "bob"}, "probes": list(probes)}


def test_checkpoint_state_and_probes_pass():
    fx = fixture(checkpoints=[{"after": 0, "state": {"priority": "bob"}, "legal": [GROWTH],
                               "illegal": [{"action": LAND, "code": "sorcery_timing"}]}])
    res = result(checkpoints=[checkpoint(probes=[
        {"action": GROWTH, "legal": True, "code": None},
        {"action": LAND, "legal": False, "code": "sorcery_timing"}])])
    assert check(fx, res) == []


def test_checkpoint_failures():
    fx = fixture(checkpoints=[
        {"after": 0, "state": {"priority": "alice"}, "legal": [GROWTH],
         "illegal": [{"action": LAND, "code": "sorcery_timing"}, {"action": {"action": "x"}}]},
        {"after": 1, "state": {}},
    ])
    res = result(checkpoints=[checkpoint(probes=[
        {"action": GROWTH, "legal": False, "code": "invalid_target"},
        {"action": LAND, "legal": False, "code": "not_in_hand"}])])
    got = [str(m) for m in check(fx, res)]
    assert got == [
        "expect.checkpoints[0].state: state.priority: expected alice, got bob",
        "expect.checkpoints[0].legal[0]: bob cast card=growth targets=[\"bear\"] should be legal,"
        " engine rejects it (invalid_target)",
        "expect.checkpoints[0].illegal[0]: bob play_land card=forest rejected with not_in_hand,"
        " expected sorcery_timing",
        "expect.checkpoints[0].illegal[1]: no probe reported for x",
        "expect.checkpoints[1]: the engine reported no checkpoint after input #1",
    ]


def test_illegal_probe_that_is_accepted():
    fx = fixture(checkpoints=[{"after": 0, "illegal": [{"action": LAND}]}])
    res = result(checkpoints=[checkpoint(probes=[{"action": LAND, "legal": True, "code": None}])])
    [m] = check(fx, res)
    assert "should be illegal (any code), engine accepts it" in m.message


# -- rejections and script errors ------------------------------------------------------------

REJECTED = {"type": "action_rejected", "at": 2, "player": "bob", "action": "play_land",
            "code": "sorcery_timing", "message": "not bob's main phase"}


def test_expected_rejection():
    fx = fixture(rejections=[{"at": 2, "code": "sorcery_timing"}])
    assert check(fx, result(LOG + [REJECTED])) == []


def test_rejection_that_did_not_happen_or_has_another_code():
    fx = fixture(rejections=[{"at": 2, "code": "land_already_played"}, {"at": 1}])
    got = [m.message for m in check(fx, result(LOG + [REJECTED]))]
    assert got == ["input #2 rejected with sorcery_timing, expected land_already_played",
                   "input #1 was not rejected (expected a rejection)"]


def test_unexpected_rejection_and_script_error():
    error = {"type": "script_error", "at": 1, "code": "unanswered_decision", "message": "targets"}
    got = check(fixture(), result(LOG + [REJECTED, error]))
    assert [m.message for m in got] == ["unexpected rejection of input #2: sorcery_timing",
                                        "script error at input #1: unanswered_decision"]
    assert "input #2: bob play_land card=forest" in str(got[0])


def test_mismatch_str_and_event_summary():
    m = Mismatch("expect.state", "x", ("a", "b"))
    assert str(m) == "expect.state: x\n    a\n    b"
    assert summarize_event(LOG[5], 5) == (
        "#5 damage_dealt amount=3 combat=false source=bolt#2 source_card=bolt "
        "target=bear target_card=bear")


def test_odd_results_do_not_crash():
    fx = fixture(events=[{"type": "spell_cast"}], state={"turn": 3})
    assert len(check(fx, {"events": None})) == 2


# -- the search's verdict without formatting (issue 21) ---------------------------------------

def _rule(pattern, value, missing=False):
    """The pattern rule of FORMAT §3.3, written out on its own as this test's oracle: a dict
    pattern whose keys all start with "$" (not "$exile") is an operator; any other dict
    matches a dict with every listed key matching; anything else must be equal, booleans
    told from integers. ``missing``: the key is not there (only ``$absent: true`` accepts
    that)."""
    if isinstance(pattern, dict) and pattern and all(
            k.startswith("$") and k != "$exile" for k in pattern):
        for name, arg in pattern.items():
            if name == "$absent":
                if bool(arg) != missing:
                    return False
            elif missing:
                return False
            elif name == "$len":
                if not isinstance(value, (list, dict)) or len(value) != arg:
                    return False
            elif name in ("$contains", "$not_contains"):
                if not isinstance(value, list):
                    return False
                for item in arg:
                    if any(_rule(item, v) for v in value) != (name == "$contains"):
                        return False
            else:
                return False
        return True
    if missing:
        return False
    if isinstance(pattern, dict):
        return isinstance(value, dict) and all(
            _rule(want, value.get(key), key not in value) for key, want in pattern.items())
    return _equal(pattern, value)


def _equal(a, b) -> bool:
    """JSON equality: same type (``true`` is not ``1``), lists item by item, objects key by key."""
    if type(a) is not type(b):
        return False
    if type(a) is list:
        return len(a) == len(b) and all(_equal(x, y) for x, y in zip(a, b))
    if type(a) is dict:
        return a.keys() == b.keys() and all(_equal(a[k], b[k]) for k in a)
    return a == b


def _json_values():
    from hypothesis import strategies as st

    scalars = st.one_of(st.none(), st.booleans(), st.integers(-2, 2), st.sampled_from(["a", "b", "$exile"]))
    keys = st.sampled_from(["a", "b", "c", "$exile"])
    return st.recursive(scalars, lambda inner: st.one_of(
        st.lists(inner, max_size=3), st.dictionaries(keys, inner, max_size=3)), max_leaves=8)


def _patterns():
    from hypothesis import strategies as st

    values = _json_values()
    operator = st.dictionaries(
        st.sampled_from(["$absent", "$contains", "$not_contains", "$len", "$bogus"]),
        st.one_of(st.booleans(), st.integers(0, 3), st.lists(values, max_size=2)),
        min_size=1, max_size=2)
    keys = st.sampled_from(["a", "b", "c", "$exile"])
    return st.recursive(st.one_of(values, operator), lambda inner: st.one_of(
        st.dictionaries(keys, inner, max_size=3), operator), max_leaves=8)


def _operators_well_formed(pattern) -> bool:
    """The fixture schema's operator shapes (schema/state.schema.json ``operator``); the
    test only compares verdicts on patterns a valid fixture can hold."""
    if isinstance(pattern, list):
        return all(_operators_well_formed(p) for p in pattern)
    if not isinstance(pattern, dict):
        return True
    if pattern and all(k.startswith("$") and k != "$exile" for k in pattern):
        for name, arg in pattern.items():
            if name in ("$contains", "$not_contains") and not isinstance(arg, list):
                return False
            if name in ("$contains", "$not_contains") and not _operators_well_formed(arg):
                return False
            if name == "$len" and not isinstance(arg, int):
                return False
        return True
    return all(_operators_well_formed(v) for v in pattern.values())


def test_matches_gives_the_rules_verdict_on_random_patterns():
    from hypothesis import given, settings
    from hypothesis import strategies as st

    @settings(max_examples=200, deadline=None, derandomize=True)
    @given(_patterns(), _json_values(), st.booleans())
    def run(pattern, value, use_self):
        if not _operators_well_formed(pattern):
            return
        if use_self:  # a pattern taken from the value itself, which the rule must accept
            pattern = value
        want = _rule(pattern, value)
        assert matches(pattern, value) is want
        assert (differences(pattern, value) == []) is want

    run()


def test_matches_gives_the_rules_verdict_on_the_suites_patterns_and_logs():
    """Every event pattern of every fixture against every event of its type in its
    snapshot log (the reference engine's full log) and the log's first event, plus each
    fixture's state pattern against the final state."""
    from pathlib import Path

    from mtg_judge.conformance.expect import for_ruleset
    from mtg_judge.conformance.runner import collect

    snapshots = Path(__file__).resolve().parent.parent / "conformance" / "__snapshots__" / "test_fixtures"
    compared = hits = 0
    for case in collect():
        if case.problem:
            continue
        log = json.loads((snapshots / f"test_fixture[{case.name}].json").read_text())
        expect = for_ruleset(case.scenario, case.ruleset).get("expect", {})
        for pattern in (expect.get("events") or []) + (expect.get("absent") or []):
            same_type = [e for e in log["events"] if e.get("type") == pattern.get("type")]
            for event in log["events"][:1] + same_type:
                want = _rule(pattern, event)
                assert matches(pattern, event) is want, (case.name, pattern, event)
                compared += 1
                hits += want
        if "state" in expect:
            want = _rule(expect["state"], log["state"])
            assert matches(expect["state"], log["state"]) is want, case.name
            assert (differences(expect["state"], log["state"]) == []) is want
    assert compared > 10_000 and 0 < hits < compared
