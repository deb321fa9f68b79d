"""schema/event.schema.json allows every field docs/FORMAT.md §6 lists (the other direction,
every schema field named by the row, is tests/test_doc_vocabulary.py), its fixture-side
pattern (``$defs/pattern``, closed: ``additionalProperties: false``) allows the same fields as
the event definition, and tools/schema_events.py merges into an existing event type instead
of replacing it.

A row's fields are the code spans of its fields cell outside parentheses (``name: value``
spans give ``name``), up to the prose that follows a colon after a field or a parenthesis
(``…`reason`: a card offered …``); a parenthesis opening with "and" lists more fields.
"""

from __future__ import annotations

import copy
import json
import re
from pathlib import Path

import pytest
from test_doc_vocabulary import ROWS

from mtg_judge.tools import schema_events

ROOT = Path(__file__).resolve().parent.parent
EVENTS = json.loads((ROOT / "schema" / "event.schema.json").read_text(encoding="utf-8"))
DEFS = EVENTS["$defs"]
FIELD = re.compile(r"([a-z_][a-z0-9_]*)(: .*)?")


def row_fields(cell: str) -> list[str]:
    """The field names a FORMAT §6 fields cell lists, in order, without repeats."""
    out: list[str] = []
    depth, i = 0, 0
    while i < len(cell):
        c = cell[i]
        if c == "`":
            j = cell.index("`", i + 1)
            m = FIELD.fullmatch(cell[i + 1:j])
            if m and (depth == 0 or (depth == 1 and m.group(2) is None
                                     and re.search(r"\(\s*and\s*$", cell[:i]))):
                out.append(m.group(1))
            i = j + 1
            if depth == 0 and cell[i:i + 1] == ":":
                break
            continue
        if c == "(":
            depth += 1
        elif c == ")":
            depth -= 1
            if depth == 0 and cell[i + 1:i + 2] == ":":
                break
        i += 1
    return list(dict.fromkeys(out))


def _pattern_rule(event_type: str) -> dict:
    return next(r["then"] for r in DEFS["pattern"]["allOf"]
                if r["if"]["properties"]["type"]["const"] == event_type)


def test_the_row_parser():
    assert row_fields("`player`, `card`, `reason`: a card offered by `may_cast` is not cast: `suspend`") == [
        "player", "card", "reason"]
    assert row_fields("`a`; only when they apply: `kicked` (the indexes, `[0]`), `buyback: true`, "
                      "`face_down: true` (with `name` `null`: cast face down)") == ["a", "kicked", "buyback",
                                                                                   "face_down"]
    assert row_fields("`rule` (`704.5a` …), `object`/`card` or `player`") == ["rule", "object", "card", "player"]
    assert row_fields("`player`, `mulligans` (and `hand_size`) (CR 103.5)") == ["player", "mulligans", "hand_size"]
    assert row_fields("`cause` (`cast`: its copy was cast; `effect`): it stopped being prepared, §11.9") == ["cause"]
    assert row_fields(ROWS["ability_put_on_stack"]) == ["controller", "object", "card", "source", "targets"]


@pytest.mark.parametrize("event_type", sorted(ROWS))
def test_the_schema_allows_every_field_the_row_lists(event_type):
    fields = row_fields(ROWS[event_type])
    assert fields, f"FORMAT §6's row of {event_type!r} lists no field"
    assert event_type in DEFS["event_type"]["enum"]
    allowed = set(DEFS.get(f"fields_{event_type}", {}).get("properties", {}))
    assert not [f for f in fields if f not in allowed], (
        f"schema/event.schema.json's fields_{event_type} lacks {[f for f in fields if f not in allowed]}, "
        f"which FORMAT §6 lists (add them: python -m mtg_judge.tools.schema_events {event_type} FIELD …)")


@pytest.mark.parametrize("event_type", DEFS["event_type"]["enum"])
def test_the_pattern_allows_what_the_event_has(event_type):
    event_fields = set(DEFS[f"fields_{event_type}"]["properties"])
    pattern = _pattern_rule(event_type)
    assert pattern.get("additionalProperties") is False
    assert set(pattern["properties"]) - {"type"} == event_fields
    for name, spec in pattern["properties"].items():
        # a pattern tightened to an enum by hand allows every value the event may take
        values = (spec.get("else") or {}).get("enum") if isinstance(spec, dict) else None
        event_values = DEFS[f"fields_{event_type}"]["properties"].get(name, {}).get("enum")
        if values is not None and event_values is not None:
            assert set(event_values) <= set(values), (event_type, name)


def test_schema_events_merges_into_an_existing_type():
    schema = copy.deepcopy(EVENTS)
    before = copy.deepcopy(schema["$defs"]["fields_state_based_action"])
    schema_events.add_event_type(schema, "state_based_action", ["extra?"], describe="described")
    block = schema["$defs"]["fields_state_based_action"]
    assert block["description"] == "described"
    assert block["properties"] == {**before["properties"], "extra": {"$ref": "#/$defs/f_extra"}}
    rule = next(r["then"] for r in schema["allOf"] if r["if"]["properties"]["type"]["const"] == "state_based_action")
    assert rule["required"] == ["rule"] and rule["anyOf"]  # the hand-written alternative is kept
    pattern = next(r["then"] for r in schema["$defs"]["pattern"]["allOf"]
                   if r["if"]["properties"]["type"]["const"] == "state_based_action")
    assert set(pattern["properties"]) == {"type", "rule", "object", "card", "player", "extra"}
    # a hand-tightened field keeps its definition; a field given without "?" becomes required
    schema_events.add_event_type(schema, "player_lost", ["reason", "player?"])
    assert schema["$defs"]["fields_player_lost"]["properties"]["reason"] == {"enum": ["life", "empty_library", "effect"]}
    rule = next(r["then"] for r in schema["allOf"] if r["if"]["properties"]["type"]["const"] == "player_lost")
    assert rule["required"] == ["reason"]
    # a new type, and idempotence
    schema_events.add_event_type(schema, "test_event", ["a", "b?"])
    again = copy.deepcopy(schema)
    schema_events.add_event_type(again, "test_event", ["a", "b?"])
    assert again == schema and "test_event" in schema["$defs"]["event_type"]["enum"]
    rule = next(r["then"] for r in schema["allOf"] if r["if"]["properties"]["type"]["const"] == "test_event")
    assert rule == {"$ref": "#/$defs/fields_test_event", "required": ["a"]}
