"""Dependency between continuous effects (CR 613.8), in the layer system (engine/layers/).

CR 613.8a: an effect depends on another if both apply in the same layer (or sublayer) and
applying the other would change the existence of the first, what it applies to, or what it
does to any of the things it applies to. CR 613.8b: a dependent effect is applied after the
effect it depends on, whatever their timestamps; if the effects depend on each other in a
loop, the rule is ignored and they apply in timestamp order (613.7). CR 613.8c: after each
effect applies, the order of the remaining ones is worked out again.

No seed ruling shows a dependency (the seeds' continuous-effect rulings are timestamp and
layer-order rulings, covered by tests/test_layers_table.py), so these are engine tests: each
builds a tiny game whose permanents enter in the listed order (so the earlier one has the
earlier timestamp), and checks the characteristics against what the rule text demands,
worked out by hand in each test's comment.
"""

from __future__ import annotations

from mtg_judge.engine import characteristics as ch
from mtg_judge.engine.cards import CardDefinition
from mtg_judge.engine.errors import ScriptExhausted
from mtg_judge.engine.layers import LayerEffect, depends
from mtg_judge.engine.layers.apply import State, collect, static_candidates
from mtg_judge.engine.objects import ContinuousEffect
from mtg_judge.engine.scenario import _card_db, build_game


def _card(name: str, types: list[str], subtypes: list[str], statics: list[dict], keywords: list | None = None,
          pt: tuple[int, int] | None = (2, 2)) -> CardDefinition:
    return CardDefinition.from_dict({
        "name": name, "mana_cost": "{1}", "type_line": " ".join(types) + (" — " + " ".join(subtypes) if subtypes else ""),
        "supertypes": [], "types": types, "subtypes": subtypes, "oracle_text": "", "layout": "normal",
        "keywords": keywords or [], "abilities": [{"kind": "static", "effect": e} for e in statics],
        **({"power": pt[0], "toughness": pt[1]} if pt else {})})


CARDS = {d.name: d for d in [
    # layer 4: "Artifacts you control are Golems in addition to their other types"
    _card("Golem Foundry", ["Enchantment"], [], [
        {"type": "add_creature_types", "affected": {"all": {"types": ["Artifact"]}}, "subtypes": ["Golem"]}], pt=None),
    # layer 4: "Creatures are Slivers in addition to their other types"
    _card("Sliver Tide", ["Enchantment"], [], [
        {"type": "add_creature_types", "affected": {"all": {"types": ["Creature"]}}, "subtypes": ["Sliver"]}], pt=None),
    # layer 4: "Slivers are Goblins in addition to their other types"
    _card("Goblin Sliver Pact", ["Enchantment"], [], [
        {"type": "add_creature_types", "affected": {"all": {"subtypes": ["Sliver"]}}, "subtypes": ["Goblin"]}], pt=None),
    # layer 4: "Goblins are Slivers in addition to their other types"
    _card("Sliver Goblin Pact", ["Enchantment"], [], [
        {"type": "add_creature_types", "affected": {"all": {"subtypes": ["Goblin"]}}, "subtypes": ["Sliver"]}], pt=None),
    # layer 6: "Creatures with flying have first strike"
    _card("Sky Lancers", ["Enchantment"], [], [
        {"type": "grant_keywords", "affected": {"all": {"types": ["Creature"], "keywords": ["flying"]}},
         "keywords": ["first_strike"]}], pt=None),
    # layer 6: "Creatures you control have flying"
    _card("Wind Banner", ["Enchantment"], [], [
        {"type": "grant_keywords", "affected": {"all": {"types": ["Creature"], "controller": "you"}},
         "keywords": ["flying"]}], pt=None),
    # layer 7c: "Goblins get +1/+1"
    _card("Goblin Drummer", ["Enchantment"], [], [
        {"type": "modify_pt", "affected": {"all": {"types": ["Creature"], "subtypes": ["Goblin"]}},
         "power": 1, "toughness": 1}], pt=None),
    _card("Plain Bear", ["Creature"], ["Bear"], []),
    _card("Plain Goblin", ["Creature"], ["Goblin"], []),
    _card("Plain Sliver", ["Creature"], ["Sliver"], []),
]}


class _NoInputs:
    def next(self, game, decision: dict) -> dict:
        raise ScriptExhausted()


def _game(*names: str):
    """A game whose battlefield holds ``names`` (aliases A, B, C …), entering in that order."""
    cards = dict(_card_db(None))
    cards.update(CARDS)
    bf = [{"alias": chr(ord("A") + i), "card": n} for i, n in enumerate(names)]
    scenario = {"setup": {"turn": 3, "active_player": "alice", "step": "precombat_main", "players": [
        {"id": "alice", "battlefield": bf}, {"id": "bob"}]}}
    return build_game(scenario, "modern", cards, _NoInputs())


def _resolved(game, kind: str, alias: str, **fields) -> ContinuousEffect:
    """A resolved spell's effect on one permanent, with a new (the latest) timestamp."""
    ce = ContinuousEffect(kind, [game.find(alias).ref], game.new_timestamp(), **fields)
    game.effects.append(ce)
    return ce


def _layer4_effects(game) -> tuple[State, list[LayerEffect]]:
    state = State(game, list(game.battlefield), game.layers.printed)
    return state, collect(game, static_candidates(game))["4"]


def test_a_type_change_applies_before_the_static_that_depends_on_it():
    """CR 613.8a-b, the classic example: "Artifacts are Golems" (earlier timestamp) depends
    on a later "becomes an artifact in addition to its other types": applying the latter
    changes what the former applies to, so it applies first, and the Bear is a Golem.
    Timestamps alone (CR 613.7) would give no Golem."""
    game = _game("Golem Foundry", "Plain Bear")
    _resolved(game, "gain_card_types", "B", types=("Artifact",))
    bear = game.find("B")
    assert ch.is_type(bear, "Artifact", game)
    assert ch.has_subtype(game, bear, "Golem")
    assert ch.subtypes(game, bear) == ["Bear", "Golem"]
    state, effects = _layer4_effects(game)
    foundry, gain = sorted(effects, key=lambda e: e.timestamp)
    assert depends(state, foundry, gain) and not depends(state, gain, foundry)  # CR 611.2c: locked in


def test_without_the_type_change_nothing_depends_and_the_static_finds_nothing():
    game = _game("Golem Foundry", "Plain Bear")
    assert not ch.has_subtype(game, game.find("B"), "Golem")


def test_losing_the_type_afterwards_takes_the_static_away_again():
    """CR 613.7 within the dependency order: "becomes an artifact", then (later) "isn't an
    artifact": the Foundry depends on both (each changes what it applies to), so it applies
    after both, when the Bear is no artifact: no Golem."""
    game = _game("Golem Foundry", "Plain Bear")
    _resolved(game, "gain_card_types", "B", types=("Artifact",))
    _resolved(game, "lose_card_types", "B", types=("Artifact",))
    bear = game.find("B")
    assert not ch.is_type(bear, "Artifact", game)
    assert not ch.has_subtype(game, bear, "Golem")


def test_a_chain_of_dependencies_applies_in_dependency_order():
    """CR 613.8b-c: "Slivers are Goblins" (earliest) depends on "Creatures are Slivers" (it
    makes the Bear a Sliver); in timestamp order the Pact would apply first and find no
    Sliver. In dependency order the Bear is a Sliver and then a Goblin, and the Goblin lord
    (layer 7c, after layer 4) pumps it."""
    game = _game("Goblin Sliver Pact", "Sliver Tide", "Goblin Drummer", "Plain Bear")
    bear = game.find("D")
    assert ch.has_subtype(game, bear, "Sliver")
    assert ch.has_subtype(game, bear, "Goblin")
    assert ch.power_toughness(game, bear) == (3, 3)


def test_a_dependency_loop_falls_back_to_timestamps():
    """CR 613.8b: "Slivers are Goblins" and "Goblins are Slivers" each change what the other
    applies to: a loop, so they apply in timestamp order. Pact 1 (Slivers → Goblins) first:
    the Sliver becomes a Goblin; then Pact 2 (Goblins → Slivers) reaches the Sliver and the
    Goblin: both are Goblin Slivers. Either way every object gets a result, once."""
    game = _game("Goblin Sliver Pact", "Sliver Goblin Pact", "Plain Sliver", "Plain Goblin")
    state, effects = _layer4_effects(game)
    first, second = effects
    assert depends(state, first, second) and depends(state, second, first)
    for alias in ("C", "D"):
        obj = game.find(alias)
        assert ch.has_subtype(game, obj, "Sliver") and ch.has_subtype(game, obj, "Goblin"), alias
    assert ch.subtypes(game, game.find("C")) == ["Sliver", "Goblin"]
    assert ch.subtypes(game, game.find("D")) == ["Goblin", "Sliver"]


def test_a_keyword_grant_applies_before_the_static_that_reads_that_keyword():
    """CR 613.8a in layer 6: "Creatures with flying have first strike" (earlier) depends on
    "Creatures you control have flying" (later): the Bear has flying and so first strike."""
    game = _game("Sky Lancers", "Wind Banner", "Plain Bear")
    bear = game.find("C")
    assert ch.has_keyword(game, bear, "flying")
    assert ch.has_keyword(game, bear, "first_strike")
    assert ch.keyword_names(game, bear) == ["first_strike", "flying"]


def test_a_resolved_grant_is_read_by_an_earlier_static_too():
    """A resolved "gains flying until end of turn" (CR 611.2c: locked in, it depends on
    nothing) changes what "Creatures with flying have first strike" applies to."""
    game = _game("Sky Lancers", "Plain Bear")
    bear = game.find("B")
    assert not ch.has_keyword(game, bear, "first_strike")
    _resolved(game, "grant_keywords", "B", keywords=("flying",))
    assert ch.has_keyword(game, bear, "first_strike")


def test_lose_all_abilities_comes_first_for_a_grant_whose_source_it_affects():
    """CR 613.8a (existence): a creature lord's grant depends on "creatures lose all
    abilities" with a later timestamp: the lord has no ability left, so its grant doesn't
    exist (tests/test_layers_table.py has the table; here the dependency itself)."""
    lord = _card("Flying Lord", ["Creature"], ["Bird"], [
        {"type": "grant_keywords", "affected": {"all": {"types": ["Creature"], "other": True}}, "keywords": ["flying"]}])
    dress = _card("Mass Plainness", ["Enchantment"], [], [
        {"type": "lose_all_abilities", "affected": {"all": {"types": ["Creature"]}}}], pt=None)
    CARDS.update({lord.name: lord, dress.name: dress})
    try:
        game = _game("Flying Lord", "Plain Bear", "Mass Plainness")
        bear = game.find("B")
        assert not ch.has_keyword(game, bear, "flying")
        assert ch.loses_all_abilities(game, game.find("A"))
        state = State(game, list(game.battlefield), game.layers.printed)
        grant, lose = collect(game, static_candidates(game))["6"]
        assert grant.kind == "grant_keywords" and lose.kind == "lose_all_abilities"
        assert depends(state, grant, lose) and not depends(state, lose, grant)
        assert [src for src, _ in ch.static_effects(game)] == [game.find("C")]  # the lord's grant is gone
    finally:
        del CARDS[lord.name], CARDS[dress.name]
