"""What a rules change changes: readable diffs of reference-engine results (DESIGN §3, §8).

Two uses, one rendering:

- ``mtg-judge diff-rulesets A B``: every fixture that holds under both rulesets is run under
  each, and the fixtures whose logs differ are listed with an event diff
  (:func:`compare_rulesets`, :func:`format_report`, :func:`report_json`);
- ``mtg-judge snapshots update``: each modified snapshot is shown as the diff of its old and
  new content (:func:`snapshot_diff`), so a maintainer reviews a rules change as a list of
  changed scenarios.

An event diff is unified-diff style over one-line event summaries (the form of
:func:`mtg_judge.conformance.expect.summarize_event`): ``-`` lines are only in the old (or first
ruleset's) log, ``+`` lines only in the new (second) one, a few identical events around each
change are shown as context and longer identical runs collapse into one ``…`` line. Every
line carries the event's index in its own log (``#12``). Differences of the final state (and,
for snapshots, of the checkpoints) follow as ``path: old → new`` lines.

Everything here is a pure function of its arguments except :func:`compare_rulesets`, which
runs the cases it is given.
"""

from __future__ import annotations

import difflib
import json
import re
from dataclasses import dataclass, field
from typing import Any, Callable, Iterable

from mtg_judge.conformance.canonical import dumps
from mtg_judge.conformance.expect import summarize_event

#: Identical events shown before and after each change.
CONTEXT = 2
#: A value longer than this is shortened in ``path: old → new`` lines.
MAX_VALUE = 100
_MISSING = object()


# --------------------------------------------------------------------------------------------
# Rendering diffs


def event_diff(old: list[dict], new: list[dict], context: int = CONTEXT) -> list[str]:
    """The unified-diff style lines between two event logs; ``[]`` when they are equal.

    >>> event_diff([{"type": "a"}, {"type": "b", "n": 1}], [{"type": "a"}, {"type": "b", "n": 2}])
    ['  #0 a', '- #1 b n=1', '+ #1 b n=2']

    Events compare by their canonical JSON (every field counts). Context lines show the
    event's index in ``old`` (``-`` lines too; ``+`` lines their index in ``new``); a run
    of two or more identical events beyond the context becomes ``  … N identical events``.
    """
    a, b = [dumps(e) for e in old], [dumps(e) for e in new]
    if a == b:
        return []
    # autojunk off: frequent events (priority_received) must still be matched
    matcher = difflib.SequenceMatcher(None, a, b, autojunk=False)
    lines: list[str] = []

    def skip(start: int, stop: int) -> None:  # identical events old[start:stop] not shown
        if stop - start == 1:  # a "1 identical event" line would hide nothing
            lines.append(f"  {summarize_event(old[start], start)}")
        elif stop > start:
            lines.append(f"  … {stop - start} identical events")

    shown_to = 0  # index in ``old`` up to which events are accounted for
    for group in matcher.get_grouped_opcodes(context):
        skip(shown_to, group[0][1])
        for tag, i1, i2, j1, j2 in group:
            if tag == "equal":
                lines += [f"  {summarize_event(old[i], i)}" for i in range(i1, i2)]
                continue
            if tag in ("replace", "delete"):
                lines += [f"- {summarize_event(old[i], i)}" for i in range(i1, i2)]
            if tag in ("replace", "insert"):
                lines += [f"+ {summarize_event(new[j], j)}" for j in range(j1, j2)]
        shown_to = group[-1][2]
    skip(shown_to, len(old))
    return lines


def _short(value: Any) -> str:
    if value is _MISSING:
        return "(absent)"
    text = dumps(value)
    return text if len(text) <= MAX_VALUE else text[:MAX_VALUE - 1] + "…"


def value_changes(old: Any, new: Any, path: str = "") -> list[tuple[str, Any, Any]]:
    """The leaves where two JSON values differ: ``[(path, old, new)]``, sorted by path.

    Objects are compared key by key (a key missing on one side gives the module's
    ``_MISSING`` there, rendered ``(absent)``); lists of objects of the same length item by
    item (``[i]``); any other values as a whole.

    >>> value_changes({"p": {"life": 20, "hand": []}}, {"p": {"life": 17, "hand": []}})
    [('p.life', 20, 17)]
    """
    if isinstance(old, dict) and isinstance(new, dict):
        out = []
        for key in sorted(set(old) | set(new)):
            sub = f"{path}.{key}" if path else str(key)
            out += value_changes(old.get(key, _MISSING), new.get(key, _MISSING), sub)
        return out
    if (isinstance(old, list) and isinstance(new, list) and len(old) == len(new)
            and all(isinstance(x, dict) for x in old + new)):
        out = []
        for i, (x, y) in enumerate(zip(old, new)):
            out += value_changes(x, y, f"{path}[{i}]")
        return out
    if old is _MISSING or new is _MISSING or dumps(old) != dumps(new):
        return [(path, old, new)]
    return []


def state_diff(old: Any, new: Any, label: str = "state") -> list[str]:
    """``<label>.<path>: <old> → <new>`` lines for :func:`value_changes` (``[]`` if equal)."""
    return [f"{label}{'.' if path and path[0] != '[' else ''}{path}: {_short(a)} → {_short(b)}"
            for path, a, b in value_changes(old, new)]


def _rename(value: Any, old: str, new: str) -> Any:
    """``value`` with every string ``old``, as a value or an object key, replaced by ``new``."""
    if value == old:
        return new
    if isinstance(value, dict):
        return {(new if k == old else k): _rename(v, old, new) for k, v in value.items()}
    if isinstance(value, list):
        return [_rename(v, old, new) for v in value]
    return value


def comparable(result: dict, exile_zone_name: str = "exile") -> dict:
    """An engine result as compared across rulesets: its ``events`` and ``state``, with the
    ``ruleset`` field of ``game_started`` dropped (it always names the ruleset) and the
    ruleset's name of the exile zone (``exile_zone_name``, e.g. ``removed_from_game``)
    written ``exile``, as a value or a key, so that only behaviour differs, not vocabulary.
    Checkpoints are left out: their probes are those of each ruleset's expectation, not of
    the game."""
    events = [{k: v for k, v in e.items() if not (e.get("type") == "game_started"
                                                   and k == "ruleset")}
              for e in result.get("events") or []]
    out = {"events": events, "state": result.get("state") or {}}
    return _rename(out, exile_zone_name, "exile") if exile_zone_name != "exile" else out


def result_diff(old: dict, new: dict, context: int = CONTEXT) -> list[str]:
    """The readable diff of two results (``events``, ``state`` and, when either has them,
    ``checkpoints``): :func:`event_diff`, then :func:`state_diff` lines. ``[]`` if equal."""
    lines = event_diff(old.get("events") or [], new.get("events") or [], context)
    lines += state_diff(old.get("state") or {}, new.get("state") or {}, "state")
    if old.get("checkpoints") or new.get("checkpoints"):
        lines += state_diff(old.get("checkpoints") or [], new.get("checkpoints") or [],
                            "checkpoints")
    return lines


# --------------------------------------------------------------------------------------------
# Snapshots


_SNAPSHOT_NAME = re.compile(r"(?:.*/)?test_fixture\[(?P<id>.+)\[(?P<ruleset>[^\[\]]+)\]\]\.json")


def snapshot_case(name: str) -> tuple[str, str] | None:
    """``(fixture id, ruleset)`` of a snapshot file name (relative to ``__snapshots__``), or
    None for a file that is not a fixture snapshot.

    >>> snapshot_case("test_fixtures/test_fixture[classic.stack.lifo[modern]].json")
    ('classic.stack.lifo', 'modern')
    """
    found = _SNAPSHOT_NAME.fullmatch(name)
    return (found["id"], found["ruleset"]) if found else None


def snapshot_label(name: str) -> str:
    """``<fixture id> [<ruleset>]`` for a snapshot file name, else the name itself."""
    case = snapshot_case(name)
    return f"{case[0]} [{case[1]}]" if case else name


def snapshot_diff(old_text: str, new_text: str, context: int = CONTEXT) -> list[str]:
    """The readable diff of a snapshot file's old and new content (``snapshot_text``
    layout: ``{"events", "state", "checkpoints"}``): :func:`result_diff`. Text that is not
    such JSON is diffed line by line (``difflib.unified_diff`` without headers)."""
    try:
        old, new = json.loads(old_text), json.loads(new_text)
        if not (isinstance(old, dict) and isinstance(new, dict)):
            raise ValueError("not an object")
    except ValueError:
        diff = difflib.unified_diff(old_text.splitlines(), new_text.splitlines(),
                                    lineterm="", n=context)
        return [line for line in diff if not line.startswith(("---", "+++"))]
    return result_diff(old, new, context)


def snapshot_changes(before: dict[str, str], after: dict[str, str]) -> dict[str, list[str]]:
    """Snapshot files ``{name: text}`` before and after an update, as
    ``{"added": [names], "modified": [names], "deleted": [names]}`` (sorted)."""
    return {
        "added": sorted(set(after) - set(before)),
        "modified": sorted(k for k in set(after) & set(before) if after[k] != before[k]),
        "deleted": sorted(set(before) - set(after)),
    }


def format_snapshot_changes(before: dict[str, str], after: dict[str, str],
                            context: int = CONTEXT) -> str:
    """The review list printed by ``mtg-judge snapshots update``: one line per added,
    modified or deleted snapshot (``modified: <fixture id> [<ruleset>]``), each modified one
    followed by its indented :func:`snapshot_diff`, then a count line."""
    changes = snapshot_changes(before, after)
    lines = []
    for kind, names in changes.items():
        for name in names:
            lines.append(f"{kind}: {snapshot_label(name)}")
            if kind == "modified":
                lines += [f"    {line}" for line in snapshot_diff(before[name], after[name],
                                                                  context)]
    counts = ", ".join(f"{len(v)} {k}" for k, v in changes.items())
    lines.append(f"snapshots: {counts}, {len(after)} in total")
    return "\n".join(lines)


# --------------------------------------------------------------------------------------------
# Rulesets


@dataclass
class FixtureDiff:
    """One fixture run under both rulesets. ``events``: :func:`event_diff` lines (``-`` =
    ruleset a, ``+`` = ruleset b); ``state``: :func:`state_diff` lines of the final states."""

    id: str
    title: str = ""
    events: list[str] = field(default_factory=list)
    state: list[str] = field(default_factory=list)

    @property
    def differs(self) -> bool:
        return bool(self.events or self.state)


@dataclass
class RulesetReport:
    """What :func:`compare_rulesets` found: the fixtures that differ and those identical
    (ids, in fixture order), and the fixtures that could not be compared (``errored``: id →
    why: one of the runs raised, crashed or gave no result)."""

    a: str
    b: str
    differ: list[FixtureDiff] = field(default_factory=list)
    identical: list[str] = field(default_factory=list)
    errored: dict[str, str] = field(default_factory=dict)

    @property
    def compared(self) -> int:
        return len(self.differ) + len(self.identical)


def diff_fixture(fixture_id: str, result_a: dict, result_b: dict, title: str = "",
                 context: int = CONTEXT, exile_names: tuple[str, str] = ("exile", "exile")
                 ) -> FixtureDiff:
    """Compare one fixture's results under two rulesets (through :func:`comparable`;
    ``exile_names``: each ruleset's name of the exile zone)."""
    a, b = comparable(result_a, exile_names[0]), comparable(result_b, exile_names[1])
    return FixtureDiff(fixture_id, title, event_diff(a["events"], b["events"], context),
                       state_diff(a["state"], b["state"]))


def pair_cases(cases: Iterable[Any], a: str, b: str,
               keyword: Callable[[str], bool] | None = None) -> list[tuple[Any, Any]]:
    """``[(case under a, case under b)]`` for each fixture that has both (cases as from
    :func:`mtg_judge.conformance.runner.collect`), in the order of their first case. ``keyword(id)``
    keeps only the fixtures whose id it accepts. With ``a == b`` the case is its own pair."""
    by_id: dict[str, dict[str, Any]] = {}
    for case in cases:
        if keyword is None or keyword(case.fixture_id):
            by_id.setdefault(case.fixture_id, {})[case.ruleset] = case
    return [(rs[a], rs[b]) for rs in by_id.values() if a in rs and b in rs]


def exile_zone_name(ruleset: str) -> str:
    """The ruleset's name of the exile zone (``Ruleset.exile_zone_name``; ``exile`` for a
    ruleset the reference engine does not know)."""
    from mtg_judge.engine.rulesets import RULESETS  # pure data: the rulesets' documented switches

    known = RULESETS.get(ruleset)
    return known.exile_zone_name if known is not None else "exile"


def build_report(a: str, b: str, pairs: list[tuple[Any, Any]], results: dict[Any, Any],
                 context: int = CONTEXT) -> RulesetReport:
    """The :class:`RulesetReport` of ``pairs`` given ``results`` (case → CaseResult, whose
    ``result`` is None when the case errored). A failed expectation does not matter here:
    only the logs are compared (:func:`diff_fixture`)."""
    report = RulesetReport(a, b)
    names = (exile_zone_name(a), exile_zone_name(b))
    for case_a, case_b in pairs:
        ra, rb = results[case_a], results[case_b]
        bad = [r for r in (ra, rb) if r.result is None]
        if bad:
            whys = dict.fromkeys(_why(r) for r in bad)  # one line when both say the same
            if len(bad) == 2 and len(whys) == 1:
                report.errored[case_a.fixture_id] = f"under both: {next(iter(whys))}"
            else:
                report.errored[case_a.fixture_id] = "; ".join(
                    f"under {r.case.ruleset}: {_why(r)}" for r in bad)
            continue
        title = case_a.scenario.get("title", "") if isinstance(case_a.scenario, dict) else ""
        diff = diff_fixture(case_a.fixture_id, ra.result, rb.result, title, context, names)
        if diff.differs:
            report.differ.append(diff)
        else:
            report.identical.append(case_a.fixture_id)
    return report


def _why(result: Any) -> str:
    """``<status>: <last line of the message>`` for a case without a result."""
    lines = (result.message or "").strip().splitlines()
    return f"{result.status}: {lines[-1] if lines else 'no result'}"


def compare_rulesets(cases: list[Any], a: str, b: str, keyword: Callable[[str], bool] | None,
                     run: Callable[[list[Any]], list[Any]],
                     context: int = CONTEXT) -> RulesetReport:
    """Run every fixture of ``cases`` that holds under both ``a`` and ``b`` (selected by
    ``keyword(fixture id)``) with ``run(cases) -> [CaseResult]`` (results in case order, e.g.
    :func:`mtg_judge.conformance.runner.run_suite`) and build the report."""
    pairs = pair_cases(cases, a, b, keyword)
    todo = list(dict.fromkeys(c for pair in pairs for c in pair))
    results = dict(zip(todo, run(todo))) if todo else {}
    return build_report(a, b, pairs, results, context)


def report_json(report: RulesetReport) -> dict:
    """The machine-readable report: ``{"a", "b", "compared", "differ": [{"id", "title",
    "diff", "state"}], "identical": [ids], "errored": [{"id", "message"}]}`` (``diff``: the
    event diff lines, ``state``: the final-state lines)."""
    return {
        "a": report.a,
        "b": report.b,
        "compared": report.compared,
        "differ": [{"id": d.id, "title": d.title, "diff": d.events, "state": d.state}
                   for d in report.differ],
        "identical": list(report.identical),
        "errored": [{"id": k, "message": v} for k, v in report.errored.items()],
    }


def format_report(report: RulesetReport) -> str:
    """The readable report: for each fixture that differs, its id and title, then its event
    diff and final-state lines indented; the errored fixtures; then the summary line
    ``N fixtures compared, M differ, K identical``."""
    a, b = report.a, report.b
    lines = [f"--- {a}", f"+++ {b}"] if report.differ else []
    for d in report.differ:
        lines.append("")
        lines.append(f"{d.id}: {d.title}" if d.title else d.id)
        lines += [f"    {line}" for line in d.events]
        if d.state:
            lines.append("    final state:")
            lines += [f"      {line}" for line in d.state]
    if report.errored:
        lines.append("")
        lines.append(f"not compared ({len(report.errored)}):")
        lines += [f"  {fid}: {why}" for fid, why in report.errored.items()]
    if lines:
        lines.append("")
    summary = (f"{report.compared} fixture{'s' if report.compared != 1 else ''} compared "
               f"({a} vs {b}), {len(report.differ)} differ, {len(report.identical)} identical")
    if report.errored:
        summary += f", {len(report.errored)} not compared"
    lines.append(summary)
    renamed = sorted({(r, n) for r in (a, b) if (n := exile_zone_name(r)) != "exile"})
    if renamed:
        lines.append("(the exile zone is compared by its role: "
                     + ", ".join(f"{n} under {r}" for r, n in renamed) + " counts as exile)")
    return "\n".join(lines)
