"""Render ``docs/EVENT_ORDER.md``: the event order of every mechanic, from one representative
fixture's reference log each (issue 27 item 2).

``python -m mtg_judge.tools.event_order`` rewrites ``docs/EVENT_ORDER.md`` in a checkout;
``--check`` exits 1 (writing nothing) when the file is out of date.
``tests/test_generated_docs.py`` checks that the committed file is what :func:`render` makes
of the fixtures and the reference engine, so the document can't drift from the log.

The representative of a mechanic (a folder ``fixtures/<document>/<mechanic>/``) is
:data:`CHOSEN`'s fixture when the mechanic is listed there, else derived: among the
mechanic's fixtures, played under their first ruleset, the one whose reference log has no
rejected input and no script error and the most distinct event types (ties: the fewest
events other than priority events, then the smaller fixture id); a mechanic whose every log
has a rejection chooses among all of them.
Events are printed compactly: ``type(field=value, …)``, leaving out the free text and the
fields that repeat what another says (``name``, ``owner``, ``phase``; ``card`` and
``source_card`` when the reference already shows the alias), empty lists and objects, and
priority events. Orders the Comprehensive Rules leave open are marked with the keys of
:data:`CONVENTIONS`.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from mtg_judge.conformance.resources import CONFORMANCE_DIR
from mtg_judge.tools.generated_doc import write_or_check

#: Where the document lives in a checkout.
EVENT_ORDER_DOC = CONFORMANCE_DIR.parent / "docs" / "EVENT_ORDER.md"
PRIORITY = frozenset({"priority_received", "priority_passed"})
#: Fields never printed: free text, and values another field of the event already gives.
DROPPED = frozenset({"message", "name", "owner", "phase", "players", "seed"})
#: Fields printed first, in this order; the others follow in name order.
FIRST = ("object", "new_object", "card", "player", "controller", "source", "from", "to")

#: Representatives chosen by hand ("document/mechanic" -> fixture id), where the derived
#: choice (the shortest clean log) shows less of the mechanic than another fixture.
CHOSEN: dict[str, str] = {
    "classic/legend": "classic.legend.controller-chooses-which-to-keep",
    "classic/game": "classic.game.opening-hand-and-mulligans",
    "classic/stack": "classic.stack.last-in-first-out",
    "timespiral/flashback": "timespiral.flashback.cast-from-graveyard-then-exiled",
    "timespiral/madness": "timespiral.madness.discarded-card-is-cast-for-its-madness-cost",
    "timespiral/storm": "timespiral.storm.each-copy-may-get-new-targets",
    "timespiral/suspend": "timespiral.suspend.cost-increase-payable-only-with-mana-abilities-is-optional",
    "strixhaven/prepare": "strixhaven.prepare.the-copy-ceases-to-exist-when-the-permanent-leaves",
}


@dataclass(frozen=True)
class Convention:
    """An order the CR leaves open: ``applies(previous, event)`` marks ``event``."""

    key: str
    text: str
    applies: Callable[[dict[str, Any] | None, dict[str, Any]], bool]


def _after(types: set[str], *previous: str) -> Callable[[dict[str, Any] | None, dict[str, Any]], bool]:
    return lambda prev, e: e["type"] in types and prev is not None and prev["type"] in previous


def _same_batch(types: set[str]) -> Callable[[dict[str, Any] | None, dict[str, Any]], bool]:
    def applies(prev: dict[str, Any] | None, e: dict[str, Any]) -> bool:
        if e["type"] not in types or prev is None or prev["type"] != e["type"]:
            return False
        return e["type"] != "damage_dealt" or (prev.get("combat") is True and e.get("combat") is True)
    return applies


CONVENTIONS: tuple[Convention, ...] = (
    Convention("c1", "one event of the rules logged as two: the move (`zone_changed`) and the event that names "
               "it, in this order (PROTOCOL §10.4: destruction and sacrifice before their move; "
               "`permanent_entered`, `land_played`, `card_drawn`, `card_discarded` after it)",
               lambda prev, e: (_after({"zone_changed"}, "destroyed", "sacrificed")(prev, e)
                                or _after({"permanent_entered", "land_played", "card_drawn", "card_discarded"},
                                          "zone_changed")(prev, e))),
    Convention("c2", "simultaneous events logged one by one in a fixed order: untapping (CR 502.3, battlefield "
               "order), combat damage (CR 510.2: attackers in declaration order, then blockers), tokens "
               "created at once, players losing at once (turn order)",
               _same_batch({"untapped", "damage_dealt", "token_created", "player_lost"})),
    Convention("c3", "a random outcome, then the shuffle it decides (FORMAT §7: `random_outcome` before "
               "`library_shuffled`)", _after({"library_shuffled"}, "random_outcome")),
    Convention("c4", "a copy of a card ceases to exist before the event that ends it is logged (a prepared "
               "permanent's move or `unprepared`, FORMAT §11.9)",
               lambda prev, e: prev is not None and prev["type"] == "copy_ceased_to_exist"
               and prev.get("after") in ("left_battlefield", "unprepared")),
    Convention("c5", "state-based actions performed at once (CR 704.3) are logged one after the other, in "
               "battlefield order for permanents and turn order for players",
               lambda prev, e: e["type"] == "state_based_action" and prev is not None
               and prev["type"] in ("destroyed", "zone_changed", "player_lost", "token_ceased_to_exist",
                                    "unattached", "copy_ceased_to_exist")
               and e.get("_sba_batch", False)),
)


def _value(value: Any) -> str:
    if isinstance(value, str):
        return value
    if isinstance(value, list):
        return "[" + "; ".join(_value(v) for v in value) + "]"
    return json.dumps(value, sort_keys=True, separators=(",", ":"))


def _derived_alias(ref: Any, alias: Any) -> bool:
    return isinstance(ref, str) and isinstance(alias, str) and (ref == alias or ref.startswith(alias + "#"))


def compact(event: dict[str, Any]) -> str:
    """One event as ``type(field=value, …)`` (fields in key order, see the module docstring)."""
    fields = []
    for key in sorted(event, key=lambda k: (FIRST.index(k) if k in FIRST else len(FIRST), k)):
        value = event[key]
        if key == "type" or key.startswith("_") or key in DROPPED or value in ([], {}):
            continue
        if key == "card" and (_derived_alias(event.get("object"), value)
                              or ("object" not in event and _derived_alias(event.get("source"), value))):
            continue
        if key == "source_card" and _derived_alias(event.get("source"), value):
            continue
        fields.append(f"{key}={_value(value)}")
    return f"{event['type']}({', '.join(fields)})" if fields else event["type"]


def compact_input(inp: Any) -> str:
    """One script input as ``action(field=value, …)`` (``player`` first)."""
    if not isinstance(inp, dict):
        return _value(inp)
    fields = [f"{k}={_value(inp[k])}" for k in sorted(inp, key=lambda k: (k != "player", k)) if k != "action"]
    return f"{inp.get('action')}({', '.join(fields)})" if fields else str(inp.get("action"))


def _mark_batches(events: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """A copy of ``events`` where each state-based action that follows another one of the same
    check (only their consequences in between) carries ``_sba_batch``."""
    out, in_batch = [], False
    consequences = {"destroyed", "zone_changed", "player_lost", "token_ceased_to_exist", "unattached",
                    "copy_ceased_to_exist", "game_ended"}
    for e in events:
        e = dict(e)
        if e["type"] == "state_based_action":
            e["_sba_batch"] = in_batch
            in_batch = True
        elif e["type"] not in consequences:
            in_batch = False
        out.append(e)
    return out


def marks(events: list[dict[str, Any]]) -> list[list[str]]:
    """For each event of ``events`` (priority events already left out), the keys of the
    :data:`CONVENTIONS` that mark it."""
    events = _mark_batches(events)
    out = []
    for k, e in enumerate(events):
        prev = events[k - 1] if k else None
        out.append([c.key for c in CONVENTIONS if c.applies(prev, e)])
    return out


def reference_results(cases: Iterable[Any] | None = None) -> list[tuple[Any, dict[str, Any]]]:
    """Every case of the suite's fixtures (or ``cases``) with its reference engine result,
    in suite order: ``[(Case, {"events", "state", "checkpoints"})]``. A case that can't be
    built or raises is left out."""
    from mtg_judge.conformance import runner
    from mtg_judge.engine import run_scenario

    out = []
    for case in (runner.collect() if cases is None else cases):
        if case.problem:
            continue
        try:
            result = run_scenario(case.scenario, case.ruleset, cards=case.scenario["cards"])
        except Exception:  # noqa: BLE001 - a case the reference can't play has no log to show
            continue
        out.append((case, result))
    return out


def _clean(result: dict[str, Any]) -> bool:
    return not any(e["type"] in ("action_rejected", "script_error") for e in result["events"])


def _variety(result: dict[str, Any]) -> int:
    return len({e["type"] for e in result["events"]} - PRIORITY)


def _length(result: dict[str, Any]) -> int:
    return sum(e["type"] not in PRIORITY for e in result["events"])


def representatives(results: list[tuple[Any, dict[str, Any]]]) -> dict[str, tuple[Any, dict[str, Any]]]:
    """``"document/mechanic"`` -> (case, result) of its representative (module docstring),
    mechanics in suite order. Each fixture counts under its first ruleset only. Raises
    KeyError naming a :data:`CHOSEN` fixture that isn't a fixture of its mechanic."""
    by_mechanic: dict[str, list[tuple[Any, dict[str, Any]]]] = {}
    for case, result in results:
        first = case.scenario.get("rulesets", [case.ruleset])[0]
        if not case.mechanic or case.ruleset != first:
            continue
        by_mechanic.setdefault(f"{case.document}/{case.mechanic}", []).append((case, result))
    out = {}
    for mechanic, found in by_mechanic.items():
        if mechanic in CHOSEN:
            picked = [cr for cr in found if cr[0].fixture_id == CHOSEN[mechanic]]
            if not picked:
                raise KeyError(f"CHOSEN[{mechanic!r}] = {CHOSEN[mechanic]!r} is not a fixture of that mechanic")
            out[mechanic] = picked[0]
            continue
        pool = [cr for cr in found if _clean(cr[1])] or found
        out[mechanic] = min(pool, key=lambda cr: (-_variety(cr[1]), _length(cr[1]), cr[0].fixture_id))
    for mechanic in CHOSEN:
        if mechanic not in out:
            raise KeyError(f"CHOSEN names {mechanic!r}, which has no fixture")
    return out


def render(results: list[tuple[Any, dict[str, Any]]] | None = None) -> str:
    """The Markdown of ``docs/EVENT_ORDER.md`` (deterministic text)."""
    results = reference_results() if results is None else results
    reps = representatives(results)
    out = ["# Event order, mechanic by mechanic",
           "",
           "<!-- generated by `python -m mtg_judge.tools.event_order` from the fixtures and the reference "
           "engine: do not edit by hand -->",
           "",
           "One representative fixture per mechanic (per folder `fixtures/<document>/<mechanic>/`), played "
           "on the reference engine under the fixture's first ruleset: its whole log, priority events left "
           "out, one event a line as `type(field=value, …)` after the script's inputs (`in N`); the "
           "number is the event's index in the full log. `name`, `owner`, `phase`, free text, empty lists and "
           "objects, and `card` / `source_card` "
           "where the reference shows the alias are left out (`mtg-judge show ID` prints everything). "
           "The representative is the mechanic's log without a rejected input that has the most kinds of "
           "event (then the shortest), unless "
           "`tools/event_order.py` (`CHOSEN`) names a fixture that shows more. The normative rules are "
           "PROTOCOL §10.4 (the order of events), §10.6 (events required even when empty) and §10.9 "
           "(conventions of single mechanics); fields: FORMAT §6 and [OMITTED_KEYS.md](OMITTED_KEYS.md).",
           "",
           "The order is the Comprehensive Rules' wherever they give one. Where they leave it open, the "
           "reference's order is the suite's convention, marked on the event that follows it:",
           ""]
    out += [f"- **[{c.key}]** {c.text}." for c in CONVENTIONS]
    out.append("")
    document = None
    for mechanic, (case, result) in reps.items():
        doc, name = mechanic.split("/", 1)
        if doc != document:
            out += [f"## {doc}", ""]
            document = doc
        how = "chosen" if mechanic in CHOSEN else "derived"
        out += [f"### {doc} / {name}", "",
                f"`{case.fixture_id}` [{case.ruleset}] ({how}): {case.scenario.get('title', '')}", "", "```"]
        for k, inp in enumerate(case.scenario.get("script") or []):
            out.append(f"  in {k} {compact_input(inp)}")
        shown = [(i, e) for i, e in enumerate(result["events"]) if e["type"] not in PRIORITY]
        for (i, e), m in zip(shown, marks([e for _, e in shown])):
            tag = "".join(f" [{k}]" for k in m)
            out.append(f"{i:>4} {compact(e)}{tag}")
        out += ["```", ""]
    return "\n".join(out)


def main(argv: list[str] | None = None) -> int:
    """Write ``docs/EVENT_ORDER.md`` (or, with ``--check``, exit 1 if it differs); returns the exit code."""
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--check", action="store_true", help="exit 1 if docs/EVENT_ORDER.md is out of date")
    parser.add_argument("--output", type=Path, default=EVENT_ORDER_DOC)
    args = parser.parse_args(argv)
    text = render()
    return write_or_check(args.output, text, args.check, "mtg_judge.tools.event_order")


if __name__ == "__main__":
    sys.exit(main())
