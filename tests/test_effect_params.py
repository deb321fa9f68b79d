"""Effect parameters are declared once (issue 26 item 2; engine/effect_params.py).

- The card schema's ``effect_*`` definitions and :data:`PARAMETERS` agree key by key, kind by
  kind and required by required, both ways (a key the schema allows that no handler declares,
  a key a handler declares that the schema refuses).
- Every handler of ``effects.HANDLERS`` has a declaration and every declaration a handler.
- A handler reads only declared keys (``EffectParameters`` raises otherwise).
- A key no handler reads fails at card load (``ScenarioError`` naming the file, the JSON path
  and the key) and ``validate``'s lint reports it; every card in fixtures/cards loads.
- The issue's example: ``gain_control``'s handler reads ``duration`` (CR 611.2a, 514.2).
"""

from __future__ import annotations

import copy
import json
import pickle
from pathlib import Path
from typing import Any

import pytest

from mtg_judge.conformance import card_semantics
from mtg_judge.conformance.loader import load_cards
from mtg_judge.engine import cards as engine_cards
from mtg_judge.engine import effect_params, effects
from mtg_judge.engine.cards import CardDefinition, load_card_db
from mtg_judge.engine.effect_params import (
    INTERNAL,
    PARAMETERS,
    EffectParameters,
    UndeclaredParameter,
    declared,
    schema_signature,
)
from mtg_judge.engine.errors import ScenarioError

ROOT = Path(__file__).resolve().parent.parent
SCHEMA = json.loads((ROOT / "schema" / "card.schema.json").read_text())
DEFS = SCHEMA["$defs"]
CARDS = ROOT / "fixtures" / "cards"


def _schema_definitions() -> dict[str, dict]:
    """``{effect type: its effect_* definition}`` from ``$defs.effect``'s if/then branches."""
    out: dict[str, dict] = {}
    for branch in DEFS["effect"]["allOf"]:
        const = branch["if"]["properties"]["type"]
        types = [const["const"]] if "const" in const else const["enum"]
        for t in types:
            out[t] = DEFS[branch["then"]["$ref"].split("/")[-1]]
    return out


SCHEMA_EFFECTS = _schema_definitions()


def test_schema_offers_every_declared_card_effect_and_no_other() -> None:
    assert set(DEFS["effect"]["properties"]["type"]["enum"]) == set(SCHEMA_EFFECTS)
    assert set(SCHEMA_EFFECTS) == set(PARAMETERS) - INTERNAL
    assert INTERNAL <= set(PARAMETERS)


def test_every_handler_is_declared_and_every_declaration_has_a_handler() -> None:
    assert set(effects.HANDLERS) == set(PARAMETERS)


@pytest.mark.parametrize("etype", sorted(SCHEMA_EFFECTS))
def test_schema_and_declaration_agree_key_by_key(etype: str) -> None:
    """Both directions: a schema key the declaration lacks (a key no handler reads, which
    validate would accept) and a declared key the schema refuses (a parameter no card can
    give); then each key's kind and whether it is required."""
    definition = SCHEMA_EFFECTS[etype]
    assert definition.get("additionalProperties") is False, f"effect_{etype} must refuse other keys"
    schema_keys = set(definition["properties"]) - {"type"}
    params = PARAMETERS[etype]
    assert schema_keys - set(params) == set(), f"{etype}: the schema allows keys no handler declares"
    assert set(params) - schema_keys == set(), f"{etype}: declared keys the schema refuses"
    for key, param in params.items():
        sig = schema_signature(definition["properties"][key])
        assert sig in param.kind.schema, f"{etype}.{key}: schema {sig}, declared {param.kind.name}"
    required = set(definition.get("required", ())) - {"type"}
    assert required == {k for k, p in params.items() if p.required}, f"{etype}: required keys differ"


def test_a_kind_names_distinct_schema_shapes() -> None:
    """Kind by kind means something only if two kinds never claim one schema shape, WORD and
    DURATION aside (``"duration": {"const": "end_of_turn"}`` is a fixed duration)."""
    kinds = {p.kind for params in PARAMETERS.values() for p in params.values()}
    seen: dict[str, str] = {}
    for kind in sorted(kinds, key=lambda k: k.name):
        for sig in kind.schema:
            if sig in seen and {seen[sig], kind.name} != {"duration", "word"}:
                pytest.fail(f"{sig} claimed by {seen[sig]} and {kind.name}")
            seen[sig] = kind.name


def test_the_view_refuses_an_undeclared_read_and_survives_copies() -> None:
    view = declared({"type": "gain_control", "what": "self", "duration": "end_of_turn"})
    assert view["what"] == "self" and view.get("duration") == "end_of_turn" and view["type"] == "gain_control"
    assert "duration" in view
    for read in (lambda: view["amount"], lambda: view.get("amount"), lambda: "amount" in view):
        with pytest.raises(UndeclaredParameter, match="'amount'"):
            read()
    for clone in (copy.deepcopy(view), pickle.loads(pickle.dumps(view))):
        assert isinstance(clone, EffectParameters) and clone == view
        with pytest.raises(UndeclaredParameter):
            clone.get("amount")
    with pytest.raises(ValueError, match="unknown effect type"):
        declared({"type": "no_such_effect"})


def _bear(**ability: Any) -> dict:
    return {"name": "Test Bear", "mana_cost": "{1}", "types": ["Creature"], "power": 2, "toughness": 2,
            "abilities": [{"kind": "activated", "cost": {"mana": "{1}"}, **ability}]}


def test_a_key_no_handler_reads_fails_at_load_naming_file_path_and_key() -> None:
    card = _bear(effects=[{"type": "conditional", "condition": {"kicked": 0},
                           "then": [{"type": "gain_control", "what": "self", "until": "end_of_turn"}]}])
    with pytest.raises(ScenarioError) as exc:
        CardDefinition.from_dict(card, source="cards/test_bear.json")
    assert exc.value.path == "cards/test_bear.json: $.abilities[0].effects[0].then[0].until"
    assert "'until'" in exc.value.message and "'gain_control'" in exc.value.message
    with pytest.raises(ScenarioError, match=r"\$\.abilities\[0\]\.effects\[0\]\.amount"):
        load_card_db({"Test Bear": _bear(effects=[{"type": "tap", "what": "self", "amount": 1}])})


def test_unread_keys_inside_tokens_faces_and_delayed_triggers_are_found() -> None:
    token = {"types": ["Creature"], "power": 1, "toughness": 1,
             "abilities": [{"kind": "activated", "cost": {"mana": "{1}"},
                            "effects": [{"type": "draw", "player": "controller", "count": 1, "to": "self"}]}]}
    card = {"name": "Maker", "types": ["Sorcery"], "faces": [
        {"name": "Maker Face", "types": ["Sorcery"],
         "spell": {"effects": [{"type": "create_token", "token": token, "count": 1}]}}],
        "spell": {"effects": [{"type": "create_delayed_trigger", "trigger": {"event": "beginning_of_step"},
                               "effects": [{"type": "untap", "what": "self", "tapped": True}]}]}}
    found = sorted(effect_params._path(parts) for parts, _ in effect_params.unread_keys(card))
    assert found == ["$.faces[0].spell.effects[0].token.abilities[0].effects[0].to",
                     "$.spell.effects[0].effects[0].tapped"]


def test_validate_lint_reports_the_unread_key() -> None:
    card = _bear(effects=[{"type": "destroy", "what": "self", "duration": "end_of_turn"}])
    problems = card_semantics.card_problems(card, "cards/test_bear.json")
    assert [(p.path, "'duration'" in p.message) for p in problems] == [("$.abilities[0].effects[0].duration", True)]


def test_every_card_file_loads_and_lints_without_unread_keys() -> None:
    db = load_card_db(CARDS)
    assert len(db) == len(list(CARDS.glob("*.json")))
    for name, data in load_cards(CARDS).items():
        assert list(effect_params.unread_keys(data)) == [], name


def test_gain_control_reads_its_duration(monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 26's example: ``_gain_control`` never read ``duration``. With ``duration``
    removed from its declaration, a card that sets it fails at load, and the handler (load
    check bypassed) raises UndeclaredParameter: it reads the key (CR 611.2a: "until end of
    turn" ends in the cleanup step, CR 514.2)."""
    from mtg_judge.conformance.runner import collect

    cases = [c for c in collect(ROOT / "fixtures")
             if c.fixture_id == "classic.turn-structure.cleanup-ends-until-end-of-turn-control-change"]
    assert cases, "the fixture of a gain_control until end of turn"
    from mtg_judge.conformance.runner import run_case

    assert run_case(cases[0]).status == "passed"
    monkeypatch.setitem(PARAMETERS, "gain_control", {"what": PARAMETERS["gain_control"]["what"]})
    card = _bear(effects=[{"type": "gain_control", "what": "self", "duration": "end_of_turn"}])
    with pytest.raises(ScenarioError, match="duration"):
        CardDefinition.from_dict(card)
    monkeypatch.setattr(engine_cards, "check_card", lambda data, source: None)
    result = run_case(cases[0])
    assert result.status != "passed" and "duration" in json.dumps(result.__dict__, default=str)


def test_every_key_of_an_effect_that_resolves_is_read(monkeypatch: pytest.MonkeyPatch) -> None:
    """The other way round from the view's refusal: over the whole suite, every (effect type,
    key) of an effect handed to a handler is read by that handler at least once (a declared
    key a handler ignores would be ``_gain_control`` and ``duration`` again). The choice
    effects no fixture resolves (Greater Morphling's) are walked by tests/test_field_walk.py."""
    from mtg_judge.conformance.runner import collect, run_case

    read: set[tuple[str, str]] = set()
    given: set[tuple[str, str]] = set()
    check, init = EffectParameters._check, EffectParameters.__init__

    def recording_check(self: EffectParameters, key: Any) -> None:
        check(self, key)
        read.add((dict.get(self, "type"), key))

    def recording_init(self: EffectParameters, eff: Any, params: Any) -> None:
        init(self, eff, params)
        given.update((eff["type"], k) for k in eff if k != "type")

    monkeypatch.setattr(EffectParameters, "_check", recording_check)
    monkeypatch.setattr(EffectParameters, "__init__", recording_init)
    results = [run_case(case) for case in collect(ROOT / "fixtures")]
    assert all(r.status == "passed" for r in results)
    assert len({t for t, _ in given}) > 40, "the suite resolves effects of many types"
    assert sorted(given - read) == [], sorted(given - read)
