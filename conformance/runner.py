"""Collecting fixture cases and running them on an engine (DESIGN §4, §9, §10).

A :class:`Case` is one fixture under one of its rulesets. :func:`collect` finds the cases
under a fixtures directory, :func:`run_case` runs one on a connection (the reference engine
in-process, :data:`REFERENCE`, or a protocol v1 engine: one path, typed replies), and :func:`run_suite` runs many, in parallel, returning results in
case order so that every report is deterministic.

``python -m mtg_judge.conformance.runner --dump`` prints every case's canonical log, one line per case
(used by ``tests/test_determinism.py``).
"""

from __future__ import annotations

import json
import os
import queue
import re
import signal
import sys
import threading
import traceback
from concurrent.futures import ThreadPoolExecutor, as_completed
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import Any, Callable, Iterable

from mtg_judge.conformance.canonical import dumps, normalize
from mtg_judge.conformance.expect import Mismatch, check, for_ruleset, format_mismatches
from mtg_judge.conformance.loader import (
    FIXTURES_DIR,
    FixtureError,
    duplicate_id_error,
    file_label,
    iter_fixture_paths,
    load_cards_lenient,
    load_fixture,
)
from mtg_judge.conformance.messages import Skipped
from mtg_judge.conformance.protocol import (
    CAPABILITIES,
    Connection,
    EngineError,
    InProcessEngine,
    InvalidRequest,
    ProtocolEngine,
    build_scenario,
    reference_engine,
)
from mtg_judge.engine.errors import ScenarioError
from mtg_judge.engine.rulesets import NAMES as RULESET_NAMES

#: The fixtures directory of this source tree (``fixtures/``).
DEFAULT_ROOT = FIXTURES_DIR
STATUSES = ("passed", "failed", "errored", "skipped")
#: The statuses of one check of a case (:class:`Check`).
CHECK_STATUSES = ("passed", "failed", "skipped")
#: The capability (DESIGN §9) each kind of check needs, by the ``expect`` key it checks.
#: ``script`` is the implicit check that every rejection is listed in ``expect.rejections``
#: and that no ``script_error`` occurred; it reads the event log.
CHECK_CAPABILITY = {"events": "events", "absent": "events", "rejections": "events",
                    "script": "events", "state": "state", "checkpoints": "checkpoints"}
#: The rulesets of DESIGN §3 that fixtures may name (engine/rulesets.py, the one list).
RULESETS = RULESET_NAMES


@dataclass(frozen=True)
class Case:
    """One fixture under one ruleset.

    ``document`` and ``mechanic`` come from the path ``<root>/<document>/<mechanic>/x.json``
    (``""`` where the file sits higher up).
    ``scenario`` is what an engine receives: the fixture plus ``"cards": {name: card JSON}``
    for the cards its setup uses. ``problem`` is set (and the case errors without running)
    when the fixture file is invalid or the scenario cannot be built (an unknown card).
    """

    fixture_id: str
    ruleset: str
    path: Path
    document: str
    mechanic: str
    scenario: dict = field(default_factory=dict, repr=False, compare=False)
    problem: str | None = field(default=None, compare=False)

    @property
    def name(self) -> str:
        """The case's test id, ``<fixture id>[<ruleset>]``."""
        return f"{self.fixture_id}[{self.ruleset}]"

    @cached_property
    def needs(self) -> dict[str, list[str]]:
        """What the case needs from an engine (:func:`mtg_judge.conformance.needs.case_needs`
        of ``scenario``), worked out once per case and kept with the collection cache
        (``conformance/collection_cache.py``), so a report does not walk every scenario again."""
        from mtg_judge.conformance.needs import case_needs

        return case_needs(self.scenario)

    @cached_property
    def scenario_json(self) -> str:
        """``scenario`` as canonical JSON text (sorted keys, compact, UTF-8 as is): what
        :func:`run_case` hands every connection (the in-process reference engine parses its
        fresh copy from it, a protocol client puts it into the request line), written
        once per case rather than once per run (``scenario`` is not changed in place once
        collected). Raises ``TypeError`` naming the JSON path for data canonical JSON
        refuses (:func:`mtg_judge.conformance.canonical.dumps`); that is not cached."""
        if not _is_canonical(self.scenario):
            dumps(self.scenario)  # raises the TypeError
        return json.dumps(self.scenario, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


@dataclass(frozen=True)
class Check:
    """One expectation of a case and what became of it.

    ``name``: ``expect.events[<i>]``, ``expect.absent[<i>]``, ``expect.state``,
    ``expect.checkpoints[<i>]``, ``expect.rejections[<i>]``, or ``script`` (every rejection
    listed, no script error; FORMAT §3.3). ``status``: one of :data:`CHECK_STATUSES`;
    ``skipped`` when the engine did not declare the capability the check needs
    (:data:`CHECK_CAPABILITY`), ``reason`` then says which.
    """

    name: str
    status: str
    reason: str = ""


def plan_checks(fixture: dict) -> list[tuple[str, str]]:
    """The checks of a fixture (already resolved for its ruleset) as ``(name, capability)``
    pairs, in the order :func:`mtg_judge.conformance.expect.check` applies them; see :class:`Check`.

    >>> plan_checks({"expect": {"events": [{}, {}], "state": {}}})
    [('expect.events[0]', 'events'), ('expect.events[1]', 'events'), ('expect.state', 'state'), ('script', 'events')]
    """
    expect = fixture.get("expect") or {}
    out: list[tuple[str, str]] = []
    for key in ("events", "absent"):
        out += [(f"expect.{key}[{i}]", "events") for i in range(len(expect.get(key) or []))]
    if "state" in expect:
        out.append(("expect.state", "state"))
    out += [(f"expect.checkpoints[{i}]", "checkpoints")
            for i in range(len(expect.get("checkpoints") or []))]
    out += [(f"expect.rejections[{i}]", "events")
            for i in range(len(expect.get("rejections") or []))]
    out.append(("script", "events"))
    return out


_CHECK_NAME = re.compile(r"expect\.(?:events|absent|checkpoints|rejections)\[\d+\]")


def check_name(mismatch: Mismatch) -> str:
    """The :class:`Check` a mismatch belongs to, from its ``where``: ``expect.events[2]``,
    ``expect.checkpoints[0]`` (for ``expect.checkpoints[0].legal[1]``), ``expect.state``, or
    ``script`` (an unlisted rejection or a script error, ``where`` = ``events[<j>]``)."""
    found = _CHECK_NAME.match(mismatch.where)
    if found:
        return found.group(0)
    if mismatch.where.startswith("expect.state"):
        return "expect.state"
    return "script"


def check_result(fixture: dict, result: dict,
                 capabilities: Iterable[str] = CAPABILITIES) -> tuple[list[Check], list[Mismatch]]:
    """Check ``result`` against ``fixture`` with only the checks ``capabilities`` allow.

    A check whose capability (:data:`CHECK_CAPABILITY`) is not in ``capabilities`` is
    ``skipped``: its expectation is left out before :func:`mtg_judge.conformance.expect.check` runs,
    and so is the result key of an undeclared capability. Returns ``(checks, mismatches)``,
    ``checks`` in :func:`plan_checks` order, each ``passed``, ``failed`` (it has a mismatch)
    or ``skipped``.
    """
    declared = set(capabilities)
    expect = fixture.get("expect") or {}
    applied = {key: value for key, value in expect.items()
               if CHECK_CAPABILITY.get(key, "events") in declared}
    trimmed = {**fixture, "expect": applied}
    usable = {key: value for key, value in result.items() if key in declared}
    mismatches = check(trimmed, usable)
    failed = {check_name(m) for m in mismatches}
    checks = []
    for name, capability in plan_checks(fixture):
        if capability not in declared:
            checks.append(Check(name, "skipped",
                                f"the engine does not declare the {capability!r} capability"))
        else:
            checks.append(Check(name, "failed" if name in failed else "passed"))
    return checks, mismatches


class RunInterrupted(KeyboardInterrupt):
    """Raised by :func:`run_suite` when the run was interrupted (a ``KeyboardInterrupt``:
    Ctrl-C, or a signal handler that raises it, as ``mtg-judge run`` installs for SIGTERM).
    A ``KeyboardInterrupt`` itself, so that callers that do not look for it stop as before.

    ``results``: the :class:`CaseResult` of every case that finished before the interrupt,
    in case order (cases still running were abandoned and are not in it). By the time it is
    raised, the worker processes and engine processes of the run have been stopped.
    """

    def __init__(self, results: list["CaseResult"]):
        super().__init__(f"run interrupted after {len(results)} cases")
        self.results = results


@dataclass
class CaseResult:
    """The outcome of one case.

    ``status``: one of :data:`STATUSES` (``failed`` = the engine ran but missed expectations;
    ``errored`` = no usable result: an exception, a crash, a timeout, a bad reply, a wrong
    ``seq``; ``skipped`` = not run, no check could be applied, or the case is vacuous,
    :func:`vacuous_reason`). A case that ran passes when no check failed and at least one
    applied check shows something the engine did.
    ``mismatches``: from :func:`mtg_judge.conformance.expect.check`; ``checks``: every :class:`Check`
    with its status (empty when the case did not run); ``result``: the engine's result dict
    (FORMAT §9) or None; ``message``: why it errored or was skipped; ``error_kind``: for
    ``errored``, the :class:`~mtg_judge.conformance.protocol.EngineError` kind (``crash``,
    ``timeout``, ``bad_reply``, ``wrong_seq``, ``errored``), ``fixture`` (an invalid
    fixture), ``request`` (a request that failed validation) or ``exception``.
    """

    case: Case
    status: str
    mismatches: list[Mismatch] = field(default_factory=list)
    result: dict | None = None
    message: str = ""
    checks: list[Check] = field(default_factory=list)
    error_kind: str | None = None

    @property
    def skipped_checks(self) -> list[Check]:
        """The checks that were not applied (a capability the engine did not declare)."""
        return [c for c in self.checks if c.status == "skipped"]

    def describe(self) -> str:
        """A readable account of a non-passing result (mismatches or the error)."""
        body = format_mismatches(self.mismatches) if self.mismatches else self.message
        return f"{self.case.name} {self.status.upper()} ({self.case.path})\n{body}".rstrip()


class RecordError(ValueError):
    """A report's case record of the wrong shape: ``message`` (what is wrong, what was
    expected), ``path`` (the JSON path in the record, ``$.status``), ``expected``."""

    def __init__(self, message: str, path: str = "$", expected: str = "") -> None:
        super().__init__(message)
        self.message, self.path, self.expected = message, path, expected


@dataclass(frozen=True, slots=True)
class CaseRecord:
    """One case of a report (PROTOCOL §6, the ``"kind": "case"`` line of ``report.jsonl``),
    typed: what every summary and report reads of a case.

    ``id``, ``ruleset``, ``document``, ``mechanic``, ``status`` (one of :data:`STATUSES`) and
    ``name`` (``<id>[<ruleset>]``) place it; ``path`` (its fixture file, relative to the
    fixtures), ``message``, ``error_kind``, ``mismatches`` (their text) and
    ``skipped_checks`` (``{"check", "reason"}`` objects) say what became of it. ``extra``
    holds the record's other keys as they are (``kind``, ``checks``, ``needs``, ``expect``,
    ``log``, ``divergence``): :meth:`to_json` gives back the whole record.
    """

    id: str
    ruleset: str
    document: str
    mechanic: str
    status: str
    name: str
    path: str = ""
    message: str = ""
    error_kind: str | None = None
    mismatches: tuple[str, ...] = ()
    skipped_checks: tuple[dict[str, Any], ...] = ()
    extra: dict[str, Any] = field(default_factory=dict, compare=False, repr=False)

    #: The keys a record must hold as strings.
    REQUIRED = ("id", "ruleset", "document", "mechanic", "status")

    def to_json(self) -> dict[str, Any]:
        """The record's JSON object (the line of ``report.jsonl``, keys in any order)."""
        return {**self.extra, "id": self.id, "ruleset": self.ruleset, "name": self.name,
                "document": self.document, "mechanic": self.mechanic, "path": self.path,
                "status": self.status, "message": self.message, "error_kind": self.error_kind,
                "mismatches": list(self.mismatches), "skipped_checks": list(self.skipped_checks)}

    @classmethod
    def from_json(cls, obj: Any) -> "CaseRecord":
        """Read a case record. ``name`` defaults to ``<id>[<ruleset>]``, ``path`` and
        ``message`` to ``""``, ``error_kind`` to None, ``mismatches`` and ``skipped_checks``
        to ``[]`` (older reports). Raises :class:`RecordError` naming the first key of the
        wrong shape: a missing or non-string :data:`REQUIRED` key, a ``status`` not in
        :data:`STATUSES`, ``mismatches`` not a list of strings, ``skipped_checks`` not a
        list of objects, ``message``/``path``/``name`` not a string, ``error_kind`` neither
        a string nor null."""
        if not isinstance(obj, dict):
            raise RecordError("expected a JSON object", "$", "a JSON object")
        missing = [key for key in cls.REQUIRED if not isinstance(obj.get(key), str)]
        if missing:
            raise RecordError(f"missing or non-string {', '.join(missing)}", f"$.{missing[0]}", "a string")
        if obj["status"] not in STATUSES:
            raise RecordError(f"status {obj['status']!r}, expected one of {', '.join(STATUSES)}",
                              "$.status", "one of " + ", ".join(STATUSES))
        for key in ("name", "path", "message"):
            if key in obj and not isinstance(obj[key], str):
                raise RecordError(f"{key} must be a string", f"$.{key}", "a string")
        error_kind = obj.get("error_kind")
        if not (error_kind is None or isinstance(error_kind, str)):
            raise RecordError("error_kind must be a string or null", "$.error_kind", "a string or null")
        mismatches = obj.get("mismatches", [])
        if not (isinstance(mismatches, list) and all(isinstance(m, str) for m in mismatches)):
            raise RecordError("mismatches must be a list of strings", "$.mismatches", "a list of strings")
        skipped = obj.get("skipped_checks", [])
        if not (isinstance(skipped, list) and all(isinstance(c, dict) for c in skipped)):
            raise RecordError("skipped_checks must be a list of objects", "$.skipped_checks",
                              'a list of {"check", "reason"} objects')
        fields = {"id", "ruleset", "document", "mechanic", "status", "name", "path", "message",
                  "error_kind", "mismatches", "skipped_checks"}
        return cls(obj["id"], obj["ruleset"], obj["document"], obj["mechanic"], obj["status"],
                   obj.get("name", f"{obj['id']}[{obj['ruleset']}]"), obj.get("path", ""),
                   obj.get("message", ""), error_kind, tuple(mismatches), tuple(skipped),
                   {k: v for k, v in obj.items() if k not in fields})

    @classmethod
    def of(cls, item: "CaseResult | CaseRecord | dict[str, Any]", path: str = "",
           extra: dict[str, Any] | None = None) -> "CaseRecord":
        """The record of a result of this run (``path``: its fixture file as the report
        names it; ``extra``: the record's other keys), of a record already read (itself),
        or of a record's JSON object (:meth:`from_json`)."""
        if isinstance(item, CaseRecord):
            return item
        if isinstance(item, dict):
            return cls.from_json(item)
        case = item.case
        return cls(case.fixture_id, case.ruleset, case.document, case.mechanic, item.status, case.name,
                   path, item.message, item.error_kind, tuple(str(m) for m in item.mismatches),
                   tuple({"check": c.name, "reason": c.reason} for c in item.skipped_checks),
                   dict(extra or {}))


# --------------------------------------------------------------------------------------------
# Collecting


def _tokenize(expr: str) -> list[str]:
    return re.findall(r"\(|\)|[^\s()]+", expr)


def keyword_matches(expr: str | None, name: str) -> bool:
    """pytest-style ``-k``: words are case-insensitive substrings of ``name``, combined with
    ``and``, ``or``, ``not`` and parentheses. Raises ``ValueError`` for a malformed expression.

    >>> keyword_matches("bolt and not classic", "modern.bolt[modern]")
    True
    """
    if not expr or not expr.strip():
        return True
    tokens, pos, name = _tokenize(expr), 0, name.lower()

    def peek() -> str | None:
        return tokens[pos] if pos < len(tokens) else None

    def take() -> str:
        nonlocal pos
        pos += 1
        return tokens[pos - 1]

    def disjunction() -> bool:
        value = conjunction()
        while peek() == "or":
            take()
            value = conjunction() or value
        return value

    def conjunction() -> bool:
        value = negation()
        while peek() == "and":
            take()
            value = negation() and value
        return value

    def negation() -> bool:
        if peek() == "not":
            take()
            return not negation()
        token = peek()
        if token is None or token in ("and", "or", ")"):
            raise ValueError(f"malformed -k expression {expr!r}: unexpected {token or 'end'}")
        take()
        if token == "(":
            value = disjunction()
            if peek() != ")":
                raise ValueError(f"malformed -k expression {expr!r}: missing ')'")
            take()
            return value
        return token.lower() in name

    result = disjunction()
    if peek() is not None:
        raise ValueError(f"malformed -k expression {expr!r}: unexpected {peek()}")
    return result


def collect(root: Path | str = DEFAULT_ROOT, rulesets: Iterable[str] | None = None,
            keyword: str | None = None, card_problems: list | None = None) -> list[Case]:
    """Every case under the fixtures directory ``root``: each fixture × each of its rulesets.

    ``rulesets`` keeps only those rulesets; ``keyword`` is a ``-k`` expression matched against
    ``<id>[<ruleset>]`` (:func:`keyword_matches`). Cases come sorted by fixture path, then in
    the fixture's ruleset order. A fixture file that fails its schema becomes one case
    ``<relative path>[-]`` that errors with the loader's message (file, JSON path, expected),
    so one bad file does not hide the others; cross-file checks are ``mtg-judge validate``'s.
    A bad card file is left out: the fixtures that use it become errored cases naming the
    file. Raises ``ValueError`` for a bad ``keyword``, and ``FixtureError`` (the message of
    ``mtg-judge validate``, naming both files) when two fixture files use one id, whatever
    the selection: both would run and report cases of one name.

    The cases of the suite's own fixtures directory (:data:`DEFAULT_ROOT`) come from a disk
    cache keyed by the content of the fixture, card, schema and code files when nothing in
    them changed (:mod:`mtg_judge.conformance.collection_cache`; ``MTG_JUDGE_CACHE_DIR=``
    turns it off): the same cases as collecting them again.

    Symlinked folders are followed once (:func:`~mtg_judge.conformance.loader.iter_fixture_paths`).
    A file outside the ``<document>/<mechanic>/<name>.json`` layout gets its relative path
    as ``document`` and ``""`` as ``mechanic``, so that it is reported under its path.
    ``card_problems``: a list that receives the ``FixtureError`` of each card file left out
    (``mtg-judge run`` warns about them, issue 25); nothing is added from the cache, which
    holds only collections without such problems.
    """
    root = Path(root)
    keep = set(rulesets) if rulesets is not None else None
    paths = list(iter_fixture_paths(root))
    if paths:  # a malformed -k raises before any file is read (its parse needs no name)
        keyword_matches(keyword, "")
    cases = _collect_all(root, paths, card_problems)
    return [case for case in cases
            if (keep is None or (case.ruleset != "-" and case.ruleset in keep))  # an invalid file: no ruleset
            and keyword_matches(keyword, case.name)]


def _collect_all(root: Path, paths: list[Path], problems: list | None = None) -> list[Case]:
    """Every case of the fixture files ``paths`` (the walk of ``root``), in order; from the
    disk cache for the suite's own fixtures directory when its key matches
    (:mod:`mtg_judge.conformance.collection_cache`), stored there after a collection
    without problems."""
    folder = key = None
    if os.path.abspath(root) == os.path.abspath(DEFAULT_ROOT):
        from mtg_judge.conformance import collection_cache

        folder = collection_cache.cache_dir()
        if folder is not None:
            key = collection_cache.source_key(root, paths)
            cached = collection_cache.load(root, key, folder)
            if cached is not None:
                return cached
    cards, card_problems = load_cards_lenient(root / "cards")
    if problems is not None:
        problems += card_problems
    bad_cards = "; ".join(str(p) for p in card_problems)
    cases: list[Case] = []
    ids: dict[str, str] = {}  # fixture id -> the file that uses it first
    for path in paths:
        found = _file_cases(path, root, cards, bad_cards)
        if found and found[0].ruleset != "-":  # a valid fixture: its id is its own
            label = file_label(path, root)
            first = ids.setdefault(found[0].fixture_id, label)
            if first != label:
                raise duplicate_id_error(label, found[0].fixture_id, first)
        cases += found
    if key is not None and not card_problems:
        collection_cache.store(root, key, cases, folder)
    return cases


def collect_file(path: Path | str, root: Path | str = DEFAULT_ROOT) -> list[Case]:
    """The cases of one fixture file anywhere on disk (``mtg-judge show FILE``), its cards
    taken from ``root/cards``; ``document`` and ``mechanic`` come from its place under
    ``root`` when it lies there (else ``""``). An invalid file is one errored case, as in
    :func:`collect`."""
    root, path = Path(root), Path(path)
    cards, card_problems = load_cards_lenient(root / "cards")
    return _file_cases(path, root, cards, "; ".join(str(p) for p in card_problems))


def _relative(path: Path, root: Path) -> Path | None:
    """``path`` relative to ``root`` as found (through symlinks), else resolved, else None."""
    for found, base in ((Path(os.path.abspath(path)), Path(os.path.abspath(root))),
                        (path.resolve(), root.resolve())):
        try:
            return found.relative_to(base)
        except ValueError:
            pass
    return None


def _file_cases(path: Path, root: Path, cards: dict, bad_cards: str) -> list[Case]:
    rel = _relative(path, root)
    if rel is not None and len(rel.parts) == 3:  # <document>/<mechanic>/<name>.json
        document, mechanic = rel.parts[0], rel.parts[1]
    else:  # a stray file: reported under its path, not under a document ""
        document, mechanic = (rel.as_posix() if rel is not None else path.as_posix()), ""
    try:
        fixture = load_fixture(path)
    except FixtureError as exc:  # one bad file errors one case, the rest still runs
        name = rel.as_posix() if rel is not None else str(path)
        return [Case(name, "-", path, document, mechanic, {}, f"invalid fixture: {exc}")]
    out = []
    for ruleset in fixture["rulesets"]:
        try:
            scenario, problem = build_scenario(for_ruleset(fixture, ruleset), cards), None
        except KeyError as exc:
            scenario, problem = dict(fixture), f"cannot build the scenario: {exc.args[0]}" + (
                f" (invalid card files: {bad_cards})" if bad_cards else "")
        out.append(Case(fixture["id"], ruleset, path, document, mechanic, scenario, problem))
    return out


# --------------------------------------------------------------------------------------------
# Running


#: The connection :func:`run_case` uses when given none: the reference engine in-process.
REFERENCE = InProcessEngine()


def run_case(case: Case, engine: Connection | None = None) -> CaseResult:
    """Run ``case`` on a connection and check its expectations; never raises for engine failures.

    ``engine`` is a connection (:data:`~mtg_judge.conformance.protocol.Connection`): a
    started :class:`~mtg_judge.conformance.protocol.ProtocolEngine`, or None for
    :data:`REFERENCE`, the reference engine in-process
    (:class:`~mtg_judge.conformance.protocol.InProcessEngine`, which plays a fresh canonical
    JSON copy of ``case.scenario``, as ``mtg-judge serve`` would). Both are asked the same
    way, ``engine.run(case.scenario, case.ruleset, scenario_json=case.scenario_json)``, and
    answer a typed :class:`~mtg_judge.conformance.messages.Result` or
    :class:`~mtg_judge.conformance.messages.Skipped`; the checks applied are those of
    ``engine.capabilities``. A ruleset the engine does not declare, or a ``skipped`` reply,
    gives ``skipped``; an exception, ``EngineError`` or a result that is not canonical JSON
    gives ``errored``; unmet expectations give ``failed``.
    """
    if case.problem:
        return CaseResult(case, "errored", message=case.problem, error_kind="fixture")
    connection = REFERENCE if engine is None else engine
    try:
        reply = connection.run(case.scenario, case.ruleset, scenario_json=case.scenario_json)
        if isinstance(reply, Skipped):
            return CaseResult(case, "skipped", message=reply.message)
        capabilities = connection.capabilities
        result = reply.result()
        try:
            if not _is_canonical([reply.events, reply.state, reply.checkpoints]):
                normalize(result)  # raises TypeError naming the JSON path (floats, non-JSON values)
        except (TypeError, ValueError) as exc:
            return CaseResult(case, "errored", message=f"the result is not canonical JSON: {exc}",
                              error_kind="bad_reply")
    except EngineError as exc:
        return CaseResult(case, "errored", message=_engine_error_message(exc),
                          error_kind=exc.kind)
    except InvalidRequest as exc:  # ProtocolEngine(validate=True)
        return CaseResult(case, "errored", message=f"the harness's request does not match "
                          f"the protocol schema: {exc}", error_kind="request")
    except ScenarioError as exc:  # the fixture's setup can't be built (the reference engine's error)
        return CaseResult(case, "errored", message=f"cannot build the scenario: {exc}", error_kind="fixture")
    except Exception as exc:  # noqa: BLE001 - an engine bug is a result, not a harness crash
        return CaseResult(case, "errored", message=traceback.format_exc().rstrip()
                          or f"{type(exc).__name__}: {exc}", error_kind="exception")
    try:
        checks, mismatches = check_result(case.scenario, result, capabilities)
    except Exception as exc:  # noqa: BLE001 - a reply of the wrong shape is the engine's error
        return CaseResult(case, "errored", message=f"the result has the wrong shape for FORMAT §4/§6 "
                          f"({type(exc).__name__}: {exc}); run with --validate-protocol for the details",
                          error_kind="bad_reply")
    if mismatches:
        failed = sum(c.status == "failed" for c in checks)
        return CaseResult(case, "failed", mismatches, result,
                          f"{failed} of {len(checks)} checks failed", checks)
    if all(c.status == "skipped" for c in checks):
        reasons = sorted({c.reason for c in checks})
        return CaseResult(case, "skipped", [], result,
                          "no check could be applied: " + "; ".join(reasons), checks)
    vacuous = vacuous_reason(case, checks, capabilities)
    if vacuous is not None:
        return CaseResult(case, "skipped", [], result, vacuous, checks)
    return CaseResult(case, "passed", [], result, "", checks)


#: How the message of a vacuous case begins (PROTOCOL §3, "Vacuous cases").
VACUOUS = "vacuous: "
#: The keys of a permanent in the null result's state (:func:`vacuous_reason`): what the
#: setup's battlefield entry states (FORMAT §3.1), not what an engine works out from the
#: card and the rules (power, toughness, types, colours, keywords: CR 613's layers apply
#: even before any input, so checking them checks the engine).
SETUP_PERMANENT_KEYS = frozenset({"object", "name", "owner", "controller", "tapped", "summoning_sick", "damage",
                                  "counters", "attached_to", "token", "face_down", "face", "chosen_name",
                                  "kicked", "prepared", "prepared_copy"})


def vacuous_reason(case: Case, checks: list[Check], capabilities: Iterable[str]) -> str | None:
    """Why a case whose applied checks all passed proves nothing, or None when it proves
    something (PROTOCOL §3, "Vacuous cases"; issue 24 item 4).

    A case is **vacuous** when its applied checks (those ``capabilities`` allow, see
    :func:`check_result`) would also all pass for the *null result*, what an engine that
    did nothing would answer: an empty event log, no checkpoint, and as its final state the
    setup's own position (:func:`mtg_judge.engine.setup_state`: no rule applied, no input
    read; of each permanent only what the setup states, :data:`SETUP_PERMANENT_KEYS`, not
    the characteristics the engine derives). Such checks are checks of the setup, not of
    play: for python-mtg (``state``
    only) a deck-construction case with an empty script passes on the setup's library
    sizes alone. It depends only on the case and ``capabilities``, never on the engine's
    result: the same cases are vacuous for every engine declaring the same capabilities.

    The null result is tried on what needs no board first (an event pattern, a
    checkpoint, a rejection fails on an empty log: the common case, with no setup built),
    then on ``expect.state``. The message starts with :data:`VACUOUS` and names the
    capabilities whose checks were not applied (so that :func:`mtg_judge.conformance.needs.next_steps`
    groups vacuous cases by what would make them count). A setup the reference engine
    can't build is not judged (None).
    """
    from mtg_judge.engine import setup_state

    declared = set(capabilities)
    expect = case.scenario.get("expect") or {}
    applied = {key: value for key, value in expect.items()
               if CHECK_CAPABILITY.get(key, "events") in declared}
    null: dict[str, Any] = {"events": [], "checkpoints": []}
    if check({**case.scenario, "expect": {k: v for k, v in applied.items() if k != "state"}}, null):
        return None
    if "state" in applied:
        try:
            scenario = json.loads(case.scenario_json)
            state = setup_state(scenario, case.ruleset, cards=scenario.get("cards"))
        except Exception:  # noqa: BLE001 - not judged: the setup can't be built here
            return None
        state["battlefield"] = {ref: {k: v for k, v in perm.items() if k in SETUP_PERMANENT_KEYS}
                                for ref, perm in (state.get("battlefield") or {}).items()}
        if check({"expect": {"state": applied["state"]}}, {"state": state}):
            return None
    skipped = sorted({c.reason for c in checks if c.status == "skipped"})
    return (VACUOUS + "every check applied holds in the setup itself, before any play, so the case "
            "shows nothing the engine did" + (f" (not applied: {'; '.join(skipped)})" if skipped
                                              else " (the fixture checks nothing an engine must do)"))


def _is_canonical(value: object) -> bool:
    """True when :func:`mtg_judge.conformance.canonical.dumps` would accept ``value``: only
    None, bools, ints, strings, lists, tuples and dicts with string keys (no float, no other
    object). The same test as ``canonical._check``, without building a JSON path for every
    node (about 8x faster); callers run ``dumps``/``normalize`` on a False to get the error
    that names the path. Scalars inside a container are tested where they are met rather
    than stacked (most of an event log's nodes are strings and ints)."""
    stack: list[Any] = [value]
    pop, push = stack.pop, stack.append
    while stack:
        item = pop()
        kind = type(item)
        if kind is dict:
            for key in item:
                if type(key) is not str and not isinstance(key, str):
                    return False
            children = item.values()
        elif kind is list or kind is tuple:
            children = item
        else:
            verdict = _node_kind(item)
            if verdict is _BAD:
                return False
            if verdict is _LEAF:
                continue
            if isinstance(item, dict):
                if not all(isinstance(key, str) for key in item):
                    return False
                children = item.values()
            else:
                children = item
        for child in children:
            kind = type(child)
            if kind is str or kind is int or kind is bool or child is None:
                continue
            if kind is dict or kind is list or kind is tuple:
                push(child)
            else:
                verdict = _node_kind(child)
                if verdict is _BAD:
                    return False
                if verdict is _CONTAINER:
                    push(child)
    return True


_LEAF, _CONTAINER, _BAD = "leaf", "container", "bad"


def _node_kind(item: object) -> str:
    """What :func:`_is_canonical` makes of a node that is not exactly a str, int, bool,
    None, dict, list or tuple (a subclass, a float, anything else)."""
    if item is None or type(item) in (str, int, bool):
        return _LEAF
    if type(item) in (dict, list, tuple):
        return _CONTAINER
    if isinstance(item, float):
        return _BAD
    if isinstance(item, (bool, int, str)):
        return _LEAF
    if isinstance(item, (list, tuple, dict)):
        return _CONTAINER
    return _BAD


def _engine_error_message(exc: EngineError) -> str:
    """``<kind>: <message>``, the rest of the error's context as JSON, and the tail of the
    engine's stderr as plain text (:func:`mtg_judge.conformance.protocol.describe_engine_error`)."""
    from mtg_judge.conformance.protocol import describe_engine_error

    return describe_engine_error(exc)


def run_suite(cases: list[Case], workers: int = 1, engine_command: str | None = None,
              timeout: float = 30.0,
              progress: Callable[[CaseResult], None] | None = None, *,
              validate: bool = False, max_fail: int | None = None,
              on_start: Callable[[dict], None] | None = None,
              keep_passed_results: bool = True) -> list[CaseResult]:
    """Run ``cases``; return their results in case order, whatever the scheduling.

    Without ``engine_command``, the reference engine runs in-process: serially for
    ``workers <= 1``, otherwise in ``workers`` processes: this one and ``workers - 1`` children
    of a ``ProcessPoolExecutor`` (forked on Linux; see :func:`_run_processes`). With
    ``engine_command`` (a shell-style command line), ``workers`` engine processes are started,
    each serving one worker thread; each has read timeout ``timeout`` seconds (per reply,
    so per case), is restarted after a crash, a timeout, an unreadable reply or a wrong
    ``seq`` (the case errors, the run goes on), and with ``validate`` checks every message
    in both directions against ``schema/protocol-*.schema.json``.

    ``max_fail``: stop once that many cases failed or errored (1 = fail fast); cases not
    started by then are left out of the returned list (cases already running finish), so
    the list may be shorter than ``cases``. ``progress(result)`` is called once per
    finished case, in completion order. ``on_start(implementation)`` is called with the
    engine's handshake ``implementation`` (the first worker's; the reference engine's
    :func:`mtg_judge.conformance.protocol.reference_implementation` in-process) before any case runs.
    Raises ``EngineError`` if an engine cannot even be started, and :class:`RunInterrupted`
    (carrying the results so far) on a ``KeyboardInterrupt``: no case is started after it,
    results arriving later are dropped, and the worker and engine processes are stopped
    before it is raised.

    ``keep_passed_results=False``: the :attr:`CaseResult.result` (the engine's whole log
    and state) of a *passed* case is None, in every worker, before ``progress`` sees it;
    for a caller that reads only the results of the other cases (``mtg-judge run``, whose
    reports show the log of failed and errored cases only). Worker processes then do not
    send those logs back (issue 21: pickling and unpickling them was about 0.1 s of a
    parallel run of the suite). Statuses, checks and mismatches are the same.
    """
    if max_fail is not None and max_fail < 1:
        raise ValueError(f"max_fail must be at least 1, not {max_fail}")
    results: list[CaseResult | None] = [None] * len(cases)
    limit = _FailLimit(max_fail)

    def done(index: int, result: CaseResult) -> None:
        if not keep_passed_results and result.status == "passed":
            result.result = None
        results[index] = result
        if progress is not None:
            progress(result)

    workers = max(1, min(workers, len(cases) or 1))
    try:
        if engine_command is not None:
            _run_protocol(cases, workers, engine_command, timeout, done, limit, validate,
                          on_start)
        else:
            if on_start is not None:
                on_start(REFERENCE.start())
            if workers == 1:
                for i, case in enumerate(cases):
                    if limit.reached():
                        break
                    done(i, limit.count(run_case(case)))
            else:
                _run_processes(cases, workers, done, limit, keep_passed_results)
    except KeyboardInterrupt:
        limit.halt()  # nothing recorded from here on
        raise RunInterrupted([r for r in results if r is not None]) from None
    return [r for r in results if r is not None]


#: The cases of the parallel run in progress, as each worker process sees them: inherited
#: from the parent when the workers are forked, sent once per worker otherwise.
_worker_cases: list[Case] = []
#: Set by the parent when the run is interrupted: a worker starts no more case.
_worker_stop = None


def _init_worker(cases: list[Case], stop=None, parent: int | None = None) -> None:
    global _worker_cases, _worker_stop
    # The parent alone handles Ctrl-C (sent to the whole foreground process group) and
    # SIGTERM: it stops its workers itself (see _run_processes).
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    _die_with_parent(parent)
    _worker_cases = cases
    _worker_stop = stop
    reference_engine()  # imported here, not in the first case's time (a no-op when forked)


def _die_with_parent(parent: int | None) -> None:
    """On Linux, have the kernel kill this worker when its parent dies, however it dies
    (``prctl(PR_SET_PDEATHSIG, SIGKILL)``): a SIGKILLed run leaves no orphan worker waiting
    for tasks forever. Elsewhere, or if ``prctl`` is unavailable, nothing is done."""
    if not sys.platform.startswith("linux"):
        return
    try:
        import ctypes

        ctypes.CDLL(None, use_errno=True).prctl(1, int(signal.SIGKILL))  # PR_SET_PDEATHSIG
    except (OSError, AttributeError, TypeError):
        return
    if parent is not None and os.getppid() != parent:
        os._exit(1)  # the parent died before prctl took effect


def _run_chunk(indexes: range, keep_passed_results: bool = True) -> list[tuple[int, CaseResult]]:
    """Run the cases at ``indexes``; their results go back to the parent without their
    :class:`Case` (the parent has it: sending it back would pickle every scenario again,
    about 60% of the bytes), :func:`_run_processes` puts it back; without the engine's
    result of a passed case unless ``keep_passed_results`` (see :func:`run_suite`)."""
    out = []
    for i in indexes:
        if _worker_stop is not None and _worker_stop.is_set():
            break  # interrupted: the parent records nothing more
        result = run_case(_worker_cases[i])
        result.case = None  # type: ignore[assignment]
        if not keep_passed_results and result.status == "passed":
            result.result = None
        out.append((i, result))
    return out


def _pool_context():
    """``fork`` where it is safe and available (Linux): a worker starts in about a
    millisecond with the parent's imports and collected cases already in memory. Elsewhere
    (macOS, Windows) the platform's default start method."""
    import multiprocessing

    if sys.platform.startswith("linux") and "fork" in multiprocessing.get_all_start_methods():
        return multiprocessing.get_context("fork")
    return multiprocessing.get_context()


def _run_processes(cases: list[Case], workers: int, done: Callable[[int, CaseResult], None],
                   limit: "_FailLimit", keep_passed_results: bool = True) -> None:
    """The reference engine in ``workers`` processes: the parent and ``workers - 1``
    children (issue 10: what costs time around the engine).

    The cases are not pickled per task: the pool's initializer hands the whole list to each
    child once (free under ``fork``: the child inherits the parent's memory, with the engine
    already imported), and a task is a ``range`` of case indexes. Tasks are chunks of about
    1/8 of a worker's share (at most 8 cases: with 32, the parent waited 0.1-0.2 s at the end
    for the chunks the pool had already queued for a child) so that the progress bar moves
    and the last chunks balance the workers; the children take chunks from the front, the parent runs
    chunks from the back itself (those the pool has not started: a cancelled future) instead
    of waiting idle, so its results are never pickled. With ``max_fail`` a chunk is one case,
    so that the run stops where the serial one would (cases already running finish)."""
    from concurrent.futures import ProcessPoolExecutor  # multiprocessing: only for a parallel run

    reference_engine()  # import the engine once, before the children are forked
    if limit.max_fail is not None:
        size = 1
    else:
        size = max(1, min(8, -(-len(cases) // (workers * 8))))
    chunks = [range(start, min(start + size, len(cases))) for start in range(0, len(cases), size)]
    handled: set[int] = set()

    def collect_finished(futures: list, block: bool) -> None:
        pending = [k for k, f in enumerate(futures) if k not in handled and not f.cancelled()]
        finished = as_completed([futures[k] for k in pending]) if block else \
            [futures[k] for k in pending if futures[k].done()]
        index_of = {id(futures[k]): k for k in pending}
        for future in finished:
            handled.add(index_of[id(future)])
            if future.cancelled():
                continue
            for index, result in future.result():
                result.case = cases[index]
                done(index, limit.count(result))
            if limit.reached():
                for other in futures:
                    other.cancel()

    context = _pool_context()
    stop = context.Event()
    pool = ProcessPoolExecutor(max_workers=workers - 1, mp_context=context,
                               initializer=_init_worker, initargs=(cases, stop, os.getpid()))
    futures: list = []
    try:
        futures = [pool.submit(_run_chunk, chunk, keep_passed_results) for chunk in chunks]
        for k in reversed(range(len(chunks))):
            if limit.reached() or not futures[k].cancel():
                break  # the children have every chunk left
            handled.add(k)
            for index in chunks[k]:
                if limit.reached():
                    break
                done(index, limit.count(run_case(cases[index])))
            collect_finished(futures, block=False)
        collect_finished(futures, block=True)
    except BaseException:  # an interrupt (or a broken pool): stop the children now
        limit.halt()
        stop.set()
        _stop_pool_processes(pool)
        raise
    finally:
        pool.shutdown(wait=True, cancel_futures=True)


def _stop_pool_processes(pool, grace: float = 5.0) -> None:
    """Stop the worker processes of an interrupted ``ProcessPoolExecutor`` and reap them, so
    that no orphan is left: the chunks not started are cancelled and each worker, which
    starts no case once the stop event is set, exits after its current case; one still
    running after ``grace`` seconds (a hung case) is killed. Killing them first would make
    the pool's manager thread fail on the cancelled futures (a traceback on stderr)."""
    import time

    processes = list((getattr(pool, "_processes", None) or {}).values())
    pool.shutdown(wait=False, cancel_futures=True)
    end = time.monotonic() + grace
    for process in processes:
        with _suppress_errors():
            process.join(max(0.0, end - time.monotonic()))
    for process in processes:
        with _suppress_errors():
            if process.is_alive():
                process.kill()
                process.join(grace)


def _suppress_errors():
    import contextlib

    return contextlib.suppress(OSError, ValueError, AttributeError)


class _FailLimit:
    """``--max-fail``: counts failed and errored results (from any thread) and says when
    the run must stop starting cases."""

    def __init__(self, max_fail: int | None):
        self.max_fail = max_fail
        self.bad = 0
        self._lock = threading.Lock()
        self._stop = threading.Event()

    def count(self, result: CaseResult) -> CaseResult:
        if result.status in ("failed", "errored"):
            with self._lock:
                self.bad += 1
                if self.max_fail is not None and self.bad >= self.max_fail:
                    self._stop.set()
        return result

    def reached(self) -> bool:
        return self._stop.is_set()

    def halt(self) -> None:
        """Start no more cases (the run was interrupted)."""
        self._stop.set()


def _run_protocol(cases: list[Case], workers: int, command: str, timeout: float,
                  done: Callable[[int, CaseResult], None], limit: "_FailLimit",
                  validate: bool, on_start: Callable[[dict], None] | None) -> None:
    engines: queue.Queue[ProtocolEngine] = queue.Queue()
    started = []
    try:
        for _ in range(workers):
            engine = ProtocolEngine(command, timeout, validate=validate)
            started.append(engine)
            implementation = engine.start()
            if on_start is not None and len(started) == 1:
                on_start(dict(implementation))
            engines.put(engine)

        def work(case: Case) -> CaseResult | None:
            engine = engines.get()
            try:
                # Checked once this worker holds an engine, so that a case is never started
                # after the limit was reached by the one before it (counted in the worker).
                if limit.reached():
                    return None
                return limit.count(run_case(case, engine))
            finally:
                engines.put(engine)

        pool = ThreadPoolExecutor(max_workers=workers)
        futures: dict = {}
        try:
            futures = {pool.submit(work, case): i for i, case in enumerate(cases)}
            for future in as_completed(futures):
                if future.cancelled():
                    continue
                result = future.result()
                if result is not None:
                    done(futures[future], result)
                if limit.reached():
                    for pending in futures:
                        pending.cancel()
        except BaseException:  # an interrupt: unblock the worker threads at once
            limit.halt()
            for pending in futures:
                pending.cancel()
            for engine in started:
                _kill_engine_process(engine)
            raise
        finally:
            pool.shutdown(wait=True, cancel_futures=True)
    except KeyboardInterrupt:  # also during the handshakes: no grace for a stuck engine
        for engine in started:
            _kill_engine_process(engine)
        raise
    finally:
        for engine in started:
            engine.stop()  # also a process restarted by a worker after the kill above


def _kill_engine_process(engine: ProtocolEngine) -> None:
    """SIGKILL the engine's process group (from another thread than the one using the
    engine: its pending read then ends at once as a crash, whose result is dropped);
    :meth:`ProtocolEngine.stop` reaps it afterwards."""
    proc = getattr(engine, "_proc", None)
    if proc is None or proc.poll() is not None:
        return
    with _suppress_errors():
        if os.name == "posix":
            os.killpg(proc.pid, signal.SIGKILL)
        else:  # pragma: no cover
            proc.kill()


# --------------------------------------------------------------------------------------------
# Summaries: the figures of every report (PROTOCOL §6), computed here and only here


def _status_row() -> dict[str, int]:
    return {s: 0 for s in (*STATUSES, "total", "not_run")}


def group_key(document: str, mechanic: str, by: str) -> str:
    """The row a case counts in: its ``document`` (``by="document"``) or
    ``<document>/<mechanic>`` (``by="mechanic"``; the document alone for a file outside the
    ``<document>/<mechanic>/`` layout, whose mechanic is ``""``)."""
    return document if by == "document" or not mechanic else f"{document}/{mechanic}"


def not_run_groups(cases: Iterable[Case]) -> dict[str, dict[str, int]]:
    """The cases not run of a run (``--max-fail``, an interrupt, a killed run) counted by
    place: ``{document: {mechanic: n}}`` (the footer's ``not_run_groups``, PROTOCOL §6), so
    that each row of a summary counts its own cases not run."""
    out: dict[str, dict[str, int]] = {}
    for case in cases:
        row = out.setdefault(case.document, {})
        row[case.mechanic] = row.get(case.mechanic, 0) + 1
    return {doc: dict(sorted(row.items())) for doc, row in sorted(out.items())}


def summarize(cases: Iterable[CaseResult | CaseRecord | dict], by: str = "document",
              not_run: dict[str, dict[str, int]] | None = None) -> dict[str, dict[str, int]]:
    """Counts per group, the one summary every report is made of (the terminal tables of
    ``run`` and ``report``, the HTML tables, the pytest plugin; PROTOCOL §6):
    ``{group: {"passed", "failed", "errored", "skipped", "total", "not_run"}}``.

    ``cases``: :class:`CaseResult` objects or case records of a report
    (:class:`CaseRecord`, or their JSON objects, read with :meth:`CaseRecord.from_json`:
    ``RecordError`` for one of the wrong shape). ``by`` is ``"document"`` or ``"mechanic"``
    (:func:`group_key`). ``not_run`` (:func:`not_run_groups`) adds the selected cases that
    were not run to their rows (a group of only such cases gets a row); ``total`` counts
    the cases of the report (run or skipped), :func:`played` adds ``not_run``. Groups are
    sorted by name.
    """
    table: dict[str, dict[str, int]] = {}
    for item in cases:
        if isinstance(item, CaseResult):  # the hot path of a run: no record built
            document, mechanic, status = item.case.document, item.case.mechanic, item.status
        else:
            record = CaseRecord.of(item)
            document, mechanic, status = record.document, record.mechanic, record.status
        row = table.setdefault(group_key(document, mechanic, by), _status_row())
        row[status] += 1
        row["total"] += 1
    for document, mechanics in (not_run or {}).items():
        for mechanic, n in mechanics.items():
            table.setdefault(group_key(document, mechanic, by), _status_row())["not_run"] += n
    return dict(sorted(table.items()))


def total_row(table: dict[str, dict[str, int]]) -> dict[str, int]:
    """The sum of the rows of :func:`summarize` (the total row of every table)."""
    total = _status_row()
    for row in table.values():
        for key in total:
            total[key] += row.get(key, 0)
    return total


def compliance(row: dict[str, int]) -> str:
    """passed / (passed + failed + errored) as a percentage string (DESIGN §10): the pass
    rate *of the cases run*; ``"-"`` when none ran. Read it next to :func:`played` and
    :func:`overall`: it ignores skipped cases."""
    ran = row["passed"] + row["failed"] + row["errored"]
    return f"{100 * row['passed'] / ran:.1f}%" if ran else "-"


def played(row: dict[str, int], not_run: int = 0) -> tuple[int, int]:
    """``(run, selected)``: the cases run (passed, failed or errored: not skipped) and all
    the selected cases: ``row["total"]``, plus the row's own ``not_run`` (a row of
    :func:`summarize`), plus ``not_run`` (cases a stop left out, for a row of bare counts)."""
    return (row["passed"] + row["failed"] + row["errored"],
            row["total"] + row.get("not_run", 0) + not_run)


def overall(row: dict[str, int], not_run: int = 0) -> str:
    """passed / every selected case (skipped and not-run cases included) as a percentage
    string, ``"-"`` for no case: the honest single figure of a run (the badge's colour)."""
    _run, selected = played(row, not_run)
    return f"{100 * row['passed'] / selected:.1f}%" if selected else "-"


def headline(row: dict[str, int], not_run: int = 0) -> str:
    """The one-line summary of a run: ``"39/732 run · 100.0% of run · 5.3% of all"`` (cases
    run of the selected, :func:`compliance`, :func:`overall`)."""
    run, selected = played(row, not_run)
    return f"{run}/{selected} run · {compliance(row)} of run · {overall(row, not_run)} of all"


def summary_table(results: list[CaseResult], by: str = "document", not_run: int = 0,
                  not_run_cases: Iterable[Case] | None = None) -> str:
    """A text table of :func:`summarize` with a total row, the cases run of each group's
    cases, the pass rate of the run cases and passed of all (see :func:`format_table`).
    ``not_run_cases``: the selected cases left out (``--max-fail``, an interrupt), each
    counted in its row; or only their number, ``not_run``, counted in the total."""
    groups = not_run_groups(not_run_cases) if not_run_cases is not None else None
    return format_table(summarize(results, by, groups), by,
                        not_run=0 if groups is not None else not_run)


#: The columns of :func:`format_table` after the status counts.
TABLE_FIGURES = ("run", "% of run", "% of all")


def format_table(table: dict[str, dict[str, int]], by: str = "document",
                 not_run: int = 0) -> str:
    """The text table of per-group counts (the shape :func:`summarize` returns): one row per
    group, a total row, then a line :func:`headline` of the total. Each row gives the status
    counts, ``run`` (``39/525``: cases run of the group's selected cases, :func:`played`,
    the cases not run included), ``% of run`` (:func:`compliance`) and ``% of all``
    (:func:`overall`); ``by`` heads the first column. ``not_run``: cases not run that are in
    no row (a count without places), counted in the total."""
    total = total_row(table)
    width = max([len(by), len("total"), *map(len, table)])
    head = (f"{by:<{width}}  " + "  ".join(f"{s:>7}" for s in STATUSES) + "  "
            + f"{TABLE_FIGURES[0]:>11}  {TABLE_FIGURES[1]:>8}  {TABLE_FIGURES[2]:>8}")
    lines = [head, "-" * len(head)]
    for name, row in [*table.items(), ("total", total)]:
        extra = 0
        if name == "total":
            lines.append("-" * len(head))
            extra = not_run
        counts = "  ".join(f"{row[s]:>7}" for s in STATUSES)
        run, selected = played(row, extra)
        lines.append(f"{name:<{width}}  {counts}  {f'{run}/{selected}':>11}  "
                     f"{compliance(row):>8}  {overall(row, extra):>8}")
    lines.append(f"compliance: {headline(total, not_run)}")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    """``python -m mtg_judge.conformance.runner [--fixtures DIR] [-n N] [--dump]``.

    Runs the suite on the reference engine and prints, with ``--dump``, one line per case:
    ``<id>[<ruleset>] <status> <canonical normalized result>``; otherwise the summary.
    Returns 0 when every case passed.
    """
    import argparse

    parser = argparse.ArgumentParser(prog="python -m mtg_judge.conformance.runner")
    parser.add_argument("--fixtures", default=str(DEFAULT_ROOT))
    parser.add_argument("-n", "--workers", type=int, default=1)
    parser.add_argument("--dump", action="store_true")
    args = parser.parse_args(argv)
    results = run_suite(collect(args.fixtures), workers=args.workers)
    for r in results:
        if args.dump:
            log = dumps(normalize(r.result)) if r.result is not None else dumps(r.message)
            print(f"{r.case.name} {r.status} {log}")
    if not args.dump:
        print(summary_table(results))
    return 0 if all(r.status == "passed" for r in results) else 1


if __name__ == "__main__":
    sys.exit(main())
