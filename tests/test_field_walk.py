"""No field ignored (issue 22 item 3): the engine and ``validate`` agree on card data field by
field and position by position.

**Positions.** A condition (``schema/card.schema.json`` ``$defs.condition``) may be written in
several places: a ``conditional`` effect of a spell, of an activated ability or of a
triggered ability, a triggered ability's intervening "if" (CR 603.4), a static ability's
condition (CR 611.3), a target's condition (CR 601.2c). For every condition name of the schema
and every position, :func:`test_every_condition_validate_accepts_is_evaluated_where_written`
builds a card with it there: either ``validate`` refuses it (conformance/card_semantics.py,
with the path of the condition), or the engine evaluates it in a game that reaches it without
raising. Before issue 22 ``own_and_control_named`` in a ``conditional`` effect was accepted by
``validate`` and raised ValueError at resolution.
"""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any, Callable

import pytest

from mtg_judge.conformance import card_semantics
from mtg_judge.engine import run_scenario

ROOT = Path(__file__).resolve().parent.parent
SCHEMA = json.loads((ROOT / "schema" / "card.schema.json").read_text())
DEFS = SCHEMA["$defs"]
CARDS = ROOT / "fixtures" / "cards"


def _fixture_card(name: str) -> dict:
    from mtg_judge.conformance.lint import card_slug

    return json.loads((CARDS / f"{card_slug(name)}.json").read_text())


def _test_card(name: str, types: list[str], **fields: Any) -> dict:
    card = {"name": name, "mana_cost": fields.pop("mana_cost", "{1}"), "type_line": " ".join(types),
            "supertypes": [], "types": types, "subtypes": [], "oracle_text": "…", "layout": "normal",
            "keywords": [], "abilities": []}
    if "Creature" in types:
        card.update(power=2, toughness=2)
    card.update(fields)
    return card


def _zone(entries: Any) -> list[dict]:
    out = []
    for e in entries or ():
        alias, _, card = e.partition("=")
        out.append({"alias": alias, "card": card})
    return out


def game(alice: dict, bob: dict, script: list[dict], inline: list[dict], *, step: str = "precombat_main",
         ruleset: str = "modern") -> tuple[dict, str]:
    """An engine-only scenario (players ``alice`` and ``bob``: zones as ``alias=Card`` strings,
    ``mana_pool``), the cards of ``inline`` plus the fixture cards the setup names."""
    players = []
    for pid, spec in (("alice", alice), ("bob", bob)):
        player = {"id": pid, "life": spec.get("life", 20),
                  "library": _zone(spec.get("library", [f"{pid[0]}_lib{i}=Island" for i in range(1, 6)]))}
        for zone in ("hand", "graveyard", "exile", "battlefield"):
            player[zone] = _zone(spec.get(zone))
        if "mana_pool" in spec:
            player["mana_pool"] = spec["mana_pool"]
        players.append(player)
    cards = {c["name"]: c for c in inline}
    for player in players:
        for zone in ("library", "hand", "graveyard", "exile", "battlefield"):
            for entry in player[zone]:
                if entry["card"] not in cards:
                    cards[entry["card"]] = _fixture_card(entry["card"])
    scenario = {"id": "engine.field-walk", "title": "engine-only field walk scenario", "rulings": [],
                "rulesets": [ruleset], "setup": {"seed": 1, "turn": 3, "active_player": "alice", "step": step,
                                                 "lands_played": 0, "players": players},
                "script": script, "expect": {}, "cards": cards}
    return scenario, ruleset


POOL = {"C": 9, "W": 1, "U": 1, "B": 1, "R": 1, "G": 1}
GAIN = [{"type": "gain_life", "player": "controller", "amount": 1}]


def condition_value(name: str) -> Any:
    """A valid value of condition ``name``, from its schema (an integer at its minimum or 1, a
    boolean true, a card name, a card-quality object)."""
    spec = DEFS["condition"]["properties"][name]
    kind = spec.get("type")
    if kind == "boolean":
        return True
    if kind == "integer":
        return max(1, spec.get("minimum", 1))
    if kind == "string":
        return "Grizzly Bears"
    if kind == "object":
        return {"types": ["Creature"]}
    raise AssertionError(f"no value for condition {name} ({spec})")


def _conditional(cond: dict) -> list[dict]:
    return [{"type": "conditional", "condition": cond, "then": GAIN, "else": GAIN + GAIN}]


def _spell_conditional(cond: dict) -> tuple[dict, Callable[[dict], tuple[dict, str]]]:
    card = _test_card("Test Conditional Sorcery", ["Sorcery"], spell={"targets": [], "effects": _conditional(cond)})
    return card, lambda c: game({"hand": ["s=" + c["name"]], "mana_pool": POOL, "battlefield": ["b=Grizzly Bears"],
                                 "graveyard": ["g=Grizzly Bears"]}, {},
                                [{"action": "cast", "player": "alice", "card": "s"}, {"action": "resolve"}], [c])


def _activated_conditional(cond: dict) -> tuple[dict, Callable[[dict], tuple[dict, str]]]:
    card = _test_card("Test Conditional Relic", ["Artifact"], abilities=[
        {"kind": "activated", "cost": {"mana": "{1}"}, "effects": _conditional(cond)}])
    return card, lambda c: game({"battlefield": ["r=" + c["name"], "b=Grizzly Bears"], "mana_pool": POOL,
                                 "graveyard": ["g=Grizzly Bears"]}, {},
                                [{"action": "activate", "player": "alice", "source": "r", "ability": 0},
                                 {"action": "resolve"}], [c])


def _cast_watcher(ability: dict) -> tuple[dict, Callable[[dict], tuple[dict, str]]]:
    card = _test_card("Test Conditional Watcher", ["Enchantment"], abilities=[ability])
    return card, lambda c: game({"battlefield": ["w=" + c["name"], "b=Grizzly Bears"],
                                 "hand": ["s=Grizzly Bears"], "mana_pool": POOL, "graveyard": ["g=Grizzly Bears"]}, {},
                                [{"action": "cast", "player": "alice", "card": "s"}, {"action": "resolve"},
                                 {"action": "resolve"}], [c])


def _triggered_conditional(cond: dict) -> tuple[dict, Callable[[dict], tuple[dict, str]]]:
    return _cast_watcher({"kind": "triggered", "trigger": {"event": "spell_cast", "player": "you"},
                          "effects": _conditional(cond)})


def _intervening_if(cond: dict) -> tuple[dict, Callable[[dict], tuple[dict, str]]]:
    return _cast_watcher({"kind": "triggered", "trigger": {"event": "spell_cast", "player": "you"},
                          "condition": cond, "effects": GAIN})


def _static_condition(cond: dict) -> tuple[dict, Callable[[dict], tuple[dict, str]]]:
    card = _test_card("Test Conditional Bear", ["Creature"], abilities=[
        {"kind": "static", "condition": cond,
         "effect": {"type": "modify_pt", "affected": "self", "power": 1, "toughness": 1}}])
    return card, lambda c: game({"battlefield": ["cb=" + c["name"], "b=Grizzly Bears"],
                                 "graveyard": ["g=Grizzly Bears"]}, {}, [{"action": "pass", "player": "alice"}], [c])


def _target_condition(cond: dict) -> tuple[dict, Callable[[dict], tuple[dict, str]]]:
    card = _test_card("Test Conditional Shock", ["Sorcery"], spell={
        "targets": [{"kind": "player", "condition": cond}],
        "effects": [{"type": "deal_damage", "amount": 1, "to": {"target": 0}}]})
    return card, lambda c: game({"hand": ["s=" + c["name"]], "mana_pool": POOL}, {},
                                [{"action": "cast", "player": "alice", "card": "s", "targets": ["bob"]},
                                 {"action": "resolve"}], [c])


#: The places a condition may be written, each: condition -> (card, scenario builder).
POSITIONS: dict[str, Callable[[dict], tuple[dict, Callable[[dict], tuple[dict, str]]]]] = {
    "spell.conditional": _spell_conditional,
    "activated.conditional": _activated_conditional,
    "triggered.conditional": _triggered_conditional,
    "triggered.intervening_if": _intervening_if,
    "static.condition": _static_condition,
    "target.condition": _target_condition,
}


def test_the_walk_names_every_condition_of_the_schema() -> None:
    assert set(DEFS["condition"]["properties"]) >= {"own_and_control_named", "kicked", "beheld"}
    assert len(POSITIONS) == 6


@pytest.mark.parametrize("position", sorted(POSITIONS))
@pytest.mark.parametrize("name", sorted(DEFS["condition"]["properties"]))
def test_every_condition_validate_accepts_is_evaluated_where_written(name: str, position: str) -> None:
    """``validate`` refuses the condition at this position (naming its JSON path), or the
    engine evaluates it there: the scenario runs to its end without raising (issue 22)."""
    card, build = POSITIONS[position]({name: condition_value(name)})
    problems = [p for p in card_semantics.card_problems(card, "fixtures/cards/x.json") if name in p.path]
    if problems:
        assert all(p.path.endswith(f"condition.{name}") for p in problems), problems
        return
    scenario, ruleset = build(copy.deepcopy(card))
    result = run_scenario(json.loads(json.dumps(scenario)), ruleset, cards=scenario["cards"])
    errors = [e for e in result["events"] if e["type"] == "script_error"]
    assert not errors, errors
    assert any(e["type"] in ("spell_resolved", "ability_resolved", "step_began", "priority_passed")
               for e in result["events"])


def test_own_and_control_named_in_an_abilitys_conditional_effect_is_evaluated() -> None:
    """Issue 22 (c): ``own_and_control_named`` in a ``conditional`` effect (here of an
    activated ability) is read as in Vanille's intervening "if" (engine/transform.py,
    CR 603.4, 608.2c): the source's controller owns and controls it and a creature with
    that name. True with Grizzly Bears on Alice's battlefield (1 life), false without (2)."""
    for bears, life in ((["b=Grizzly Bears"], 21), ([], 22)):
        card, _ = _activated_conditional({"own_and_control_named": "Grizzly Bears"})
        scenario, ruleset = game({"battlefield": ["r=" + card["name"], *bears], "mana_pool": POOL}, {},
                                 [{"action": "activate", "player": "alice", "source": "r", "ability": 0},
                                  {"action": "resolve"}], [card])
        result = run_scenario(scenario, ruleset, cards=scenario["cards"])
        assert result["state"]["players"]["alice"]["life"] == life


def test_conditions_a_position_never_reads_are_refused_with_their_path() -> None:
    """``validate`` refuses (file, JSON path, reason) a condition that could never hold or is
    not read where it is written: a cast condition in an ability, a permanent condition in a
    spell, anything but ``kicked`` on a target (conformance/card_semantics.py check 6)."""
    cases = [
        (_intervening_if({"beheld": True})[0], "$.abilities[0].condition.beheld", "could never hold here"),
        (_static_condition({"cast_during_your_main_phase": True})[0],
         "$.abilities[0].condition.cast_during_your_main_phase", "could never hold here"),
        (_spell_conditional({"own_and_control_named": "Grizzly Bears"})[0],
         "$.spell.effects[0].condition.own_and_control_named", "could never hold here"),
        (_target_condition({"threshold": 7})[0], "$.spell.targets[0].condition.threshold", "is not read here"),
    ]
    for card, path, words in cases:
        problems = card_semantics.card_problems(card, "fixtures/cards/x.json")
        assert [(p.path, words in p.message) for p in problems] == [(path, True)], problems
    kicked = _target_condition({"kicked": 0})[0]
    kicked["keywords"] = [{"keyword": "kicker", "costs": ["{1}"]}]
    assert card_semantics.card_problems(kicked, "fixtures/cards/x.json") == []
