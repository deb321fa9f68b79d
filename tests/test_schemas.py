"""The JSON Schemas in schema/ are valid draft 2020-12, their $refs resolve, and every file in
fixtures/ (cards, scenarios, untestable list) and the rulings catalog matches its schema."""

from __future__ import annotations

import json

import pytest
from jsonschema import Draft202012Validator
from referencing import Registry, Resource

from mtg_judge.conformance import loader

SCHEMA_FILES = sorted(loader.SCHEMA_DIR.glob("*.json"))
CARD_FILES = sorted(loader.CARDS_DIR.glob("*.json"))
FIXTURE_FILES = list(loader.iter_fixture_paths())


def _name(path):
    return path.relative_to(loader.FIXTURES_DIR.parent).as_posix()


def _problems(data, schema_name, path) -> str:
    return "\n".join(str(e) for e in loader.validate(data, schema_name, _name(path)))


@pytest.mark.parametrize("path", SCHEMA_FILES, ids=lambda p: p.name)
def test_schema_is_valid_draft_2020_12(path):
    schema = json.loads(path.read_text(encoding="utf-8"))
    Draft202012Validator.check_schema(schema)
    assert schema["$schema"] == "https://json-schema.org/draft/2020-12/schema"
    assert schema["$id"] == f"https://mtg-judge.dev/schema/{path.name}"


def _refs(node):
    if isinstance(node, dict):
        if isinstance(node.get("$ref"), str):
            yield node["$ref"]
        for value in node.values():
            yield from _refs(value)
    elif isinstance(node, list):
        for value in node:
            yield from _refs(value)


def test_every_ref_resolves_offline():
    schemas = [json.loads(p.read_text(encoding="utf-8")) for p in SCHEMA_FILES]
    registry = Registry().with_resources((s["$id"], Resource.from_contents(s)) for s in schemas)
    for schema in schemas:
        resolver = registry.resolver(base_uri=schema["$id"])
        for ref in _refs(schema):
            resolver.lookup(ref)  # raises referencing.exceptions.Unresolvable


def test_there_are_cards_to_check():
    assert CARD_FILES, f"no card files in {loader.CARDS_DIR}"


@pytest.mark.parametrize("path", CARD_FILES, ids=lambda p: p.name)
def test_card_file_matches_schema(path):
    assert _problems(loader.load_json(path), "card", path) == ""


@pytest.mark.parametrize("path", FIXTURE_FILES, ids=_name)
def test_fixture_matches_schema(path):
    assert _problems(loader.load_json(path), "scenario", path) == ""


def test_untestable_list_matches_schema():
    path = loader.FIXTURES_DIR / loader.UNTESTABLE_FILE
    if not path.exists():
        pytest.skip("fixtures/untestable.json does not exist yet")
    assert _problems(loader.load_json(path), "untestable", path) == ""


def test_rulings_catalog_matches_schema():
    catalog = loader.load_rulings()
    assert len(catalog["rulings"]) == len({r["id"] for r in catalog["rulings"]})


# The examples of docs/FORMAT.md, as data: the contract and the schemas must agree.

FORMAT_FIXTURE = {
    "id": "classic.stack.last-in-first-out",
    "title": "The last spell cast is the first to resolve",
    "rulings": ["classic.stack.01"],
    "rulesets": ["modern"],
    "notes": "optional free text: how the scenario shows the ruling",
    "setup": {
        "seed": 1, "turn": 3, "active_player": "alice", "step": "precombat_main", "lands_played": 0,
        "players": [
            {"id": "alice", "life": 20,
             "library": [{"alias": "a_lib1", "card": "Forest"}],
             "hand": [{"alias": "bolt", "card": "Lightning Bolt"}],
             "graveyard": [], "exile": [],
             "battlefield": [{"alias": "elves", "card": "Llanowar Elves", "tapped": False,
                              "summoning_sick": False, "damage": 0, "counters": {"+1/+1": 1},
                              "attached_to": None, "controller": "alice"}],
             "mana_pool": {"G": 1}},
            {"id": "bob", "life": 20, "library": [], "hand": [], "battlefield": []},
        ],
    },
    "script": [
        {"action": "cast", "player": "alice", "card": "bolt", "targets": ["bob"], "pay_with": ["elves"]},
        {"action": "pass", "player": "alice"},
        {"action": "resolve"},
        {"action": "advance", "to": "end", "turn": 3},
        {"action": "random", "outcome": "heads"},
    ],
    "expect": {
        "events": [{"type": "spell_cast", "card": "bolt"}, {"type": "spell_resolved", "card": "bolt"}],
        "absent": [{"type": "state_based_action", "rule": "704.5g"}],
        "state": {"players": {"bob": {"life": 17}}, "battlefield": {"bear": {"$absent": True}}},
        "checkpoints": [
            {"after": 2,
             "state": {"priority": "bob"},
             "legal": [{"player": "bob", "action": "cast", "card": "growth", "targets": ["bear"]}],
             "illegal": [{"action": {"player": "bob", "action": "play_land", "card": "forest"},
                          "code": "sorcery_timing"}]},
        ],
        "rejections": [{"at": 3, "code": "summoning_sick"}],
    },
}

FORMAT_STATE = {
    "turn": 3, "active_player": "alice", "phase": "precombat_main", "step": "precombat_main",
    "priority": "alice",
    "players": {"alice": {"life": 20, "library": ["a_lib1"], "hand": ["bolt"], "graveyard": [],
                          "exile": [], "mana_pool": {}, "lands_played": 0, "lost": False}},
    "battlefield": {"elves": {"object": "elves", "name": "Llanowar Elves", "owner": "alice",
                              "controller": "alice", "tapped": False, "summoning_sick": False,
                              "damage": 0, "power": 1, "toughness": 1, "counters": {},
                              "attached_to": None, "types": ["Creature"],
                              "subtypes": ["Elf", "Druid"], "colors": ["green"], "keywords": []}},
    "stack": [{"object": "ability#1", "card": "ability#1", "kind": "ability", "source": "sorcerer",
               "controller": "alice"}],
    "combat": None,
    "game_over": None,
}

FORMAT_CARD = {
    "name": "Prodigal Sorcerer", "mana_cost": "{2}{U}", "type_line": "Creature — Human Wizard",
    "supertypes": [], "types": ["Creature"], "subtypes": ["Human", "Wizard"],
    "oracle_text": "{T}: Prodigal Sorcerer deals 1 damage to any target.",
    "power": 1, "toughness": 1, "layout": "normal", "keywords": [],
    "abilities": [{"kind": "activated", "cost": {"tap": True}, "targets": [{"kind": "any"}],
                   "effects": [{"type": "deal_damage", "amount": 1, "to": {"target": 0}}]}],
}

FORMAT_EVENTS = [
    {"type": "game_started", "players": ["alice", "bob"], "active_player": "alice", "turn": 3,
     "step": "precombat_main", "ruleset": "modern", "seed": 1},
    {"type": "spell_cast", "player": "alice", "object": "bolt#2", "card": "bolt", "name": "Lightning Bolt",
     "targets": ["bob"], "modes": [], "x": None, "mana_paid": {"R": 1}},
    {"type": "damage_dealt", "source": "bolt#2", "source_card": "bolt", "target": "bob", "amount": 3,
     "combat": False},
    {"type": "zone_changed", "object": "bolt#2", "new_object": "bolt#3", "card": "bolt",
     "name": "Lightning Bolt", "owner": "alice", "from": "stack", "to": "graveyard"},
    {"type": "state_based_action", "rule": "704.5a", "player": "bob"},
    {"type": "action_rejected", "at": 3, "player": "alice", "action": "cast", "code": "sorcery_timing",
     "message": "a sorcery can be cast only in your main phase with an empty stack"},
    {"type": "game_ended", "winners": ["alice"], "losers": ["bob"], "draw": False},
]


def test_format_examples_match_the_schemas():
    assert loader.validate(FORMAT_FIXTURE, "scenario", "FORMAT §3") == []
    assert loader.validate(FORMAT_STATE, "state", "FORMAT §4") == []
    assert loader.validate(FORMAT_CARD, "card", "FORMAT §5") == []
    for event in FORMAT_EVENTS:
        assert loader.validate(event, "event", "FORMAT §6") == []


def test_protocol_messages_match_the_schemas():
    cards = {FORMAT_CARD["name"]: FORMAT_CARD}
    messages = [
        ({"cmd": "start", "version": 1}, "protocol-start"),
        ({"version": 1, "implementation": {"name": "x", "version": "1.0", "language": "python",
                                           "homepage": "https://example.org", "rulesets": ["modern"],
                                           "capabilities": ["checkpoints"]}}, "protocol-start-reply"),
        ({"cmd": "run", "seq": 7, "ruleset": "modern", "scenario": {**FORMAT_FIXTURE, "cards": cards}},
         "protocol-run"),
        ({"seq": 7, "events": FORMAT_EVENTS, "state": FORMAT_STATE,
          "checkpoints": [{"after": 2, "state": FORMAT_STATE,
                           "probes": [{"action": {"action": "pass", "player": "bob"}, "legal": True,
                                       "code": None}]}]}, "protocol-run-reply"),
        ({"seq": 7, "skipped": True, "message": "no classic-1999"}, "protocol-run-reply"),
        ({"seq": 7, "errored": True, "context": {"traceback": "..."}}, "protocol-run-reply"),
        ({"cmd": "stop"}, "protocol-stop"),
    ]
    for message, schema_name in messages:
        assert loader.validate(message, schema_name, schema_name) == []


@pytest.mark.parametrize("message, schema_name, path, text", [
    ({"cmd": "run", "seq": 1, "ruleset": "modern", "scenario": FORMAT_FIXTURE}, "protocol-run",
     "$.scenario", "'cards' is a required property"),
    ({"seq": 1, "skipped": True}, "protocol-run-reply", "$", "'message' is a required property"),
    ({"seq": 1, "events": [{"type": "spell_cast"}], "state": FORMAT_STATE}, "protocol-run-reply",
     "$.events[0]", "'player' is a required property"),
    ({"version": 2, "implementation": {}}, "protocol-start-reply", "$.version", "1 was expected"),
])
def test_bad_protocol_messages_are_named(message, schema_name, path, text):
    errors = loader.validate(message, schema_name, "<reply>")
    assert errors and errors[0].path == path and text in errors[0].message
