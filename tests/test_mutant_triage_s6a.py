"""Tests that kill random mutants of the seed-6 sample (``mtg-judge mutants --random 400
--seed 6``, docs/MUTANTS.md, the rows triaged on branch mutfix6a) in engine code that no
ruling reaches, so no fixture can: each names the mutant it was written for, and each is
registered in conformance/mutants_tested.json."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import mtg_judge.engine as engine
from mtg_judge.engine import characteristics as ch
from mtg_judge.engine import endure_behold, faces
from mtg_judge.engine.cards import CardDefinition, FrozenDict, describe
from mtg_judge.engine.errors import IllegalAction
from mtg_judge.engine.inputs import _short
from mtg_judge.engine.layers.apply import LayerEffect
from mtg_judge.engine.mana import ManaCost
from mtg_judge.engine.objects import ContinuousEffect, StackItem
from mtg_judge.engine.scenario import ScriptInputs, _card_db, boards, build_game, run_scenario

CARDS = Path(__file__).resolve().parents[1] / "fixtures" / "cards"


def _card(slug: str) -> dict:
    return json.loads((CARDS / f"{slug}.json").read_text(encoding="utf-8"))


def _cards(*pairs):
    return [{"alias": a, "card": c} for a, c in pairs]


def _db(*extra: dict) -> dict[str, CardDefinition]:
    db = dict(_card_db(None))
    for data in extra:
        db[data["name"]] = CardDefinition.from_dict(data, source=f"test card {data['name']!r}")
    return db


def _game(alice: dict, bob: dict | None = None, *extra: dict, step: str = "precombat_main"):
    scenario = {"setup": {"turn": 3, "active_player": "alice", "step": step,
                          "players": [{"id": "alice", **alice}, {"id": "bob", **(bob or {})}]}}
    return build_game(scenario, "modern", _db(*extra), ScriptInputs([]))


def _test_card(name: str, types: list[str], oracle: str, **fields) -> dict:
    """A card file's JSON for a test card (FORMAT §5), no mana ability, cost {1}."""
    return {"name": name, "mana_cost": "{1}", "type_line": " ".join(types), "supertypes": [], "types": types,
            "subtypes": [], "oracle_text": oracle, "layout": "normal", "keywords": [], **fields}


# ---------------------------------------------------------------- the package and card data
def test_an_unknown_engine_attribute_is_an_attribute_error():
    # engine/__init__.py __getattr__ `exc.name != f"{__name__}.{name}"` -> `==` (seed 6): a
    # name that is neither a public name nor a submodule is an AttributeError (PEP 562), so
    # hasattr() answers False, as tests/test_protocol.py relies on; the mutant lets the
    # ModuleNotFoundError of the failed submodule import escape instead.
    with pytest.raises(AttributeError, match="has no attribute 'no_such_part'"):
        engine.no_such_part  # noqa: B018 (the attribute access is the test)
    assert not hasattr(engine, "no_such_part")
    assert engine.rng.__name__ == "mtg_judge.engine.rng"  # a submodule is imported on first use


def test_card_data_in_a_message_is_written_with_sorted_keys():
    # engine/cards.py describe `sort_keys=True` -> `False` (seed 6): a message naming card
    # data (a filter, a target spec) must not depend on the order its keys came in
    # (docs/FORMAT.md §8: messages are for people, the same for the same input).
    spec = {"kind": "creature", "filter": {"types": ["Creature"], "controller": "opponent"}}
    text = '{"filter": {"controller": "opponent", "types": ["Creature"]}, "kind": "creature"}'
    assert describe(spec) == text
    assert describe(FrozenDict({"kind": "creature", "filter": FrozenDict(spec["filter"])})) == text


def test_a_message_cuts_a_value_to_its_sorted_json():
    # engine/inputs.py _short `json.dumps(v, sort_keys=True)` -> `sort_keys=False` (seed 6):
    # the entry a bad_input message quotes is its JSON with sorted keys.
    assert _short({"source": "forest", "extra_color": "R"}) == '{"extra_color": "R", "source": "forest"}'


# ---------------------------------------------------------------- counters, colors, protection
def test_removing_counters_an_object_does_not_have_removes_nothing():
    # engine/actions.py remove_counters `obj.counters.get(kind, 0)` -> `get(kind, 1)` (seed
    # 6): an effect that removes counters of a kind the object has none of removes nothing
    # and logs nothing (CR 122.1: counters are markers an object has). Every caller but the
    # effect checks the count first (costs, CR 606.6; damage to a planeswalker, CR 120.3c),
    # and the pool's one remove_counters effect, Deep-Sea Kraken's, has the intervening "if
    # this card is suspended" (a time counter on it), rechecked as it resolves (CR 603.4).
    game = _game({"battlefield": [{"alias": "bears", "card": "Grizzly Bears", "counters": {"+1/+1": 1}}]})
    bears = game.find("bears")
    before = len(game.events)
    game.remove_counters(bears, "time", 1)
    assert bears.counters == {"+1/+1": 1}
    assert [e for e in game.events[before:] if e["type"] == "counters_removed"] == []
    game.remove_counters(bears, "+1/+1", 3)  # more than it has: the one there is
    assert bears.counters == {}
    assert [e["count"] for e in game.events[before:] if e["type"] == "counters_removed"] == [1]


def test_an_ability_on_the_stack_has_its_sources_colors():
    # engine/characteristics.py colors `return colors(obj.source_lki, game) if ...` -> `return
    # None` (seed 6): the color of an ability is its source's (CR 702.16b: "abilities from red
    # sources"; its last known information, CR 113.7a); one with no source has none. The
    # engine's own callers pass an ability's source_lki itself, so only the public API asks.
    game = _game({"battlefield": _cards(("giant", "Hill Giant"))})
    giant = game.find("giant")
    item = StackItem(ref="ability#1", kind="ability", controller="alice", ability={"effects": []},
                     source=giant.ref, source_card=giant.card, source_lki=giant.copy())
    assert ch.colors(item, game) == ["red"]
    no_source = StackItem(ref="ability#2", kind="ability", controller="alice", ability={"effects": []})
    assert ch.colors(no_source, game) == []


def test_nothing_is_protected_from_no_source():
    # engine/characteristics.py protected_from `if source is None: return False` -> `return
    # True` (seed 6): protection is from a quality of a source (CR 702.16a); with no source
    # there is nothing to be protected from. Every engine caller passes a source (an
    # ability's is its last known information), so only the public API passes None.
    game = _game({"battlefield": _cards(("knight", "White Knight"), ("bears", "Grizzly Bears"))})
    assert not ch.protected_from(game, game.find("knight"), None)
    assert not ch.protected_from(game, game.find("bears"), None)
    black = _game({"battlefield": _cards(("knight", "White Knight"))}, {"battlefield": _cards(("bk", "Black Knight"))})
    assert ch.protected_from(black, black.find("knight"), black.find("bk"))  # protection from black


# ---------------------------------------------------------------- effects card data rarely says
def _play(card: dict, alice: dict, script: list[dict], bob: dict | None = None) -> dict:
    scenario = {"setup": {"turn": 3, "active_player": "alice", "step": "precombat_main",
                          "players": [{"id": "alice", **alice}, {"id": "bob", **(bob or {})}]},
                "script": script}
    return run_scenario(scenario, "modern", cards=_db(card))


def test_an_effect_naming_a_target_its_spell_does_not_have_acts_on_nothing():
    # engine/effects.py Context.refs `i >= len(self.item.targets)` -> `>` (seed 6): an effect
    # reference {"target": i} past the spell's targets names no object (the mutant indexes
    # past the end of the legality list and crashes). No card of the pool says it: the card
    # lint (conformance/card_semantics.py) passes such an index by, so the engine's bound
    # check is what keeps the resolution going (CR 608.2b: the spell does what it can).
    card = _test_card("Test Misaimed Shock", ["Instant"], "Test Misaimed Shock deals 2 damage to any target.",
                      spell={"targets": [{"kind": "any"}],
                             "effects": [{"type": "deal_damage", "amount": 2, "to": {"target": 0}},
                                         {"type": "deal_damage", "amount": 2, "to": {"target": 1}}]})
    result = _play(card, {"hand": _cards(("shock", card["name"])), "mana_pool": {"C": 1}},
                   [{"action": "cast", "player": "alice", "card": "shock", "targets": ["bob"]}, {"action": "resolve"}])
    assert result["state"]["players"]["bob"]["life"] == 18
    assert [e["amount"] for e in result["events"] if e["type"] == "damage_dealt"] == [2]


def test_a_mill_effect_without_a_count_mills_one_card():
    # engine/effects.py _mill `eff.get("count", 1)` -> `2` (seed 6): "mill a card" is the
    # default (CR 701.17a); schema/card.schema.json requires the count, so only card data the
    # schema doesn't check (a protocol run's cards, run_scenario's) reaches the default.
    card = _test_card("Test Glance Back", ["Sorcery"], "Mill a card.",
                      spell={"effects": [{"type": "mill", "player": "controller"}]})
    result = _play(card, {"hand": _cards(("glance", card["name"])), "mana_pool": {"C": 1},
                          "library": _cards(("top", "Island"), ("second", "Forest"), ("third", "Swamp"))},
                   [{"action": "cast", "player": "alice", "card": "glance"}, {"action": "resolve"}])
    alice = result["state"]["players"]["alice"]
    assert alice["graveyard"] == ["top", "glance"] and alice["library"] == ["second", "third"]


# ---------------------------------------------------------------- what the move generator offers
def test_behold_options_offer_a_permanent_the_player_controls_not_an_opponents():
    # engine/endure_behold.py behold_options `o.controller == player` -> `!=` (seed 6; called
    # by the move generator only): the cards that can be beheld are those in the player's
    # hand and the permanents they control (CR 701.4a), so Alice's Shivan Dragon on the
    # battlefield is offered for Caustic Exhale's behold and Bob's is not.
    game = _game({"hand": _cards(("ce", "Caustic Exhale")), "battlefield": _cards(("mine", "Shivan Dragon"))},
                 {"battlefield": _cards(("theirs", "Shivan Dragon"))})
    options = endure_behold.behold_options(game, "alice", game.find("ce"))
    assert options == [("mine", None), (None, ManaCost.parse("{1}"))]  # or pay {1}


def test_a_face_is_castable_only_with_its_layout_and_the_face_both():
    # engine/faces.py castable_faces `d.layout == layout and d.get_face(f) is not None` ->
    # `or` (seed 6; called by the move generator only): the generator offers a spell face
    # only when the card's layout names it and the card has that face (FORMAT §5.1), exactly
    # when Game.cast accepts `face` (faces.cast_face_definition). A card of the pool always
    # has both or neither; a card file with the face but another layout has neither.
    twin = _card("twinmaw-stormbrood")
    odd = {**twin, "name": "Test Normal Stormbrood", "layout": "normal"}  # the Omen face, layout normal
    game = _game({"hand": _cards(("twin", "Twinmaw Stormbrood"), ("odd", odd["name"]),
                                 ("bears", "Grizzly Bears")), "mana_pool": {"R": 3}}, None, odd)
    assert faces.castable_faces(game.find("twin")) == ["omen"]
    assert faces.castable_faces(game.find("odd")) == []
    assert faces.castable_faces(game.find("bears")) == []
    with pytest.raises(IllegalAction) as exc:
        game.cast("alice", {"card": "odd", "face": "omen", "targets": ["bob"]})
    assert exc.value.code == "invalid_choice"


# ---------------------------------------------------------------- the layer system's internals
def test_a_layer_effect_is_shown_by_kind_timestamp_and_source():
    # engine/layers/apply.py LayerEffect.__repr__ `self.source is not None` -> `is`, and its
    # `return f"..."` -> `return None` (seed 6; read by people debugging the layers, no case
    # prints one): a static ability's effect names its source, a resolved one says so.
    game = _game({"battlefield": _cards(("anthem", "Glorious Anthem"))})
    anthem = game.find("anthem")
    static = LayerEffect("7c", "modify_pt", 5, 0, source=anthem, static={"type": "modify_pt"})
    assert repr(static) == "LayerEffect(modify_pt@5 from anthem)"
    resolved = LayerEffect("7c", "modify_pt", 7, 1, resolved=ContinuousEffect("modify_pt", ["anthem"], 7))
    assert repr(resolved) == "LayerEffect(modify_pt@7 from resolved)"


def test_a_static_that_filters_on_attacking_creatures_follows_the_attack():
    # engine/layers/apply.py _volatile `not VOLATILE_KEYS.isdisjoint(spec["all"])` -> `not`
    # dropped (seed 6): a result that read a filter on attacking (or tapped …) creatures is
    # recomputed after any event (engine/layers/system.py), since declaring attackers and
    # tapping change no generation; the mutant keeps the result of before the attack. No
    # card of the pool has such a static ("attacking creatures you control get +1/+0").
    banner = _test_card("Test Charge Banner", ["Enchantment"], "Attacking creatures you control get +1/+0.",
                        abilities=[{"kind": "static", "effect": {
                            "type": "modify_pt", "affected": {"all": {"types": ["Creature"], "controller": "you",
                                                                      "attacking": True}},
                            "power": 1, "toughness": 0}}])
    scenario = {"setup": {"turn": 3, "active_player": "alice", "step": "precombat_main", "players": [
        {"id": "alice", "library": _cards(("a1", "Island"), ("a2", "Island")),
         "battlefield": _cards(("banner", banner["name"]), ("bears", "Grizzly Bears"))},
        {"id": "bob", "library": _cards(("b1", "Island"), ("b2", "Island"))}]},
        "script": [{"action": "advance", "to": "declare_attackers"},
                   {"action": "declare_attackers", "player": "alice", "attackers": ["bears"]},
                   {"action": "advance", "to": "end"}]}
    kept = boards(scenario, "modern", cards=_db(banner))["boards"]
    power = [(b["input"], b["state"]["battlefield"]["bears"]["power"]) for b in kept]
    assert power[0] == (0, 2) and power[-1][1] == 2  # before the attack; in the end step, no longer attacking
    assert (2, 3) in power  # attacking, after the declaration (CR 506.4: until removed from combat)


def test_an_auras_grant_depends_on_an_effect_that_takes_the_auras_abilities():
    # engine/layers/apply.py _may_depend `p is not eff` -> `p is eff` (seed 6): CR 613.8a
    # (existence): a static ability that names no filter ("enchanted creature has shroud",
    # Aspect of Mongoose) still depends on a later "enchantments lose all abilities" in
    # layer 6: applied first, the latter removes the former, so the Bears don't have shroud.
    # In timestamp order alone the Bears would get shroud and keep it (they are no
    # enchantment). The pool's one lose-all, Dress Down, takes creatures' abilities.
    plain = _test_card("Test Plain Enchantments", ["Enchantment"], "Enchantments lose all abilities.",
                       abilities=[{"kind": "static", "effect": {
                           "type": "lose_all_abilities", "affected": {"all": {"types": ["Enchantment"]}}}}])
    game = _game({"battlefield": [{"alias": "bears", "card": "Grizzly Bears"},
                                  {"alias": "aspect", "card": "Aspect of Mongoose", "attached_to": "bears"},
                                  {"alias": "plain", "card": plain["name"]}]}, None, plain)
    assert ch.loses_all_abilities(game, game.find("aspect"))
    assert not ch.has_keyword(game, game.find("bears"), "shroud")
    without = _game({"battlefield": [{"alias": "bears", "card": "Grizzly Bears"},
                                     {"alias": "aspect", "card": "Aspect of Mongoose", "attached_to": "bears"}]})
    assert ch.has_keyword(without, without.find("bears"), "shroud")


def test_a_dependency_loop_applies_before_a_later_independent_effect():
    # engine/layers/apply.py _reaches `if i not in seen` -> `if not` (seed 6): CR 613.8b, a
    # dependency loop is applied in timestamp order, and a loop member with an earlier
    # timestamp than an effect that depends on nothing still applies first (CR 613.7). Two
    # statics (earlier: "Slivers are Goblins", then "Goblins are Slivers", a loop) and a later
    # resolved "the Plain Sliver becomes a Sliver" (its creature types replaced, as Greater
    # Morphling's ability does): in timestamp order the Plain Sliver becomes a Goblin Sliver,
    # then only a Sliver (the latest effect), and the Plain Goblin a Goblin Sliver. The
    # mutant finds no loop, applies the resolved effect first and leaves a Sliver Goblin.
    pacts = [_test_card(name, ["Enchantment"], text, abilities=[{"kind": "static", "effect": {
        "type": "add_creature_types", "affected": {"all": {"subtypes": [have]}}, "subtypes": [add]}}])
        for name, text, have, add in (("Test Goblin Sliver Pact", "Slivers are Goblins.", "Sliver", "Goblin"),
                                      ("Test Sliver Goblin Pact", "Goblins are Slivers.", "Goblin", "Sliver"))]
    bodies = [{**_test_card(name, ["Creature"], "", power=1, toughness=1), "type_line": f"Creature — {sub}",
               "subtypes": [sub]} for name, sub in (("Test Plain Sliver", "Sliver"), ("Test Plain Goblin", "Goblin"))]
    game = _game({"battlefield": _cards(("p1", pacts[0]["name"]), ("p2", pacts[1]["name"]),
                                        ("sliver", bodies[0]["name"]), ("goblin", bodies[1]["name"]))},
                 None, *pacts, *bodies)
    game.effects.append(ContinuousEffect("set_creature_type", ["sliver"], game.new_timestamp(), creature_type="Sliver"))
    game.layers.invalidate()
    assert ch.subtypes(game, game.find("sliver")) == ["Sliver"]
    assert ch.subtypes(game, game.find("goblin")) == ["Goblin", "Sliver"]
