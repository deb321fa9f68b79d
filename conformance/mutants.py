"""Mutation self-check of the suite (``mtg-judge mutants``): the runner.

A *mutation* switches one rule of the reference engine off (or gets it wrong on purpose):
no state-based action for lethal damage, a stack that resolves first-in-first-out, storm
that makes no copies… The whole suite then runs against the mutated engine. A mutation is
**killed** when at least one case that passes on the real engine fails or errors under it;
a mutation that **survives** is a rule no fixture checks: a gap in the fixtures.

The list of mutations is data, ``conformance/mutations.json``, loaded and checked by
:mod:`mtg_judge.conformance.mutations` (the few that need code are in
:mod:`mtg_judge.conformance.mutation_code`). Each is a small, documented in-memory patch
(:mod:`mtg_judge.conformance.patching`), applied only inside the process that runs it and
undone afterwards (:func:`applied`); engine files are never edited.

:func:`run_mutants` runs the unmutated engine once (the baseline: only cases that pass there
can kill) and each mutation over the selected cases, in a ``ProcessPoolExecutor`` (each
worker applies one mutation at a time and runs the cases serially, in-process, through
:func:`mtg_judge.conformance.runner.run_case`). Each case has a time limit: a mutation that makes the
engine loop errors the case (a kill).
"""

from __future__ import annotations

import contextlib
import functools
import inspect
import signal
import threading
import time
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Iterator

from mtg_judge.conformance.mutations import MUTATIONS, Mutation, MutationListError, applied
from mtg_judge.conformance.patching import Edit, MutationError, replace, returns, rewrite, wrap
from mtg_judge.conformance.runner import DEFAULT_ROOT, CaseResult, collect, run_case

#: The names this module re-exports from the mutation list and the patch helpers (the
#: runner's callers and tests import them from here), with ``inspect`` (which
#: :func:`~mtg_judge.conformance.patching.rewrite` reads sources through).
__all__ = [
    "EXAMPLES", "KILL_RATE_BAR", "MUTATIONS", "CaseTimeout", "Edit", "MutantResult", "MutantsReport",
    "Mutation", "MutationError", "MutationListError", "applied", "format_report", "inspect", "replace",
    "returns", "rewrite", "run_cases", "run_mutants", "wrap",
]

#: The kill rate the issue asks of the suite ("Validate real third-party engines…", item 5).
KILL_RATE_BAR = 0.90
#: How many killing fixture ids a result lists (the count covers them all).
EXAMPLES = 10


class CaseTimeout(BaseException):
    """A case ran longer than its limit under a mutation (a BaseException so that
    ``run_case``'s ``except Exception`` does not turn it into an ordinary error)."""


@dataclass
class MutantResult:
    """What became of one mutation: ``status`` ``killed``, ``survived`` or ``broken`` (it
    could not be applied: ``error``). ``killing``: the names (``<id>[<ruleset>]``) of the
    cases that pass on the real engine and fail or error under the mutation, in case
    order; ``killed_by``: their fixture ids, de-duplicated."""

    mutation: Mutation
    status: str
    killing: list[str] = field(default_factory=list)
    killed_by: list[str] = field(default_factory=list)
    error: str = ""
    seconds: float = 0.0

    def as_json(self) -> dict:
        return {"name": self.mutation.name, "rule": self.mutation.rule, "doc": self.mutation.doc,
                "status": self.status, "killed_by": self.killed_by[:EXAMPLES],
                "killed_by_count": len(self.killed_by), "killing_cases": len(self.killing),
                **({"error": self.error} if self.error else {})}


@dataclass
class MutantsReport:
    """A mutation run: the results in registry order, the number of cases run, and the
    baseline cases that do not pass on the unmutated engine (they cannot kill anything)."""

    results: list[MutantResult]
    cases: int
    baseline_not_passing: list[str]

    @property
    def killed(self) -> list[MutantResult]:
        return [r for r in self.results if r.status == "killed"]

    @property
    def survivors(self) -> list[MutantResult]:
        return [r for r in self.results if r.status != "killed"]

    @property
    def kill_rate(self) -> float:
        """Killed mutations / mutations run (a broken mutation counts as not killed)."""
        return len(self.killed) / len(self.results) if self.results else 0.0

    @property
    def passed_bar(self) -> bool:
        return bool(self.results) and self.kill_rate >= KILL_RATE_BAR

    def as_json(self) -> dict:
        return {"mutations": [r.as_json() for r in self.results], "cases": self.cases,
                "killed": len(self.killed), "total": len(self.results),
                "kill_rate": round(self.kill_rate, 4), "bar": KILL_RATE_BAR,
                "survivors": [r.mutation.name for r in self.results if r.status == "survived"],
                "broken": [r.mutation.name for r in self.results if r.status == "broken"],
                "baseline_not_passing": self.baseline_not_passing}


@functools.lru_cache(maxsize=4)
def _cases(root: str, keyword: str | None) -> tuple:
    return tuple(collect(Path(root), keyword=keyword))


@contextlib.contextmanager
def _time_limit(seconds: float | None) -> Iterator[None]:
    """Raise CaseTimeout in the body after ``seconds`` (main thread on POSIX only; elsewhere
    no limit)."""
    usable = (seconds and hasattr(signal, "setitimer")
              and threading.current_thread() is threading.main_thread())
    if not usable or seconds is None:
        yield
        return

    def expire(signum: int, frame: Any) -> None:
        raise CaseTimeout()

    previous = signal.signal(signal.SIGALRM, expire)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


def run_cases(cases: Any, case_timeout: float | None = None) -> dict[str, str]:
    """Run ``cases`` serially on the reference engine (as it is patched now); return
    ``{case name: status}`` (a case over its time limit is ``errored``)."""
    statuses = {}
    for case in cases:
        try:
            with _time_limit(case_timeout):
                result: CaseResult = run_case(case)
            statuses[case.name] = result.status
        except CaseTimeout:
            statuses[case.name] = "errored"
    return statuses


def _run_one(name: str | None, selection: tuple, case_timeout: float | None
             ) -> tuple[str | None, dict[str, str] | None, str, float]:
    """Worker task: run the cases with mutation ``name`` applied (None: the baseline).
    ``selection``: ``(root, keyword)`` to collect (cached per process) or the cases
    themselves. Returns ``(name, {case name: status} or None, error, seconds)``."""
    start = time.perf_counter()
    is_key = len(selection) == 2 and isinstance(selection[0], str)
    cases = _cases(*selection) if is_key else selection
    try:
        with applied(name) if name is not None else contextlib.nullcontext():
            statuses = run_cases(cases, case_timeout)
    except MutationError as exc:
        return name, None, str(exc), time.perf_counter() - start
    return name, statuses, "", time.perf_counter() - start


def run_mutants(names: list[str] | None = None, root: Path | str = DEFAULT_ROOT,
                keyword: str | None = None, workers: int = 2, case_timeout: float | None = 10.0,
                progress: Callable[[str | None], None] | None = None,
                cases: list | None = None) -> MutantsReport:
    """Run the baseline and each mutation of ``names`` (default: all, registry order) over
    the cases under ``root`` matching ``keyword`` (or over ``cases``, already collected);
    ``workers`` processes (1: serially in this process, each mutation undone before the
    next). ``progress(name)`` is called as each run finishes (None for the baseline).
    Raises KeyError for an unknown name."""
    names = list(MUTATIONS) if names is None else list(names)
    for name in names:
        if name not in MUTATIONS:
            raise KeyError(name)
    # Collected here, before the pool starts: forked workers inherit the cache.
    selection: Any = tuple(cases) if cases is not None else (str(root), keyword)
    if cases is None:
        _cases(str(root), keyword)
    jobs: list[str | None] = [None, *names]
    outputs: dict[str | None, tuple] = {}
    if workers <= 1:
        for job in jobs:
            outputs[job] = _run_one(job, selection, case_timeout)
            if progress is not None:
                progress(job)
    else:
        with ProcessPoolExecutor(max_workers=min(workers, len(jobs))) as pool:
            futures = [pool.submit(_run_one, job, selection, case_timeout) for job in jobs]
            for future in as_completed(futures):
                output = future.result()
                outputs[output[0]] = output
                if progress is not None:
                    progress(output[0])
    _, baseline, error, _ = outputs[None]
    assert baseline is not None, error
    passing = [case for case, status in baseline.items() if status == "passed"]
    results = []
    for name in names:
        _, statuses, error, seconds = outputs[name]
        m = MUTATIONS[name]
        if statuses is None:
            results.append(MutantResult(m, "broken", error=error, seconds=seconds))
            continue
        killing = [case for case in passing if statuses.get(case) in ("failed", "errored")]
        fixtures = list(dict.fromkeys(case.rsplit("[", 1)[0] for case in killing))
        results.append(MutantResult(m, "killed" if killing else "survived", killing, fixtures,
                                    seconds=seconds))
    not_passing = [case for case, status in baseline.items() if status != "passed"]
    return MutantsReport(results, len(baseline), not_passing)


def format_report(report: MutantsReport, examples: int = 2) -> str:
    """The text table (mutation, CR rule, killed by N cases (M fixtures), examples: the
    first killing fixture ids), then the kill rate and the survivors."""
    rows = []
    for r in report.results:
        if r.status == "killed":
            killed = (f"{len(r.killing)} case{'s' if len(r.killing) != 1 else ''} "
                      f"({len(r.killed_by)} fixture{'s' if len(r.killed_by) != 1 else ''})")
            shown = ", ".join(r.killed_by[:examples]) + (", …" if len(r.killed_by) > examples else "")
        elif r.status == "survived":
            killed, shown = "SURVIVED", "no fixture notices"
        else:
            killed, shown = "BROKEN", r.error
        rows.append((r.mutation.name, r.mutation.rule, killed, shown))
    head = ("mutation", "CR", "killed by", "examples")
    widths = [max(len(row[i]) for row in [head, *rows]) for i in range(3)]
    lines = ["  ".join(f"{cell:<{widths[i]}}" for i, cell in enumerate(head[:3])) + "  " + head[3]]
    lines.append("-" * (sum(widths) + 6 + len(head[3])))
    for row in rows:
        lines.append("  ".join(f"{cell:<{widths[i]}}" for i, cell in enumerate(row[:3])) + "  " + row[3])
    lines.append("")
    rate = f"{100 * report.kill_rate:.1f}%"
    lines.append(f"kill rate: {len(report.killed)}/{len(report.results)} mutations killed ({rate}; "
                 f"the bar is {100 * KILL_RATE_BAR:.0f}%) over {report.cases} cases")
    survived = [r.mutation.name for r in report.results if r.status == "survived"]
    broken = [r.mutation.name for r in report.results if r.status == "broken"]
    if survived:
        lines.append("survivors (rules no fixture checks): " + ", ".join(survived))
    if broken:
        lines.append("broken (cannot be applied to this engine): " + ", ".join(broken))
    if report.baseline_not_passing:
        lines.append(f"{len(report.baseline_not_passing)} case(s) do not pass on the unmutated engine "
                     "and cannot kill: " + ", ".join(report.baseline_not_passing[:EXAMPLES])
                     + (", …" if len(report.baseline_not_passing) > EXAMPLES else ""))
    return "\n".join(lines)
