"""Maintenance script: add event types (and their fields) to schema/event.schema.json.

    python -m mtg_judge.tools.schema_events TYPE FIELD[?] ... [--describe TEXT]

A field ending in ``?`` is optional. New field names get permissive ``f_``/``p_`` defs;
tighten them by hand if they deserve it. An event type the schema has already keeps what
it has (its fields, however they were tightened by hand, and its other rules): the fields
given are merged in, each becoming required or optional as given; ``--describe`` replaces
the description of the type's fields. Keeps the file's 2-space JSON formatting.
Every field docs/FORMAT.md §6 lists for an event type must be in the schema
(tests/test_event_schema_doc.py).
"""

from __future__ import annotations

import json
import sys

from mtg_judge.conformance.resources import SCHEMA_DIR

SCHEMA = SCHEMA_DIR / "event.schema.json"


def _rule_of(rules: list[dict], etype: str) -> dict | None:
    return next((r for r in rules if r["if"]["properties"]["type"]["const"] == etype), None)


def add_event_type(schema: dict, etype: str, fields: list[str], describe: str | None = None) -> None:
    """Add ``etype`` with ``fields`` (``name`` required, ``name?`` optional) to the event
    and pattern definitions of ``schema``, in place. Idempotent; for a type the schema
    already has, a merge: the fields it has keep their definitions (hand-tightened ones
    too) and its rule keeps its other keywords (``anyOf``, ``description`` …); a field given
    is added if new and made required (``name``) or optional (``name?``); the fields not
    given keep their status. ``describe`` sets the description of ``fields_<etype>``.
    Raises ValueError on an empty field name."""
    defs = schema["$defs"]
    enum = defs["event_type"]["enum"]
    if etype not in enum:
        enum.append(etype)
    names = [f.rstrip("?") for f in fields]
    if any(not n for n in names):
        raise ValueError(f"an empty field name in {fields!r}")
    optional = {f.rstrip("?") for f in fields if f.endswith("?")}
    for n in names:
        defs.setdefault(f"f_{n}", {"description": f"field {n}"})
        defs.setdefault(f"p_{n}", {"description": f"pattern over field {n}"})
    block = defs.setdefault(f"fields_{etype}", {"type": "object", "description": f"the fields of {etype}"})
    props = block.setdefault("properties", {})
    for n in names:
        props.setdefault(n, {"$ref": f"#/$defs/f_{n}"})
    if describe is not None:
        block["description"] = describe

    rule = _rule_of(schema["allOf"], etype)
    if rule is None:
        rule = {"if": {"properties": {"type": {"const": etype}}, "required": ["type"]},
                "then": {"$ref": f"#/$defs/fields_{etype}", "required": []}}
        schema["allOf"].append(rule)
    then = rule["then"]
    required = [r for r in then.get("required", []) if r not in optional]
    required += [n for n in names if n not in optional and n not in required]
    then["required"] = required

    prule = _rule_of(defs["pattern"]["allOf"], etype)
    if prule is None:
        prule = {"if": {"properties": {"type": {"const": etype}}, "required": ["type"]},
                 "then": {"properties": {"type": True}, "additionalProperties": False}}
        defs["pattern"]["allOf"].append(prule)
    pprops = prule["then"].setdefault("properties", {"type": True})
    for n in names:
        pprops.setdefault(n, {"$ref": f"#/$defs/p_{n}"})


def main(argv: list[str]) -> int:
    args = list(argv)
    describe = None
    if "--describe" in args:
        i = args.index("--describe")
        if i + 1 >= len(args):
            print("--describe needs a text")
            return 2
        describe = args[i + 1]
        del args[i:i + 2]
    if len(args) < 1:
        print(__doc__)
        return 2
    schema = json.loads(SCHEMA.read_text(encoding="utf-8"))
    add_event_type(schema, args[0], args[1:], describe)
    SCHEMA.write_text(json.dumps(schema, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
