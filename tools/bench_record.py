"""``python -m mtg_judge.tools.bench --record``: one benchmark run as rows of docs/BENCHMARKS.md.

The benchmark (``tools/bench.py``) measures; this module only turns what it measured into
Markdown table rows and inserts them at the end of the table of docs/BENCHMARKS.md, so that
the history of the project's speed is a table a command appends to, not prose that goes
stale. Nothing here runs a benchmark: :func:`format_rows` takes a :class:`BenchRun`, which
the tests build by hand.

The row's columns are :data:`COLUMNS`, in that order; the table's header in BENCHMARKS.md
must have the same cells (:func:`append_rows` checks it). Times are seconds in the objects
and are written as ``2.02 s`` or ``0.87 ms``; a figure that was not measured is ``None`` and
is written ``-``. With a baseline (``--baseline REV``) two rows are written: the baseline's
figures first, then the current tree's, each of its figures followed by the ratio baseline /
now (``(5.0x)``: above 1, faster now), as the console table prints it.
"""

from __future__ import annotations

import math
import os
import subprocess
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

#: The header cells of the table in docs/BENCHMARKS.md, in order.
COLUMNS = (
    "date (UTC)", "commit", "load avg", "cases", "`mtg-judge run`, as typed",
    "`mtg-judge run -n 1`, as typed", "engine per scenario, median", "p95",
    "cold collection", "runner import", "suite in-process, `-n 1`", "suite in-process, parallel",
    "through `serve`, per scenario", "protocol overhead", "third-party engines, per scenario",
    "command, notes")

#: The heading under which the table is (its first table whose header is :data:`COLUMNS`).
HEADING = "## Runs"


@dataclass(frozen=True)
class EngineTime:
    """Another protocol engine timed on the same cases (``bench --engine NAME=COMMAND``):
    its per-scenario median in seconds and the median over cases of its time / the reference
    engine's in-process time (``None`` when no case was timed by both)."""

    name: str
    median: float | None
    ratio: float | None = None


@dataclass(frozen=True)
class Measured:
    """The figures of one tree in one benchmark run (seconds; ``None``: not measured).

    ``commit`` is what the row's commit cell says (``a0fe249``, ``a0fe249+dirty``);
    ``workers`` is the ``-n`` of the parallel in-process suite, ``default_workers`` the
    workers ``mtg-judge run`` uses by default on the machine (its CPU count)."""

    commit: str
    cases: int | None = None
    run_default: float | None = None
    run_serial: float | None = None
    default_workers: int | None = None
    scenario_median: float | None = None
    scenario_p95: float | None = None
    collection_cold: float | None = None
    runner_import: float | None = None
    suite_serial: float | None = None
    suite_parallel: float | None = None
    workers: int | None = None
    serve_per_scenario: float | None = None
    protocol_overhead: float | None = None
    engines: tuple[EngineTime, ...] = ()


@dataclass(frozen=True)
class BenchRun:
    """One run of the benchmark: when (``date``, ``YYYY-MM-DD HH:MM`` in UTC), the 1-minute
    load average before and after it, the command line, the current tree's figures and,
    with ``--baseline``, the baseline's (measured interleaved in the same run)."""

    date: str
    load_start: float | None
    load_end: float | None
    command: str
    current: Measured
    baseline: Measured | None = None
    notes: list[str] = field(default_factory=list)


#: Figures written in milliseconds (per scenario); the others are written in seconds.
PER_SCENARIO = frozenset({"scenario_median", "scenario_p95", "serve_per_scenario", "protocol_overhead"})


def _seconds(value: float | None, ms: bool = False) -> str:
    if value is None or math.isnan(value):
        return "-"
    return f"{value * 1000:.2f} ms" if ms else f"{value:.2f} s"


def _ratio(before: float | None, now: float | None) -> str:
    if before is None or now is None or math.isnan(before) or math.isnan(now) or now <= 0:
        return ""
    return f" ({before / now:.2f}x)"


def _cell(text: str) -> str:
    """A table cell's text: ``|`` escaped, no line break."""
    return " ".join(text.replace("|", "\\|").split())


def _row(run: BenchRun, m: Measured, commit: str, base: Measured | None, is_baseline: bool) -> str:
    def fig(name: str) -> str:
        value = getattr(m, name)
        text = _seconds(value, ms=name in PER_SCENARIO)
        return text + (_ratio(getattr(base, name), value) if base is not None and text != "-" else "")

    load = "-" if run.load_start is None else f"{run.load_start:.2f}"
    load += " → " + ("-" if run.load_end is None else f"{run.load_end:.2f}")
    run_default = fig("run_default")
    if run_default != "-" and m.default_workers:
        run_default += f" ({m.default_workers} workers)"
    parallel = fig("suite_parallel")
    if parallel != "-" and m.workers:
        parallel += f" (`-n {m.workers}`)"
    engines = "; ".join(
        f"{e.name} {_seconds(e.median, ms=True)}" + ("" if e.ratio is None else f" ({e.ratio:.2f}x the reference)")
        for e in m.engines) or "-"
    notes = "the baseline of the next row, measured in the same run" if is_baseline else \
        "; ".join([f"`{run.command}`", *run.notes])
    cells = [run.date, commit, load, "-" if m.cases is None else str(m.cases), run_default,
             fig("run_serial"), fig("scenario_median"), fig("scenario_p95"), fig("collection_cold"),
             fig("runner_import"), fig("suite_serial"), parallel, fig("serve_per_scenario"),
             fig("protocol_overhead"), engines, notes]
    return "| " + " | ".join(_cell(c) for c in cells) + " |"


def format_rows(run: BenchRun) -> list[str]:
    """The Markdown rows of ``run`` for the table of docs/BENCHMARKS.md: one row, or two with
    a baseline (the baseline's, then the current tree's with ratios baseline / now).

    Each row has one cell per entry of :data:`COLUMNS`; ``|`` in a cell is escaped."""
    if run.baseline is None:
        return [_row(run, run.current, f"`{run.current.commit}`", None, False)]
    return [_row(run, run.baseline, f"`{run.baseline.commit}` (baseline)", None, True),
            _row(run, run.current, f"`{run.current.commit}`", run.baseline, False)]


def _split(line: str) -> list[str]:
    """The cells of a Markdown table row (``\\|`` is not a separator)."""
    inner = line.strip()[1:-1] if line.strip().endswith("|") else line.strip()[1:]
    cells, cell, i = [], "", 0
    while i < len(inner):
        if inner[i] == "\\" and i + 1 < len(inner) and inner[i + 1] == "|":
            cell += "\\|"
            i += 2
            continue
        if inner[i] == "|":
            cells.append(cell.strip())
            cell = ""
        else:
            cell += inner[i]
        i += 1
    cells.append(cell.strip())
    return cells


def insert_rows(text: str, rows: list[str]) -> str:
    """``text`` (docs/BENCHMARKS.md) with ``rows`` added after the last row of the table under
    :data:`HEADING` whose header is :data:`COLUMNS`.

    Raises ``ValueError`` naming what is wrong when there is no such table or a row has
    another number of cells than the header."""
    lines = text.split("\n")
    try:
        start = next(i for i, line in enumerate(lines) if line.strip() == HEADING)
    except StopIteration:
        raise ValueError(f"no heading {HEADING!r}") from None
    header = next((i for i in range(start + 1, len(lines)) if lines[i].startswith("|")), None)
    if header is None or tuple(_split(lines[header])) != COLUMNS:
        raise ValueError(f"the first table under {HEADING!r} does not have the columns "
                         f"{' | '.join(COLUMNS)}")
    end = header + 1
    while end < len(lines) and lines[end].startswith("|"):
        end += 1
    for row in rows:
        if len(_split(row)) != len(COLUMNS):
            raise ValueError(f"a row of {len(_split(row))} cells for {len(COLUMNS)} columns: {row}")
    return "\n".join([*lines[:end], *rows, *lines[end:]])


def append_rows(path: Path, rows: list[str]) -> None:
    """Add ``rows`` at the end of the table of ``path`` (:func:`insert_rows`), atomically: the
    new text is written to a temporary file beside it, flushed to disk and renamed over it, so
    the file is either as it was or complete. Raises ``ValueError`` (nothing written) when
    the table is not there, ``OSError`` when the file can't be read or written."""
    text = path.read_text(encoding="utf-8")
    new = insert_rows(text, rows)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="") as handle:
            handle.write(new)
            handle.flush()
            os.fsync(handle.fileno())
        os.chmod(tmp, path.stat().st_mode & 0o777)
        os.replace(tmp, path)
    except BaseException:
        try:  # the temporary file of the failed write; the target is untouched
            os.unlink(tmp)
        except FileNotFoundError:
            pass
        raise


def commit_label(root: Path) -> str:
    """``git rev-parse --short HEAD`` of ``root``, with ``+dirty`` when ``git status
    --porcelain`` lists anything (modified or untracked files, which the run measured too);
    ``unknown`` outside a git checkout."""
    def git(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(["git", "-C", str(root), *args], check=False, capture_output=True, text=True)

    head = git("rev-parse", "--short", "HEAD")
    if head.returncode != 0 or not head.stdout.strip():
        return "unknown"
    status = git("status", "--porcelain")
    return head.stdout.strip() + ("+dirty" if status.returncode != 0 or status.stdout.strip() else "")


def load_average() -> float | None:
    """The 1-minute load average (``os.getloadavg()[0]``), ``None`` where there is none."""
    try:
        return os.getloadavg()[0]
    except (OSError, AttributeError):
        return None
