"""Compliance reports of a run against any engine (DESIGN §10).

A run yields a :class:`Report`: a header (who was checked, on what), one record per case,
and a footer (counts). It is saved as JSON Lines and re-rendered from that file alone
(``mtg-judge report REPORT.jsonl``):

* ``report.jsonl``: the report itself, one JSON object per line (:func:`dump_jsonl`);
* ``index.html``: a static page, no external assets (:func:`render_html`);
* ``badge.json``: a shields.io endpoint badge (:func:`badge`);
* ``junit.xml``: JUnit XML for CI (:func:`render_junit`).

The JSON Lines records (keys sorted; see docs/PROTOCOL.md §6)::

    {"kind": "header", "report_version": 1, "suite": {"name": "mtg-judge", "version"},
     "implementation": {"name", "version", "language", "homepage", "rulesets",
                        "capabilities"},
     "engine": "<command line>" or null (the in-process reference engine),
     "rulesets": [the rulesets of the cases run], "selection": {"rulesets", "keyword"},
     "fixtures": "<absolute fixtures directory>", "started": "2026-01-31T12:00:00Z"}
    {"kind": "case", "id", "ruleset", "name": "<id>[<ruleset>]", "document", "mechanic",
     "path": "<fixture file, relative to fixtures>", "status", "message",
     "error_kind": null or "crash" | "timeout" | "bad_reply" | "wrong_seq" | "errored" | ...,
     "mismatches": [str], "checks": {"passed": n, "failed": n, "skipped": n},
     "skipped_checks": [{"check": "expect.events[0]", "reason": str}],
     "needs": {"actions": [...], "keywords": [...], ...},   # conformance/needs.py
     "expect": {...}, "log": [str]}        # expect and log: failed and errored cases only
    {"kind": "footer", "counts": {"passed", "failed", "errored", "skipped", "total"},
     "compliance": "93.5%", "not_run": n, "skipped_checks": n, "run": n, "selected": n,
     "overall": "87.9%", "headline": "155/165 run · 93.5% of run · 87.9% of all",
     "not_run_groups": {document: {mechanic: n}},   # when cases were not run
     "interrupted": true, "partial": true}          # each only when so (PROTOCOL §6)

Only the header carries a wall-clock time (``started``); case records and the footer are
deterministic: the same engine on the same fixtures gives the same lines.
Compliance = passed / (passed + failed + errored), the pass rate of the cases run; it is
always shown next to the share of the suite run (``run`` of ``selected``) and ``overall``
= passed / selected, the honest figure the badge's colour comes from.
Rendering uses only the standard library (``html``, ``xml.etree``).
"""

from __future__ import annotations

import contextlib
import datetime as _dt
import html
import json
import os
import re
import threading
import xml.etree.ElementTree as ET
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterable

from mtg_judge.conformance.canonical import dumps
from mtg_judge.conformance.expect import summarize_event
from mtg_judge.conformance.protocol import handshake_warnings
from mtg_judge.conformance.runner import (
    STATUSES,
    VACUOUS,
    Case,
    CaseRecord,
    CaseResult,
    RecordError,
    compliance,
    format_table,
    headline,
    not_run_groups,
    overall,
    played,
    summarize,
    total_row,
)

#: The version of the report format (the header's ``report_version``).
REPORT_VERSION = 1
#: The files :func:`write_reports` writes into a report directory.
REPORT_FILES = {"jsonl": "report.jsonl", "html": "index.html", "badge": "badge.json",
                "junit": "junit.xml"}
#: At most this many event lines of the engine's log are kept per failing case.
LOG_LIMIT = 400
#: Events shown on each side of an event a mismatch points at (HTML).
LOG_CONTEXT = 3
#: Badge colours by minimum compliance (percent), best first (shields.io colour names).
BADGE_COLORS = ((100, "brightgreen"), (90, "green"), (75, "yellowgreen"), (50, "yellow"),
                (25, "orange"), (0, "red"))


class ReportError(Exception):
    """A report file that cannot be read: ``file``, ``line`` (1-based, 0 for the whole
    file) and what was expected, in the message ``<file>:<line>: <problem>``."""

    def __init__(self, file: str | Path, line: int, problem: str):
        super().__init__(f"{file}:{line}: {problem}" if line else f"{file}: {problem}")
        self.file, self.line, self.problem = str(file), line, problem


@dataclass
class Report:
    """A run's report: ``header`` and ``footer`` dicts and ``cases``, one dict per case in
    case order (the record shapes of the module docstring)."""

    header: dict
    cases: list[dict] = field(default_factory=list)
    footer: dict = field(default_factory=dict)

    @property
    def counts(self) -> dict[str, int]:
        """``{"passed", "failed", "errored", "skipped", "total"}`` over the cases."""
        return count_statuses(self.cases)

    def records(self) -> list[dict]:
        """Header, cases and footer, the lines of the JSON Lines form."""
        return [self.header, *self.cases, self.footer]


# --------------------------------------------------------------------------------------------
# Building


def count_statuses(cases: Iterable[dict]) -> dict[str, int]:
    """Counts of case records by status, plus ``total``."""
    out = {status: 0 for status in (*STATUSES, "total")}
    for case in cases:
        out[case["status"]] += 1
        out["total"] += 1
    return out


def _relative(path: Path, root: Path | None) -> str:
    """``path`` relative to ``root`` as found (a file reached through a symlinked folder
    keeps the link's place), else resolved, else as given."""
    if root is not None:
        found, base = os.path.abspath(path), os.path.abspath(root)
        if found.startswith(base.rstrip(os.sep) + os.sep):
            return Path(found[len(base.rstrip(os.sep)) + 1:]).as_posix()
        try:  # resolved only when the path is not under the root as found
            return path.resolve().relative_to(root.resolve()).as_posix()
        except ValueError:
            pass
    return path.as_posix()


def case_record(result: CaseResult, fixtures_root: Path | str | None = None,
                memo: dict | None = None) -> dict:
    """The JSON Lines record of one case result (see the module docstring).

    ``path`` is the fixture file relative to ``fixtures_root`` (as given otherwise).
    ``needs`` (:func:`mtg_judge.conformance.needs.case_needs`) lists what the case needs
    from an engine; it is absent for a case whose fixture has a problem.
    Failed and errored cases also carry ``expect`` (the expectation as it holds under the
    case's ruleset) and ``log`` (one line per event of the engine's log, at most
    :data:`LOG_LIMIT`, as :func:`mtg_judge.conformance.expect.summarize_event` writes them)
    and, when the engine gave a result the reference engine can be compared with,
    ``divergence`` (:func:`mtg_judge.conformance.casepage.case_divergence`: both
    play-by-plays aligned, the first divergence, the board at that moment; its page and its
    row in the failures grouped by first divergence).

    ``memo``: an optional dict, empty at first, shared by the calls of one report (same
    ``fixtures_root``): each fixture file's relative path, each card's needs and each
    result's divergence are then worked out once, not once per case or per call (the
    partial report and the final one); the records are the same.
    """
    case = result.case
    root = Path(fixtures_root) if fixtures_root is not None else None
    if memo is None:
        memo = {}
    paths = memo.setdefault("paths", {})
    path = paths.get(case.path)
    if path is None:
        path = paths[case.path] = _relative(case.path, root)
    counts = {status: 0 for status in ("passed", "failed", "skipped")}
    for check in result.checks:
        counts[check.status] += 1
    record = CaseRecord.of(result, path, {"kind": "case", "checks": counts}).to_json()
    if not case.problem and isinstance(case.scenario, dict) and case.scenario:
        if "needs" in case.__dict__:  # worked out at collection (the collection cache)
            record["needs"] = case.needs
        else:
            from mtg_judge.conformance.needs import case_needs  # the authors' kit (issue 16)

            record["needs"] = case_needs(case.scenario, memo.setdefault("cards", {}))
    if result.status in ("failed", "errored"):
        record["expect"] = (case.scenario or {}).get("expect", {})
        events = (result.result or {}).get("events") or []
        log = [summarize_event(e, i) if isinstance(e, dict) else f"#{i} {e!r}"
               for i, e in enumerate(events[:LOG_LIMIT])]
        if len(events) > LOG_LIMIT:
            log.append(f"… {len(events) - LOG_LIMIT} more events")
        record["log"] = log
        if isinstance(result.result, dict) and not case.problem and case.scenario:
            # the first divergence from the reference engine and the case's page (issue 25)
            from mtg_judge.conformance.casepage import case_divergence

            seen = memo.setdefault("divergence", {})
            known = seen.get(id(result))
            if known is None or known[0] is not result:  # the id of another, freed object
                known = seen[id(result)] = (result, case_divergence(
                    case.scenario, case.ruleset, result.result))
            if known[1] is not None:
                record["divergence"] = known[1]
    return record


def footer_record(cases: list[dict], not_run: int = 0, interrupted: bool = False,
                  not_run_by: dict[str, dict[str, int]] | None = None,
                  partial: bool = False, engine_error: str | None = None) -> dict:
    """The footer: status counts, compliance, cases not run (``--max-fail``, an interrupt),
    and how many checks were skipped in all; ``"interrupted": true`` only for a run stopped
    by Ctrl-C or SIGTERM, ``"partial": true`` only for a report rebuilt from a
    ``report.partial.jsonl`` that has no footer (a killed run); the keys are absent
    otherwise. Honest figures (issue 16, PROTOCOL §6): ``run`` (cases passed, failed or
    errored) of ``selected`` (every case, skipped and not run included), ``overall``
    (passed of ``selected``) and ``headline`` (``"39/732 run · 100.0% of run · 5.3% of
    all"``); ``compliance`` is passed of the cases run. ``not_run_by``
    (:func:`mtg_judge.conformance.runner.not_run_groups`, ``{document: {mechanic: n}}``)
    places the cases not run, so that every table row counts its own (footer key
    ``not_run_groups``, present when some case was not run and their places are known);
    ``not_run`` is then their sum unless given larger. ``engine_error``: why the engine
    could not start (``run --engine`` then runs no case; key absent otherwise)."""
    counts = count_statuses(cases)
    if not_run_by:
        not_run = max(not_run, sum(n for row in not_run_by.values() for n in row.values()))
    run, selected = played(counts, not_run)
    footer = {"kind": "footer", "counts": counts, "compliance": compliance(counts),
              "not_run": not_run, "run": run, "selected": selected,
              "overall": overall(counts, not_run), "headline": headline(counts, not_run),
              "skipped_checks": sum(len(c.get("skipped_checks") or []) for c in cases)}
    if not_run_by:
        footer["not_run_groups"] = not_run_by
    if interrupted:
        footer["interrupted"] = True
    if partial:
        footer["partial"] = True
    if engine_error is not None:
        footer["engine_error"] = engine_error
    return footer


def incomplete(report: "Report") -> str | None:
    """Why ``report`` is incomplete, or None: ``"interrupted"`` (Ctrl-C or SIGTERM),
    ``"partial"`` (a killed run's ``report.partial.jsonl``: no footer), ``"engine cannot
    start"`` (the footer's ``engine_error``), ``"stopped early"`` (``--max-fail``/``-x``: cases not run). Every rendering says it (PROTOCOL §6)."""
    footer = report.footer
    if isinstance(footer.get("engine_error"), str):
        return "engine cannot start"
    if footer.get("interrupted") is True:
        return "interrupted"
    if footer.get("partial") is True:
        return "partial"
    if footer.get("not_run"):
        return "stopped early"
    return None


def incomplete_note(report: "Report") -> str | None:
    """The sentence every rendering of an incomplete report carries (terminal, HTML
    banner, JUnit property), or None for a complete report:
    ``"interrupted: an incomplete report, 636 of 1071 selected cases not run"``."""
    why = incomplete(report)
    if why is None:
        return None
    not_run, selected = int(report.footer.get("not_run") or 0), report.footer["selected"]
    if why == "engine cannot start":
        first = next((line for line in report.footer["engine_error"].splitlines()
                      if line.strip()), "")
        return f"the engine cannot start: {first}; {not_run} of {selected} selected cases not run"
    if why == "partial":
        known = (f"{not_run} of {selected} selected cases not run" if not_run
                 else "the cases not run are not known")
        return (f"partial: an incomplete report (a run killed before its end left "
                f"report.partial.jsonl), {known}")
    return f"{why}: an incomplete report, {not_run} of {selected} selected cases not run"


def now() -> str:
    """The current UTC time as ``YYYY-MM-DDTHH:MM:SSZ`` (the header's ``started``)."""
    return _dt.datetime.now(_dt.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")


def _suite_version() -> str:
    from mtg_judge.conformance.protocol import _package_version

    return _package_version()


def build_report(results: list[CaseResult], implementation: dict, *,
                 fixtures_root: Path | str | None = None, engine_command: str | None = None,
                 selection: dict | None = None, not_run: int = 0,
                 started: str | None = None,
                 not_run_cases: Iterable[Case] | None = None,
                 memo: dict | None = None) -> Report:
    """A :class:`Report` of ``results`` (from ``mtg_judge.conformance.runner.run_suite``).

    ``implementation``: the engine's handshake ``implementation`` (DESIGN §9).
    ``fixtures_root``: the fixtures directory (paths in case records are relative to it).
    ``engine_command``: the ``--engine`` command line, None for the in-process reference
    engine. ``selection``: ``{"rulesets": [...] or None, "keyword": str or None}``.
    ``not_run``: cases selected but not run (``--max-fail``); or ``not_run_cases``, those
    cases themselves, so that each table row counts its own (the footer's
    ``not_run_groups``). ``started``: the run's UTC time (:func:`now` by default), the
    only wall-clock value of a report. ``memo``: the :func:`case_record` memo of the run
    (a :class:`PartialReport`'s ``memo``), if any.
    """
    root = Path(fixtures_root).resolve() if fixtures_root is not None else None
    memo = {} if memo is None else memo
    cases = [case_record(r, root, memo) for r in results]
    rulesets = sorted({c["ruleset"] for c in cases if c["ruleset"] != "-"})
    header = {
        "kind": "header", "report_version": REPORT_VERSION,
        "suite": {"name": "mtg-judge", "version": _suite_version()},
        "implementation": dict(implementation), "engine": engine_command,
        "rulesets": rulesets,
        "selection": selection or {"rulesets": None, "keyword": None},
        "fixtures": root.as_posix() if root is not None else None,
        "started": started or now(),
    }
    warnings = handshake_warnings(implementation)
    if warnings:  # an unknown ruleset or capability in the handshake (issue 16)
        header["warnings"] = warnings
    groups = not_run_groups(not_run_cases) if not_run_cases is not None else None
    return Report(header, cases, footer_record(cases, not_run, not_run_by=groups))


def planned_header(header: dict, cases: Iterable[Case]) -> dict:
    """``header`` with ``planned``, the selected cases counted by place
    (``{"total": n, "groups": {document: {mechanic: n}}}``): what the header of a
    ``report.partial.jsonl`` carries, so that the report of a killed run knows the cases it
    did not run (:func:`read_report`). Returns a new dict."""
    groups = not_run_groups(cases)
    total = sum(n for row in groups.values() for n in row.values())
    return {**header, "planned": {"total": total, "groups": groups}}


def _unfinished(header: dict, cases: list[dict]) -> dict[str, dict[str, int]] | None:
    """The cases a footerless report planned (its header's ``planned``) but does not hold,
    by place; None when the header plans nothing (an older partial file) or is malformed."""
    planned = header.get("planned")
    groups = planned.get("groups") if isinstance(planned, dict) else None
    if not isinstance(groups, dict):
        return None
    left = {doc: dict(row) for doc, row in groups.items() if isinstance(row, dict)}
    for case in cases:
        row = left.get(case["document"], {})
        if isinstance(row.get(case["mechanic"]), int):
            row[case["mechanic"]] -= 1
    return {doc: {mech: n for mech, n in row.items() if isinstance(n, int) and n > 0}
            for doc, row in left.items()
            if any(isinstance(n, int) and n > 0 for n in row.values())}


# --------------------------------------------------------------------------------------------
# JSON Lines


def dump_jsonl(report: Report) -> str:
    """The JSON Lines text of ``report``: one canonical JSON object per line (sorted keys,
    UTF-8), header first, footer last, ending with a newline."""
    return "".join(dumps(record) + "\n" for record in report.records())


def read_report(path: Path | str) -> Report:
    """Read a ``report.jsonl`` written by :func:`dump_jsonl`.

    Raises :class:`ReportError` naming the file and line for a missing file, a line that
    is not a JSON object, an unknown ``kind``, a header that is not first, a newer
    ``report_version``, or a case record that :meth:`~mtg_judge.conformance.runner.CaseRecord.from_json`
    refuses (no ``id``, ``ruleset``, ``document``, ``mechanic`` or known ``status``, or a
    key of the wrong type); each case record is read through that typed reading (its
    defaults filled in) and kept as its JSON object. A missing footer (a killed run's
    ``report.partial.jsonl``) is rebuilt from the cases, marked ``"partial": true``, the
    cases its header's ``planned`` names but the file lacks counted as not run.
    """
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise ReportError(path, 0, f"cannot read the report: {exc.strerror or exc}") from None
    except UnicodeDecodeError as exc:
        raise ReportError(path, 0, f"not UTF-8 text: {exc}") from None
    header: dict | None = None
    footer: dict | None = None
    cases: list[dict] = []
    for number, line in enumerate(text.splitlines(), 1):
        if not line.strip():
            continue
        try:
            record = json.loads(line)
        except ValueError as exc:
            raise ReportError(path, number, f"not JSON ({exc}); expected one JSON object "
                              "per line") from None
        if not isinstance(record, dict):
            raise ReportError(path, number, "expected a JSON object")
        kind = record.get("kind")
        if footer is not None:
            raise ReportError(path, number, "a record after the footer")
        if kind == "header":
            if header is not None or cases:
                raise ReportError(path, number, "the header must be the first line")
            version = record.get("report_version")
            if not isinstance(version, int) or version > REPORT_VERSION:
                raise ReportError(path, number, f"report_version {version!r}: this mtg-judge "
                                  f"reads version {REPORT_VERSION}")
            header = record
        elif header is None:
            raise ReportError(path, number, 'expected the header ({"kind": "header", ...}) '
                              "as the first line")
        elif kind == "case":
            try:  # the typed reading: defaults for older reports, the wrong shapes refused
                cases.append(CaseRecord.from_json(record).to_json())
            except RecordError as exc:
                raise ReportError(path, number, f"case record: {exc.message}") from None
        elif kind == "footer":
            footer = record
        else:
            raise ReportError(path, number, f"unknown kind {kind!r}, expected header, case "
                              "or footer")
    if header is None:
        raise ReportError(path, 0, "empty report: no header line")
    if footer is None:  # a killed run's report.partial.jsonl: say so, count what it planned
        return Report(header, cases, footer_record(cases, not_run_by=_unfinished(header, cases),
                                                   partial=True))
    not_run = footer.get("not_run", 0)
    groups = footer.get("not_run_groups")
    return Report(header, cases, footer_record(cases, not_run if isinstance(not_run, int)
                                               else 0,
                                               footer.get("interrupted") is True,
                                               groups if isinstance(groups, dict) else None,
                                               footer.get("partial") is True,
                                               error if isinstance(error := footer.get("engine_error"), str)
                                               else None))


def _write_atomic(path: Path, text: str) -> None:
    """Write ``text`` (UTF-8) to ``path`` through a temporary file and a rename, so that a
    failure never leaves a half-written file."""
    path.parent.mkdir(parents=True, exist_ok=True)
    # A sibling temporary file opened normally, so that the umask applies (mkstemp's 0600
    # would make CI artifacts unreadable to others).
    tmp = path.with_name(f".{path.name}.{os.getpid()}.{threading.get_ident()}.tmp")
    try:
        with open(tmp, "x", encoding="utf-8", newline="\n") as out:
            out.write(text)
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise


# --------------------------------------------------------------------------------------------
# Summaries, badge, comparison


def summary_table(report: Report, by: str = "document") -> str:
    """The terminal table of a report per document or mechanic (the table ``mtg-judge run``
    prints, :func:`mtg_judge.conformance.runner.format_table`): status counts, cases run of
    all, % of run and % of all per row, a total row counting the cases not run, and the
    footer's headline line."""
    table, unplaced = _table(report, by)
    return format_table(table, by, not_run=unplaced)


def _table(report: Report, by: str) -> tuple[dict[str, dict[str, int]], int]:
    """The rows of a report's summary (:func:`mtg_judge.conformance.runner.summarize`, its
    cases not run in their rows) and the cases not run that no row holds (a footer without
    ``not_run_groups``: an older report), for the total row."""
    groups = report.footer.get("not_run_groups")
    groups = groups if isinstance(groups, dict) else None
    table = summarize(report.cases, by, groups)
    placed = sum(row.get("not_run", 0) for row in table.values())
    return table, max(0, int(report.footer.get("not_run") or 0) - placed)


def skipped_checks_summary(cases: Iterable[dict]) -> list[str]:
    """One line per reason checks were skipped: ``"<n> checks in <m> cases: <reason>"``
    (singular for 1)."""
    by_reason: dict[str, list[int]] = {}
    for case in cases:
        reasons: dict[str, int] = {}
        for skipped in case.get("skipped_checks") or []:
            reason = skipped.get("reason") or "skipped"
            reasons[reason] = reasons.get(reason, 0) + 1
        for reason, n in reasons.items():
            entry = by_reason.setdefault(reason, [0, 0])
            entry[0] += n
            entry[1] += 1
    return [f"{_plural(n, 'check')} in {_plural(m, 'case')}: {reason}"
            for reason, (n, m) in sorted(by_reason.items())]


def _plural(n: int, word: str) -> str:
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


def badge(report: Report, label: str = "mtg-judge") -> dict:
    """The shields.io endpoint JSON of a report: ``{"schemaVersion": 1, "label": label,
    "message": ..., "color": ...}``. The message leads with passed of *every* selected case
    (skipped and not-run cases included, PROTOCOL §6): ``"93.5% (145/155)"`` when every
    case ran; ``"5.3% (39/732) · 100.0% of 39 run"`` when some were skipped or not run (then
    the pass rate of the cases run follows, when any ran: an engine that skips everything
    reads ``"0.0% (0/732)"``, red). The colour comes from that leading figure
    (:data:`BADGE_COLORS`), so an engine that skips most of the suite is never green. An
    incomplete report's message ends with ``interrupted`` or ``partial``
    (:func:`incomplete`). ``lightgrey`` with the message ``no results`` only when no case
    was selected at all.
    """
    counts = report.counts
    not_run = int(report.footer.get("not_run") or 0)
    ran, selected = played(counts, not_run)
    if not selected:
        return {"schemaVersion": 1, "label": label, "message": "no results",
                "color": "lightgrey"}
    percent = 100 * counts["passed"] / selected
    color = next(name for floor, name in BADGE_COLORS if percent >= floor)
    message = f"{overall(counts, not_run)} ({counts['passed']}/{selected})"
    if 0 < ran < selected:
        message += f" · {compliance(counts)} of {ran} run"
    why = incomplete(report)
    if why in ("interrupted", "partial"):
        message += f" {why}"
    elif why == "engine cannot start":
        message += " · the engine cannot start"
    return {"schemaVersion": 1, "label": label, "message": message, "color": color}


@dataclass(frozen=True)
class Change:
    """A case whose status differs between two reports; ``before``/``after`` are statuses,
    or None where the report has no such case."""

    name: str
    before: str | None
    after: str | None

    @property
    def kind(self) -> str:
        """``regression`` (passed before, not after), ``fix`` (passes now), or ``other``."""
        if self.before == "passed":
            return "regression"
        if self.after == "passed":
            return "fix"
        return "other"

    def __str__(self) -> str:
        return f"{self.name}: {self.before or '(absent)'} -> {self.after or '(absent)'}"


def compare(before: Report, after: Report) -> list[Change]:
    """Cases (by ``<id>[<ruleset>]``) whose status differs from ``before`` to ``after``,
    including cases present in only one of them; sorted by case name."""
    old = {c["name"]: c["status"] for c in before.cases}
    new = {c["name"]: c["status"] for c in after.cases}
    return [Change(name, old.get(name), new.get(name)) for name in sorted(set(old) | set(new))
            if old.get(name) != new.get(name)]


def _who(report: Report) -> str:
    impl = report.header.get("implementation") or {}
    return f"{impl.get('name', '?')} {impl.get('version', '')}".strip()


def _selection_text(report: Report) -> str:
    sel = report.header.get("selection") or {}
    parts = [f"-k {sel['keyword']!r}" if sel.get("keyword") else "every case"]
    if sel.get("rulesets"):
        parts.append("rulesets " + ", ".join(sel["rulesets"]))
    if sel.get("shard"):
        parts.append(f"shard {sel['shard']}")
    return ", ".join(parts)


def comparison_warnings(before: Report, after: Report, before_name: str = "A",
                        after_name: str = "B") -> list[str]:
    """``warning: ...`` lines for a comparison whose ``(absent)`` cases may not be status
    changes: the two reports ran different selections (``selection``), or one was
    interrupted (its footer's ``interrupted``, PROTOCOL §6). ``[]`` otherwise."""
    out = []
    if (before.header.get("selection") or {}) != (after.header.get("selection") or {}):
        out.append(f"warning: the reports ran different selections ({before_name}: "
                   f"{_selection_text(before)}; {after_name}: {_selection_text(after)}): a case "
                   "one of them did not select shows as (absent)")
    for name, report in ((before_name, before), (after_name, after)):
        if report.footer.get("interrupted"):
            out.append(f"warning: {name} is the report of an interrupted run: the cases it "
                       "did not reach show as (absent)")
    return out


def format_changes(changes: list[Change], before: Report, after: Report,
                   before_name: str = "A", after_name: str = "B") -> str:
    """The text of :func:`compare`: a heading, one line per change grouped as regressions,
    fixes and other changes, and a count line."""
    lines = [f"from {before_name} ({_who(before)}, {before.counts['total']} cases) "
             f"to {after_name} ({_who(after)}, {after.counts['total']} cases):"]
    lines += comparison_warnings(before, after, before_name, after_name)
    titles = {"regression": "regressions (passed, now not)", "fix": "fixes (now passed)",
              "other": "other changes"}
    for kind, title in titles.items():
        group = [c for c in changes if c.kind == kind]
        if group:
            lines.append(f"{title}:")
            lines += [f"  {c}" for c in group]
    counts = {kind: sum(c.kind == kind for c in changes) for kind in titles}
    lines.append(f"{_plural(len(changes), 'case')} changed: "
                 f"{_plural(counts['regression'], 'regression')}, "
                 f"{counts['fix']} {'fix' if counts['fix'] == 1 else 'fixes'}, "
                 f"{counts['other']} other" if changes else "no case changed status")
    return "\n".join(lines)


# --------------------------------------------------------------------------------------------
# JUnit XML

# Characters XML 1.0 cannot carry at all (control characters from an engine's stderr).
_XML_INVALID = re.compile("[^\t\n\r\x20-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]")


def xml_safe(text: Any) -> str:
    """``text`` as a string XML 1.0 can hold: each forbidden character (``\\x00``, ``\\x1b``,
    …) becomes its ``\\xNN`` escape."""
    return _XML_INVALID.sub(lambda m: f"\\x{ord(m.group()):02x}", str(text))


def _first_line(text: str, limit: int = 200) -> str:
    line = next((part for part in text.splitlines() if part.strip()), "")
    return line if len(line) <= limit else line[:limit] + "…"


def render_junit(report: Report) -> str:
    """JUnit XML of a report: ``<testsuites>`` with one ``<testsuite>`` per document, one
    ``<testcase name="<id>[<ruleset>]" classname="<document>.<mechanic>" file=...>`` per
    case, holding ``<failure>`` (mismatches), ``<error>`` (the error) or ``<skipped>``;
    skipped checks of a case that ran (a vacuous case too) are listed in its ``<system-out>``. Counts are
    attributes of each suite (``tests``, ``failures``, ``errors``, ``skipped``: the cases
    in the report; cases not run have no testcase). Each suite's ``<properties>`` carry the
    run's figures of PROTOCOL §6 (``mtg_judge.headline``, ``.run``, ``.selected``,
    ``.not_run``, ``.overall``, ``.compliance``) and, for an incomplete report,
    ``mtg_judge.incomplete`` (:func:`incomplete_note`).
    """
    counts = report.counts
    root = ET.Element("testsuites", {
        "name": "mtg-judge", "tests": str(counts["total"]),
        "failures": str(counts["failed"]), "errors": str(counts["errored"]),
        "skipped": str(counts["skipped"])})
    impl = report.header.get("implementation") or {}
    # The figures of PROTOCOL §6 (the same as the terminal, the HTML and the badge), and
    # what makes the report incomplete: a property of every suite, for CI dashboards.
    not_run = int(report.footer.get("not_run") or 0)
    ran, selected = played(counts, not_run)
    figures = [("mtg_judge.headline", headline(counts, not_run)),
               ("mtg_judge.run", str(ran)), ("mtg_judge.selected", str(selected)),
               ("mtg_judge.not_run", str(not_run)),
               ("mtg_judge.overall", overall(counts, not_run)),
               ("mtg_judge.compliance", compliance(counts))]
    note = incomplete_note(report)
    if note is not None:
        figures.append(("mtg_judge.incomplete", note))
    by_document: dict[str, list[dict]] = {}
    for case in report.cases:
        by_document.setdefault(case["document"], []).append(case)
    for document in sorted(by_document):
        cases = by_document[document]
        c = count_statuses(cases)
        suite = ET.SubElement(root, "testsuite", {
            "name": xml_safe(document or "-"), "tests": str(c["total"]),
            "failures": str(c["failed"]), "errors": str(c["errored"]),
            "skipped": str(c["skipped"])})
        props = ET.SubElement(suite, "properties")
        for name, value in (("implementation", impl.get("name", "")),
                            ("implementation.version", impl.get("version", "")),
                            ("engine", report.header.get("engine") or "(reference, in-process)"),
                            *figures):
            ET.SubElement(props, "property", {"name": name, "value": xml_safe(value)})
        for case in cases:
            element = ET.SubElement(suite, "testcase", {
                "name": xml_safe(case["name"]),
                "classname": xml_safe(f"{case['document']}.{case['mechanic']}".strip(".")),
                "file": xml_safe(case.get("path", ""))})
            status = case["status"]
            if status == "failed":
                body = "\n\n".join(case.get("mismatches") or []) or case.get("message", "")
                fail = ET.SubElement(element, "failure", {
                    "message": xml_safe(_first_line(body) or "failed"), "type": "mismatch"})
                fail.text = xml_safe(body)
            elif status == "errored":
                message = case.get("message") or "errored"
                error = ET.SubElement(element, "error", {
                    "message": xml_safe(_first_line(message)),
                    "type": xml_safe(case.get("error_kind") or "errored")})
                error.text = xml_safe(message)
            elif status == "skipped":
                ET.SubElement(element, "skipped",
                              {"message": xml_safe(case.get("message") or "skipped")})
            skipped_checks = case.get("skipped_checks") or []
            vacuous = status == "skipped" and str(case.get("message") or "").startswith(VACUOUS)
            if skipped_checks and (status != "skipped" or vacuous):  # a vacuous case ran
                out = ET.SubElement(element, "system-out")
                out.text = xml_safe("skipped checks:\n" + "\n".join(
                    f"  {s.get('check')}: {s.get('reason')}" for s in skipped_checks))
    ET.indent(root)
    return ET.tostring(root, encoding="unicode", xml_declaration=True) + "\n"


# --------------------------------------------------------------------------------------------
# HTML

_CSS = """
body{font:15px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;margin:0;
 color:#1d232a;background:#f6f7f9}
main{max-width:1100px;margin:0 auto;padding:24px 28px 48px}
h1{font-size:24px;margin:0 0 4px}h2{font-size:19px;margin:32px 0 10px;
 border-bottom:1px solid #d8dce1;padding-bottom:4px}
.meta{color:#555e68;margin:0 0 2px}.meta code{font-size:13px}
.score{display:flex;gap:18px;align-items:center;margin:18px 0 6px;flex-wrap:wrap}
.big{font-size:42px;font-weight:700}.pill{padding:3px 10px;border-radius:12px;
 font-weight:600;font-size:14px}
.passed{background:#d9f2e0;color:#155d2b}.failed{background:#fbdada;color:#8a1414}
.errored{background:#fde7c8;color:#7a4300}.skipped{background:#e4e7eb;color:#3d4650}
table{border-collapse:collapse;width:100%;background:#fff;font-size:14px}
th,td{padding:5px 9px;border-bottom:1px solid #e4e7eb;text-align:right}
th:first-child,td:first-child{text-align:left}th{background:#eef0f3;font-weight:600}
tr.total td{font-weight:700;border-top:2px solid #c5cbd2}
.bar{display:inline-block;width:80px;height:9px;background:#e4e7eb;border-radius:5px;
 vertical-align:middle;margin-left:6px;overflow:hidden}
.bar span{display:block;height:100%;background:#2f9e55}
td.zero{color:#b3bac2}
details{background:#fff;border:1px solid #d8dce1;border-radius:6px;margin:6px 0}
summary{cursor:pointer;padding:7px 10px;font-family:ui-monospace,SFMono-Regular,Menlo,
 monospace;font-size:13.5px}
summary .why{font-family:system-ui,sans-serif;color:#555e68;margin-left:6px}
.body{padding:4px 14px 12px;border-top:1px solid #e4e7eb}
.body h3{font-size:14px;margin:12px 0 4px}
pre{background:#f3f4f6;padding:8px 10px;border-radius:4px;overflow-x:auto;font-size:12.5px;
 line-height:1.4;margin:0;white-space:pre-wrap;word-break:break-word}
pre .hit{background:#ffe9a8;display:inline-block;width:100%}
pre .gap{color:#8a939c}
a{color:#0b5cad}
footer{margin-top:40px;color:#6b747e;font-size:13px}
"""


def _e(text: Any) -> str:
    return html.escape(xml_safe(text), quote=True)


def _html_table(report: Report, by: str) -> tuple[dict[str, dict[str, int]], str, int]:
    table, unplaced = _table(report, by)
    return table, by, unplaced


def _counts_table(table: dict[str, dict[str, int]], by: str, unplaced: int = 0) -> str:
    """The HTML table of :func:`mtg_judge.conformance.runner.summarize` rows, the figures
    of :func:`~mtg_judge.conformance.runner.format_table` (each row's cases not run in its
    ``run`` and ``% of all``; ``unplaced``: cases not run that no row holds, in the total)."""
    total = total_row(table)
    head = "".join(f"<th>{s}</th>" for s in (by, *STATUSES, "total", "run", "% of run",
                                             "% of all"))
    rows = []
    for name, row in [*table.items(), ("total", total)]:
        extra = unplaced if name == "total" else 0
        ran, selected = played(row, extra)
        width = round(100 * row["passed"] / selected) if selected else 0
        bar = f'<span class="bar"><span style="width:{width}%"></span></span>' if selected else ""
        cells = "".join(f'<td class="{"zero" if not row[s] else ""}">{row[s]}</td>'
                        for s in (*STATUSES, "total"))
        cls = ' class="total"' if name == "total" else ""
        rows.append(f"<tr{cls}><td>{_e(name)}</td>{cells}<td>{ran}/{selected}</td>"
                    f"<td>{_e(compliance(row))}</td><td>{_e(overall(row, extra))}{bar}</td></tr>")
    return f"<table><thead><tr>{head}</tr></thead><tbody>{''.join(rows)}</tbody></table>"


_INDEX = re.compile(r"(?<![\w#])#(\d+)")
# The lines of a mismatch (mtg_judge.conformance.expect.Mismatch text) that point at events: its first
# line ("... after event #4"), and detail lines (indented 4) that show one event: a forbidden
# event ("#12 ...") or an event of the pattern's type ("earlier #12 ...", "later #12 ...").
_POINTING = re.compile(r"^(?:\S.*|    (?:#|earlier #|later #)\d+.*)$")


def log_excerpt(case: dict, context: int = LOG_CONTEXT) -> tuple[list[tuple[int, str]], set[int]]:
    """The engine's log around the mismatches of a case record: ``(lines, hits)``, ``lines``
    as ``(index, text)`` pairs (index -1 for a ``…`` gap), ``hits`` the event indexes the
    mismatches point at (``after event #4``, a forbidden ``#12 …``, ``earlier #12 …``; not
    the listing of the events that follow). Shows ``context`` events around each hit, or the
    last ten events (what led to the final state) when the mismatches point at none."""
    log = case.get("log") or []
    hits = {int(n) for m in case.get("mismatches") or [] for line in m.splitlines()
            if _POINTING.match(line) for n in _INDEX.findall(line)}
    hits = {h for h in hits if h < len(log)}
    if hits:
        keep = sorted({i for h in hits for i in range(h - context, h + context + 1)
                       if 0 <= i < len(log)})
    else:
        keep = list(range(max(0, len(log) - 10), len(log)))
    lines: list[tuple[int, str]] = []
    previous = -1
    for i in keep:
        if (lines and i != previous + 1) or (not lines and i > 0):
            lines.append((-1, "…"))
        lines.append((i, log[i]))
        previous = i
    if log and keep and keep[-1] < len(log) - 1:
        lines.append((-1, "…"))
    return lines, hits


def _compact(value: Any) -> str:
    return json.dumps(value, sort_keys=True, ensure_ascii=False, separators=(", ", ": "))


def expected_lines(case: dict) -> list[tuple[str, bool]]:
    """The ``expect`` block of a case record as ``(line, failed)`` pairs: one line per
    pattern (``events[1] {"card": "bolt", "type": "spell_resolved"}``), ``failed`` when a
    mismatch of the case is about that pattern (its check, e.g. ``expect.events[1]``), the
    line then starting with ``✗``."""
    failed = set()
    for mismatch in case.get("mismatches") or []:
        where = mismatch.split(":", 1)[0]
        found = re.match(r"expect\.(?:events|absent|checkpoints|rejections)\[\d+\]", where)
        failed.add(found.group(0) if found else
                   "expect.state" if where.startswith("expect.state") else where)
    lines: list[tuple[str, bool]] = []
    for key, value in sorted((case.get("expect") or {}).items()):
        if isinstance(value, list):
            for i, item in enumerate(value):
                name = f"expect.{key}[{i}]"
                bad = name in failed
                lines.append((f"{'✗' if bad else ' '} {key}[{i}] {_compact(item)}", bad))
        else:
            bad = f"expect.{key}" in failed
            lines.append((f"{'✗' if bad else ' '} {key} {_compact(value)}", bad))
    return lines


def _fixture_link(case: dict, header: dict, fixtures_url: str | None) -> str:
    path = case.get("path") or ""
    if not path:
        return ""
    if fixtures_url:
        href = fixtures_url.rstrip("/") + "/" + path
    elif header.get("fixtures") and not Path(path).is_absolute():
        href = (Path(header["fixtures"]) / path).as_uri()
    elif Path(path).is_absolute():
        href = Path(path).as_uri()
    else:
        href = path
    return f'<a href="{_e(href)}">{_e(path)}</a>'


def _case_details(case: dict, header: dict, fixtures_url: str | None) -> str:
    status = case["status"]
    if status == "failed":
        why = _first_line((case.get("mismatches") or [""])[0], 120)
    else:
        why = _first_line(case.get("message") or "", 120)
    parts = [f'<details id="{_e(case["name"])}"><summary>{_e(case["name"])} '
             f'<span class="pill {status}">{status}</span>'
             f'<span class="why">{_e(why)}</span></summary><div class="body">']
    link = _fixture_link(case, header, fixtures_url)
    kind = f" · error kind <code>{_e(case['error_kind'])}</code>" if case.get("error_kind") else ""
    from mtg_judge.conformance.casepage import page_path

    parts.append(f'<p class="meta">fixture {link or "(no file)"} · ruleset '
                 f'<code>{_e(case["ruleset"])}</code>{kind} · <a class="page" '
                 f'href="{_e(page_path(case["name"]))}">the case as a page</a></p>')
    if case.get("mismatches"):
        parts.append("<h3>Mismatches</h3><pre>" + _e("\n".join(case["mismatches"])) + "</pre>")
    if status == "errored" or (case.get("message") and not case.get("mismatches")):
        parts.append("<h3>Error</h3><pre>" + _e(case.get("message") or "") + "</pre>")
    if case.get("log"):
        lines, hits = log_excerpt(case)
        rendered = []
        for index, text in lines:
            if index < 0:
                rendered.append(f'<span class="gap">{_e(text)}</span>')
            elif index in hits:
                rendered.append(f'<span class="hit">{_e(text)}</span>')
            else:
                rendered.append(_e(text))
        title = "The engine's log around the mismatch" if hits else "The end of the engine's log"
        parts.append(f"<h3>{title} ({len(case['log'])} events)</h3><pre>"
                     + "\n".join(rendered) + "</pre>")
        parts.append("<details><summary>the whole log</summary><pre>"
                     + _e("\n".join(case["log"])) + "</pre></details>")
    if case.get("expect") is not None:
        parts.append("<h3>Expected patterns</h3><pre>" + "\n".join(
            f'<span class="hit">{_e(text)}</span>' if failed else _e(text)
            for text, failed in expected_lines(case)) + "</pre>")
    if case.get("skipped_checks"):
        parts.append("<h3>Skipped checks</h3><pre>" + _e("\n".join(
            f"{s.get('check')}: {s.get('reason')}" for s in case["skipped_checks"])) + "</pre>")
    parts.append("</div></details>")
    return "".join(parts)


def render_html(report: Report, fixtures_url: str | None = None) -> str:
    """A static HTML page of a report (inline CSS, no script, no external asset).

    It shows the implementation, the overall compliance, tables per document and per
    mechanic (passed, failed, errored, skipped, total, compliance), every failed and errored
    case as an expandable block (a link to its fixture file, its mismatches, the expected
    patterns and the engine's log around the mismatch), the "what to implement next" ranking
    of skip reasons and missing needs (:func:`mtg_judge.conformance.needs.next_steps`, when
    a case was skipped), the skipped cases with their reasons, and the skipped checks.
    ``fixtures_url`` is a base URL for fixture links (e.g. a repository's
    ``.../blob/main/fixtures``); by default links are ``file://`` URLs under the header's
    ``fixtures`` directory.
    """
    header, counts = report.header, report.counts
    impl = header.get("implementation") or {}
    name = f"{impl.get('name', '?')} {impl.get('version', '')}".strip()
    homepage = impl.get("homepage") or ""
    home = (f' · <a href="{_e(homepage)}">{_e(homepage)}</a>' if homepage else "")
    meta = [
        f'<p class="meta">language <code>{_e(impl.get("language", "?"))}</code>{home}</p>',
        f'<p class="meta">declared rulesets <code>{_e(", ".join(impl.get("rulesets") or []))}'
        f'</code> · capabilities <code>{_e(", ".join(impl.get("capabilities") or []) or "none")}'
        f"</code></p>",
        f'<p class="meta">engine <code>{_e(header.get("engine") or "reference engine, in-process")}'
        f'</code> · rulesets run <code>{_e(", ".join(header.get("rulesets") or []))}</code>'
        f' · started {_e(header.get("started", "?"))}</p>',
    ]
    not_run = int(report.footer.get("not_run") or 0)
    ran, selected = played(counts, not_run)
    pills = "".join(f'<span class="pill {s}">{counts[s]} {s}</span>' for s in STATUSES)
    stopped = (f'<p class="meta">stopped early: {not_run} selected cases were not run</p>'
               if not_run else "")
    note = incomplete_note(report)
    if incomplete(report) in ("interrupted", "partial") and note is not None:
        why, rest = note.split(":", 1)
        stopped = (f'<p class="meta interrupted"><strong>{_e(why)}</strong>:{_e(rest)}</p>')
    elif incomplete(report) == "engine cannot start":
        stopped = (f'<p class="meta interrupted"><strong>the engine cannot start</strong>: '
                   f'no case was run</p><pre>{_e(report.footer["engine_error"])}</pre>')
    bad = [c for c in report.cases if c["status"] in ("failed", "errored")]
    skipped = [c for c in report.cases if c["status"] == "skipped"]
    from mtg_judge.conformance.casepage import page_path
    from mtg_judge.conformance.ladder import failure_groups, failure_groups_html, ladder_html, report_ladder

    ladder = report_ladder(report.cases, impl) if len(bad) + len(skipped) else None
    pages = {c["name"] for c in bad}

    def case_link(case_name: str) -> str:  # a failing case's page, else its row
        return page_path(case_name) if case_name in pages else f"#{case_name}"

    to_ladder = ""
    if ladder is not None:
        nxt = ladder["next"]
        to_ladder = (f' · <a href="#ladder">what to implement next: '
                     f'{nxt["cost"]} feature{"s" if nxt["cost"] != 1 else ""} for '
                     f'{nxt["cases"]} case{"s" if nxt["cases"] != 1 else ""}</a>'
                     if nxt is not None else ' · <a href="#ladder">the ladder</a>')
    body = [
        f"<h1>mtg-judge compliance: {_e(name)}</h1>", *meta,
        f'<div class="score"><span class="big">{_e(overall(counts, not_run))}</span>'
        f"<span>{counts['passed']} of {selected} cases passed · {ran}/{selected} run · "
        f"{_e(compliance(counts))} of run</span>{pills}</div>",
        f'<p class="meta">{_e(headline(counts, not_run))}: the big figure is passed / every '
        "selected case (skipped and not-run cases count against it); % of run = passed / "
        f"(passed + failed + errored){to_ladder}</p>", stopped,
        ladder_html(ladder, case_link) if ladder is not None else "",
        "<h2>By document</h2>", _counts_table(*_html_table(report, "document")),
        "<h2>By mechanic</h2>", _counts_table(*_html_table(report, "mechanic")),
        f"<h2>Failed and errored cases ({len(bad)})</h2>",
    ]
    if bad:  # one root cause, one row (issue 25)
        body.append(failure_groups_html(failure_groups(bad), case_link))
        body.append("<h3>Every failed and errored case</h3>")
    body += [_case_details(c, header, fixtures_url) for c in bad] or ["<p>None.</p>"]
    if skipped:  # the authors' kit (issue 16): skip reasons and missing needs, ranked
        from mtg_judge.conformance.needs import next_steps, next_steps_html

        body.append(next_steps_html(next_steps(report.cases, declared_needs(impl))))
    body.append(f"<h2>Skipped cases ({len(skipped)})</h2>")
    if skipped:
        rows = "".join(f"<tr><td>{_e(c['name'])}</td><td style=\"text-align:left\">"
                       f"{_e(c.get('message') or '')}</td></tr>" for c in skipped)
        body.append("<table><thead><tr><th>case</th><th style=\"text-align:left\">reason"
                    f"</th></tr></thead><tbody>{rows}</tbody></table>")
    else:
        body.append("<p>None.</p>")
    summary = skipped_checks_summary(report.cases)
    body.append("<h2>Skipped checks</h2>")
    body.append("<ul>" + "".join(f"<li>{_e(line)}</li>" for line in summary) + "</ul>"
                if summary else "<p>None: every expectation was checked.</p>")
    suite = header.get("suite") or {}
    body.append(f"<footer>generated by mtg-judge {_e(suite.get('version', ''))} · report "
                f"format {_e(header.get('report_version', ''))}</footer>")
    return ("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
            "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">"
            f"<title>mtg-judge: {_e(name)} {_e(overall(counts, not_run))}</title>"
            f"<style>{_CSS}</style></head><body><main>\n" + "\n".join(body)
            + "\n</main></body></html>\n")


# --------------------------------------------------------------------------------------------
# Writing a report directory


def write_reports(report: Report, directory: Path | str,
                  fixtures_url: str | None = None) -> dict[str, Path]:
    """Write ``report.jsonl``, ``index.html``, ``badge.json`` and ``junit.xml`` into
    ``directory`` (created if needed), each atomically, and the page of each failed or
    errored case under ``cases/`` (:func:`case_pages`). Returns the four files' paths by kind
    (the keys of :data:`REPORT_FILES`). Raises ``OSError`` if the directory is unwritable;
    every file is rendered before the first is written."""
    directory = Path(directory)
    texts = {
        "jsonl": dump_jsonl(report),
        "html": render_html(report, fixtures_url),
        "badge": json.dumps(badge(report), indent=2, sort_keys=True) + "\n",
        "junit": render_junit(report),
    }
    pages = case_pages(report, fixtures_url)
    paths = {}
    for kind, text in texts.items():
        paths[kind] = directory / REPORT_FILES[kind]
        _write_atomic(paths[kind], text)
    for relative, text in pages.items():  # cases/<id>.<ruleset>.html, linked from index.html
        _write_atomic(directory / relative, text)
    return paths


def case_pages(report: Report, fixtures_url: str | None = None) -> dict[str, str]:
    """The page of every failed and errored case (issue 25:
    :func:`mtg_judge.conformance.casepage.case_page_html`), by path relative to the report
    folder (``cases/<id>.<ruleset>.html``), in case order; ``{}`` without failures."""
    from mtg_judge.conformance.casepage import case_page_html, page_path

    out = {}
    for case in report.cases:
        if case["status"] in ("failed", "errored"):
            link = _fixture_link(case, report.header, fixtures_url)
            out[page_path(case["name"])] = case_page_html(case, report.header,
                                                          fixture_link=link)
    return out


def declared_needs(implementation: dict | None) -> list[str]:
    """The needs an engine declares in its handshake: ``capability:<name>`` for each of its
    ``capabilities`` (they are no feature to implement, issue 25)."""
    capabilities = (implementation or {}).get("capabilities")
    return [f"capability:{c}" for c in capabilities if isinstance(c, str)] if isinstance(
        capabilities, list) else []


#: The report a run appends to as its cases finish (:class:`PartialReport`).
PARTIAL_FILE = "report.partial.jsonl"


class PartialReport:
    """``report.partial.jsonl``: a run's report written as the run goes, so that a killed
    run (SIGKILL, a crash, a lost machine) still leaves a readable JSON Lines file of what
    finished (:func:`read_report` reads it; its footer is rebuilt from the cases).

    :meth:`open` writes the header line; :meth:`add` appends one case record per finished
    case, in completion order (run order when serial), each line written with one
    ``write`` on an ``O_APPEND`` descriptor, so that a signal never leaves half a line;
    :meth:`finish` writes the final report files from the whole report (cases in run order,
    :func:`write_reports`) and only then removes the partial file. Raises ``OSError`` when
    the directory is unwritable.
    """

    def __init__(self, directory: Path | str):
        self.directory = Path(directory)
        self.path = self.directory / PARTIAL_FILE
        self._fd: int | None = None
        #: the :func:`case_record` memo of the run, shared with the final report
        self.memo: dict = {}

    def open(self, header: dict) -> None:
        """Create (or truncate) the partial file and write ``header``."""
        self.directory.mkdir(parents=True, exist_ok=True)
        self.close()
        self._fd = os.open(self.path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC | os.O_APPEND,
                           0o666)
        self._write(header)

    def add(self, record: dict) -> None:
        """Append one case record (a :func:`case_record` dict); a no-op before :meth:`open`."""
        if self._fd is not None:
            self._write(record)

    def _write(self, record: dict) -> None:
        fd = self._fd
        assert fd is not None  # open
        data = (dumps(record) + "\n").encode("utf-8")
        while data:
            data = data[os.write(fd, data):]

    def close(self) -> None:
        """Close the partial file (it stays on disk). Safe to call more than once."""
        if self._fd is not None:
            fd, self._fd = self._fd, None
            with contextlib.suppress(OSError):
                os.close(fd)

    def finish(self, report: Report, fixtures_url: str | None = None) -> dict[str, Path]:
        """Write ``report`` with :func:`write_reports` into the directory, then remove the
        partial file; returns the paths written."""
        self.close()
        paths = write_reports(report, self.directory, fixtures_url)
        with contextlib.suppress(FileNotFoundError):
            os.unlink(self.path)
        return paths


def write_file(text: str, path: Path | str) -> Path:
    """Write one rendered report file atomically (``mtg-judge report --html OUT`` …)."""
    path = Path(path)
    _write_atomic(path, text)
    return path


# --------------------------------------------------------------------------------------------
# Shards and merging (mtg-judge run --shard K/N, mtg-judge report --merge)


def mark_shard(report: Report, shard: str, positions: dict[str, int]) -> Report:
    """Mark ``report`` as the slice ``shard`` (``"K/N"``) of a run: its header's
    ``selection.shard`` becomes ``shard`` and each case record gets ``position``, its index
    in the unsharded run order (``positions``: ``{case name: index}``). Returns ``report``
    (changed in place). Raises ``KeyError`` for a case ``positions`` lacks."""
    report.header["selection"] = {**(report.header.get("selection") or {}), "shard": shard}
    for case in report.cases:
        case["position"] = positions[case["name"]]
    return report


def _shard_of(header: dict) -> tuple[int, int] | None:
    shard = (header.get("selection") or {}).get("shard")
    if shard is None:
        return None
    from mtg_judge.conformance.shard import parse_shard

    return parse_shard(str(shard))


def merge_reports(reports: list[tuple[str, Report]]) -> Report:
    """Join the reports of the slices of one run (``mtg-judge run --shard K/N --report-dir``
    in each job of a CI matrix) into the report of the whole run.

    ``reports``: ``(file name, Report)`` pairs, in any order. The merged report equals the
    report of the same run unsharded, except for the fields that are per run: the header's
    ``started`` (the earliest of the slices), ``fixtures`` and ``engine`` (the first
    slice's: the folder and the command line may differ between machines). Case records
    come in the unsharded run order (their ``position``, which the merged records no longer
    carry), the footer is recounted (``not_run`` summed) and ``selection.shard`` is gone.
    Reports that are not slices (no ``selection.shard``) are joined in the given order.

    Raises :class:`ReportError` naming the file and what was expected when: no report is
    given; two reports come from different suite versions (``suite``), report versions or
    engines (the handshake's ``implementation``), or selections (``rulesets``,
    ``keyword``); some reports are slices and others not; slices of different N, a slice
    given twice, or a slice missing (every K of 1..N must be there); a case appears in two
    reports; a slice's case record has no integer ``position``; two cases share a
    position, or (when no case was left unrun) positions leave gaps: slices of different
    case sets.
    """
    if not reports:
        raise ReportError("--merge", 0, "no report to merge")
    first_name, first = reports[0]

    def selection(header: dict) -> dict:
        return {k: v for k, v in (header.get("selection") or {}).items() if k != "shard"}

    shards = []
    for name, report in reports:
        header = report.header
        for key, what in (("report_version", "report version"), ("suite", "suite version"),
                          ("implementation", "engine (the handshake's implementation)")):
            if header.get(key) != first.header.get(key):
                raise ReportError(name, 1, f"a different {what} from {first_name}: "
                                  f"{_compact(header.get(key))} vs "
                                  f"{_compact(first.header.get(key))}; only the slices of one "
                                  "run can be merged")
        if selection(header) != selection(first.header):
            raise ReportError(name, 1, f"a different selection from {first_name}: "
                              f"{_compact(selection(header))} vs "
                              f"{_compact(selection(first.header))} (every slice must select "
                              "the same cases: the same --ruleset and -k)")
        try:
            shards.append(_shard_of(header))
        except ValueError as exc:
            raise ReportError(name, 1, f"selection.shard: {exc}") from None
    sharded = [s is not None for s in shards]
    if any(sharded) and not all(sharded):
        name = reports[sharded.index(False)][0]
        raise ReportError(name, 1, "not a slice (no selection.shard) while others are: merge "
                                   "the reports of one sharded run")
    if all(sharded):
        slices = [s for s in shards if s is not None]  # all of them
        counts = {n for _, n in slices}
        if len(counts) > 1:
            raise ReportError(reports[0][0], 1, "slices of different runs: "
                              + ", ".join(f"{name} is {k}/{n}"
                                          for (name, _), (k, n) in zip(reports, slices)))
        total = counts.pop()
        seen: dict[int, str] = {}
        for (name, _), (k, _n) in zip(reports, slices):
            if k in seen:
                raise ReportError(name, 1, f"slice {k}/{total} given twice (also {seen[k]})")
            seen[k] = name
        missing = [f"{k}/{total}" for k in range(1, total + 1) if k not in seen]
        if missing:
            raise ReportError("--merge", 0, f"slice {', '.join(missing)} missing: every slice "
                              f"1/{total} to {total}/{total} must be merged")
    owner: dict[str, str] = {}
    merged: list[tuple[tuple[int, int], int, dict]] = []  # (sort key, number, record)
    for order, (name, report) in enumerate(reports):
        for number, case in enumerate(report.cases):
            if case["name"] in owner:
                raise ReportError(name, 0, f"case {case['name']} is also in {owner[case['name']]}")
            owner[case["name"]] = name
            record = dict(case)
            position = record.pop("position", None)
            if all(sharded) and (not isinstance(position, int) or isinstance(position, bool)):
                raise ReportError(name, 0, f"case {case['name']}: no integer 'position' (the "
                                  "run order); was it written by mtg-judge run --shard?")
            merged.append(((position, 0) if all(sharded) else (order, number), number, record))
    merged.sort(key=lambda item: item[0])
    not_run = sum(int(r.footer.get("not_run") or 0) for _, r in reports)
    interrupted = any(r.footer.get("interrupted") is True for _, r in reports)
    groups: dict[str, dict[str, int]] = {}
    for _, r in reports:
        for document, row in (r.footer.get("not_run_groups") or {}).items():
            into = groups.setdefault(document, {})
            for mechanic, n in row.items():
                into[mechanic] = into.get(mechanic, 0) + n
    if all(sharded):
        positions = [key[0] for key, _, _ in merged]
        if len(set(positions)) != len(positions) or (
                not not_run and positions != list(range(len(positions)))):
            raise ReportError("--merge", 0, "the slices' case positions overlap or leave gaps: "
                              "they were run on different cases (other fixtures, bundle or "
                              "selection)")
    cases = [record for _, _, record in merged]
    header = dict(first.header)
    header["selection"] = selection(first.header)
    header["rulesets"] = sorted({c["ruleset"] for c in cases if c["ruleset"] != "-"})
    starts = [started for _, r in reports if isinstance(started := r.header.get("started"), str)]
    if starts:
        header["started"] = min(starts)
    return Report(header, cases, footer_record(
        cases, not_run, interrupted, {d: dict(sorted(r.items())) for d, r in sorted(groups.items())},
        any(r.footer.get("partial") is True for _, r in reports)))
