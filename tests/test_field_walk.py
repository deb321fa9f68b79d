"""No field ignored (issue 22 item 3): the engine and ``validate`` agree on card data field by
field and position by position.

**Fields** (:func:`test_field_changes_the_game`): every optional key of every shape of
``schema/card.schema.json`` (read from the schema, so a key added later is walked too) is
removed, or changed to another valid value of its kind, in a passing scenario whose cards use
it, and the event log or the final state must change; or ``validate`` refuses the key
(:data:`FIELD_REFUSED`), or its schema description says it has no rules meaning, or it is
listed in :data:`FIELD_PENDING` with the reason (an expected failure). The comment before
:func:`fields` says more.

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
import test_vocabulary_effects as shapes  # tests/ is on sys.path: the shape walk's scenarios and builders

from mtg_judge.conformance import card_semantics
from mtg_judge.engine import run_scenario

ROOT = Path(__file__).resolve().parent.parent
SCHEMA = json.loads((ROOT / "schema" / "card.schema.json").read_text())
DEFS = SCHEMA["$defs"]
CARDS = ROOT / "fixtures" / "cards"


def _test_card(name: str, types: list[str], **fields: Any) -> dict:
    card = {"name": name, "mana_cost": fields.pop("mana_cost", "{1}"), "type_line": " ".join(types),
            "supertypes": [], "types": types, "subtypes": [], "oracle_text": "…", "layout": "normal",
            "keywords": [], "abilities": []}
    if "Creature" in types:
        card.update(power=2, toughness=2)
    card.update(fields)
    return card


#: The shape walk's builders of engine-only scenarios, shared (tests/ is on sys.path).
_fixture_card = shapes._fixture_card
game = shapes._game


POOL = {"C": 9, "W": 1, "U": 1, "B": 1, "R": 1, "G": 1}
GAIN = [{"type": "gain_life", "player": "controller", "amount": 1}]


def condition_value(name: str) -> Any:
    """A valid value of condition ``name``, from its schema (its first example, an integer at
    its minimum or 1, a boolean true, a card name, a step, a card-quality object or filter)."""
    spec = DEFS["condition"]["properties"][name]
    if "examples" in spec:  # an object with its own keys ("triggering_spell_targets")
        return spec["examples"][0]
    if spec.get("$ref", "").endswith("/step"):
        return "precombat_main"
    if spec.get("$ref", "").endswith("/filter"):
        return {"types": ["Creature"]}
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


# ------------------------------------------------------------------ the field walk
# **Fields.** tests/test_vocabulary_effects.py knocks *shapes* out (an effect, a trigger, a
# keyword, a filter key, a condition, a cost part, a target field); this walk goes one level
# down: every optional key of every shape of the schema (read from ``$defs``: each effect,
# static effect, trigger and ability kind, a token, a mode, a spell, a face, the card itself)
# is removed, or changed to another valid value of its kind (:func:`alternatives`), in a
# passing scenario whose cards use it, and the event log (rejections aside) or the final
# state must change. The shapes whose keys the shape walk already knocks out one by one
# (:data:`WALKED_BY_SHAPES`) are not walked twice. A key whose schema description says it has
# "no rules meaning" (an ability word, CR 207.2c; a mode's flavor name) is text for people
# and is only checked to say so. A key nothing changes must start working in the engine, be
# refused by ``validate``, or be listed in :data:`FIELD_PENDING` with the reason (an expected
# failure, strict).


#: $defs whose every optional key is a shape of the shape walk (filter keys, conditions, cost
#: parts, target spec fields and zones): walked there, each by a knock-out.
WALKED_BY_SHAPES = {"filter": "filter", "condition": "condition", "cost": "cost", "target_spec": "target_field"}

#: Card fields that are text for people (DESIGN §6: adapters may build cards from the Oracle
#: text; the reference engine reads the machine-readable part).
TEXT_FIELDS = {("card", "notes"), ("face", "notes"), ("card", "unexpressed")}

#: Fields ``validate`` refuses in card data (the engine never reads them there): a card with
#: one, the JSON path and words of the refusal.
FIELD_REFUSED: dict[tuple[str, str], tuple[dict, str, str]] = {
    ("effect_pay_or_sacrifice", "reason"): (
        _test_card("Test Upkeep Debt", ["Enchantment"], abilities=[
            {"kind": "triggered", "trigger": {"event": "beginning_of_step", "step": "upkeep", "player": "you"},
             "effects": [{"type": "pay_or_sacrifice", "cost": "{1}", "reason": "echo"}]}]),
        "$.abilities[0].effects[0].reason", "label of the engine's own decisions"),
}

#: Fields with no scenario that shows them changing the game, each with the reason.
FIELD_PENDING: dict[tuple[str, str], str] = {
    ("trigger_beginning_of_step", "next"): (
        "redundant with the delayed trigger it is written in: a delayed triggered ability triggers only the "
        "next time its event occurs, with or without the word (CR 603.7c; engine/delayed_triggers.py); on an "
        "ordinary trigger it would mean nothing"),
    ("trigger_cycled", "other"): (
        "inert by construction: a cycled card is in a hand and a triggered ability works on the battlefield, "
        "so the card cycled is always another card (CR 702.29a, 113.6); Oracle wording only (Drannith Healer)"),
    ("trigger_put_into_graveyard", "from"): (
        "the schema's one value, battlefield, is also the default: the engine fires put_into_graveyard only "
        "for a permanent leaving the battlefield; 'from anywhere' (a discarded or milled card, a resolved "
        "spell) is not modelled"),
    ("face", "enchant"): (
        "no card of the pool has an Aura face, and an Aura face reaching the battlefield by transforming or "
        "melding (CR 712, 701.37) is not modelled; engine/cards.py reads a face's enchant as a card's"),
    ("effect_create_delayed_trigger", "targets"): (
        "no card of the pool has a delayed trigger with its own targets; engine/delayed_triggers.py "
        "schedules them (targets chosen as it is put on the stack, CR 603.3d), no scenario plays one yet"),
}


def _family(defname: str) -> tuple[str, tuple[str, ...]] | None:
    """How a ``$defs`` shape is found in card data: ``(family, discriminator values)``."""
    for family, key in (("effect", "type"), ("static_effect", "type"), ("trigger", "event"), ("ability", "kind")):
        for branch in DEFS[family]["allOf"]:
            if branch["then"]["$ref"].rsplit("/", 1)[1] == defname:
                tag = branch["if"]["properties"][key]
                return family, tuple(tag["enum"]) if "enum" in tag else (tag["const"],)
    if defname in ("token", "mode", "spell", "face"):
        return defname, ()
    if defname in _GAME_AMOUNTS:  # {"counters_on": R, "counter": …}: found by its required key
        return "amount", tuple(DEFS[defname]["required"])
    return None


#: The object forms of an amount read from the game (``$defs.game_amount``), walked key by key.
_GAME_AMOUNTS = frozenset(b["$ref"].rsplit("/", 1)[1] for b in DEFS["game_amount"]["anyOf"])


def fields() -> list[tuple[str, str]]:
    """Every ``(shape, optional key)`` of the schema the walk covers (module comment)."""
    out = [("card", k) for k in SCHEMA["properties"] if k not in SCHEMA.get("required", ())]
    for name, spec in DEFS.items():
        if name in WALKED_BY_SHAPES or _family(name) is None:
            continue
        required = set(spec.get("required", ())) | {"type", "kind", "event", "keyword"}
        out += [(name, k) for k in spec.get("properties", {}) if k not in required]
    return sorted(out)


def occurrences(card: dict, defname: str) -> list[dict]:
    """The dicts of ``card`` that are instances of shape ``defname``."""
    if defname == "card":
        return [card]
    family, tags = _family(defname) or ("", ())
    found = []
    for node, key in shapes._walk(card):
        if not isinstance(node, dict):
            continue
        if family == "effect" and node.get("type") in tags and "kind" not in node and key != "effect":
            found.append(node)
        elif family == "static_effect" and key == "effect" and node.get("type") in tags:
            found.append(node)
        elif family == "trigger" and key in ("trigger", "at") and node.get("event") in tags:
            found.append(node)
        elif family == "ability" and key == "abilities" and node.get("kind") in tags:
            found.append(node)
        elif family in ("token", "spell") and key == family:
            found.append(node)
        elif (family, key) in (("mode", "modes"), ("face", "faces")):
            found.append(node)
        elif family == "amount" and all(tag in node for tag in tags):
            found.append(node)
    return found


def _prop(defname: str, key: str) -> dict:
    return (SCHEMA if defname == "card" else DEFS[defname])["properties"][key]


COMMON = json.loads((ROOT / "schema" / "common.schema.json").read_text())["$defs"]


def _resolve(spec: dict) -> dict:
    """``spec`` with its ``$ref`` (to this schema's or common.schema.json's ``$defs``) followed."""
    while "$ref" in spec:
        where, _, name = spec["$ref"].rpartition("/")
        base = DEFS if where == "#/$defs" else COMMON
        spec = {**base[name], **{k: v for k, v in spec.items() if k != "$ref"}}
    return spec


def single_valued(spec: dict) -> bool:
    """Has the field only one valid value (a ``const``, a one-value enum, an object whose
    every property is so)? Then there is nothing to change it to."""
    spec = _resolve(spec)
    if "const" in spec or len(spec.get("enum", ())) == 1:
        return True
    props = spec.get("properties")
    return bool(props) and set(spec.get("required", ())) == set(props) and all(single_valued(v) for v in props.values())


_OBJECTS = ["self", "enchanted", "equipped", "triggering_object", "created_tokens"]
_PLAYERS = ["controller", "each_opponent", "each_player", "defending_player", "triggering_player"]


def alternatives(defname: str, key: str, value: Any) -> list[Any]:
    """Other valid values of the field's kind for ``value`` (``[]``: only removal): a boolean
    flipped, an integer one more (or less, at a maximum), another value of an enum, another
    reference word of the same kind (or ``self`` for a target), a filter that names lands,
    a list without its last item, a string with a word added."""
    spec = _resolve(_prop(defname, key))
    if isinstance(value, bool):
        return [not value]
    if isinstance(value, int):
        top = spec.get("maximum")
        return [value - 1 if top is not None and value >= top else value + 1]
    enum = spec.get("enum") or next((b.get("enum") for b in spec.get("anyOf", ()) if "enum" in b), None)
    if isinstance(value, str) and enum:
        for words in (_OBJECTS, _PLAYERS):
            if value in words:
                return [w for w in words if w != value and w in enum][:1]
        return [v for v in enum if v != value][:1]
    if isinstance(value, dict) and set(value) == {"target"}:
        return ["self"]
    if value == "self" and any("$ref" in b for b in spec.get("anyOf", ())):  # "self" or a filter
        return [{"types": ["Land"]}]
    if isinstance(value, dict) and set(value) == {"all"}:
        return ["self"]
    if isinstance(value, str) and value.startswith("{"):  # a mana cost or mana symbols
        swap = str.maketrans("WUBRG", "UBRGW")
        return [value + "{1}", value.translate(swap)]
    if isinstance(value, dict) and value and set(value) <= set(DEFS["cost"]["properties"]):
        if isinstance(value.get("mana"), str):
            return [{**value, "mana": value["mana"] + "{1}"}]
        return [{**value, "pay_life": 1}] if "pay_life" not in value else [{**value, "pay_life": value["pay_life"] + 1}]
    if isinstance(value, dict) and "kind" not in value and any(
            b.get("$ref", "").endswith("/filter") for b in spec.get("anyOf", ())):  # "self" or a filter
        return [{"types": ["Land"]}] if value != {"types": ["Land"]} else [{"types": ["Creature"]}]
    if isinstance(value, dict) and len(value) == 1 and isinstance(next(iter(value.values())), str) \
            and _resolve(spec.get("properties", {}).get(next(iter(value)), {})).get("type") == "string":
        (k, v), = value.items()  # {"name": "…"}
        return [{k: v + " Other"}]
    if key == "condition" and isinstance(value, dict):
        return [{"life_at_least": 99}]
    if isinstance(value, dict) and set(value) == {"effects"}:  # a replacement's "instead": other effects
        return [{"effects": [{"type": "gain_life", "player": "controller", "amount": 1}]}]
    if isinstance(value, dict) and value.get("event") == "beginning_of_step":  # another step
        steps = COMMON["step"]["enum"]
        return [{**value, "step": next(st for st in steps if st != value.get("step"))}]
    if isinstance(value, dict) and spec.get("properties", {}).get("types") is not None and "kind" not in value:
        return [{"types": ["Land"]}] if value != {"types": ["Land"]} else [{"types": ["Creature"]}]
    if isinstance(value, list) and value and len(value) > spec.get("minItems", 0):
        return [value[:-1]] + ([value[1:]] if len(value) > 1 else [])
    if isinstance(value, list) and value and isinstance(value[-1], dict) and "kind" not in value[-1] \
            and _resolve(spec.get("items", {})).get("properties", {}).get("types") is not None:  # filters
        return [value[:-1] + [{"types": ["Creature"]}]]
    if isinstance(value, list) and value and isinstance(value[-1], list) and all(isinstance(x, int) for x in value[-1]):
        return [value[:-1] + [[x + 1 for x in value[-1]]]]  # another [power, toughness] option
    if isinstance(value, list) and len(value) > 1 and isinstance(value[-1], dict) and set(value[-1]) == {"target"}:
        return [value[:-1] + ["self"]]  # another reference in the last place
    if isinstance(value, list) and value and isinstance(value[-1], (str, int)) and not isinstance(value[-1], bool):
        items = _resolve(spec.get("items", {}))
        last = value[-1]
        other = (last + 1 if isinstance(last, int) else
                 next((v for v in items.get("enum", ()) if v != last and v not in value), f"{last}x"))
        return [value[:-1] + [other]]
    if isinstance(value, str) and spec.get("type") == "string" and "pattern" not in spec:
        return [value + " Other"]
    return []


def _mutants(cards: dict, defname: str, key: str, remove: bool = True) -> list[dict]:
    """The scenario card sets with the field removed everywhere it is used (``remove``), then
    with it changed to each alternative (one card set per alternative)."""
    out = []
    removed = copy.deepcopy(cards)
    n = 0
    for card in removed.values():
        for node in occurrences(card, defname):
            if key in node:
                del node[key]
                n += 1
    if n and remove:
        out.append(removed)
    firsts = [node[key] for card in cards.values() for node in occurrences(card, defname) if key in node]
    for alt in alternatives(defname, key, firsts[0]) if firsts else ():
        changed = copy.deepcopy(cards)
        for card in changed.values():
            for node in occurrences(card, defname):
                if key in node:
                    node[key] = copy.deepcopy(alt)
        out.append(changed)
    return out


def _uses(card: dict, defname: str, key: str) -> bool:
    """Does ``card`` use the field with a value other than an empty list or object (removing
    an empty list (removing one changes nothing by definition)?"""
    return any(key in node and node[key] != [] for node in occurrences(card, defname))


def _field_candidates(defname: str, key: str):
    """(label, scenario, ruleset) of each scenario whose cards use the field:
    :data:`FIELD_SCENARIOS`, the shape walk's engine-only scenarios, then the passing fixtures."""
    builds = list(FIELD_SCENARIOS.get((defname, key), ()))
    builds += [b for bs in FIELD_SCENARIOS.values() for b in bs]
    builds += [b for bs in shapes.EXTRA_SCENARIOS.values() for b in bs]
    seen = set()
    for build in builds:
        if build in seen:
            continue
        seen.add(build)
        scenario, ruleset = build()
        if any(_uses(c, defname, key) for c in scenario["cards"].values()):
            yield f"extra:{build.__name__}", scenario, ruleset
    for i, case in enumerate(shapes._cases()):
        cards = case.scenario.get("cards") or {}
        if any(_uses(c, defname, key) for c in cards.values()) and shapes._passes(i):
            yield case.name, case.scenario, case.ruleset


def field_changes_the_game(defname: str, key: str, remove: bool = True) -> tuple[str | None, list[str]]:
    """The first scenario where removing or changing the field changes the events or the
    state (None if none does), and the scenarios tried. A mutant whose run raises is not a
    change (a broken card is not a game played differently)."""
    tried = []
    for label, scenario, ruleset in _field_candidates(defname, key):
        tried.append(label)
        base = shapes._BASE.setdefault(label, shapes._outcome(scenario, ruleset)) \
            if not label.startswith("extra:") else shapes._outcome(scenario, ruleset)
        for cards in _mutants(scenario.get("cards") or {}, defname, key, remove):
            outcome = shapes._outcome({**scenario, "cards": cards}, ruleset)
            if outcome != base and not (isinstance(outcome, tuple) and outcome[0] == "raised"):
                return label, tried
    return None, tried


def _no_rules_meaning(defname: str, key: str) -> bool:
    return "no rules meaning" in _prop(defname, key).get("description", "")


#: Engine-only scenarios for fields no fixture card uses (or uses where it matters), by field.
FIELD_SCENARIOS: dict[tuple[str, str], list[Callable[[], tuple[dict, str]]]] = {}


@pytest.mark.parametrize("defname,key", fields(), ids=lambda v: str(v))
def test_field_changes_the_game(defname: str, key: str) -> None:
    """Removing or changing each optional field of each shape changes some game (issue 22)."""
    field = (defname, key)
    if field in TEXT_FIELDS or _no_rules_meaning(defname, key):
        return  # text for people: nothing in the rules reads it
    if field in FIELD_REFUSED:
        card, path, words = FIELD_REFUSED[field]
        problems = card_semantics.card_problems(card, "fixtures/cards/x.json")
        assert [(p.path, words in p.message) for p in problems] == [(path, True)], problems
        return
    if field in FIELD_PENDING:
        found, _ = field_changes_the_game(defname, key)
        if found is not None:
            pytest.fail(f"{field} now changes the game in {found}: remove it from FIELD_PENDING")
        pytest.xfail(f"PENDING {field}: {FIELD_PENDING[field]}")
    found, tried = field_changes_the_game(defname, key)
    assert found is not None, (
        f"no scenario shows that field {key!r} of {defname} changes the game (tried {len(tried)}: "
        f"{tried[:6]}): add one to FIELD_SCENARIOS, make validate refuse the field, or list it in "
        "FIELD_PENDING with the reason")


def required_fields() -> list[tuple[str, str]]:
    """Every ``(shape, required key)`` the walk changes (it can't be removed): the same
    shapes as :func:`fields`, minus the keys with a single valid value (nothing to change
    them to, :func:`single_valued`)."""
    out = [("card", k) for k in SCHEMA.get("required", ())]
    for name, spec in DEFS.items():
        if name in WALKED_BY_SHAPES or _family(name) is None:
            continue
        out += [(name, k) for k in spec.get("required", ()) if k not in ("type", "kind", "event", "keyword")
                and not single_valued(spec["properties"][k])]
    return sorted(out)


#: Required keys that are text for people (the engine reads the structured fields) or a whole
#: shape the shape walk knocks out.
REQUIRED_EXEMPT: dict[tuple[str, str], str] = {
    ("card", "name"): "the card's identity: scenarios name cards by it (a changed name is another card)",
    ("card", "type_line"): "text for people; the engine reads supertypes, types and subtypes",
    ("card", "oracle_text"): "text for people (DESIGN §6); the engine reads the machine-readable part",
    ("face", "type_line"): "text for people; the engine reads the face's supertypes, types and subtypes",
    ("face", "oracle_text"): "text for people (DESIGN §6); the engine reads the machine-readable part",
    ("face", "name"): "the face's identity (a changed name is another card's face)",
    ("ability_static", "effect"): "the static effect is itself a shape: test_vocabulary_effects knocks out each",
}


@pytest.mark.parametrize("defname,key", required_fields(), ids=lambda v: str(v))
def test_required_field_changes_the_game_when_changed(defname: str, key: str) -> None:
    """Changing each required field (durations aside: one value) to another valid value of
    its kind (:func:`alternatives`) changes some game: amounts, ``affected``, references,
    costs, steps, filters (issue 22: nothing in a card is read by nobody)."""
    if (defname, key) in REQUIRED_EXEMPT:
        return
    found, tried = field_changes_the_game(defname, key, remove=False)
    assert found is not None, (
        f"no scenario shows that changing required field {key!r} of {defname} changes the game "
        f"(tried {len(tried)}: {tried[:6]}; alternatives of its kind: see alternatives())")


def test_the_field_walk_reads_the_schema() -> None:
    """Every shape with optional keys is walked here or key by key by the shape walk, and
    the tables name only fields of the schema."""
    walked = set(fields())
    assert {("effect_gain_control", "duration"), ("token", "name"), ("ability_triggered", "condition"),
            ("static_effect_cost_reduction", "affected")} <= walked
    vocabulary = set(shapes.vocabulary())
    for defname, category in WALKED_BY_SHAPES.items():
        keys = [k for k in DEFS[defname]["properties"] if k not in DEFS[defname].get("required", ()) and k != "zone"]
        assert {(category, k) for k in keys} <= vocabulary, defname
    assert set(FIELD_PENDING) <= walked and TEXT_FIELDS <= walked and set(FIELD_REFUSED) <= walked
    assert set(REQUIRED_EXEMPT) <= set(required_fields())
    assert not set(FIELD_PENDING) & (set(FIELD_SCENARIOS) | set(FIELD_REFUSED))


# ------------------------------------------------------------------ field scenarios
def _named(build: Callable[[], tuple[dict, str]], name: str) -> Callable[[], tuple[dict, str]]:
    build.__name__ = name
    return build


NEXT_TURN = [{"action": "advance", "to": "upkeep", "turn": 4}]


def _morphling_until_next_turn(ability: int, choice: Any) -> Callable[[], tuple[dict, str]]:
    """Alice activates Greater Morphling's ability ``ability`` (a choice "until end of turn"),
    answers ``choice``, and the game goes on to Bob's upkeep: the cleanup step ends the
    effect (CR 514.2); without a duration it would last (CR 611.2a)."""
    return _named(lambda: game({"battlefield": ["gm=Greater Morphling"], "mana_pool": {"C": 2}}, {},
                               [{"action": "activate", "player": "alice", "source": "gm", "ability": ability},
                                {"action": "resolve"}, {"action": "choose", "player": "alice", "choice": choice},
                                *NEXT_TURN], []), f"morphling_{ability}_until_next_turn")


def _changeling_until_next_turn(ability: int) -> Callable[[], tuple[dict, str]]:
    """Alice taps Amoeboid Changeling: Grizzly Bears gain (0) or lose (1) all creature types
    until end of turn; then Bob's upkeep."""
    return _named(lambda: game({"battlefield": ["ac=Amoeboid Changeling", "bears=Grizzly Bears"]}, {},
                               [{"action": "activate", "player": "alice", "source": "ac", "ability": ability,
                                 "targets": ["bears"]}, {"action": "resolve"}, *NEXT_TURN], []),
                  f"changeling_{ability}_until_next_turn")


def _landforming_until_next_turn() -> tuple[dict, str]:
    """Alice casts Test Landforming Word on her Grizzly Bears ("becomes a land in addition to
    its other types until end of turn"); then Bob's upkeep."""
    return game({"hand": ["w=Test Landforming Word"], "battlefield": ["bears=Grizzly Bears"], "mana_pool": {"G": 1}},
                {}, [{"action": "cast", "player": "alice", "card": "w", "targets": ["bears"]}, {"action": "resolve"},
                     *NEXT_TURN], [])


def _no_combat_damage_next_turn() -> tuple[dict, str]:
    """Alice casts "target creature assigns no combat damage this turn" on Bob's Grizzly Bears;
    in his turn they attack her and deal their combat damage (the effect has ended)."""
    word = _test_card("Test Pacifying Word", ["Sorcery"], spell={
        "targets": [{"kind": "creature"}],
        "effects": [{"type": "assign_no_combat_damage", "what": {"target": 0}, "duration": "end_of_turn"}]})
    return game({"hand": ["w=Test Pacifying Word"], "mana_pool": {"C": 1}}, {"battlefield": ["bears=Grizzly Bears"]},
                [{"action": "cast", "player": "alice", "card": "w", "targets": ["bears"]}, {"action": "resolve"},
                 {"action": "advance", "to": "declare_attackers", "turn": 4},
                 {"action": "declare_attackers", "player": "bob", "attackers": ["bears"]},
                 {"action": "advance", "to": "end_of_combat"}], [word])


def _token_maker(token_fields: dict, effect_fields: dict | None = None, *, step: str = "precombat_main",
                 before: list[dict] = (), after: list[dict] = ()) -> Callable[[], tuple[dict, str]]:
    """Alice casts an instant that creates a 1/1 Test token with ``token_fields`` (and the
    effect's ``effect_fields``), after the inputs ``before``; then the inputs ``after``."""
    token = {"types": ["Creature"], "subtypes": ["Soldier"], "colors": ["white"], "power": 1, "toughness": 1,
             **token_fields}
    maker = _test_card("Test Token Maker", ["Instant"], spell={"targets": [], "effects": [
        {"type": "create_token", "count": 1, "token": token, **(effect_fields or {})}]})
    return _named(lambda: game({"hand": ["m=Test Token Maker"], "mana_pool": POOL,
                                "battlefield": ["att=Grizzly Bears", "f=Forest"]}, {},
                               [*before, {"action": "cast", "player": "alice", "card": "m"}, {"action": "resolve"},
                                *after], [maker], step=step),
                  "token_maker_" + "_".join(sorted({**token_fields, **(effect_fields or {})})))


_ATTACK_FIRST = [{"action": "declare_attackers", "player": "alice", "attackers": ["att"]}]
_TREASURE = {"types": ["Artifact"], "subtypes": ["Treasure"], "colors": [], "abilities": [
    {"kind": "mana", "cost": {"tap": True, "sacrifice_self": True}, "add": {"any_color": 1}}]}


def _treasure_pays() -> tuple[dict, str]:
    """Alice creates a Treasure token and sacrifices it for the {G} of Giant Growth."""
    build = _token_maker({})
    scenario, ruleset = build()
    maker = scenario["cards"]["Test Token Maker"]
    maker["spell"]["effects"][0]["token"] = dict(_TREASURE)
    scenario["setup"]["players"][0]["hand"].append({"alias": "gg", "card": "Giant Growth"})
    scenario["setup"]["players"][0]["mana_pool"] = {"C": 1}
    scenario["cards"]["Giant Growth"] = _fixture_card("Giant Growth")
    scenario["script"] += [{"action": "cast", "player": "alice", "card": "gg", "targets": ["att"],
                            "pay_with": [{"source": "token#1", "color": "G"}]}, {"action": "resolve"}]
    return scenario, ruleset


def _garruk_cast() -> tuple[dict, str]:
    """Alice casts Garruk Wildspeaker: it enters with its printed loyalty in loyalty counters
    (CR 306.5b); with none it would die at once (CR 704.5i)."""
    return game({"hand": ["garruk=Garruk Wildspeaker"], "mana_pool": {"G": 2, "C": 2}}, {},
                [{"action": "cast", "player": "alice", "card": "garruk"}, {"action": "resolve"}], [])


def _fertile_ground_on_bobs_land() -> tuple[dict, str]:
    """Alice's Fertile Ground enchants Bob's Forest; Bob taps it for mana in his turn: its
    controller (Bob) adds the additional mana, not the Aura's controller."""
    scenario, ruleset = game({}, {"battlefield": ["f=Forest"], "hand": ["gg=Giant Growth", "b2=Grizzly Bears"]},
                             [{"action": "cast", "player": "bob", "card": "b2",
                               "pay_with": [{"source": "f", "color": "G", "extra_color": "G"}]},
                              {"action": "resolve"}], [])
    scenario["setup"]["active_player"] = "bob"
    scenario["setup"]["players"][0]["battlefield"].append({"alias": "fg", "card": "Fertile Ground", "attached_to": "f"})
    scenario["cards"]["Fertile Ground"] = _fixture_card("Fertile Ground")
    return scenario, ruleset


def _drannith_sees_bob_cycle() -> tuple[dict, str]:
    """Alice controls Drannith Healer ("whenever you cycle another card"); Bob cycles Backslide."""
    scenario, ruleset = game({"battlefield": ["dh=Drannith Healer"]}, {"hand": ["slide=Backslide"], "mana_pool": {"U": 1}},
                             [{"action": "activate", "player": "bob", "source": "slide", "ability": "cycling"},
                              {"action": "resolve"}], [])
    scenario["setup"]["active_player"] = "bob"
    return scenario, ruleset


def _stabilizer_of_bob() -> tuple[dict, str]:
    """Bob controls Stabilizer; Alice cycles Backslide."""
    return game({"hand": ["slide=Backslide"], "mana_pool": {"U": 1}}, {"battlefield": ["stab=Stabilizer"]},
                [{"action": "activate", "player": "alice", "source": "slide", "ability": "cycling"},
                 {"action": "resolve"}], [])


def _pinger_with_combat_trigger() -> tuple[dict, str]:
    """Alice's creature deals 1 noncombat damage to Bob with its own ability; its "whenever
    this creature deals combat damage" trigger doesn't trigger (CR 510.2, 120.2a)."""
    pinger = _test_card("Test Combat Pinger", ["Creature"], abilities=[
        {"kind": "activated", "cost": {"mana": "{1}"}, "targets": [{"kind": "player"}],
         "effects": [{"type": "deal_damage", "amount": 1, "to": {"target": 0}}]},
        {"kind": "triggered", "trigger": {"event": "deals_damage", "source": "self", "to": "player", "combat": True},
         "effects": GAIN}])
    return game({"battlefield": ["p=Test Combat Pinger"], "mana_pool": {"C": 1}}, {},
                [{"action": "activate", "player": "alice", "source": "p", "ability": 0, "targets": ["bob"]},
                 {"action": "resolve"}], [pinger])


def _exile_and_return_borrowed() -> tuple[dict, str]:
    """Alice controls Bob's Grizzly Bears and casts "exile target creature, then return it to
    the battlefield under its owner's control" (``under: owner``) on them."""
    word = _test_card("Test Homeward Flicker", ["Instant"], spell={
        "targets": [{"kind": "creature"}],
        "effects": [{"type": "exile_and_return", "what": {"target": 0}, "under": "owner"}]})
    scenario, ruleset = game({"hand": ["w=Test Homeward Flicker"], "mana_pool": {"C": 1}}, {},
                             [{"action": "cast", "player": "alice", "card": "w", "targets": ["bears"]},
                              {"action": "resolve"}], [word])
    scenario["setup"]["players"][1]["battlefield"].append({"alias": "bears", "card": "Grizzly Bears",
                                                           "controller": "alice"})
    scenario["cards"]["Grizzly Bears"] = _fixture_card("Grizzly Bears")
    return scenario, ruleset


def _reanimate_bobs(tapped: bool) -> Callable[[], tuple[dict, str]]:
    """Alice returns a creature card from Bob's graveyard to the battlefield under her control
    (``under: controller``), tapped or not."""
    spell = _test_card("Test Grave Theft", ["Sorcery"], spell={
        "targets": [{"kind": "card", "zone": "graveyard", "filter": {"types": ["Creature"]}}],
        "effects": [{"type": "return_to_battlefield", "what": {"target": 0}, "under": "controller",
                     **({"tapped": True} if tapped else {})}]})
    return _named(lambda: game({"hand": ["s=Test Grave Theft"], "mana_pool": {"C": 1}}, {"graveyard": ["g=Grizzly Bears"]},
                               [{"action": "cast", "player": "alice", "card": "s", "targets": ["g"]},
                                {"action": "resolve"}], [spell]), f"reanimate_bobs_{tapped}")


def _extra_combat(then_main: bool) -> Callable[[], tuple[dict, str]]:
    """Alice casts "after this phase, there is an additional combat phase" (with or without
    an additional main phase after it), then goes to her end step."""
    spell = _test_card("Test Extra Battle", ["Sorcery"], spell={"targets": [], "effects": [
        {"type": "additional_phase", "phase": "combat", "then_main": then_main}]})
    return _named(lambda: game({"hand": ["s=Test Extra Battle"], "mana_pool": {"C": 1}}, {},
                               [{"action": "cast", "player": "alice", "card": "s"}, {"action": "resolve"},
                                {"action": "advance", "to": "end"}], [spell]), f"extra_combat_{then_main}")


def _cytoshape_a_legend() -> tuple[dict, str]:
    """Alice casts Cytoshape ("choose a nonlegendary creature") on her Grizzly Bears and
    chooses Gladiolus Amicitia, a legendary creature: the choice is refused."""
    return game({"hand": ["c=Cytoshape"], "battlefield": ["bears=Grizzly Bears", "gl=Gladiolus Amicitia"],
                 "mana_pool": {"G": 1, "U": 1, "C": 1}}, {},
                [{"action": "cast", "player": "alice", "card": "c", "targets": ["bears"]}, {"action": "resolve"},
                 {"action": "choose", "player": "alice", "choice": "gl"}], [])


def _optional_chapter() -> tuple[dict, str]:
    """A Saga's chapter I says "you may draw a card": Alice answers no."""
    saga = _test_card("Test Optional Saga", ["Enchantment"], subtypes=["Saga"], abilities=[
        {"kind": "chapter", "chapters": [1], "optional": True,
         "effects": [{"type": "draw", "player": "controller", "count": 1}]},
        {"kind": "chapter", "chapters": [2], "effects": GAIN}])
    return game({"hand": ["saga=Test Optional Saga"], "mana_pool": {"C": 1}}, {},
                [{"action": "cast", "player": "alice", "card": "saga"}, {"action": "resolve"},
                 {"action": "resolve"}, {"action": "choose", "player": "alice", "choice": "no"}], [saga])


def _cecil_redeemed_attacks() -> tuple[dict, str]:
    """Cecil is on the battlefield back face up (Cecil, Redeemed Paladin: "whenever Cecil
    attacks, other attacking creatures gain indestructible until end of turn"); Alice
    attacks with it and Grizzly Bears: the back face's triggered ability triggers."""
    scenario, ruleset = game({"battlefield": ["bears=Grizzly Bears"]}, {},
                             [{"action": "declare_attackers", "player": "alice", "attackers": ["cecil", "bears"]},
                              {"action": "resolve"}], [], step="declare_attackers")
    scenario["setup"]["players"][0]["battlefield"].append({"alias": "cecil", "card": "Cecil, Dark Knight",
                                                           "transformed": True})
    scenario["cards"]["Cecil, Dark Knight"] = _fixture_card("Cecil, Dark Knight")
    return scenario, ruleset


def _council_discounts_only_the_name() -> tuple[dict, str]:
    """Alice controls Council of the Absolute, the chosen name Lightning Bolt; she casts
    Grizzly Bears ({1}{G}) with one green mana: only the chosen name costs {2} less, so the
    Bears can't be paid for."""
    scenario, ruleset = game({"hand": ["b2=Grizzly Bears"], "mana_pool": {"G": 1}}, {},
                             [{"action": "cast", "player": "alice", "card": "b2"}, {"action": "resolve"}], [])
    scenario["setup"]["players"][0]["battlefield"].append({"alias": "council", "card": "Council of the Absolute",
                                                           "chosen_name": "Lightning Bolt"})
    scenario["cards"]["Council of the Absolute"] = _fixture_card("Council of the Absolute")
    return scenario, ruleset


def _boiling_blood_on_bobs_bears() -> tuple[dict, str]:
    """Alice casts Boiling Blood on Bob's Grizzly Bears in her turn ("attacks this turn if
    able", CR 508.1d); in his turn 4 Bob declares no attackers, then the Bears."""
    return game({"hand": ["bb=Boiling Blood"], "mana_pool": {"R": 1, "C": 2}}, {"battlefield": ["bears=Grizzly Bears"]},
                [{"action": "cast", "player": "alice", "card": "bb", "targets": ["bears"]}, {"action": "resolve"},
                 {"action": "advance", "to": "declare_attackers", "turn": 4},
                 {"action": "declare_attackers", "player": "bob", "attackers": []},
                 {"action": "declare_attackers", "player": "bob", "attackers": ["bears"]},
                 {"action": "advance", "to": "postcombat_main", "turn": 4}], [])


def _pay_the_debt() -> tuple[dict, str]:
    """Alice's permanent says "at the beginning of your upkeep, sacrifice it unless you pay
    {1}"; she pays with the one colorless mana in her pool."""
    debt = _test_card("Test Upkeep Debt", ["Enchantment"], abilities=[
        {"kind": "triggered", "trigger": {"event": "beginning_of_step", "step": "upkeep", "player": "you"},
         "effects": [{"type": "pay_or_sacrifice", "cost": "{1}"}]}])
    return game({"battlefield": ["debt=Test Upkeep Debt"], "mana_pool": {"C": 1}}, {},
                [{"action": "resolve"}, {"action": "choose", "player": "alice", "choice": "yes"}], [debt], step="upkeep")


def _discharge() -> tuple[dict, str]:
    """Alice's artifact with two charge counters: "{1}: remove a charge counter from this
    artifact"."""
    battery = _test_card("Test Battery", ["Artifact"], abilities=[
        {"kind": "activated", "cost": {"mana": "{1}"},
         "effects": [{"type": "remove_counters", "what": "self", "counter": "charge", "count": 1}]}])
    scenario, ruleset = game({"mana_pool": {"C": 1}}, {},
                             [{"action": "activate", "player": "alice", "source": "bat", "ability": 0},
                              {"action": "resolve"}], [battery])
    scenario["setup"]["players"][0]["battlefield"].append({"alias": "bat", "card": "Test Battery",
                                                           "counters": {"charge": 2}})
    return scenario, ruleset


FIELD_SCENARIOS.update({
    ("effect_grant_keyword_choice", "options"): [_morphling_until_next_turn(0, "trample")],
    ("effect_modify_pt_choice", "options"): [_morphling_until_next_turn(5, "-2/+2")],
    ("effect_pay_or_sacrifice", "cost"): [_pay_the_debt],
    ("effect_remove_counters", "count"): [_discharge],
    ("face", "abilities"): [_cecil_redeemed_attacks],
    ("static_effect_cost_reduction", "name"): [_council_discounts_only_the_name],
    ("effect_grant_keyword_choice", "duration"): [_morphling_until_next_turn(0, "flying")],
    ("effect_set_colors_choice", "duration"): [_morphling_until_next_turn(1, "black")],
    ("effect_set_creature_type_choice", "duration"): [_morphling_until_next_turn(2, "Elf")],
    ("effect_modify_pt_choice", "duration"): [_morphling_until_next_turn(5, "+2/-2")],
    ("effect_gain_all_creature_types", "duration"): [_changeling_until_next_turn(0)],
    ("effect_lose_all_creature_types", "duration"): [_changeling_until_next_turn(1)],
    ("effect_gain_card_types", "duration"): [_landforming_until_next_turn],
    ("effect_assign_no_combat_damage", "duration"): [_no_combat_damage_next_turn],
    ("effect_create_token", "tapped"): [_token_maker({}, {"tapped": True})],
    ("effect_create_token", "attacking"): [_token_maker({}, {"attacking": True}, step="declare_attackers",
                                                        before=_ATTACK_FIRST)],
    ("token", "keywords"): [_token_maker({"keywords": ["haste"]}, after=[
        {"action": "advance", "to": "declare_attackers"},
        {"action": "declare_attackers", "player": "alice", "attackers": ["token#1"]}])],
    ("token", "abilities"): [_treasure_pays],
    ("card", "loyalty"): [_garruk_cast],
    ("effect_add_mana", "player"): [_fertile_ground_on_bobs_land],
    ("trigger_cycled", "player"): [_drannith_sees_bob_cycle],
    ("static_effect_cant_cycle", "affected"): [_stabilizer_of_bob],
    ("trigger_deals_damage", "combat"): [_pinger_with_combat_trigger],
    ("effect_exile_and_return", "under"): [_exile_and_return_borrowed],
    ("effect_return_to_battlefield", "tapped"): [_reanimate_bobs(True)],
    ("effect_return_to_battlefield", "under"): [_reanimate_bobs(False)],
    ("effect_additional_phase", "then_main"): [_extra_combat(True), _extra_combat(False)],
    ("effect_become_copy", "nonlegendary"): [_cytoshape_a_legend],
    ("ability_chapter", "optional"): [_optional_chapter],
    # issue 23: Rabid Bite's damage is dealt by the biting creature (without "from", by the
    # spell); Magma Mine counts only its pressure counters (2 of its 3)
    ("effect_deal_damage", "from"): [shapes._rabid_bite],
    ("amount_counters_on", "counter"): [shapes._magma_mine],
    # issue 23 item 2: Boiling Blood's requirement lasts this turn only; without a duration Bob's
    # Bears would still have to attack in his next turn
    ("effect_attacks_if_able", "duration"): [_boiling_blood_on_bobs_bears],
})


# breadth1 (issue 23 item 4): "until end of turn, Sarkhan becomes a Dragon": the one-shot
# add_creature_types; without its duration the Bears are still a Dragon in Bob's upkeep
FIELD_SCENARIOS.update({
    ("effect_add_creature_types", "duration"): [_named(shapes._cast(
        shapes.DRAGONFORM, ["bears"], alice={"battlefield": ["bears=Grizzly Bears"]},
        then=[{"action": "resolve"}, *NEXT_TURN]), "dragonform_until_next_turn")],
})
