"""Property tests (Hypothesis): the PRNG, canonical JSON, and the engine under random
positions and random schema-valid inputs.

Profiles: ``ci`` (the default: derandomized, a few dozen examples per property, bounded
time) and ``long`` (thousands of examples, random), chosen with the environment variable
``MTG_JUDGE_HYPOTHESIS_PROFILE``::

    MTG_JUDGE_HYPOTHESIS_PROFILE=long pytest tests/test_properties.py
"""

from __future__ import annotations

import json
import os
from functools import lru_cache
from pathlib import Path

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from mtg_judge.conformance import selfplay as sp
from mtg_judge.conformance.canonical import dumps, normalize
from mtg_judge.engine import legal, load_card_db, run_scenario
from mtg_judge.engine.errors import ScriptExhausted
from mtg_judge.engine.inputs import ACTIONS, json_type
from mtg_judge.engine.rng import SplitMix64
from mtg_judge.engine.scenario import ScriptInputs, build_game

settings.register_profile("ci", max_examples=30, derandomize=True, deadline=None, database=None,
                          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
settings.register_profile("long", max_examples=3000, deadline=None, database=None,
                          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
PROFILE = settings.get_profile(os.environ.get("MTG_JUDGE_HYPOTHESIS_PROFILE", "ci"))
DB = load_card_db()
ROOT = Path(__file__).resolve().parents[1]
MASK = (1 << 64) - 1


# -------------------------------------------------------------------------------- the PRNG
def spec_below(rng: SplitMix64, n: int) -> int:
    """docs/FORMAT.md §7, written again from the text: ``x = next() >> 1`` until
    ``x < (2^63 // n) * n``, then ``x % n``."""
    while True:
        x = rng.next() >> 1
        if x < ((1 << 63) // n) * n:
            return x % n


@PROFILE
@given(seed=st.integers(0, MASK), n=st.integers(1, 1 << 63), draws=st.integers(1, 20))
def test_below_is_in_range_and_follows_the_documented_rejection(seed, n, draws):
    # n <= 2^63: above it, (2^63 // n) * n is 0 and the documented rejection never ends (the
    # engine draws below the size of a library or a list of options). Hypothesis tries the
    # integer constants it finds in the loaded modules' code, so which n it draws depends on
    # what else the process imported: under xdist it drew one above 2^63 and the test hung.
    a, b = SplitMix64(seed), SplitMix64(seed)
    for _ in range(draws):
        x = a.below(n)
        assert 0 <= x < n
        assert x == spec_below(b, n)
    assert a.state == b.state


@PROFILE
@given(seed=st.integers())
def test_below_needs_a_positive_bound_and_seeds_wrap_to_64_bits(seed):
    with pytest.raises(ValueError):
        SplitMix64(seed).below(0)
    assert SplitMix64(seed).next() == SplitMix64(seed & MASK).next()
    assert 0 <= SplitMix64(seed).next() <= MASK


@PROFILE
@given(seed=st.integers(0, MASK), items=st.lists(st.integers(), max_size=60))
def test_shuffle_is_the_documented_fisher_yates_permutation(seed, items):
    shuffled = list(items)
    rng = SplitMix64(seed)
    rng.shuffle(shuffled)
    assert sorted(shuffled) == sorted(items)
    expected, spec = list(items), SplitMix64(seed)
    for i in range(len(expected) - 1, 0, -1):  # from the end, j = below(i + 1)
        j = spec_below(spec, i + 1)
        expected[i], expected[j] = expected[j], expected[i]
    assert shuffled == expected and rng.state == spec.state


# --------------------------------------------------------------------------- canonical JSON
json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-(1 << 70), 1 << 70) | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=5) | st.dictionaries(st.text(max_size=6), inner, max_size=5),
    max_leaves=30)


@PROFILE
@given(value=json_values)
def test_canonical_json_round_trips(value):
    text = dumps(value)
    assert "\n" not in text
    assert json.loads(text) == value
    assert dumps(json.loads(text)) == text


@PROFILE
@given(value=st.dictionaries(st.text(max_size=6), json_values, min_size=1, max_size=6))
def test_canonical_json_ignores_key_order(value):
    assert dumps(dict(reversed(list(value.items())))) == dumps(value)


@PROFILE
@given(value=json_values, x=st.floats(allow_nan=False))
def test_canonical_json_refuses_floats_anywhere(value, x):
    with pytest.raises(TypeError, match="floats are not allowed"):
        dumps({"a": [value, {"b": x}]})


@PROFILE
@given(events=st.lists(st.dictionaries(st.text(max_size=5), json_values, max_size=4), max_size=5),
       state=st.dictionaries(st.text(max_size=5), json_values, max_size=4))
def test_normalize_is_idempotent(events, state):
    once = normalize({"events": events, "state": state, "extra": 1})
    assert normalize(once) == once and set(once) == {"events", "state", "checkpoints"}


# ------------------------------------------------------------------------ engine positions
@lru_cache(maxsize=1)
def recorded_games() -> list:
    """A few short self-play games (every ruleset, several decks): their records are the
    positions the properties below start from (any prefix of a record is a position)."""
    decks = sp.load_decks()
    games = []
    for i in range(4):
        pair = (decks[i % len(decks)], decks[(i + 3) % len(decks)])
        result = sp.play_game(i, 700 + i, pair, sp.RULESETS[i % 3], sp.Settings(turn_cap=5, deck_size=24))
        assert result.failure is None, result.failure.summary()
        games.append(result.record)
    return games


def refs_of(record: sp.Record, k: int) -> tuple[list, list]:
    """References a position knows (every object of the game, aliases too) and its players."""
    game, _ = position(record, k)
    refs = sorted(set(game.objects) | set(game.by_card) | {it.ref for it in game.stack})
    return refs, list(game.order)


class _Stop(ScriptInputs):
    def next(self, game, decision):
        try:
            return super().next(game, decision)
        except ScriptExhausted:
            self.decision = decision
            raise


@lru_cache(maxsize=256)
def _position_cached(index: int, k: int):
    record = recorded_games()[index]
    source = _Stop(record.inputs[:k])
    source.decision = None
    game = build_game({"setup": record.setup}, record.ruleset, DB, source)
    try:
        game.play()
    except ScriptExhausted:
        pass
    return game, source.decision


def position(record: sp.Record, k: int):
    return _position_cached(recorded_games().index(record), k)


def _inputs(refs: list, players: list) -> st.SearchStrategy:
    """Schema-valid script inputs (schema/scenario.schema.json#/$defs/input) naming the
    objects and players of a position, or names of nothing."""
    ref = st.sampled_from(refs + ["zz_nothing", "token#9", "ability#99", "copy#3"])
    player = st.sampled_from(players + ["zz_nobody"])
    either = ref | player
    alias = st.sampled_from([r for r in refs if "#" not in r] + ["zz_nothing"])
    pool = st.dictionaries(st.sampled_from("WUBRGC"), st.integers(0, 4), max_size=3)
    pay = st.lists(ref | st.fixed_dictionaries({"source": ref}, optional={"color": st.sampled_from("WUBRG")}),
                   max_size=3)
    small = st.integers(0, 4) | st.integers(0, 10 ** 6)
    step = st.sampled_from(["upkeep", "draw", "precombat_main", "declare_attackers", "end", "cleanup"])

    def inp(action, required=None, optional=None):
        return st.fixed_dictionaries({"action": st.just(action), **(required or {})}, optional=optional or {})

    costs = {"pay_with": pay, "mana": pool}
    return st.one_of(
        inp("pass", {"player": player}),
        inp("resolve"),
        inp("advance", {"to": step}, {"turn": st.integers(1, 8)}),
        inp("play_land", {"player": player, "card": ref}),
        inp("cast", {"player": player, "card": ref},
            {"targets": st.lists(either, max_size=3), "x": small, "modes": st.lists(st.integers(0, 3), max_size=2),
             "kicker": st.lists(st.integers(0, 2), max_size=2), "buyback": st.booleans(),
             "alternative": st.sampled_from(["flashback", "madness", "morph", "without_paying", "zz_fist"]) | ref,
             **costs}),
        inp("activate", {"player": player, "source": ref, "ability": st.integers(0, 8) | st.just("landcycling")},
            {"targets": st.lists(either, max_size=2), "x": small, "color": st.sampled_from("WUBRG"),
             "produce": pool, "discard": st.lists(ref, max_size=2), **costs}),
        inp("declare_attackers", {"player": player, "attackers": st.lists(ref, max_size=3)}),
        inp("declare_blockers", {"player": player, "blocks": st.lists(
            st.fixed_dictionaries({"blocker": ref, "attacker": ref}), max_size=3)}),
        inp("assign_damage", {"player": player, "attacker": ref,
                              "assignment": st.dictionaries(either, st.integers(0, 8), min_size=1, max_size=3)}),
        inp("order_triggers", {"player": player, "order": st.lists(ref, min_size=2, max_size=3)}),
        inp("choose_targets", {"player": player, "targets": st.lists(either, max_size=3)}),
        inp("discard", {"player": player, "cards": st.lists(ref, min_size=1, max_size=3)}),
        inp("choose", {"player": player, "choice": either | st.sampled_from(
            ["yes", "no", "none", "Lightning Bolt", "Forest", "flying", "red"]) | st.lists(either, min_size=1,
                                                                                          max_size=2)},
            costs),
        inp("random", {"outcome": st.sampled_from(["heads", "tails"]) | alias | st.lists(alias, max_size=4)}),
        inp("mulligan", {"player": player}),
        inp("keep", {"player": player}, {"bottom": st.lists(ref, max_size=3)}),
        inp("suspend", {"player": player, "card": ref}, costs),
        inp("turn_face_up", {"player": player, "card": ref}, costs),
    )


@st.composite
def position_and_input(draw):
    games = recorded_games()
    index = draw(st.integers(0, len(games) - 1))
    record = games[index]
    k = draw(st.integers(0, len(record.inputs) - 1))
    refs, players = refs_of(record, k)
    inp = draw(_inputs(refs, players))
    return record, k, inp


@PROFILE
@given(case=position_and_input())
def test_random_inputs_in_random_positions_never_crash_the_engine(case):
    """A schema-valid input, whatever it names, is accepted or rejected with a documented
    code (or, for a macro or a random outcome that can't apply, a script error): the engine
    never raises (docs/FORMAT.md §3.2, §8)."""
    record, k, inp = case
    assert not sp.input_schema_errors(inp), inp
    scenario = {"setup": record.setup, "script": record.inputs[:k] + [inp, {"action": "pass", "player": "alice"}]}
    result = run_scenario(scenario, record.ruleset, DB)  # raises if the engine does
    codes = {e["code"] for e in result["events"] if e["type"] == "action_rejected"}
    assert codes <= sp.documented_codes()


@PROFILE
@given(case=position_and_input())
def test_accepts_answers_as_the_engine_does(case):
    """``mtg_judge.engine.legal.accepts`` (the engine's own answer to the pending question, on a
    dry run) agrees with the engine applying the input for real, code included, for every
    decision kind the recorded games ask (tests/test_one_legality.py covers every kind)."""
    record, k, inp = case
    assume(inp["action"] not in ("resolve", "advance", "random"))
    game, decision = position(record, k)
    assume(decision is not None)
    ok, code = legal.accepts(game, decision, inp)
    result = run_scenario({"setup": record.setup, "script": record.inputs[:k] + [inp]}, record.ruleset, DB)
    rejected = next((e for e in result["events"] if e["type"] == "action_rejected" and e.get("at") == k), None)
    assert (rejected is None) == ok, (decision, inp, code, rejected)
    if rejected is not None:
        assert rejected["code"] == code


@PROFILE
@given(data=st.data())
def test_every_legal_action_of_a_random_position_is_accepted(data):
    games = recorded_games()
    record = games[data.draw(st.integers(0, len(games) - 1))]
    k = data.draw(st.integers(0, len(record.inputs) - 1))
    game, decision = position(record, k)
    assume(decision is not None)
    actions = legal.legal_actions(game, decision)
    if decision["kind"] == "priority":
        assert {"action": "pass", "player": decision["player"]} in actions
    assert actions, decision
    for inp in data.draw(st.lists(st.sampled_from(actions), min_size=1, max_size=3, unique_by=dumps)):
        result = run_scenario({"setup": record.setup, "script": record.inputs[:k] + [inp]}, record.ruleset, DB)
        assert not [e for e in result["events"] if e["type"] == "action_rejected" and e.get("at") == k], inp


# ------------------------------------------------------- inputs of the wrong JSON type
def _scenario(script, hand=(), battlefield=(), counters=None):
    alice = {"id": "alice", "library": [{"alias": f"l{i}", "card": "Forest"} for i in range(3)],
             "hand": [{"alias": a, "card": c} for a, c in hand],
             "battlefield": [{"alias": a, "card": c, **({"counters": counters} if a == "pools" and counters else {})}
                             for a, c in battlefield]}
    bob = {"id": "bob", "library": [{"alias": "bl", "card": "Forest"}]}
    return {"setup": {"turn": 3, "active_player": "alice", "step": "precombat_main", "players": [alice, bob]},
            "script": script}


BOLT = {"hand": [("bolt", "Lightning Bolt")], "battlefield": [("m1", "Mountain")]}
CAST = {"action": "cast", "player": "alice", "card": "bolt", "targets": ["bob"], "pay_with": ["m1"]}
ATTACK = [{"action": "advance", "to": "declare_attackers"}]
WRONG_TYPES = [
    ("targets not a list", _scenario([{**CAST, "targets": 5}], **BOLT)),
    ("pay_with not a list", _scenario([{**CAST, "pay_with": 5}], **BOLT)),
    ("mana not an object", _scenario([{**CAST, "mana": "R"}], **BOLT)),
    ("attackers not a list", _scenario(ATTACK + [{"action": "declare_attackers", "player": "alice", "attackers": 5}],
                                       battlefield=[("bear", "Grizzly Bears")])),
    ("blocks not a list", _scenario(ATTACK + [{"action": "declare_attackers", "player": "alice", "attackers": ["bear"]},
                                              {"action": "resolve"},
                                              {"action": "declare_blockers", "player": "bob", "blocks": 5}],
                                    battlefield=[("bear", "Grizzly Bears")])),
    ("discard cost not a list", _scenario([{"action": "activate", "player": "alice", "source": "tres", "ability": 0,
                                            "discard": 1}], hand=[("bolt", "Lightning Bolt")],
                                          battlefield=[("tres", "Trespasser il-Vec")])),
    ("cleanup discard not a list", _scenario([{"action": "advance", "to": "cleanup"},
                                              {"action": "discard", "player": "alice", "cards": 5}],
                                             hand=[(f"h{i}", "Grizzly Bears") for i in range(9)])),
    ("produce amount a string", _scenario([{"action": "activate", "player": "alice", "source": "pools", "ability": 2,
                                            "x": 1, "produce": {"W": "1"}, "pay_with": ["m1"]}],
                                          battlefield=[("pools", "Calciform Pools"), ("m1", "Mountain")],
                                          counters={"storage": 2})),
]


WRONG_TYPES += [
    ("player not a string", _scenario([{"action": "keep", "player": ["bob"]}, CAST], **BOLT)),
    ("action not a string", _scenario([{**CAST, "action": ["cast"]}, CAST], **BOLT)),
    ("action not an action", _scenario([{**CAST, "action": "frobnicate", "player": "Alice"}, CAST], **BOLT)),
]


@pytest.mark.parametrize("name, scenario", WRONG_TYPES, ids=[n for n, _ in WRONG_TYPES])
def test_an_input_of_the_wrong_type_is_rejected(name, scenario):
    bad = next(i for i in scenario["script"] if sp.input_schema_errors(i))  # outside the input schema
    result = run_scenario(scenario, "modern", DB)
    [rejected] = [e for e in result["events"] if e["type"] == "action_rejected"]
    assert rejected["code"] == "bad_input"
    # the rejection echoes only well-shaped fields, so the event itself matches its schema
    from mtg_judge.conformance.loader import validate
    assert validate(rejected, "event", "<event>") == []
    assert rejected["player"] == (bad["player"] if bad["player"] in ("alice", "bob") else None)
    assert rejected["action"] == (bad["action"] if bad["action"] in ACTIONS else None)


@pytest.mark.parametrize("entry", ["pass", None, [1, 2], 5, True], ids=repr)
def test_a_script_entry_that_is_not_an_object_is_a_bad_input_at_its_index(entry):
    result = run_scenario(_scenario([entry, CAST], **BOLT), "modern", DB)
    [rejected] = [e for e in result["events"] if e["type"] == "action_rejected"]
    assert (rejected["at"], rejected["code"], rejected["player"], rejected["action"]) == (0, "bad_input", None, None)
    assert rejected["message"] == f"an input is a JSON object, not {json_type(entry)}"
    assert any(e["type"] == "spell_cast" for e in result["events"])  # the next input is played


def test_a_script_that_is_not_a_list_is_a_clear_error():
    with pytest.raises(TypeError, match=r"script: expected a JSON array of inputs, not string"):
        run_scenario(_scenario("pass", **BOLT), "modern", DB)


def test_a_bad_entry_of_a_list_field_is_named():
    bad = {**CAST, "pay_with": ["m1", {"source": "m1", "extra_color": 5}]}
    result = run_scenario(_scenario([bad, CAST], **BOLT), "modern", DB)
    [rejected] = [e for e in result["events"] if e["type"] == "action_rejected"]
    assert rejected["message"] == ("field 'pay_with': entry 1 ({\"extra_color\": 5, \"source\": \"m1\"}) is not of "
                                   "the documented shape; see docs/FORMAT.md §3.2")


def test_the_input_actions_are_the_schema_actions():
    common = json.loads((ROOT / "schema" / "common.schema.json").read_text())
    assert list(ACTIONS) == common["$defs"]["action"]["enum"]
