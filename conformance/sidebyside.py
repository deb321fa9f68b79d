"""An engine's play-by-play next to the reference engine's (``mtg-judge show ID --engine``).

The authors' kit of issue 16: one case is played on the reference engine (in-process) and
on the author's engine (protocol v1, the machinery of ``mtg-judge run --engine``); the two
event logs are aligned and printed in two columns, one plain-English line per event (the
sentences of :mod:`mtg_judge.conformance.transcript`), with the first divergence marked.
Below the table come the first divergence field by field, the differences of the final
states, and the verdict of the fixture's expectation on the author's engine (its failing
patterns), which is what decides whether the case passes.

Alignment (:func:`align`): the logs are matched with ``difflib`` (longest matching blocks,
no junk heuristic). An event of the author's engine counts as the same as a reference event
when it has the same values for every field the reference engine writes for events of its
type, free text (``message``, PROTOCOL §10.5) aside: extra fields are fine (PROTOCOL §2:
patterns name only some fields), a missing or different one is a divergence. Priority events are left out of both logs unless asked for
(they would double the table; a divergence among them is then not shown).

Gutter marks (2 characters before each row): ``  `` the same event on both sides, `` ~``
the same place, different events, `` -`` an event only the reference logs, `` +`` one only
the author's engine logs; ``>`` in the first column marks the first divergence. Plain text,
no colour and no terminal needed; long events wrap inside their column.
"""

from __future__ import annotations

import difflib
import re
import textwrap
from dataclasses import dataclass
from typing import Any

from mtg_judge.conformance.canonical import dumps
from mtg_judge.conformance.expect import summarize_event
from mtg_judge.conformance.rulediff import state_diff, value_changes
from mtg_judge.conformance.transcript import PRIORITY_EVENTS, _Namer, _setup_lines, _words, describe_event

#: The narrowest table drawn; a smaller width is raised to it.
MIN_WIDTH = 60
#: Gutter tags of :func:`align` rows.
TAGS = {"equal": " ", "changed": "~", "reference": "-", "engine": "+"}
#: At most this many final-state difference lines are printed.
STATE_LINES = 40
#: The rule of :func:`align`, printed under the legend (PROTOCOL §4, docs/OMITTED_KEYS.md).
SAME_EVENT_RULE = ("same event: each field the reference writes on any event of that type matches, "
                   "absence included ('message' aside); extra fields of yours are ignored")
#: Free-text fields (PROTOCOL §10.5: ``action_rejected.message``, and ``script_error``'s):
#: never compared, so a rejection worded differently is the same event.
FREE_TEXT = frozenset({"message"})


@dataclass(frozen=True)
class Row:
    """One row of the aligned logs: ``tag`` (a key of :data:`TAGS`), ``ref`` and ``eng``
    the event indexes in each full log (None on the side without an event)."""

    tag: str
    ref: int | None
    eng: int | None


def _shown(events: list, priority: bool) -> list[int]:
    return [i for i, e in enumerate(events)
            if priority or not (isinstance(e, dict) and e.get("type") in PRIORITY_EVENTS)]


def align(reference: list[dict], engine: list[Any], priority: bool = False) -> list[Row]:
    """The rows of the two logs side by side, in log order (see the module docstring).

    ``reference``: the reference engine's events; ``engine``: the author's (anything, a
    non-object event never matches). With ``priority`` False, ``priority_received`` and
    ``priority_passed`` events are left out of both. Within a changed stretch, events are
    paired in order (``changed``) and the surplus of the longer side is ``reference`` or
    ``engine`` only.

    >>> [(r.tag, r.ref, r.eng) for r in align([{"type": "a"}, {"type": "b", "n": 1}],
    ...                                       [{"type": "a", "x": 0}, {"type": "b", "n": 2}])]
    [('equal', 0, 0), ('changed', 1, 1)]
    """
    ref_idx, eng_idx = _shown(reference, priority), _shown(engine, priority)
    fields: dict[Any, set[str]] = {}
    for i in ref_idx:
        fields.setdefault(reference[i].get("type"), set()).update(set(reference[i]) - FREE_TEXT)

    def key(event: Any) -> str:
        if not isinstance(event, dict):
            return f"\0{event!r}"
        known = fields.get(event.get("type"))
        try:
            return dumps({k: v for k, v in event.items()
                          if (k in known if known is not None else k not in FREE_TEXT)})
        except TypeError:  # not canonical JSON (a float): never equal to a reference event
            return f"\0{event!r}"

    a = [dumps({k: v for k, v in reference[i].items() if k not in FREE_TEXT}) for i in ref_idx]
    b = [key(engine[j]) for j in eng_idx]
    rows: list[Row] = []
    for tag, i1, i2, j1, j2 in difflib.SequenceMatcher(None, a, b, autojunk=False).get_opcodes():
        if tag == "equal":
            rows += [Row("equal", ref_idx[i], eng_idx[j]) for i, j in zip(range(i1, i2), range(j1, j2))]
            continue
        pairs = min(i2 - i1, j2 - j1)
        rows += [Row("changed", ref_idx[i1 + k], eng_idx[j1 + k]) for k in range(pairs)]
        rows += [Row("reference", ref_idx[i], None) for i in range(i1 + pairs, i2)]
        rows += [Row("engine", None, eng_idx[j]) for j in range(j1 + pairs, j2)]
    return rows


def first_divergence(rows: list[Row]) -> int | None:
    """The index in ``rows`` of the first row that is not ``equal``, or None."""
    return next((k for k, row in enumerate(rows) if row.tag != "equal"), None)


def play_lines(fixture: dict, events: list[Any]) -> list[tuple[str, str]]:
    """One ``(prefix, line)`` per event of ``events``: the prefix ``T<turn> <active
    player>, <step>`` (turn and step as the log itself tells them) and the line ``#<i>
    <sentence>`` (the sentences of ``mtg-judge show``). A non-object event is shown as its
    ``repr``."""
    setup = fixture.get("setup") or {}
    script = fixture.get("script") or []
    namer = _Namer(fixture)
    turn, active, step = setup.get("turn", 1), setup.get("active_player"), setup.get("step")
    out = []
    for i, event in enumerate(events):
        if not isinstance(event, dict):
            out.append(("", f"#{i} {event!r}"))
            continue
        namer.learn(event)
        if event.get("type") == "turn_began":
            turn, active, step = event.get("turn", turn), event.get("active_player", active), None
        elif event.get("type") == "step_began":
            turn, step = event.get("turn", turn), event.get("step", step)
        prefix = f"T{turn} {active}" + (f", {_words(step)}" if step else "")
        try:
            sentence = describe_event(event, namer, script)
        except Exception:  # noqa: BLE001 - an engine's odd field values: show it raw
            sentence = summarize_event(event)
        out.append((prefix, f"#{i} {sentence}"))
    return out


def _with_prefixes(lines: list[tuple[str, str]], rows: list[Row], side: str) -> dict[int, str]:
    """The text of each event shown on one side: ``#i <prefix>: <sentence>`` where the turn
    and step differ from the event shown before it on that side, ``#i <sentence>`` else."""
    out: dict[int, str] = {}
    last = None
    for row in rows:
        index = getattr(row, side)
        if index is None:
            continue
        prefix, text = lines[index]
        number, _, sentence = text.partition(" ")
        out[index] = f"{number} {prefix}: {sentence}" if prefix and prefix != last else text
        last = prefix
    return out


def _column(text: str, width: int) -> list[str]:
    return textwrap.wrap(text, width, subsequent_indent="  ", break_long_words=True,
                         break_on_hyphens=False) or [""]


def table(fixture: dict, reference: list[dict], engine: list[Any], width: int,
          priority: bool = False, titles: tuple[str, str] = ("reference engine", "your engine")
          ) -> tuple[list[str], int | None]:
    """The two logs as a text table at most ``width`` characters wide (at least
    :data:`MIN_WIDTH`): a title row, a rule, then one row per :func:`align` row, each event
    wrapped within its column. Returns ``(lines, marked)``: ``marked`` is the index in
    ``lines`` of the first line of the first divergent row (its gutter starts with ``>``),
    None when the logs agree."""
    width = max(width, MIN_WIDTH)
    col = (width - 2 - 3) // 2  # gutter, separator " | "
    rows = align(reference, engine, priority)
    left = _with_prefixes(play_lines(fixture, reference), rows, "ref")
    right = _with_prefixes(play_lines(fixture, engine), rows, "eng")
    first = first_divergence(rows)
    lines = [f"  {titles[0][:col]:<{col}} | {titles[1][:col]}",
             f"  {'-' * col}-+-{'-' * col}"]
    marked = None
    for k, row in enumerate(rows):
        a = _column(left[row.ref], col) if row.ref is not None else [""]
        b = _column(right[row.eng], col) if row.eng is not None else [""]
        mark = ">" if k == first else " "
        if k == first:
            marked = len(lines)
        for n in range(max(len(a), len(b))):
            gutter = f"{mark}{TAGS[row.tag]}" if n == 0 else "  "
            text_a = a[n] if n < len(a) else ""
            text_b = b[n] if n < len(b) else ""
            lines.append(f"{gutter}{text_a:<{col}} | {text_b}".rstrip())
    return lines, marked


def divergence_lines(reference: list[dict], engine: list[Any], priority: bool = False,
                     rows: list[Row] | None = None) -> list[str]:
    """The first divergence spelt out: both events in full (``summarize_event`` form, every
    field) and, when both sides have an event, the fields that differ as ``field: reference
    → yours`` (fields only the author's engine writes are not listed). ``[]`` when the logs
    agree. ``rows``: the logs' :func:`align` rows when the caller has them."""
    if rows is None:
        rows = align(reference, engine, priority)
    k = first_divergence(rows)
    if k is None:
        return []
    row = rows[k]
    where = " vs ".join(filter(None, [f"reference #{row.ref}" if row.ref is not None else "",
                                      f"your #{row.eng}" if row.eng is not None else ""]))
    out = [f"first divergence ({where}):"]
    ref = reference[row.ref] if row.ref is not None else None
    eng = engine[row.eng] if row.eng is not None else None
    out.append("  reference: " + (summarize_event(ref, row.ref) if ref is not None
                                  else "(no event here: your engine logs one more)"))
    out.append("  yours:     " + (summarize_event(eng, row.eng) if isinstance(eng, dict)
                                  else repr(eng) if eng is not None
                                  else "(no event here: your engine does not log it)"))
    if isinstance(ref, dict) and isinstance(eng, dict):
        for path, a, b in value_changes(ref, eng):
            top = re.split(r"[.\[]", path)[0]
            if top in ref and top not in FREE_TEXT:  # not a field only yours writes, nor free text
                out.append(f"  {path}: {short_value(a)} → {short_value(b)}")
    return out


def short_value(value: Any, limit: int = 100) -> str:
    """``value`` as compact canonical JSON, cut to ``limit`` characters (with ``…``);
    ``(absent)`` for rulediff's marker of a missing key (any non-JSON value)."""
    if not isinstance(value, (dict, list, str, int, bool, type(None))):
        return "(absent)"  # rulediff's marker of a missing key
    try:
        text = dumps(value)
    except TypeError:
        text = repr(value)
    return text if len(text) <= limit else text[:limit - 1] + "…"



def render(fixture: dict, ruleset: str, reference: dict | None, engine_outcome: Any,
           implementation: dict, width: int, priority: bool = False,
           reference_note: str = "") -> str:
    """The whole ``show --engine`` page as text.

    ``fixture``: the case's scenario; ``reference``: the reference engine's result (None if
    it could not play the case: the table then has an empty left column);
    ``engine_outcome``: the author's :class:`mtg_judge.conformance.runner.CaseResult`;
    ``implementation``: the engine's handshake ``implementation``; ``reference_note``: a
    line about the reference engine (e.g. that it misses the expectation too), printed
    under the heading. Sections: heading (id, ruleset, title, engine, verdict), the needs,
    the setup, the legend, the table, the first divergence, the final-state differences,
    the expectation's verdict on the author's engine with its failing patterns, and the
    skipped checks.
    """
    from mtg_judge.conformance.needs import case_needs, flatten
    from mtg_judge.conformance.reports import expected_lines

    status = engine_outcome.status
    name = " ".join(str(implementation.get(k) or "") for k in ("name", "version")).strip()
    lines = [f"{fixture.get('id')} [{ruleset}]", f"  {fixture.get('title', '')}",
             f"  rulings: {', '.join(fixture.get('rulings') or []) or '-'}",
             f"  your engine: {name or '?'}: {status.upper()}"
             + (f" ({engine_outcome.message})" if engine_outcome.message and status != "errored"
                else "")]
    if reference_note:
        lines.append(f"  note: {reference_note}")
    needs = " ".join(flatten(case_needs(fixture)))
    lines += textwrap.wrap(f"needs: {needs}", max(width, MIN_WIDTH), initial_indent="  ",
                           subsequent_indent="    ", break_on_hyphens=False)
    lines += [""] + _setup_lines(fixture)
    result = engine_outcome.result
    if result is None:
        lines += ["", f"your engine gave no result ({status}):"]
        lines += [f"  {line}" for line in (engine_outcome.message or "").splitlines()]
        return "\n".join(lines)
    ref_events = (reference or {}).get("events") or []
    eng_events = result.get("events") if isinstance(result.get("events"), list) else []
    hidden = "" if priority else "; priority events hidden (--priority shows them)"
    lines.append("")
    lines += textwrap.wrap("legend: '  ' same event, ' ~' differs, ' -' only the reference "
                           "logs it, ' +' only yours does; '>' marks the first divergence"
                           f"{hidden}", max(width, MIN_WIDTH), subsequent_indent="  ")
    lines += textwrap.wrap(SAME_EVENT_RULE, max(width, MIN_WIDTH), subsequent_indent="  ")
    lines.append("")
    body, marked = table(fixture, ref_events, eng_events, width, priority)
    lines += body
    lines.append("")
    if reference is None:
        lines.append("no reference log to compare with")
    elif marked is None:
        lines.append(f"the logs agree ({len(eng_events)} events)")
    else:
        lines += divergence_lines(ref_events, eng_events, priority)
    if reference is not None and isinstance(result.get("state"), dict):
        diff = state_diff(reference.get("state") or {}, result["state"], "state")
        if diff:
            lines += ["", "final state (reference → yours):"]
            lines += [f"  {line}" for line in diff[:STATE_LINES]]
            if len(diff) > STATE_LINES:
                lines.append(f"  … {len(diff) - STATE_LINES} more")
    lines.append("")
    mismatches = [str(m) for m in engine_outcome.mismatches]
    if status == "passed":
        lines.append("expectations on your engine: met (the case passes)")
    elif mismatches:
        lines.append(f"expectations on your engine: NOT met ({engine_outcome.message}):")
        lines += [f"  {line}" for m in mismatches for line in m.splitlines()]
        failing = [text for text, failed in expected_lines(
            {"expect": fixture.get("expect") or {}, "mismatches": mismatches}) if failed]
        if failing:
            lines += ["failing patterns:"] + [f"  {text}" for text in failing]
    else:
        lines.append(f"expectations on your engine: {status} ({engine_outcome.message})")
    skipped = engine_outcome.skipped_checks
    if skipped:
        lines += ["skipped checks:"] + [f"  {c.name}: {c.reason}" for c in skipped]
    return "\n".join(lines)


def play_both(case: Any, engine_command: str, timeout: float = 30.0,
              validate: bool = False) -> tuple[Any, Any, dict]:
    """Play ``case`` (a :class:`mtg_judge.conformance.runner.Case`) on the reference engine
    in-process and on ``engine_command`` through protocol v1, as ``mtg-judge run`` does
    (:func:`mtg_judge.conformance.runner.run_case`, one engine process, stopped at the end).

    Returns ``(reference outcome, engine outcome, implementation)``: two ``CaseResult`` and
    the engine's handshake ``implementation``. Raises
    :class:`~mtg_judge.conformance.protocol.EngineError` when the engine cannot start or
    fails the handshake (a failure while running the case is an ``errored`` outcome
    instead), ``ValueError`` for an empty command.
    """
    from mtg_judge.conformance.protocol import ProtocolEngine
    from mtg_judge.conformance.runner import run_case

    reference = run_case(case)
    engine = ProtocolEngine(engine_command, timeout, validate=validate)
    try:
        implementation = dict(engine.start())
        outcome = run_case(case, engine)
    finally:
        engine.stop()
    return reference, outcome, implementation


def reference_note(reference: Any) -> str:
    """The heading's note about the reference engine's own outcome: ``""`` when it passes
    the case, else why its log is no safe model (it misses the expectation too, or gave no
    result)."""
    if reference.status == "passed":
        return ""
    if reference.result is None:
        return (f"the reference engine could not play this case ({reference.status}): only "
                "your log and the expectation are shown")
    return (f"the reference engine misses this fixture's expectation too ({reference.message}): "
            "the fixture may be in progress; the expectation decides")
