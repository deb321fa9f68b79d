"""Render ``docs/OMITTED_KEYS.md``: for every event and state field, whether the reference
engine always writes it or when it leaves it out (issue 27 item 3).

``python -m mtg_judge.tools.omitted_keys`` rewrites ``docs/OMITTED_KEYS.md`` in a checkout;
``--check`` exits 1 when the file is out of date; ``--stats`` prints, for each field, in how
many of the events (state entries) that could carry it the reference logs write it.

The fields come from the schemas (``schema/event.schema.json``: ``fields_<type>``;
``schema/state.schema.json``: the state, ``player``, ``permanent``, ``stack_item``,
``combat``, ``game_over``), the counts from the reference engine's logs, final states and
checkpoint states of every case of the suite (:func:`field_counts`). A field is *always*
written when every event of its type (every entry of its kind) in those logs has it. The
others are left out in some of them: :data:`WHEN` says, for each, when it is written, a
sentence written from the engine's rule (FORMAT §4, §6), not from the counts.
``tests/test_generated_docs.py`` fails when the committed file is not :func:`render`'s
text, when a field some log leaves out has no :data:`WHEN` entry, when a :data:`WHEN`
entry names a field every log writes (stale), or when a field the schema requires is left
out of some log.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from mtg_judge.conformance.resources import CONFORMANCE_DIR, SCHEMA_DIR
from mtg_judge.engine.rulesets import RULESETS
from mtg_judge.tools.generated_doc import write_or_check

#: Where the document lives in a checkout.
OMITTED_KEYS_DOC = CONFORMANCE_DIR.parent / "docs" / "OMITTED_KEYS.md"
#: The kinds of state entry: (name in the table, ``$defs`` name or None for the state itself).
STATE_KINDS: tuple[tuple[str, str | None], ...] = (
    ("state", None), ("players.<id>", "player"), ("battlefield.<key>", "permanent"),
    ("stack[]", "stack_item"), ("combat", "combat"), ("game_over", "game_over"))


def _rulesets_naming_exile(zone: str) -> str:
    """The rulesets whose exile zone is called ``zone`` (``Ruleset.exile_zone_name``), as
    backticked names in alphabetical order joined by "or"."""
    return " or ".join(f"`{name}`" for name in sorted(RULESETS) if RULESETS[name].exile_zone_name == zone)


#: When a field that some reference logs leave out is written: ("event type" or state kind,
#: field) -> the condition. Every other field of the schemas is always written.
WHEN: dict[tuple[str, str], str] = {
    # ----------------------------------------------------------------------- events
    ("turn_began", "extra"): "`true`, only for an extra turn (CR 500.7, FORMAT §13.2)",
    ("damage_dealt", "target_card"): "the target is an object (a creature or planeswalker); none for a player",
    ("spell_cast", "alternative"): "the spell was cast for an alternative cost or without paying its mana cost "
                                   "(FORMAT §6's row)",
    ("spell_cast", "kicked"): "a kicker cost was paid",
    ("spell_cast", "buyback"): "`true`, the buyback cost was paid",
    ("spell_cast", "face_down"): "`true`, cast face down (morph)",
    ("spell_cast", "face"): "cast as a face (`omen`, `adventure`, FORMAT §5.1)",
    ("ability_triggered", "chapter"): "a Saga's chapter ability (its chapter number)",
    ("ability_triggered", "delayed"): "`true`, a delayed triggered ability (FORMAT §11.4)",
    ("zone_changed", "cause"): "something other than casting, playing a land, resolving or drawing moved "
                               "the object (FORMAT §6's row); after a `replacement_applied` the replaced "
                               "move's cause",
    ("zone_changed", "face_down"): "`true`, the object was face down before the move or is after it",
    ("zone_changed", "melded"): "`true`, one card of a melded permanent moves",
    ("card_discarded", "madness"): "`true`, the card was exiled for madness instead",
    ("token_created", "tapped"): "`true`, the token entered tapped",
    ("token_created", "attacking"): "the token entered attacking (the player or planeswalker it attacks)",
    ("copy_ceased_to_exist", "after"): "the copy would have gone somewhere or was ended by something: "
                                       "`to_hand`, `shuffled_into_library`, `exiled`, `left_battlefield`, "
                                       "`unprepared`; none for a copy that simply left the stack",
    ("phased_out", "indirectly"): "`true`, an Aura or Equipment phasing out with its permanent",
    ("state_based_action", "object"): "the action is about an object (with `card`); none when it is about "
                                      "a player (then `player`)",
    ("state_based_action", "card"): "with `object`",
    ("state_based_action", "player"): "the action is about a player (704.5a, 704.5b …); none for an object",
    ("prevention_shield_created", "source"): "the shield names a chosen source",
    ("turn_ending", "source_card"): "an ability ended the turn (its source's alias); none for a spell",
    # ------------------------------------------------------------------------ state
    ("players.<id>", "exile"): f"the ruleset is {_rulesets_naming_exile('exile')} (the exile zone's key, "
                               "FORMAT §3.3)",
    ("players.<id>", "removed_from_game"): f"the ruleset is {_rulesets_naming_exile('removed_from_game')} (the "
                                          "same zone's key there)",
    ("players.<id>", "exile_counters"): "some card of the player's in exile has counters (FORMAT §4)",
    ("players.<id>", "revealed"): "some card of the player's hand is revealed now (FORMAT §11.5)",
    ("players.<id>", "phased_out"): "some permanent phased out under the player's control (FORMAT §13.5)",
    ("players.<id>", "library_top_revealed"): "a permanent the player controls has them play with the top card of "
                                              "their library revealed and the library has a card (FORMAT §4)",
    ("battlefield.<key>", "power"): "the permanent is a creature",
    ("battlefield.<key>", "toughness"): "the permanent is a creature",
    ("battlefield.<key>", "face_down"): "`true`, the permanent is face down (with `name` `null`)",
    ("battlefield.<key>", "prepared"): "`true`, the permanent is prepared (FORMAT §11.9)",
    ("battlefield.<key>", "prepared_copy"): "with `prepared`: the `prepared#N` copy in exile",
    ("battlefield.<key>", "face"): "`back`, a transforming permanent with its back face up (FORMAT §11.6)",
    ("battlefield.<key>", "melded"): "a melded permanent (its two cards, FORMAT §11.6)",
    ("stack[]", "source"): "the entry is an ability (its source's card alias)",
    ("stack[]", "name"): "the entry is a spell (`null` face down)",
    ("stack[]", "face_down"): "`true`, a spell cast face down",
    ("stack[]", "face"): "a spell cast as a face (`omen`, `adventure`)",
    ("game_over", "not_started"): "`true`, only when an illegal deck kept the game from starting (FORMAT §3.1)",
}


def _schema(name: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((SCHEMA_DIR / name).read_text(encoding="utf-8"))
    return data


def event_fields() -> dict[str, tuple[list[str], set[str]]]:
    """Event type -> (its fields in schema order, the required ones), from event.schema.json."""
    schema = _schema("event.schema.json")
    defs = schema["$defs"]
    required: dict[str, set[str]] = {}
    for rule in schema.get("allOf", ()):
        const = rule.get("if", {}).get("properties", {}).get("type", {}).get("const")
        if const:
            required[const] = set(rule.get("then", {}).get("required", ()))
    out = {}
    for etype in defs["event_type"]["enum"]:
        fields = [f for f in defs.get(f"fields_{etype}", {}).get("properties", {}) if f != "type"]
        out[etype] = (fields, required.get(etype, set()))
    return out


def state_fields() -> dict[str, tuple[list[str], set[str]]]:
    """State kind (:data:`STATE_KINDS`) -> (its fields, the required ones), from state.schema.json."""
    schema = _schema("state.schema.json")
    out = {}
    for kind, name in STATE_KINDS:
        node = schema if name is None else schema["$defs"][name]
        out[kind] = (list(node.get("properties", {})), set(node.get("required", ())))
    return out


def _state_entries(state: dict[str, Any]) -> Iterable[tuple[str, dict[str, Any]]]:
    yield "state", state
    for entry in (state.get("players") or {}).values():
        yield "players.<id>", entry
    for entry in (state.get("battlefield") or {}).values():
        yield "battlefield.<key>", entry
    for entry in state.get("stack") or []:
        yield "stack[]", entry
    if isinstance(state.get("combat"), dict):
        yield "combat", state["combat"]
    if isinstance(state.get("game_over"), dict):
        yield "game_over", state["game_over"]


def field_counts(results: list[tuple[Any, dict[str, Any]]]) -> dict[tuple[str, str], tuple[int, int]]:
    """(event type or state kind, field) -> (entries that could carry it, entries that do),
    over the events, final states and checkpoint states of ``results``."""
    seen: dict[str, int] = {}
    has: dict[tuple[str, str], int] = {}
    for _case, result in results:
        for event in result.get("events") or []:
            seen[event["type"]] = seen.get(event["type"], 0) + 1
            for key in event:
                has[(event["type"], key)] = has.get((event["type"], key), 0) + 1
        states = [result.get("state") or {}] + [cp.get("state") or {} for cp in result.get("checkpoints") or []]
        for state in states:
            for kind, entry in _state_entries(state):
                seen[kind] = seen.get(kind, 0) + 1
                for key in entry:
                    has[(kind, key)] = has.get((kind, key), 0) + 1
    out = {}
    for table in (event_fields(), state_fields()):
        for kind, (fields, _required) in table.items():
            for f in fields:
                out[(kind, f)] = (seen.get(kind, 0), has.get((kind, f), 0))
    return out


def status(counts: dict[tuple[str, str], tuple[int, int]], key: tuple[str, str]) -> str:
    """``always`` (every entry has it), ``sometimes``, ``never`` (no entry has it) or
    ``unseen`` (no entry of that kind in the logs)."""
    n, k = counts[key]
    if n == 0:
        return "unseen"
    return "always" if k == n else ("never" if k == 0 else "sometimes")


def _cell(text: str) -> str:
    return " ".join(text.split()).replace("|", "\\|")


def render(results: list[tuple[Any, dict[str, Any]]] | None = None) -> str:
    """The Markdown of ``docs/OMITTED_KEYS.md`` (deterministic: no counts in it)."""
    if results is None:
        from mtg_judge.tools.event_order import reference_results

        results = reference_results()
    counts = field_counts(results)
    out = ["# Omitted keys: when each event and state field is written",
           "",
           "<!-- generated by `python -m mtg_judge.tools.omitted_keys` from schema/ and the reference "
           "engine's logs and states of every case: do not edit by hand -->",
           "",
           "The rule (FORMAT §4, §6): a field is written on every event of its type (every state entry of "
           "its kind), with `null`, `[]`, `{}`, `0` or `false` when empty, unless the last column says when "
           "it is written; then it is **left out** otherwise (no key, not `null`). Fields come from "
           "`schema/event.schema.json` and `schema/state.schema.json`; *always written* and the conditions "
           "are checked against the reference engine's logs, final states and checkpoint states of every "
           "case (`tests/test_generated_docs.py`). A field no case's log shows is listed as *not in any "
           "reference log*: the schema allows it, the condition (if any) says when it would be written. "
           "`mtg-judge show ID --engine CMD` compares a field on every event of a type once the reference "
           "writes it on some of them, so write what the reference writes and leave out what it leaves out.",
           "",
           "## Events",
           "",
           "| event | always written | written only when |",
           "|---|---|---|"]
    for etype, (fields, _required) in event_fields().items():
        out.append(_row(f"`{etype}`", etype, fields, counts))
    out += ["", "## State", "",
            "`players.<id>` is each player's entry, `battlefield.<key>` each permanent's, `stack[]` each stack "
            "entry's; `combat` and `game_over` when they are not `null`.", "",
            "| entry | always written | written only when |",
            "|---|---|---|"]
    for kind, (fields, _required) in state_fields().items():
        out.append(_row(f"`{kind}`", kind, fields, counts))
    out.append("")
    return "\n".join(out)


def _row(label: str, kind: str, fields: list[str], counts: dict[tuple[str, str], tuple[int, int]]) -> str:
    always, when = [], []
    for f in fields:
        st = status(counts, (kind, f))
        condition = WHEN.get((kind, f))
        if st in ("always", "unseen") and condition is None:
            always.append(f"`{f}`")
        elif condition is not None:
            note = "" if st in ("always", "sometimes") else " (not in any reference log)"
            when.append(f"`{f}`: {condition}{note}")
        else:
            when.append(f"`{f}`: not in any reference log" if st != "sometimes" else f"`{f}`: ?")
    if counts and all(counts[(kind, f)][0] == 0 for f in fields) and fields:
        label += " (no case logs it)"
    return f"| {label} | {', '.join(always) or '–'} | {_cell('; '.join(when)) or '–'} |"


def main(argv: list[str] | None = None) -> int:
    """Write ``docs/OMITTED_KEYS.md`` (``--check``: exit 1 if it differs; ``--stats``: print the
    counts); returns the exit code."""
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--check", action="store_true", help="exit 1 if docs/OMITTED_KEYS.md is out of date")
    parser.add_argument("--stats", action="store_true", help="print how often each field is written")
    parser.add_argument("--output", type=Path, default=OMITTED_KEYS_DOC)
    args = parser.parse_args(argv)
    from mtg_judge.tools.event_order import reference_results

    results = reference_results()
    if args.stats:
        counts = field_counts(results)
        for key, (n, k) in counts.items():
            print(f"{status(counts, key):9} {k:>6}/{n:<6} {key[0]}.{key[1]}")
        return 0
    text = render(results)
    return write_or_check(args.output, text, args.check, "mtg_judge.tools.omitted_keys")


if __name__ == "__main__":
    sys.exit(main())
