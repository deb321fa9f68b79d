"""``mtg-judge``: the command line of the conformance suite (DESIGN §11).

Exit codes (conformance/cli_errors.py): 0 success; 1 failures (a failing or erroring case, a
lint problem, a fixture that does not load, output that cannot be written); 2 bad usage
(click's usage errors), an input the command cannot use (a deck, a bundle, a report, a
selection of no case: BadInput) or an engine that cannot start (run, show, fuzz;
PROTOCOL §4); 130 a command stopped by Ctrl-C or SIGTERM (its finished cases summarised and
reported, PROTOCOL §6).
"""

from __future__ import annotations

import contextlib
import json
import os
import signal
import sys
import threading
from pathlib import Path
from typing import Any

import click

from mtg_judge.conformance.cli_errors import INTERRUPTED_EXIT, BadInput
from mtg_judge.conformance.resources import SNAPSHOT_DIR, checkout_root
from mtg_judge.conformance.runner import (
    DEFAULT_ROOT,
    RULESETS,
    Case,
    RunInterrupted,
    collect,
    collect_file,
    keyword_matches,
    run_case,
    run_suite,
)
from mtg_judge.conformance.workers import cap_workers, workers_option


def _check_fixtures_dir(ctx, param, value):
    """--fixtures: a usage error (exit 2) for a folder that is a bundle (it holds the
    manifest.json of 'mtg-judge export'), which is played with --bundle instead."""
    if value is not None and (value / "manifest.json").is_file() and (value / "cases").is_dir():
        raise click.BadParameter(f"{value} is a bundle written by 'mtg-judge export', not a "
                                 "fixtures folder: play it with 'mtg-judge run --bundle PATH' "
                                 "(or pytest --mtg-fixtures=PATH)")
    return value


fixtures_option = click.option(
    "--fixtures", "fixtures_dir", default=str(DEFAULT_ROOT), show_default=True,
    type=click.Path(exists=True, file_okay=False, path_type=Path), callback=_check_fixtures_dir,
    help="The fixtures directory (<document>/<mechanic>/<name>.json, cards/, untestable.json).")


def _here(text: str) -> str:
    """``text`` with each absolute path under the current folder written relative to it
    (messages name files as the user would type them, issue 25)."""
    cwd = os.getcwd().rstrip(os.sep) + os.sep
    return text.replace(cwd, "") if cwd != os.sep else text


def _shown_file(label: str, fixtures_dir: Path) -> str:
    """A lint problem's file (named relative to the folder holding ``fixtures_dir``,
    :func:`mtg_judge.conformance.loader.file_label`) relative to the current folder, or
    absolute when it lies outside it."""
    path = Path(label)
    if not path.is_absolute():
        path = Path(os.path.abspath(fixtures_dir)).parent / path
    try:
        return path.relative_to(Path.cwd()).as_posix()
    except ValueError:
        return path.as_posix()


def _relabel(text: str, fixtures_dir: Path) -> str:
    """``text`` with the file labels of lint and loader messages (``fixtures/classic/x.json``:
    relative to the folder holding ``fixtures_dir``) and absolute paths rewritten relative
    to the current folder (:func:`_shown_file`, :func:`_here`)."""
    import re

    name = Path(os.path.abspath(fixtures_dir)).name
    shown = _shown_file(name, fixtures_dir)
    prefix = "" if shown == "." else shown.rstrip("/") + "/"
    text = re.sub(rf"(?<![\w/.-]){re.escape(name)}/", lambda _m: prefix, text)
    return _here(text)


def _collect(fixtures_dir: Path, warn_cards: bool = False, **kwargs) -> list[Case]:
    """collect() with a fixture problem turned into a clean error (exit 1): the message
    names the file and JSON path, no exception name. ``warn_cards``: print a warning on
    stderr for each card file left out because it is broken (issue 25)."""
    problems: list = []
    try:
        cases = collect(fixtures_dir, card_problems=problems, **kwargs)
    except Exception as exc:  # FixtureError and friends name the file and JSON path
        raise click.ClickException(_relabel(str(exc), fixtures_dir)) from None
    if warn_cards:
        for problem in problems:
            click.echo(f"warning: skipped the card file {_here(str(problem))} (mtg-judge "
                       "validate lists every problem)", err=True)
    return cases


#: The exit code of a command whose engine cannot start (run, show, fuzz, the pytest plugin).
ENGINE_EXIT = 2


def _check_engine_command(command: str) -> None:
    """--engine COMMAND: a usage error (exit 2) for an empty or unsplittable command line;
    a warning on stderr when it uses shell syntax (a pipe, a redirection: it is not run by a
    shell, PROTOCOL §4)."""
    import shlex

    from mtg_judge.conformance.protocol import shell_syntax_warning

    try:
        if not shlex.split(command):
            raise ValueError("empty command")
    except ValueError as exc:
        raise click.BadParameter(f"{command!r}: {exc}", param_hint="--engine") from None
    warning = shell_syntax_warning(command)
    if warning is not None:
        click.echo(f"warning: {warning}", err=True)


def _engine_cannot_start(why: str):
    """Say why the engine cannot start, on stderr, and exit 2 (:data:`ENGINE_EXIT`)."""
    click.echo(f"mtg-judge: cannot run the engine: {why}", err=True)
    sys.exit(ENGINE_EXIT)


def _check_shard(ctx, param, value):
    """--shard K/N as (K, N); a usage error (exit 2) for anything else."""
    if value is None:
        return None
    from mtg_judge.conformance.shard import parse_shard

    try:
        return parse_shard(value)
    except ValueError as exc:
        raise click.BadParameter(str(exc)) from None


def _bundle_cases(path: Path, **kwargs) -> list[Case]:
    """bundle_cases() with a damaged bundle turned into a clean error (exit 2, :class:`BadInput`)."""
    from mtg_judge.conformance.bundle import BundleError, bundle_cases

    try:
        return bundle_cases(path, **kwargs)
    except BundleError as exc:
        raise BadInput(str(exc)) from None


def _check_keyword(ctx, param, value):
    try:
        keyword_matches(value, "")
    except ValueError as exc:
        raise click.BadParameter(str(exc)) from None
    return value


def _run_with_progress(cases: list[Case], label: str, on_result=None, **kwargs):
    """run_suite with a progress bar on stderr (periodic counts when stderr is not a
    terminal, :class:`_CountProgress`), and the handshake's warnings (an unknown ruleset or
    capability) printed once on stderr before the first case."""
    from mtg_judge.conformance.protocol import handshake_warnings

    on_start = kwargs.pop("on_start", None)

    def started(implementation: dict) -> None:
        for warning in handshake_warnings(implementation):
            click.echo(f"warning: {warning}", err=True)
        if on_start is not None:
            on_start(implementation)

    def progress(result) -> None:
        if on_result is not None:
            on_result(result)
        bar.update(1)

    stream = sys.stderr
    bar_context: contextlib.AbstractContextManager[Any]
    if _is_terminal(stream):
        bar_context = click.progressbar(length=len(cases), label=label, file=sys.stderr,
                                        show_pos=True)
    else:
        bar_context = _CountProgress(len(cases), label, stream)
    with bar_context as bar:
        return run_suite(cases, progress=progress, on_start=started, **kwargs)


def _is_terminal(stream) -> bool:
    try:
        return bool(stream.isatty())
    except (AttributeError, ValueError):
        return False


class _CountProgress:
    """The progress of a run where stderr is not a terminal (CI logs, a pipe): a line
    ``<label>: <done>/<total>`` at the start, every tenth of the cases (at most every
    :attr:`STEP` cases) or after :attr:`INTERVAL` seconds without a line, and at the end:
    about a dozen lines whatever the size of the run."""

    STEP = 100
    INTERVAL = 30.0

    def __init__(self, total: int, label: str, stream):
        import math
        import threading
        import time

        self.total, self.label, self.stream = total, label, stream
        self.step = max(1, min(self.STEP, math.ceil(total / 10)))
        self.done = 0
        self._clock = time.monotonic
        self._last, self._printed = self._clock(), -1
        self._lock = threading.Lock()

    def _line(self) -> None:
        click.echo(f"{self.label}: {self.done}/{self.total}", file=self.stream)
        self._last, self._printed = self._clock(), self.done

    def __enter__(self) -> "_CountProgress":
        self._line()
        return self

    def update(self, n: int = 1) -> None:
        with self._lock:
            self.done += n
            if self.done < self.total and (self.done % self.step == 0
                                           or self._clock() - self._last >= self.INTERVAL):
                self._line()

    def __exit__(self, *exc_info) -> None:
        if self._printed != self.done:  # the final count (also of a stopped run)
            self._line()




@contextlib.contextmanager
def _stop_on_signals():
    """While the block runs, SIGINT and SIGTERM stop the run instead of killing the process:
    the first one is recorded in the yielded dict (``"signal"``: its name) and, while
    ``"armed"`` is true, raises ``KeyboardInterrupt`` in the main thread (run_suite turns it
    into RunInterrupted after stopping its workers and engines); later ones are ignored, so
    that the cleanup and the report are not cut short. The previous handlers come back on
    exit, unless a signal came: then the process is on its way out with exit code 130, and
    further signals stay ignored (a second Ctrl-C must not turn it into a KeyboardInterrupt
    traceback)."""
    state: dict = {"signal": None, "armed": True}

    def handler(signum, _frame) -> None:
        if state["signal"] is None:
            state["signal"] = signal.Signals(signum).name
            if state["armed"]:
                raise KeyboardInterrupt

    if threading.current_thread() is not threading.main_thread():
        yield state  # signal handlers can only be set in the main thread: Ctrl-C as is
        return
    previous = {signum: signal.signal(signum, handler)
                for signum in (signal.SIGINT, signal.SIGTERM)}
    try:
        yield state
    finally:
        for signum, old in previous.items():
            signal.signal(signum, signal.SIG_IGN if state["signal"] else old)


def _partial_report(report_dir, cases, engine_command, rulesets, keyword, fixtures_dir,
                    shard, positions):
    """The run's report.partial.jsonl (None without --report-dir) and the two callbacks that
    feed it: ``on_start(implementation)`` writes the header, ``on_result(result)`` appends the
    case (PROTOCOL §6)."""
    from mtg_judge.conformance.reports import PartialReport, build_report, case_record, planned_header

    if report_dir is None:
        return None, None, None
    partial = PartialReport(report_dir)
    root = Path(fixtures_dir).resolve() if fixtures_dir is not None else None

    def on_start(implementation: dict) -> None:
        header = build_report([], implementation, fixtures_root=fixtures_dir,
                              engine_command=engine_command,
                              selection={"rulesets": list(rulesets) or None,
                                         "keyword": keyword}).header
        header["rulesets"] = sorted({c.ruleset for c in cases if c.ruleset != "-"})
        if shard is not None:
            header["selection"] = {**header["selection"], "shard": f"{shard[0]}/{shard[1]}"}
        header = planned_header(header, cases)  # a killed run's report knows what it missed
        try:
            partial.open(header)
        except OSError as exc:
            raise click.ClickException(f"cannot write the report into {report_dir}: "
                                       f"{exc}") from None

    memo = partial.memo  # case_record's, for the whole run and the final report

    def on_result(result) -> None:
        record = case_record(result, root, memo)
        if positions is not None:
            record["position"] = positions[record["name"]]
        partial.add(record)

    return partial, on_start, on_result


class _LazyGroup(click.Group):
    """A click group some of whose commands live in modules imported only when the command
    is looked up (``lazy_commands``: ``{name: "module:attribute"}``): ``mtg-judge run`` does
    not import self-play and fuzzing (issue 21: 0.02-0.03 s of every start-up). ``--help``
    lists them as before (sorted with the others)."""

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.lazy_commands: dict[str, str] = {}

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted({*super().list_commands(ctx), *self.lazy_commands})

    def invoke(self, ctx: click.Context) -> Any:
        """The command, with a Ctrl-C that reached it (a KeyboardInterrupt, in a command
        without its own handling: self-play, fuzz, mutants, snapshots update...) turned into
        exit code 130 and ``interrupted`` on stderr, as ``run`` exits (README, "Exit codes"),
        instead of click's ``Aborted!`` and exit 1."""
        try:
            return super().invoke(ctx)
        except KeyboardInterrupt:
            click.echo("\ninterrupted", err=True)
            raise click.exceptions.Exit(INTERRUPTED_EXIT) from None

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        target = self.lazy_commands.get(cmd_name)
        if target is not None and cmd_name not in self.commands:
            import importlib

            module, attribute = target.split(":")
            self.add_command(getattr(importlib.import_module(module), attribute), cmd_name)
        return super().get_command(ctx, cmd_name)


@click.group(cls=_LazyGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="mtg-judge", prog_name="mtg-judge")
def main() -> None:
    """mtg-judge: a conformance suite for Magic: The Gathering rules engines.

    Fixtures encode the rulings of the seed documents as scenarios with expected event
    logs; the reference engine runs them (or any engine speaking protocol v1 over
    stdin/stdout). Exit codes: 0 success, 1 failures, 2 bad usage, an input a command
    cannot use (a deck, a bundle, a report, a selection of no case) or an engine that
    cannot start, 130 a command interrupted (Ctrl-C, SIGTERM).
    """


@main.command()
@click.option("--ruleset", "rulesets", multiple=True, type=click.Choice(RULESETS),
              help="Run only this ruleset (repeatable). Default: every fixture's rulesets.")
@click.option("-k", "keyword", metavar="EXPR", callback=_check_keyword,
              help="Select cases whose '<id>[<ruleset>]' matches EXPR: substrings combined "
                   "with and/or/not and parentheses, like pytest -k.")
@workers_option(None, "all cores in-process, 1 with --engine", engine=True)
@click.option("--engine", "engine_command", metavar="COMMAND",
              help="Check this engine through protocol v1 (a command line; one engine "
                   "process per worker) instead of the in-process reference engine.")
@click.option("--timeout", type=click.FloatRange(min=0, min_open=True), default=30.0,
              show_default=True, help="Seconds to wait for each engine reply (--engine).")
@click.option("--by-mechanic", is_flag=True, help="Also print the summary per mechanic.")
@click.option("--list-skipped", is_flag=True,
              help="List every skipped case with its reason (by default: one line per "
                   "reason, with its number of cases).")
@click.option("--validate-protocol", is_flag=True,
              help="Check every protocol message, both directions, against "
                   "schema/protocol-*.schema.json; an invalid reply errors its case "
                   "(--engine only).")
@click.option("--fail-fast", "-x", is_flag=True,
              help="Stop after the first failed or errored case (same as --max-fail 1).")
@click.option("--max-fail", type=click.IntRange(min=1), metavar="N",
              help="Stop after N failed or errored cases; the cases not run are counted.")
@click.option("--report-dir", type=click.Path(file_okay=False, path_type=Path),
              metavar="DIR", help="Write report.jsonl, index.html, badge.json and junit.xml "
                                  "into DIR (created if needed).")
@click.option("--shard", metavar="K/N", callback=_check_shard,
              help="Run only slice K of N (1 <= K <= N): a deterministic split balanced by "
                   "script length; the N slices together run every selected case once. "
                   "Merge their report.jsonl with 'mtg-judge report --merge'.")
@click.option("--bundle", "bundle_path", metavar="PATH",
              type=click.Path(exists=True, path_type=Path),
              help="Play the cases of a bundle (a folder or zip written by 'mtg-judge "
                   "export') instead of a fixtures directory.")
@click.option("--min-played", type=click.FloatRange(0, 1), metavar="FRACTION",
              expose_value=False, callback=lambda ctx, _p, v: ctx.meta.update(min_played=v),
              help="Exit 1 when the cases run (passed, failed or errored: not skipped) are "
                   "less than FRACTION (e.g. 0.9) of the selected cases.")
@fixtures_option
@click.pass_context
def run(ctx, rulesets, keyword, workers, engine_command, timeout, by_mechanic, list_skipped,
        validate_protocol, fail_fast, max_fail, report_dir, shard, bundle_path, fixtures_dir):
    """Run the suite and report per document; exit 0 only if nothing failed or errored
    and at least one case passed.

    Prints a progress bar on stderr, then a table per document (passed, failed, errored,
    skipped; run = passed + failed + errored of the selected cases; % of run = passed / run;
    % of all = passed / selected, skipped and not-run cases counting against it) and the
    headline `compliance: <run> run · <% of run> · <% of all>`, then every failing case
    with its mismatches. Skipped cases (a ruleset or capability the engine does not
    declare, a case it skips) do not fail the run, but a run where no case passed exits 1.
    A check the engine's capabilities do not cover (e.g. event patterns without 'events')
    is skipped and listed; the case is judged on the others. A crash, a timeout, a wrong
    seq or an invalid reply errors that case; the engine is restarted and the run goes on.
    Ctrl-C or SIGTERM stops the run: the workers and engines are stopped, the cases finished
    so far are summarised and reported (marked interrupted), and the exit code is 130; with
    --report-dir, DIR/report.partial.jsonl holds the finished cases while the run goes.
    """
    if validate_protocol and not engine_command:
        raise click.UsageError("--validate-protocol checks protocol messages: it needs "
                               "--engine")
    if engine_command is not None:
        _check_engine_command(engine_command)
    if fail_fast:
        max_fail = 1
    if bundle_path is not None:
        if ctx.get_parameter_source("fixtures_dir") is not click.core.ParameterSource.DEFAULT:
            raise click.UsageError("--bundle and --fixtures are two sources of cases: give one")
        cases = _bundle_cases(bundle_path, rulesets=rulesets or None, keyword=keyword)
        fixtures_dir = bundle_path
    else:
        cases = _collect(fixtures_dir, warn_cards=True, rulesets=rulesets or None,
                         keyword=keyword)
    positions = None
    if shard is not None:
        from mtg_judge.conformance.shard import select

        positions = {case.name: i for i, case in select(cases, *shard)}
        click.echo(f"shard {shard[0]}/{shard[1]}: {len(positions)} of {len(cases)} cases",
                   err=True)
        if cases and not positions:
            raise BadInput(
                f"shard {shard[0]}/{shard[1]} is empty: only {len(cases)} cases are selected for "
                f"{shard[1]} shards; choose N at most the number of cases (docs/PROTOCOL.md §8)")
        cases = [case for case in cases if case.name in positions]
    if not cases:
        raise BadInput("no cases selected (check --fixtures, --bundle, --ruleset, "
                                   "-k and --shard)")
    if workers is None:
        workers = 1 if engine_command else (os.cpu_count() or 1)
    workers = cap_workers(workers, len(cases))
    implementation: dict = {}
    partial, partial_start, on_result = _partial_report(
        report_dir, cases, engine_command, rulesets, keyword, fixtures_dir, shard, positions)

    def on_start(found: dict) -> None:
        implementation.update(found)
        if partial_start is not None:
            partial_start(found)

    with _stop_on_signals() as signals:
        try:
            results = _run_with_progress(cases, "running", on_result=on_result,
                                         keep_passed_results=False,  # only failures are shown
                                         workers=workers, engine_command=engine_command,
                                         timeout=timeout, validate=validate_protocol,
                                         max_fail=max_fail, on_start=on_start)
        except RunInterrupted as exc:  # Ctrl-C or SIGTERM: report what finished
            results = exc.results
            signals["signal"] = signals["signal"] or "SIGINT"
        except KeyboardInterrupt:  # before run_suite started any case
            results = []
            signals["signal"] = signals["signal"] or "SIGINT"
        except click.ClickException:
            raise
        except Exception as exc:  # an engine that cannot even start (EngineError): exit 2
            if partial is not None:
                partial.close()
                with contextlib.suppress(OSError):
                    partial.path.unlink()
            from mtg_judge.conformance.protocol import describe_engine_error

            why = describe_engine_error(exc)
            if report_dir is not None:  # a report that says why (every case not run)
                _run_report(cases, [], {}, engine_command, rulesets, keyword, report_dir,
                            fixtures_dir, shard, positions, engine_error=why)
            _engine_cannot_start(why)
        finally:
            signals["armed"] = False
        interrupted = signals["signal"]
        report = _run_report(cases, results, implementation, engine_command, rulesets,
                             keyword, report_dir, fixtures_dir, shard, positions,
                             partial=partial, interrupted=interrupted)
        _print_run(results, report, by_mechanic, interrupted or signals["signal"],
                   list_skipped)


def _print_run(results, report, by_mechanic, interrupted, list_skipped=False):
    """The end of 'run': the tables, the failing and skipped cases, then exits with
    _finish_run's code."""
    from mtg_judge.conformance import reports

    # the report's own tables: the figures of the HTML page, the badge and JUnit (PROTOCOL §6)
    click.echo(reports.summary_table(report, "document"))
    if by_mechanic:
        click.echo()
        click.echo(reports.summary_table(report, "mechanic"))
    bad = [r for r in results if r.status in ("failed", "errored")]
    for r in bad:
        click.echo()
        click.echo(_here(r.describe()))
    skipped = [r for r in results if r.status == "skipped"]
    if skipped:
        click.echo()
        if list_skipped:
            click.echo(f"skipped ({len(skipped)}):")
            for r in skipped:
                click.echo(f"  {r.case.name}: {r.message}")
        else:  # one line per reason: an engine that skips 1,000 cases gets a few lines
            by_reason: dict[str, int] = {}
            for r in skipped:
                by_reason[r.message or "skipped"] = by_reason.get(r.message or "skipped", 0) + 1
            click.echo(f"skipped ({len(skipped)}; --list-skipped lists them):")
            width = len(str(max(by_reason.values())))
            for reason, n in sorted(by_reason.items(), key=lambda item: (-item[1], item[0])):
                click.echo(f"  {n:>{width}}  {reason}")
    _print_next_steps(report)
    sys.exit(_finish_run(report, interrupted))


def _print_next_steps(report) -> None:
    """For the engine's author (PROTOCOL §6): the failures grouped by their first
    divergence, the "what to implement next" table of the skip reasons and missing needs
    (when cases were skipped), then the ladder's next level (when a case did not pass)."""
    counts = report.counts
    if counts["passed"] == counts["total"]:
        return  # nothing to climb: skip the work (every case passed, as on the reference)
    from mtg_judge.conformance.ladder import (
        failure_groups,
        format_failure_groups,
        format_ladder,
        report_ladder,
    )
    from mtg_judge.conformance.needs import format_next_steps, next_steps
    from mtg_judge.conformance.reports import declared_needs

    implementation = report.header.get("implementation") or {}
    for lines in (format_failure_groups(failure_groups(report.cases)),
                  format_next_steps(next_steps(report.cases, declared_needs(implementation))),
                  format_ladder(report_ladder(report.cases, implementation))):
        if lines:
            click.echo()
            click.echo("\n".join(lines))


def _run_report(cases, results, implementation, engine_command, rulesets, keyword,
                report_dir, fixtures_dir, shard=None, positions=None, partial=None,
                interrupted=None, engine_error=None):
    """The run's mtg_judge.conformance.reports.Report, written into report_dir (if given) before
    anything is printed (so that a closed stdout cannot lose it). A slice (shard = (K, N))
    is marked as such, each case with its position in the unsharded order. ``interrupted``
    (a signal name) marks the report incomplete (footer ``"interrupted": true``); ``partial``
    (a PartialReport) is removed once the final files are written."""
    from mtg_judge.conformance.reports import build_report, mark_shard, write_reports

    finished = {r.case.name for r in results}
    report = build_report(results, implementation, fixtures_root=fixtures_dir,
                          engine_command=engine_command,
                          not_run_cases=[c for c in cases if c.name not in finished],
                          selection={"rulesets": list(rulesets) or None, "keyword": keyword},
                          memo=partial.memo if partial is not None else None)
    if interrupted:
        report.footer["interrupted"] = True
    if engine_error is not None:
        report.footer["engine_error"] = engine_error
    if shard is not None:
        mark_shard(report, f"{shard[0]}/{shard[1]}", positions)
    if report_dir is not None:
        try:
            paths = (partial.finish(report) if partial is not None
                     else write_reports(report, report_dir))
        except OSError as exc:
            raise click.ClickException(f"cannot write the report into {report_dir}: "
                                       f"{exc}") from None
        for path in paths.values():
            click.echo(f"wrote {path}", err=True)
    return report


def _finish_run(report, interrupted=None) -> int:
    """After 'run' printed its results: the skipped checks and an early stop; returns the
    exit code (130 if the run was interrupted by ``interrupted``, a signal name; else 1 if
    a case failed or errored, or if no case passed)."""
    from mtg_judge.conformance.reports import skipped_checks_summary

    lines = skipped_checks_summary(report.cases)
    if lines:
        click.echo()
        click.echo("skipped checks (capabilities the engine does not declare):")
        for line in lines:
            click.echo(f"  {line}")
    not_run = report.footer["not_run"]
    if interrupted:
        click.echo()
        click.echo(f"interrupted by {interrupted}: {not_run} of "
                   f"{report.counts['total'] + not_run} cases not run")
        return INTERRUPTED_EXIT
    if not_run:
        click.echo()
        click.echo(f"stopped early: {not_run} of {report.counts['total'] + not_run} cases "
                   "not run")
    passed = report.counts["passed"]
    if not passed:
        click.echo()
        click.echo("no case passed")
    low = _below_min_played(report)
    if low:
        click.echo()
        click.echo(low)
    return 1 if _has_failures(report) or low else 0


def _has_failures(report) -> bool:
    """A run's verdict (its exit code 1): a case failed or errored, or no case passed."""
    counts = report.counts
    return bool(counts["failed"] or counts["errored"] or not counts["passed"])


def _below_min_played(report) -> str | None:
    """'run --min-played FRACTION' (kept in the click context's meta): the message saying
    that the share of the selected cases run is below FRACTION, or None."""
    context = click.get_current_context(silent=True)
    minimum = context.meta.get("min_played") if context is not None else None
    if minimum is None:
        return None
    run, selected = report.footer["run"], report.footer["selected"]
    if selected and run / selected >= minimum:
        return None
    return (f"played {run} of {selected} selected cases ({100 * run / max(selected, 1):.1f}%): "
            f"below --min-played {minimum:g} ({100 * minimum:.1f}%); the others were skipped "
            "or not run")


@main.command()
@fixtures_option
def validate(fixtures_dir):
    """Check fixtures and card files: schemas plus lint (unknown card, alias or ruling id,
    duplicate id). Prints each problem as 'file: path: message' on stdout (their count on
    stderr) and exits 1, or prints 'ok' on stdout and exits 0."""
    from mtg_judge.conformance.lint import lint

    if not any(fixtures_dir.glob("*/*/*.json")) and not any(fixtures_dir.glob("cards/*.json")):
        raise click.ClickException(f"no fixture files (<document>/<mechanic>/<name>.json) and "
                                   f"no card files (cards/*.json) in {fixtures_dir}: nothing to "
                                   "validate")
    problems = lint(fixtures_dir)
    for problem in problems:  # "file: path: message", the file relative to the current folder
        click.echo(f"{_shown_file(problem.file, fixtures_dir)}: {problem.path}: "
                   f"{_relabel(problem.message, fixtures_dir)}")
    if problems:
        click.echo(f"{len(problems)} problem(s)", err=True)
        sys.exit(1)
    click.echo("ok")


def _explain_invalid_fixture(target: str, collected: list[Case], fixtures_dir: Path) -> None:
    """Raise the loader's error (file, JSON path, expected; exit 1) if ``target`` is the id
    of a fixture file that failed to load (collected as an errored ``<path>[-]`` case; its
    id read from its text even when it is not JSON, or from its place,
    :func:`mtg_judge.conformance.lint.claimed_ids`), so that 'show ID' says why instead of
    'no fixture with id'. Returns if none is."""
    from mtg_judge.conformance.lint import claimed_ids

    for case in collected:
        if case.ruleset != "-" or not case.problem:
            continue
        if target in claimed_ids(Path(case.path), Path(fixtures_dir)):
            raise click.ClickException(_here(f"fixture {target!r} is invalid: {case.problem}"))


def _find_case(target: str, ruleset: str | None, fixtures_dir: Path) -> Case:
    path = Path(target)
    if path.is_file():
        # a file inside a fixtures tree (<root>/<document>/<mechanic>/x.json with <root>/cards)
        # takes that tree's cards; any other file takes the cards of --fixtures
        parents = path.resolve().parents
        if len(parents) > 2 and (parents[2] / "cards").is_dir():
            fixtures_dir = parents[2]
        try:
            matches = collect_file(path, fixtures_dir)
        except Exception as exc:  # a bad card file names itself
            raise click.ClickException(_here(str(exc))) from None
        ids: list[str] = []
    else:
        collected = _collect(fixtures_dir)
        matches = [c for c in collected if c.fixture_id == target]
        if not matches:
            _explain_invalid_fixture(target, collected, fixtures_dir)
        ids = sorted({c.fixture_id for c in collected if c.ruleset != "-"})
    if not matches:
        import difflib

        close = difflib.get_close_matches(target, ids, n=3, cutoff=0.75)
        hint = (f" (did you mean {', '.join(repr(c) for c in close)}?)" if close else "")
        raise click.BadParameter(f"no fixture with id or path {target!r}{hint}",
                                 param_hint="FIXTURE")
    if ruleset is None:
        return matches[0]
    for case in matches:
        if case.ruleset == ruleset:
            return case
    have = ", ".join(c.ruleset for c in matches)
    raise click.BadParameter(f"{matches[0].fixture_id} holds under {have}, not {ruleset}",
                             param_hint="--ruleset")


@main.command()
@click.argument("fixture")
@click.option("--ruleset", type=click.Choice(RULESETS),
              help="The ruleset to play under. Default: the fixture's first ruleset.")
@click.option("--priority", is_flag=True, help="Also show every priority pass.")
@click.option("--engine", "engine_command", metavar="COMMAND",
              help="Also play the case on this engine (protocol v1, as 'run --engine') and "
                   "print its play-by-play next to the reference engine's, the first "
                   "divergence marked; exit 0 only if the case passes on it.")
@click.option("--timeout", type=click.FloatRange(min=0, min_open=True), default=30.0,
              show_default=True, help="Seconds to wait for each engine reply (--engine).")
@click.option("--validate-protocol", is_flag=True,
              help="Check the protocol messages against the schemas (--engine only).")
@click.option("--width", type=click.IntRange(min=60), metavar="COLUMNS",
              help="The width of the side-by-side table (--engine). Default: the terminal's "
                   "(COLUMNS), else 120.")
@fixtures_option
def show(fixture, ruleset, priority, engine_command, timeout, validate_protocol, width,
         fixtures_dir):
    """Print FIXTURE (an id or a path) as a readable play-by-play on the reference engine:
    the setup, one line per event, rejected inputs marked, and whether the expectations
    are met (exit 1 if not). A file inside a fixtures tree (<root>/<document>/<mechanic>/)
    uses that tree's cards; a file anywhere else uses the cards of --fixtures.

    With --engine COMMAND (the authors' kit, PROTOCOL §4): the case is also played on that
    engine and both logs are printed side by side, one sentence per event, with the first
    divergence marked '>' and spelt out field by field, then the final-state differences
    and the expectation's verdict on the engine (its failing patterns). Exit 0 if the case
    passes on the engine, 1 if it fails, errors or is skipped, or the engine cannot start.
    """
    from mtg_judge.conformance.transcript import render

    if engine_command is None and (validate_protocol or width is not None):
        raise click.UsageError("--validate-protocol and --width go with --engine")
    case = _find_case(fixture, ruleset, fixtures_dir)
    if engine_command is not None:
        _show_on_engine(case, engine_command, timeout, validate_protocol, width, priority)
    outcome = run_case(case)
    if outcome.result is None:
        raise click.ClickException(outcome.describe())
    click.echo(render(case.scenario, outcome.result, case.ruleset, priority=priority))
    sys.exit(0 if outcome.status == "passed" else 1)


def _show_on_engine(case, engine_command, timeout, validate, width, priority) -> None:
    """'show ID --engine CMD': the side-by-side page (conformance/sidebyside.py); exits 0
    if the case passes on the engine, else 1."""
    import shutil

    from mtg_judge.conformance import sidebyside
    from mtg_judge.conformance.protocol import describe_engine_error

    _check_engine_command(engine_command)
    try:
        reference, outcome, implementation = sidebyside.play_both(case, engine_command,
                                                                   timeout, validate)
    except Exception as exc:  # an engine that cannot even start (EngineError): exit 2
        _engine_cannot_start(describe_engine_error(exc))
    if width is None:
        width = shutil.get_terminal_size((120, 24)).columns
    click.echo(sidebyside.render(case.scenario, case.ruleset, reference.result, outcome,
                                 implementation, width, priority,
                                 sidebyside.reference_note(reference)))
    sys.exit(0 if outcome.status == "passed" else 1)


@main.command()
@click.option("--engine", "engine_command", metavar="COMMAND",
              help="Run the suite on this engine first (protocol v1, as 'run --engine'): the "
                   "ladder then starts from what it passes and leaves out the rulesets it "
                   "does not declare.")
@click.option("--report", "report_file", metavar="REPORT.jsonl",
              type=click.Path(exists=True, dir_okay=False, path_type=Path),
              help="Start from the passes of a saved report instead.")
@click.option("--ruleset", "rulesets", multiple=True, type=click.Choice(RULESETS),
              help="Only this ruleset (repeatable). Default: every fixture's rulesets.")
@click.option("-k", "keyword", metavar="EXPR", callback=_check_keyword,
              help="Select cases whose '<id>[<ruleset>]' matches EXPR, like run -k.")
@workers_option(1, "", engine=True)
@click.option("--timeout", type=click.FloatRange(min=0, min_open=True), default=30.0,
              show_default=True, help="Seconds to wait for each engine reply (--engine).")
@click.option("--json", "as_json", is_flag=True, help="Print the ladder as JSON.")
@fixtures_option
def ladder(engine_command, report_file, rulesets, keyword, workers, timeout, as_json,
           fixtures_dir):
    """Print the suite as a curriculum for an engine author: levels of cases, each with the
    features (needs, PROTOCOL §7) it adds, the cases needing the fewest features first.

    Computed from the cases' needs (deterministic): each level is the set of new features
    that unlocks the most cases per feature; features that travel together count as one
    (joined by '+'); capabilities are not levels (an undeclared capability's checks are
    skipped, PROTOCOL §3). Without --engine or --report the ladder starts from nothing;
    with them it starts from the engine's passes, lists the failing cases that use only
    features its passes show ('fix first') and leaves out the rulesets it does not declare.
    Exit 0; 1 if the report cannot be read; 2 if the engine cannot start.
    """
    from mtg_judge.conformance import ladder as ladder_module

    if engine_command is not None and report_file is not None:
        raise click.UsageError("--engine and --report are two starting points: give one")
    if report_file is not None:
        from mtg_judge.conformance.reports import ReportError, read_report

        try:
            saved = read_report(report_file)
        except ReportError as exc:
            raise BadInput(str(exc)) from None
        cases_records = [c for c in saved.cases if keyword_matches(keyword, c["name"])
                         and (not rulesets or c["ruleset"] in rulesets)]
        built = ladder_module.report_ladder(cases_records, saved.header.get("implementation"))
    elif engine_command is not None:
        from mtg_judge.conformance.protocol import describe_engine_error
        from mtg_judge.conformance.reports import build_report

        _check_engine_command(engine_command)
        cases = _collect(fixtures_dir, rulesets=rulesets or None, keyword=keyword)
        implementation: dict = {}
        try:
            results = _run_with_progress(cases, "running",
                                         workers=cap_workers(workers, len(cases)),
                                         engine_command=engine_command, timeout=timeout,
                                         keep_passed_results=False,
                                         on_start=implementation.update)
        except Exception as exc:  # an engine that cannot even start (EngineError): exit 2
            _engine_cannot_start(describe_engine_error(exc))
        report = build_report(results, implementation, fixtures_root=fixtures_dir,
                              engine_command=engine_command)
        built = ladder_module.report_ladder(report.cases, implementation)
    else:
        from mtg_judge.conformance.needs import case_needs

        cases = _collect(fixtures_dir, rulesets=rulesets or None, keyword=keyword)
        memo: dict = {}
        records = [{"name": c.name, "ruleset": c.ruleset, "status": "skipped",
                    "needs": case_needs(c.scenario, memo)} for c in cases if not c.problem]
        built = ladder_module.report_ladder(records)
    if as_json:
        click.echo(json.dumps({k: v for k, v in built.items() if k != "next"}, indent=1,
                              sort_keys=True))
        return
    steps = built["levels"]
    total = sum(level["cases"] for level in steps)
    click.echo(f"ladder: {total} cases in {len(steps)} levels"
               + (f", {built['passed']} passed already" if built["passed"] else "")
               + " (features joined by '+' travel together and count as one)")
    fix = built["fix_first"]
    if fix["cases"]:
        click.echo(f"fix first: {fix['cases']} cases not passing use only features your "
                   f"passing cases show, e.g. {', '.join(fix['examples'])}")
    for level in steps:
        click.echo(ladder_module.level_line(level))
        click.echo(f"    e.g. {', '.join(level['examples'])}")
    for ruleset, n in built["undeclared"].items():
        click.echo(f"not in the ladder: {n} cases under {ruleset} (not declared by the engine)")


@main.command()
@click.option("--missing", "list_missing", is_flag=True,
              help="List the missing ruling ids, the audited units not claims checked and "
                   "the open claims.")
@click.option("--json", "as_json", is_flag=True, help="Print the report as JSON.")
@click.option("--cards", "cards", is_flag=True,
              help="Instead: the breadth of the card vocabulary, how many of the cards the seeds "
                   "name and the decks hold are fully expressible (no suite run).")
@fixtures_option
def coverage(list_missing, as_json, cards, fixtures_dir):
    """Run the suite in-process (all cores) and report, per document, the ruling ids covered
    by a passing fixture, listed as untestable (fixtures/untestable.json), and missing; and,
    apart from being cited, the units whose every claim the citation audits
    (fixtures/audit/*.json) find checked by a passing fixture or untestable ('claims checked'),
    and how many audited claims are open (testable in principle, not expressible yet).

    --cards: the breadth figure instead (conformance/breadth.py). The named cards are those
    the seed documents name (conformance/named_cards.json, from the glossary) and those of
    the self-play and fuzz decks (fixtures/decks/); each is expressed (its card file lists
    nothing in `unexpressed`, FORMAT §5), unexpressed (something is left out or approximated)
    or absent (no card file). A table per source, the figure (expressed / named real cards;
    "Test ..." cards are not counted) and every card not fully expressed with what it lacks
    (--json: {"expressed", "real", "rate", "bar", "cards": [...]})."""
    from mtg_judge.conformance.coverage import coverage_report, coverage_table, load_untestable
    from mtg_judge.conformance.loader import load_audits

    if cards:
        from mtg_judge.conformance import breadth

        try:
            measured = breadth.measure(Path(fixtures_dir) / "cards", Path(fixtures_dir) / "decks")
        except ValueError as exc:
            raise BadInput(str(exc)) from None
        click.echo(json.dumps(breadth.breadth_json(measured), indent=2) if as_json
                   else breadth.format_breadth(measured))
        return
    cases = _collect(fixtures_dir)
    results = _run_with_progress(cases, "running", workers=os.cpu_count() or 1)
    report = coverage_report(results, untestable=load_untestable(fixtures_dir),
                             audits=load_audits(fixtures_dir))
    if as_json:
        click.echo(json.dumps(report, indent=2, sort_keys=True))
        return
    click.echo(coverage_table(report))
    if list_missing:
        for doc, row in report["documents"].items():
            for rid in row["missing_ids"]:
                click.echo(f"missing: {rid}")
            for rid in report["audit"].get(doc, {}).get("unchecked_ids", []):
                click.echo(f"claims not all checked: {rid}")
            for claim in report["audit"].get(doc, {}).get("open_claims", []):
                click.echo(f"open claim: {claim['unit']}: {claim['claim']} ({claim['note']})")


@main.group()
def snapshots() -> None:
    """Manage the syrupy snapshots of the reference engine's logs (conformance/__snapshots__)."""


def _cap_workers(workers: int | None, tasks: int) -> int:
    """-n/--workers of an in-process command: all cores by default, capped (with a warning)."""
    return cap_workers(workers if workers is not None else (os.cpu_count() or 1), tasks)


def _snapshot_checkout() -> Path:
    """The repository to regenerate snapshots in: they belong to the checkout's tests, so an
    installed wheel (no checkout) gets a clear error instead of writing into site-packages."""
    root = checkout_root()
    if root is None:
        raise click.ClickException("snapshots update needs a checkout of mtg-judge installed in "
                                   "editable mode (pip install -e .): the snapshots belong to "
                                   "its tests (or give --snapshot-dir DIR)")
    return root


@snapshots.command()
@click.option("--check", is_flag=True,
              help="Write nothing: print what an update would change and exit 1 if any "
                   "snapshot would change or a case fails (the mode for CI).")
@click.option("--snapshot-dir", type=click.Path(file_okay=False, path_type=Path), default=None,
              metavar="DIR", help="The snapshot directory (holding test_fixtures/). Default: "
                                  "the checkout's conformance/__snapshots__.")
@workers_option(None, "all cores")
@fixtures_option
def update(check, snapshot_dir, workers, fixtures_dir):
    """Regenerate the snapshot of every case that passes on the reference engine, delete
    the snapshots of no case, and list the snapshots added, modified and deleted as
    '<fixture id> [<rulesets>]', each modified one with a short event diff of its old and
    new log (- old, + new) and its final-state changes (rulesets whose diff is the same
    share one entry): review that list as the rules change it is.

    The snapshot of a case whose expectation fails, or that errors, is never rewritten:
    every such case is listed with the first line of each mismatch, and the exit code is 1.
    With --check nothing is written and the exit code is 1 when any snapshot would change.
    """
    from mtg_judge.conformance import snapshots as snaps

    if snapshot_dir is None:
        _snapshot_checkout()
        snapshot_dir = SNAPSHOT_DIR
    cases = _collect(fixtures_dir)
    if not cases:
        raise click.ClickException(f"no cases in {fixtures_dir}")
    results = _run_with_progress(cases, "snapshots", workers=_cap_workers(workers, len(cases)))
    plan = snaps.plan_update(results, snaps.read_snapshots(snapshot_dir))
    if not check:
        try:
            snaps.apply_plan(plan, snapshot_dir)
        except OSError as exc:
            raise click.ClickException(f"cannot write the snapshots into {snapshot_dir}: "
                                       f"{exc}") from None
    click.echo(snaps.format_plan(plan, check=check))
    sys.exit(1 if plan.failures or (check and plan.changed) else 0)


@main.command("diff-rulesets")
@click.argument("ruleset_a", metavar="A", type=click.Choice(RULESETS))
@click.argument("ruleset_b", metavar="B", type=click.Choice(RULESETS))
@click.option("--json", "as_json", is_flag=True, help="Print the report as JSON.")
@click.option("-k", "keyword", metavar="EXPR", callback=_check_keyword,
              help="Compare only the fixtures whose id matches EXPR (substrings combined "
                   "with and/or/not and parentheses, like pytest -k).")
@fixtures_option
def diff_rulesets(ruleset_a, ruleset_b, as_json, keyword, fixtures_dir):
    """Show which scenarios behave differently under rulesets A and B.

    Runs every fixture whose 'rulesets' lists both A and B under each (reference engine,
    in-process, all cores) and prints each fixture whose log differs with an event diff
    (- only under A, + only under B, a little context, identical events collapsed) and its
    final-state changes, then 'N fixtures compared, M differ, K identical'. Exit 0: the
    differences are information, not failures (1 if a fixture could not be run, 2 for an
    unknown ruleset). --json prints {"a", "b", "compared", "differ": [{"id", "title",
    "diff", "state"}], "identical": [...], "errored": [...]}.
    """
    from mtg_judge.conformance.rulediff import compare_rulesets, format_report, report_json

    cases = _collect(fixtures_dir, rulesets=[ruleset_a, ruleset_b])
    report = compare_rulesets(
        cases, ruleset_a, ruleset_b, lambda fid: keyword_matches(keyword, fid),
        lambda todo: _run_with_progress(todo, "running", workers=os.cpu_count() or 1))
    if as_json:
        click.echo(json.dumps(report_json(report), indent=2, sort_keys=True,
                              ensure_ascii=False))
    else:
        click.echo(format_report(report))
    if not report.compared and not report.errored:
        click.echo(f"no fixture lists both {ruleset_a} and {ruleset_b} in its rulesets"
                   + (f" and matches -k {keyword!r}" if keyword else ""), err=True)
    sys.exit(1 if report.errored else 0)


@main.command()
@click.option("-m", "names", metavar="NAME", multiple=True,
              help="Run only this mutation (repeatable). Default: every mutation.")
@click.option("-k", "keyword", metavar="EXPR", callback=_check_keyword,
              help="Run only the cases whose '<id>[<ruleset>]' matches EXPR (like run -k).")
@workers_option(2, "", what="mutants")
@click.option("--timeout", "case_timeout", type=click.FloatRange(min=0, min_open=True),
              default=10.0, show_default=True,
              help="Seconds a case may run under a mutation before it errors (a kill; with --random: broken).")
@click.option("--list", "list_only", is_flag=True, help="List the mutations and exit.")
@click.option("--json", "json_to", metavar="[FILE]", is_flag=False, flag_value="-", default=None,
              help="Print the report as JSON (--json FILE: write it to FILE, the table still printed).")
@click.option("--random", "random_n", type=click.IntRange(min=1), metavar="N", default=None,
              help="Random first-order mutants instead of the list: sample N points of engine/**/*.py.")
@click.option("--seed", type=int, default=1, show_default=True, help="With --random: the sample's seed.")
@click.option("--only", "only", metavar="PATH", default=None,
              help="With --random: sample only under this repository-relative file or folder (engine/combat.py).")
@click.option("--legal", is_flag=True,
              help="With --random: mutants of the move generator (engine/legal.py, engine/legal/), judged by "
                   "pytest -x on tests/test_selfplay.py, test_properties.py, test_fuzz.py instead of the fixtures.")
@click.option("--replay", "replay_from", metavar="FILE", default=None,
              type=click.Path(exists=True, dir_okay=False, path_type=Path),
              help="Judge again the random mutants of an earlier --json FILE (its seed and judge), "
                   "found in this tree by function, source and edit: a triaged sample re-judged.")
@fixtures_option
def mutants(names, keyword, workers, case_timeout, list_only, json_to, random_n, seed, only, legal,
            replay_from, fixtures_dir):
    """Mutation self-check: run the suite on the reference engine with one rule switched
    off at a time and report which fixtures kill (notice) each mutation.

    A mutation is killed when a case that passes on the real engine fails or errors under
    it; a survivor is a rule no fixture checks. Prints a table (mutation, CR rule, killed
    by N cases (M fixtures), examples) and the kill rate. Exit 0 when the kill rate is at
    least 90%, 1 otherwise (a mutation that can no longer be applied counts as not killed).
    --json prints {"mutations": [{"name", "rule", "doc", "status", "killed_by",
    "killed_by_count", "killing_cases"}], "kill_rate", "survivors", ...}.

    \b
    --random N [--seed S] [--only PATH] [--legal]: a measurement over mutants nobody
    wrote (conformance/randmut.py, docs/TESTING.md). Every mutation point of
    engine/**/*.py inside a function body (comparison, and/or, arithmetic, integer and
    boolean constants, a dropped `not`, a negated `if`, `return None`) is enumerated in a
    fixed order and N are drawn with random.Random(S); each runs in a forked child over
    the cases, stopping at the first that passes on the real engine and fails under the
    mutant. The table: status (killed, SURVIVED, equivalent: listed with its reason in
    conformance/mutants_equivalent.json, broken: does not apply, the worker died, or a
    timeout), `engine/combat.py:212  <  ->  <=`, the killing case or the reason; then the
    counts and the kill rate, killed / (killed + survived). Same seed and tree: the same
    bytes, whatever -n. Progress on stderr. Exit 0 (a measurement, not a gate); 2 for a
    bad equivalence list or an --only that selects nothing. --json FILE writes {"seed",
    "population", "killed", "survived", "equivalent", "broken", "kill_rate", "mutants":
    [{"path", "line", "col", "operator", "original", "replacement", "qualname", "node",
    "status", "by", "reason", ...}], "stale_equivalents"}.

    \b
    --replay FILE: the mutants of an earlier --random run's --json FILE judged again on this
    tree, each found by its function, node source and edit (line moves don't matter); one
    whose code is gone is listed as such, not judged. For re-judging a triaged sample.
    """
    workers = cap_workers(workers)  # the mutants are counted later: 4 x the cores at most
    if replay_from is not None:
        if random_n is not None or legal:
            raise click.UsageError("--replay FILE takes the sample (and --legal) from FILE: "
                                   "no --random N or --legal")
        from mtg_judge.conformance.randmut import replay_locators

        try:
            seed, legal, locators = replay_locators(replay_from)
        except ValueError as exc:
            raise click.BadParameter(str(exc), param_hint="--replay") from None
        _random_mutants(len(locators), seed, workers, only, legal, fixtures_dir, keyword, case_timeout,
                        json_to, replay=locators)
        return
    if random_n is not None:
        _random_mutants(random_n, seed, workers, only, legal, fixtures_dir, keyword, case_timeout, json_to)
        return
    if only is not None or legal:
        raise click.UsageError("--only and --legal go with --random N")
    from mtg_judge.conformance.mutants import MUTATIONS, format_report, run_mutants

    if list_only:
        for m in MUTATIONS.values():
            click.echo(f"{m.name:<40} {m.rule:<8} {m.summary}")
        return
    unknown = [n for n in names if n not in MUTATIONS]
    if unknown:
        raise click.BadParameter(f"unknown mutation(s) {', '.join(unknown)} (see --list)",
                                 param_hint="-m")
    selected = list(dict.fromkeys(names)) or None
    total = 1 + (len(selected) if selected else len(MUTATIONS))
    with click.progressbar(length=total, label="mutants", file=sys.stderr,
                           show_pos=True) as bar:
        report = run_mutants(selected, root=fixtures_dir, keyword=keyword, workers=workers,
                             case_timeout=case_timeout, progress=lambda _name: bar.update(1))
    if not report.cases:
        raise BadInput("no cases selected (check --fixtures and -k)")
    text = json.dumps(report.as_json(), indent=2, sort_keys=True, ensure_ascii=False)
    if json_to == "-":
        click.echo(text)
    else:
        if json_to is not None:
            Path(json_to).write_text(text + "\n", encoding="utf-8")
        click.echo(format_report(report))
    sys.exit(0 if report.passed_bar else 1)


def _random_mutants(n, seed, workers, only, legal, fixtures_dir, keyword, case_timeout, json_to,
                    replay=None):
    """``mutants --random N``: run :func:`mtg_judge.conformance.randmut.run_random` and
    print its table (or JSON); see the command's help."""
    from mtg_judge.conformance.randmut import EquivalenceListError, format_random_report, run_random

    try:
        report = run_random(n, seed=seed, workers=workers, only=only, legal=legal,
                            fixtures_root=fixtures_dir, keyword=keyword, case_timeout=case_timeout,
                            progress=lambda line: click.echo(line, err=True), replay=replay)
    except (EquivalenceListError, ValueError) as exc:
        click.echo(f"mtg-judge mutants: {exc}", err=True)
        sys.exit(2)
    judged = report.count("killed") + report.count("survived")
    click.echo(f"{len(report.results)} mutants in {report.seconds:.1f} s "
               f"({report.seconds / max(1, len(report.results)):.2f} s each, -n {workers}); "
               f"{judged} judged", err=True)
    text = json.dumps(report.as_json(), indent=2, sort_keys=True, ensure_ascii=False)
    if json_to == "-":
        click.echo(text)
        return
    if json_to is not None:
        Path(json_to).write_text(text + "\n", encoding="utf-8")
    click.echo(format_random_report(report))


@main.command()
def serve():
    """Serve the reference engine over protocol v1 on stdin/stdout (one JSON object per
    line), for harnesses and for 'mtg-judge run --engine "mtg-judge serve"'."""
    from mtg_judge.conformance.protocol import serve as serve_protocol

    sys.exit(serve_protocol(sys.stdin, sys.stdout))


@main.command()
@click.argument("report_files", metavar="REPORT.jsonl", nargs=-1, required=True,
                type=click.Path(exists=True, dir_okay=False, path_type=Path))
@click.option("--merge", is_flag=True,
              help="Join the report.jsonl files of the slices of one run ('run --shard K/N', "
                   "every K of 1..N) into the report of the whole run, in run order.")
@click.option("--html", "html_out", metavar="OUT", type=click.Path(dir_okay=False, path_type=Path),
              help="Write the static HTML page to OUT.")
@click.option("--junit", "junit_out", metavar="OUT",
              type=click.Path(dir_okay=False, path_type=Path), help="Write JUnit XML to OUT.")
@click.option("--badge", "badge_out", metavar="OUT",
              type=click.Path(dir_okay=False, path_type=Path),
              help="Write the shields.io endpoint badge JSON to OUT.")
@click.option("--jsonl", "jsonl_out", metavar="OUT",
              type=click.Path(dir_okay=False, path_type=Path),
              help="Write the report (the merged one with --merge) as JSON Lines to OUT.")
@click.option("--report-dir", type=click.Path(file_okay=False, path_type=Path), metavar="DIR",
              help="Write report.jsonl, index.html, badge.json and junit.xml into DIR, as "
                   "'run --report-dir' does.")
@click.option("--fixtures-url", metavar="URL",
              help="Base URL of the fixture links in the HTML (e.g. a repository's "
                   "blob/main/fixtures URL). Default: file:// links into the report's "
                   "fixtures directory.")
@click.option("--compare", "compare_with", metavar="B.jsonl",
              type=click.Path(exists=True, dir_okay=False, path_type=Path),
              help="List the cases whose status changed from REPORT.jsonl to B.jsonl "
                   "(e.g. two versions of an engine); exit 1 if a case that passed in "
                   "REPORT.jsonl does not pass in B.jsonl.")
@click.option("--by-mechanic", is_flag=True, help="Also print the summary per mechanic.")
def report(report_files, merge, html_out, junit_out, badge_out, jsonl_out, report_dir,
           fixtures_url, compare_with, by_mechanic):
    """Re-render a saved REPORT.jsonl (written by 'run --report-dir'), or merge the
    reports of the slices of a sharded run (--merge A.jsonl B.jsonl ...).

    Prints its summary table per document (and per mechanic), its skipped checks, and
    writes the files asked for with --html, --junit, --badge, --jsonl and --report-dir.
    With --compare, prints the status changes instead of the table (exit 1 if a case
    regressed). With --merge, exits as 'run' would have for the whole run: 1 if a case
    failed or errored or none passed (the cases not run are counted). Exit 1 for a report
    that cannot be read (the message names the file and line) or reports that cannot be
    merged (different suite versions, engines or selections, a slice missing or given
    twice, a case in two reports).
    """
    from mtg_judge.conformance import reports

    if len(report_files) > 1 and not merge:
        raise click.UsageError("several reports given: add --merge to join the slices of a "
                               "sharded run, or give one report")
    try:
        loaded = [(str(path), reports.read_report(path)) for path in report_files]
        other = reports.read_report(compare_with) if compare_with else None
        saved = reports.merge_reports(loaded) if merge else loaded[0][1]
    except reports.ReportError as exc:
        raise BadInput(str(exc)) from None
    report_file = report_files[0] if not merge else "the merged report"
    if other is not None:
        changes = reports.compare(saved, other)
        click.echo(reports.format_changes(changes, saved, other, str(report_file),
                                          str(compare_with)))
    else:
        click.echo(reports.summary_table(saved, "document"))
        if by_mechanic:
            click.echo()
            click.echo(reports.summary_table(saved, "mechanic"))
        for line in reports.skipped_checks_summary(saved.cases):
            click.echo(f"skipped checks: {line}")
        _print_next_steps(saved)
    outputs = [(html_out, lambda: reports.render_html(saved, fixtures_url)),
               (junit_out, lambda: reports.render_junit(saved)),
               (badge_out, lambda: json.dumps(reports.badge(saved), indent=2,
                                              sort_keys=True) + "\n"),
               (jsonl_out, lambda: reports.dump_jsonl(saved))]
    for out, render in outputs:
        if out is not None:
            try:
                click.echo(f"wrote {reports.write_file(render(), out)}", err=True)
                if out is html_out:  # the failing cases' pages beside it (issue 25)
                    for relative, text in reports.case_pages(saved, fixtures_url).items():
                        reports.write_file(text, Path(out).parent / relative)
            except OSError as exc:
                raise click.ClickException(f"cannot write {out}: {exc}") from None
    if report_dir is not None:
        try:
            for path in reports.write_reports(saved, report_dir, fixtures_url).values():
                click.echo(f"wrote {path}", err=True)
        except OSError as exc:
            raise click.ClickException(f"cannot write the report into {report_dir}: "
                                       f"{exc}") from None
    if other is not None:
        sys.exit(1 if any(c.kind == "regression" for c in changes) else 0)
    note = reports.incomplete_note(saved)
    if note is not None:  # PROTOCOL §6: an incomplete report says so, and is not green
        click.echo()
        click.echo(note)
    if merge:  # the merged run is judged as 'run' would have judged it unsharded
        sys.exit(1 if _has_failures(saved) or note is not None else 0)
    if reports.incomplete(saved) in ("interrupted", "partial", "engine cannot start"):
        sys.exit(1)


@main.command()
@click.argument("out", metavar="OUT", type=click.Path(path_type=Path))
@click.option("--format", "fmt", type=click.Choice(["dir", "zip"]), default=None,
              help="A folder (dir) or one zip file (zip). Default: zip if OUT ends with .zip, "
                   "else dir.")
@click.option("--ruleset", "rulesets", multiple=True, type=click.Choice(RULESETS),
              help="Export only this ruleset (repeatable). Default: every fixture's rulesets.")
@click.option("-k", "keyword", metavar="EXPR", callback=_check_keyword,
              help="Export only the cases whose '<id>[<ruleset>]' matches EXPR (like run -k).")
@click.option("--force", is_flag=True,
              help="Replace an existing zip file, or a bundle exported into OUT before.")
@fixtures_option
def export(out, fmt, rulesets, keyword, force, fixtures_dir):
    """Write the suite as plain data for engines in any language: a bundle.

    OUT receives manifest.json (suite version, rulesets, the case ids '<id>[<ruleset>]' in
    run order, the sha256 of every file), cases/<fixture id>/<ruleset>.json (one case: a
    wrapper with 'id', 'fixture', 'ruleset', 'checks', 'needs' ... whose 'scenario' key is
    what a protocol 'run' message sends with that 'ruleset', its cards embedded, its
    expectation resolved for that ruleset; send the key, not the file) and
    schema/*.schema.json. The bytes are deterministic: two
    exports are identical, a zip too (fixed timestamps and order). Play a bundle with
    'mtg-judge run --bundle OUT'. Exit 1 if a fixture has a problem or OUT is in the way.
    """
    from mtg_judge.conformance.bundle import BundleError, bundle_files, write_bundle

    if fmt is None:
        fmt = "zip" if out.suffix.lower() == ".zip" else "dir"
    cases = _collect(fixtures_dir, rulesets=rulesets or None, keyword=keyword)
    if not cases:
        raise BadInput("no cases selected (check --fixtures, --ruleset and -k)")
    try:
        files = bundle_files(cases, {"rulesets": list(rulesets) or None, "keyword": keyword},
                             root=fixtures_dir)
        write_bundle(files, out, fmt, force=force)
    except BundleError as exc:  # a fixture it cannot export, a folder in the way: exit 1
        raise click.ClickException(str(exc)) from None
    except OSError as exc:
        raise click.ClickException(f"cannot write {out}: {exc}") from None
    size = sum(len(data) for data in files.values())
    click.echo(f"wrote {out} ({fmt}): {len(cases)} cases, {len(files)} files, "
               f"{size / 1e6:.1f} MB uncompressed")


# Commands defined in their own modules, imported only when used (or listed by --help):
# random games (conformance/selfplay.py), differential fuzzing (conformance/fuzz.py) and the
# compliance of every engine (tools/compliance.py).
main.lazy_commands.update({"selfplay": "mtg_judge.conformance.selfplay:selfplay_command",
                           "fuzz": "mtg_judge.conformance.fuzz:fuzz_command",
                           "compliance": "mtg_judge.tools.compliance:compliance_command"})


if __name__ == "__main__":
    main()
