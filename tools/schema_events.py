"""Maintenance script: add event types (and their fields) to schema/event.schema.json.

    python -m mtg_judge.tools.schema_events TYPE FIELD[?] ... [--describe TEXT]

A field ending in ``?`` is optional. New field names get permissive ``f_``/``p_`` defs;
tighten them by hand if they deserve it. Keeps the file's 2-space JSON formatting.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

from mtg_judge.conformance.resources import SCHEMA_DIR

SCHEMA = SCHEMA_DIR / "event.schema.json"


def add_event_type(schema: dict, etype: str, fields: list[str]) -> None:
    """Add ``etype`` with ``fields`` (``name`` required, ``name?`` optional) to the event
    and pattern definitions of ``schema`` (idempotent for the enum; replaces the rules)."""
    defs = schema["$defs"]
    enum = defs["event_type"]["enum"]
    if etype not in enum:
        enum.append(etype)
    names = [f.rstrip("?") for f in fields]
    required = [f for f in fields if not f.endswith("?")]
    for n in names:
        defs.setdefault(f"f_{n}", {"description": f"field {n}"})
        defs.setdefault(f"p_{n}", {"description": f"pattern over field {n}"})
    defs[f"fields_{etype}"] = {"type": "object", "description": f"the fields of {etype}",
                               "properties": {n: {"$ref": f"#/$defs/f_{n}"} for n in names}}
    rules = [r for r in schema["allOf"] if r["if"]["properties"]["type"]["const"] != etype]
    rules.append({"if": {"properties": {"type": {"const": etype}}, "required": ["type"]},
                  "then": {"$ref": f"#/$defs/fields_{etype}", "required": required}})
    schema["allOf"] = rules
    prules = [r for r in defs["pattern"]["allOf"] if r["if"]["properties"]["type"]["const"] != etype]
    prules.append({"if": {"properties": {"type": {"const": etype}}, "required": ["type"]},
                   "then": {"properties": {"type": True, **{n: {"$ref": f"#/$defs/p_{n}"} for n in names}},
                            "additionalProperties": False}})
    defs["pattern"]["allOf"] = prules


def main(argv: list[str]) -> int:
    if len(argv) < 1:
        print(__doc__)
        return 2
    schema = json.loads(SCHEMA.read_text(encoding="utf-8"))
    add_event_type(schema, argv[0], argv[1:])
    SCHEMA.write_text(json.dumps(schema, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
