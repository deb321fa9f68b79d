"""docs/FORMAT.md names the whole vocabulary of the schemas (issue 16: an engine written
from the documents alone must not meet an undocumented name).

- every event type of ``schema/event.schema.json`` has a row in the table of FORMAT §6,
  and that row names every field the schema gives events of that type;
- every name of the card vocabulary in ``schema/card.schema.json`` (effect, static effect,
  trigger, keyword, filter, reference, condition and cost names, the fields of abilities,
  target specs, spells and cards) appears in a code span of FORMAT.md.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
FORMAT = (ROOT / "docs" / "FORMAT.md").read_text(encoding="utf-8")
EVENTS = json.loads((ROOT / "schema" / "event.schema.json").read_text(encoding="utf-8"))
CARD = json.loads((ROOT / "schema" / "card.schema.json").read_text(encoding="utf-8"))


def _section_6() -> str:
    start = FORMAT.index("## 6. Event log")
    return FORMAT[start:FORMAT.index("\n## 7.", start)]


def _event_rows() -> dict[str, str]:
    """FORMAT §6's table: each event type of a row (``a`` / ``b`` rows name two) -> the
    row's fields cell."""
    rows: dict[str, str] = {}
    for line in _section_6().splitlines():
        if not line.startswith("| `"):
            continue
        cells = line.strip().strip("|").split("|")
        for name in re.findall(r"`(\w+)`", cells[0]):
            rows[name] = "|".join(cells[1:])
    return rows


ROWS = _event_rows()
EVENT_TYPES = EVENTS["$defs"]["event_type"]["enum"]


def test_the_table_reads():
    assert len(ROWS) > 60 and "zone_changed" in ROWS


@pytest.mark.parametrize("event_type", EVENT_TYPES)
def test_every_event_type_has_a_row_naming_its_fields(event_type):
    assert event_type in ROWS, f"FORMAT §6 has no row for the event type {event_type!r}"
    fields = set(EVENTS["$defs"].get(f"fields_{event_type}", {}).get("properties", {})) - {"type"}
    named = set(re.findall(r"`(\w+)", ROWS[event_type]))
    assert not fields - named, (f"FORMAT §6's row of {event_type!r} does not name the field(s) "
                                f"{sorted(fields - named)}")


def test_no_row_names_an_event_type_the_schema_lacks():
    assert not set(ROWS) - set(EVENT_TYPES)


# ---------------------------------------------------------------------- card vocabulary
def _strings(node) -> list[str]:
    """The string values of ``enum``/``const`` in a schema node and its alternatives."""
    out: list[str] = []
    if isinstance(node, dict):
        out += [v for v in node.get("enum", ()) if isinstance(v, str)]
        if isinstance(node.get("const"), str):
            out.append(node["const"])
        for key in ("anyOf", "oneOf", "allOf"):
            for sub in node.get(key, ()):
                out += _strings(sub)
        if "items" in node:
            out += _strings(node["items"])
    return out


def _card_vocabulary() -> dict[str, list[str]]:
    d = CARD["$defs"]
    vocab = {
        "effect": _strings(d["effect"]["properties"]["type"]),
        "static effect": _strings(d["static_effect"]["properties"]["type"]),
        "trigger": _strings(d["trigger"]["properties"]["event"]),
        "keyword": _strings(d["keyword"]) + [v["properties"]["keyword"]["const"] for k, v in d.items()
                                             if k.startswith("keyword_") and "keyword" in v.get("properties", {})],
        "filter": list(d["filter"]["properties"]),
        "reference": _strings(d["reference"]),
        "condition": list(d["condition"]["properties"]),
        "cost": list(d["cost"]["properties"]),
        "card field": list(CARD.get("properties", {})),
    }
    for key in ("ability_mana", "ability_activated", "ability_triggered", "ability_static",
                "target_spec", "token", "spell", "mode"):
        vocab[key.replace("_", " ") + " field"] = list(d[key].get("properties", {}))
    return vocab


def _code_words() -> set[str]:
    words: set[str] = set()
    for span in re.findall(r"```.*?```|`[^`]+`", FORMAT, flags=re.S):
        words |= set(re.findall(r"[A-Za-z_][A-Za-z0-9_]*", span))
    return words


VOCAB = _card_vocabulary()


@pytest.mark.parametrize("group", sorted(VOCAB))
def test_card_vocabulary_is_named_in_format(group):
    assert VOCAB[group], f"no {group} names read from the card schema"
    missing = sorted({name for name in VOCAB[group] if name not in _code_words()})
    assert not missing, f"FORMAT.md names no {group} {missing} (in a code span)"
