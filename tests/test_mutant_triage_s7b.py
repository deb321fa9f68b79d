"""Tests that kill random mutants of the seed-7 sample (``mtg-judge mutants --random 400
--seed 7``, docs/MUTANTS.md, the rows of subset b, branch seed7b) in engine code that no
ruling reaches, so no fixture can: the effect handlers' late binding (import time), the
layer system's returned order (public API), hybrid {2/W} costs (no card of the pool), the
seeded generator's range guard (docs/FORMAT.md §7), the checkpoint probes' shared replays
(the harness) and the X of a cost nothing chooses. Each test names the mutant it was
written for, and each is registered in conformance/mutants_tested.json."""

from __future__ import annotations

import pytest

from mtg_judge.engine import scenario as scenario_mod
from mtg_judge.engine.cards import CardDefinition
from mtg_judge.engine.errors import IllegalAction
from mtg_judge.engine.late_binding import late_handler
from mtg_judge.engine.layers.apply import State, collect, dependency_order, static_candidates
from mtg_judge.engine.mana import ManaCost
from mtg_judge.engine.rng import SplitMix64
from mtg_judge.engine.scenario import ScriptInputs, _card_db, build_game, probe, probe_all


def _test_card(name: str, types: list[str], oracle: str, **fields) -> dict:
    """A card file's JSON for a test card (FORMAT §5), cost {1}."""
    return {"name": name, "mana_cost": "{1}", "type_line": " ".join(types), "supertypes": [], "types": types,
            "subtypes": [], "oracle_text": oracle, "layout": "normal", "keywords": [], **fields}


def _db(*extra: dict) -> dict[str, CardDefinition]:
    db = dict(_card_db(None))
    for data in extra:
        db[data["name"]] = CardDefinition.from_dict(data, source=f"test card {data['name']!r}")
    return db


def _scenario(alice: dict, bob: dict | None = None, step: str = "precombat_main") -> dict:
    lib = [{"alias": f"al{i}", "card": "Island"} for i in range(4)]
    blib = [{"alias": f"bl{i}", "card": "Island"} for i in range(4)]
    return {"setup": {"turn": 3, "active_player": "alice", "step": step, "players": [
        {"id": "alice", "library": lib, **alice}, {"id": "bob", "library": blib, **(bob or {})}]}}


# ------------------------------------------------------------------ late binding (import time)
def test_late_handler_looks_the_function_up_each_time_it_runs():
    # engine/late_binding.py late_handler `return handler` -> `return None` (seed 7): the
    # EFFECTS tables of flicker, extra_turns, end_turn and transform are built with it at
    # import, before `mtg-judge mutants --random` swaps any code, so no case can judge it;
    # this test calls it. The handler calls the namespace's function as it is when it runs.
    calls: list[tuple] = []
    namespace = {"effect": lambda ctx, eff: calls.append(("first", ctx, eff))}
    handler = late_handler(namespace, "effect")
    assert callable(handler) and handler.__name__ == "effect"
    handler("ctx", {"type": "effect"})
    namespace["effect"] = lambda ctx, eff: calls.append(("second", ctx, eff))
    handler("ctx2", {})
    assert calls == [("first", "ctx", {"type": "effect"}), ("second", "ctx2", {})]
    with pytest.raises(KeyError):
        late_handler({}, "missing")("ctx", {})


# ------------------------------------------------------------ layers: the order returned
def test_dependency_order_returns_the_order_the_effects_applied_in():
    # engine/layers/apply.py dependency_order `return done + remaining` -> `return None`
    # (seed 7): the layer system's one caller (compute) ignores the order, but
    # dependency_order is exported (engine.layers.__all__) and documented to return it.
    # CR 613.8b: "Slivers are Goblins" (earlier) depends on "Creatures are Slivers" (later),
    # so the latter applies first; two effects that depend on nothing apply in timestamp
    # order (CR 613.7), through the shortcut that returns `done + remaining` at once.
    pact = _test_card("Test Goblin Sliver Pact", ["Enchantment"], "Slivers are Goblins.", abilities=[
        {"kind": "static", "effect": {"type": "add_creature_types", "affected": {"all": {"subtypes": ["Sliver"]}},
                                      "subtypes": ["Goblin"]}}])
    tide = _test_card("Test Sliver Tide", ["Enchantment"], "Creatures are Slivers.", abilities=[
        {"kind": "static", "effect": {"type": "add_creature_types", "affected": {"all": {"types": ["Creature"]}},
                                      "subtypes": ["Sliver"]}}])
    foundry = _test_card("Test Golem Foundry", ["Enchantment"], "Artifacts are Golems.", abilities=[
        {"kind": "static", "effect": {"type": "add_creature_types", "affected": {"all": {"types": ["Artifact"]}},
                                      "subtypes": ["Golem"]}}])
    db = _db(pact, tide, foundry)

    def layer4(*names: str):
        bf = [{"alias": f"e{i}", "card": n} for i, n in enumerate(names)] + [{"alias": "bears", "card": "Grizzly Bears"}]
        game = build_game(_scenario({"battlefield": bf}), "modern", db, ScriptInputs([]))
        state = State(game, list(game.battlefield), game.layers.printed)
        effects = collect(game, static_candidates(game))["4"]
        return game, state, effects

    game, state, effects = layer4(pact["name"], tide["name"])
    assert [e.source.card for e in effects] == ["e0", "e1"]  # timestamp order: the Pact first
    order = dependency_order(state, effects)
    assert [e.source.card for e in order] == ["e1", "e0"]
    bears = game.find("bears")
    assert state.has_subtype(bears, "Sliver") and state.has_subtype(bears, "Goblin")

    _, state, effects = layer4(foundry["name"], tide["name"])  # independent: timestamp order
    assert [e.source.card for e in dependency_order(state, effects)] == ["e0", "e1"]


# ------------------------------------------------------------------ hybrid {2/W} symbols
def test_a_monocolored_hybrid_symbol_is_paid_with_its_color_or_two_generic_mana():
    # engine/mana.py ManaCost.hybrid_choices.<locals>.walk `generic + extra` -> `-` (seed 7):
    # CR 107.4e, {2/W} is paid with {W} or with two generic mana. No card of the pool has a
    # {2/W} symbol (the pool's hybrid cards have two colors, where `extra` is 0).
    assert [c.text() for c in ManaCost.parse("{2/W}").hybrid_choices()] == ["{W}", "{2}"]
    assert [c.text() for c in ManaCost.parse("{1}{2/W}").hybrid_choices()] == ["{1}{W}", "{3}"]
    assert [c.text() for c in ManaCost.parse("{2/W}{2/U}").hybrid_choices()] == [
        "{W}{U}", "{2}{W}", "{2}{U}", "{4}"]
    assert [c.text() for c in ManaCost.parse("{W/U}").hybrid_choices()] == ["{W}", "{U}"]


# ----------------------------------------------------------------- the seeded generator
class _Bounded(SplitMix64):
    """A SplitMix64 that refuses to draw more than ``budget`` times: a rejection loop that
    would never end fails the test instead of hanging it."""

    def __init__(self, seed: int, budget: int) -> None:
        super().__init__(seed)
        self.budget = budget

    def next(self) -> int:
        if self.budget <= 0:
            raise RuntimeError("drew too many times: the rejection sampling never ends")
        self.budget -= 1
        return super().next()


@pytest.mark.parametrize("n", [(1 << 63) + 1, 1 << 64, (1 << 64) + 1])
def test_below_refuses_every_range_wider_than_2_to_the_63(n):
    # engine/rng.py SplitMix64.below `n > 1 << 63` -> `n > 2 << 63` (seed 7): below's
    # docstring and FORMAT §7 promise a ValueError for n > 2**63; the mutant lets
    # 2**63 < n <= 2**64 through, where the limit (2**63 // n) * n is 0 and the rejection
    # loop never ends (the bounded generator turns that into a failure).
    # It kills `n > 1 << 64` (the 63 edited) as well, which seed 7's subset a found killable.
    with pytest.raises(ValueError, match=r"2\*\*63"):
        _Bounded(7, 64).below(n)
    assert _Bounded(7, 64).below(1 << 63) == SplitMix64(7).next() >> 1  # the widest range it accepts


# ------------------------------------------------------------- checkpoint probes (harness)
def test_probe_all_shares_one_replay_among_rejected_actions_and_probes_a_macro_alone(monkeypatch):
    # engine/scenario.py _ProbeInputs.end_of_script `if self.k >= len(self.actions)` -> `if
    # not`, and probe_all `if k not in simple` -> `in` (seed 7): probe_all gives each action
    # probe's answer (FORMAT §3.3 checkpoints) in fewer replays: the actions the game rejects
    # share one replay of the prefix, and a macro (`resolve`, `advance`) gets a replay of its
    # own. The first mutant gives every action a replay of its own (the same answers, four
    # games instead of one); the second never probes the macro.
    db = _card_db(None)
    scenario = _scenario({"hand": [{"alias": "bolt", "card": "Lightning Bolt"}], "mana_pool": {"R": 1}},
                         {"battlefield": [{"alias": "b_forest", "card": "Forest"}]})
    at_land = {"action": "cast", "player": "alice", "card": "bolt", "targets": ["b_forest"]}
    by_bob = {"action": "cast", "player": "bob", "card": "bolt", "targets": ["alice"]}
    unknown = {"action": "cast", "player": "alice", "card": "nothing", "targets": ["bob"]}
    at_bob = {"action": "cast", "player": "alice", "card": "bolt", "targets": ["bob"]}
    macro = {"action": "resolve"}
    actions = [at_land, by_bob, unknown, at_bob, macro]
    expected = [probe(scenario, "modern", db, [], a) for a in actions]
    assert [(r["legal"], r["code"]) for r in expected] == [
        (False, "invalid_target"), (False, "not_your_priority"), (False, "unknown_object"), (True, None), (True, None)]

    games = []
    real = scenario_mod.build_game

    def counting(*args, **kwargs):
        games.append(1)
        return real(*args, **kwargs)

    monkeypatch.setattr(scenario_mod, "build_game", counting)
    assert probe_all(scenario, "modern", db, [], actions) == expected
    assert len(games) == 2  # one replay for the four cast actions, one for the macro


# ------------------------------------------------------------- an X nothing chooses is 0
def test_an_x_given_to_a_mana_ability_without_x_is_ignored():
    # engine/mana_abilities.py activate_mana_ability `"remove_counters" in cost` -> `not in`
    # (seed 7): only a mana ability that removes X counters or adds X mana in a combination
    # (storage lands, FORMAT §10) reads the input's `x`; a Forest's ignores one.
    game = build_game(_scenario({"battlefield": [{"alias": "forest", "card": "Forest"}]}), "modern",
                      _card_db(None), ScriptInputs([]))
    forest = game.find("forest")
    game.activate_mana_ability("alice", forest, 0, None, {"x": -1})
    assert game.players["alice"].pool.as_dict() == {"G": 1}


def test_the_x_of_a_mana_ability_nothing_chooses_is_zero():
    # engine/mana_abilities.py activate_mana_ability `x = 0` -> `x = 1` (seed 7): an X in the
    # cost of a mana ability that neither removes X counters nor adds X mana is 0, as for the
    # costs of special actions (no input chooses it). No card of the pool has such a cost:
    # this test card's "{X}, {T}: Add {C}." is paid with no mana.
    rock = _test_card("Test X Rock", ["Artifact"], "{X}, {T}: Add {C}.", abilities=[
        {"kind": "mana", "cost": {"mana": "{X}", "tap": True}, "add": "{C}"}])
    game = build_game(_scenario({"battlefield": [{"alias": "rock", "card": rock["name"]}]}), "modern",
                      _db(rock), ScriptInputs([]))
    game.activate_mana_ability("alice", game.find("rock"), 0, None, {})
    assert game.players["alice"].pool.as_dict() == {"C": 1}


def test_the_dry_run_of_turning_a_permanent_face_up_pays_as_the_action_does():
    # engine/special_actions.py special_action: the dry run's `x=0` -> `x=1` before turning a
    # face-down permanent face up (seed 7): the dry run checks the payment the action then
    # makes, with X = 0 (no input chooses X of a morph cost, CR 702.37e). No morph card of the
    # pool has an X in its morph cost: this test card's morph {X}{U} is paid with one Island.
    morph = _test_card("Test X Morph", ["Creature"], "Morph {X}{U}", power=2, toughness=2,
                       keywords=[{"keyword": "morph", "cost": "{X}{U}"}], abilities=[])
    game = build_game(_scenario({"battlefield": [{"alias": "m", "card": morph["name"], "face_down": True},
                                                 {"alias": "i1", "card": "Island"}]}),
                      "modern", _db(morph), ScriptInputs([]))
    game.special_action("alice", {"action": "turn_face_up", "player": "alice", "card": "m", "pay_with": ["i1"]})
    assert not game.find("m").face_down
    with pytest.raises(IllegalAction):  # nothing left to pay with: not a free action
        game2 = build_game(_scenario({"battlefield": [{"alias": "m", "card": morph["name"], "face_down": True}]}),
                           "modern", _db(morph), ScriptInputs([]))
        game2.special_action("alice", {"action": "turn_face_up", "player": "alice", "card": "m"})
