"""pytest plugin of mtg-judge (entry point ``pytest11``): the suite in an engine author's CI.

Inert unless ``--mtg-engine "COMMAND"`` is given: then no other hook does anything and
nothing but this module (which imports only pytest) is loaded, so another project's pytest
run is neither broken nor slowed. With it, from any folder (no test file needed)::

    pytest -n auto --mtg-engine="./my-engine --protocol"
    pytest --mtg-engine="python my_engine.py" --mtg-ruleset=modern -k "combat and not trample"
    pytest --mtg-engine=./my-engine --mtg-fixtures=mtg-judge-bundle.zip --junitxml junit.xml

(the ``=`` form matters for a value that is an existing path: pytest picks its rootdir before
it loads plugins and would take such a value for a path to test; docs/PROTOCOL.md §9)

every case of the suite (each fixture under each of its rulesets) is one pytest item named
``<fixture id>[<ruleset>]``, with the node id ``mtg-judge/<document>/<mechanic>::<fixture
id>[<ruleset>]`` (stable: the same on every xdist worker and every run). An item runs its
case on the engine through protocol v1 (docs/PROTOCOL.md) exactly as ``mtg-judge run
--engine`` does (:func:`mtg_judge.conformance.runner.run_case`): a failed case fails with
the readable text of ``CaseResult.describe()`` (the mismatches), an errored case (a crash,
a timeout, a bad reply, an ``errored`` reply) fails with its error, a skipped case (a
ruleset the engine does not declare, a ``skipped`` reply, no check applicable, a vacuous case) is a pytest
skip with the reason. Each pytest process (each xdist worker) starts one engine process and
reuses it for its cases; after a crash, a timeout or a bad reply the engine is restarted for
the next case; an engine that cannot start at all fails its first case with the reason and
stops the run (exit 2, pytest's "interrupted", as ``mtg-judge run``). The end of the run
prints ``mtg-judge run``'s compliance line (the figures of docs/PROTOCOL.md §6), and a run
in which no case passed fails (exit 1), as ``run`` does (§4).

Options (``pytest --help``, group ``mtg-judge``): ``--mtg-engine COMMAND``,
``--mtg-fixtures PATH`` (a fixtures folder or a bundle of ``mtg-judge export``; default the
installed suite's fixtures), ``--mtg-ruleset NAME`` (repeatable), ``--mtg-timeout SECONDS``
(per reply, default 30), ``--mtg-validate-protocol``, ``--mtg-min-played FRACTION`` (fail
when fewer than that share of the selected cases were run, not skipped). pytest's ``-k``, ``-x``,
``--junitxml`` and ``-n`` (pytest-xdist) work as usual.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import pytest

if TYPE_CHECKING:
    from mtg_judge.conformance.protocol import ProtocolEngine

_SUITE = pytest.StashKey["_Suite"]()


def pytest_addoption(parser):
    group = parser.getgroup("mtg-judge", "mtg-judge conformance suite (docs/PROTOCOL.md §9)")
    group.addoption("--mtg-engine", metavar="COMMAND", default=None,
                    help="Run the mtg-judge suite against this engine (protocol v1): one "
                         "pytest item per case, named '<fixture id>[<ruleset>]'. Without it "
                         "the plugin does nothing.")
    group.addoption("--mtg-fixtures", metavar="PATH", default=None,
                    help="The cases: a fixtures folder, or a bundle folder or zip written by "
                         "'mtg-judge export'. Default: the installed suite's fixtures.")
    group.addoption("--mtg-ruleset", metavar="NAME", action="append", default=None,
                    help="Run only this ruleset (repeatable): a name of the suite's rulesets "
                         "(DESIGN §3; 'mtg-judge run --help' lists them).")
    group.addoption("--mtg-timeout", metavar="SECONDS", type=float, default=30.0,
                    help="Seconds to wait for each engine reply (default 30).")
    group.addoption("--mtg-validate-protocol", action="store_true", default=False,
                    help="Check every protocol message against schema/protocol-*.schema.json.")
    group.addoption("--mtg-min-played", metavar="FRACTION", type=float, default=None,
                    help="Fail the run (exit 1) when the cases run (passed, failed or "
                         "errored: not skipped) are less than FRACTION (e.g. 0.9) of the "
                         "selected cases, as 'mtg-judge run --min-played'.")


class SourceError(Exception):
    """The cases cannot be read from ``--mtg-fixtures`` (the message names the file)."""


class _Suite:
    """The plugin's state in one pytest process: the options, and the engine process shared
    by the items of this process (started by the first item that runs)."""

    def __init__(self, command: str, fixtures: Path | None, rulesets: list[str] | None,
                 timeout: float, validate: bool):
        self.command, self.fixtures, self.rulesets = command, fixtures, rulesets
        self.timeout, self.validate = timeout, validate
        self.engine: ProtocolEngine | None = None
        self.fatal: str | None = None  # why the engine could not start at all
        self.min_played: float | None = None
        # The figures of the run (PROTOCOL §6), counted where the reports arrive (the
        # xdist controller, or the only process): statuses of the cases that ran, and
        # the number of cases selected (collected and not deselected).
        self.counts = {status: 0 for status in ("passed", "failed", "errored", "skipped",
                                                "total")}
        self.selected: int | None = None

    def cases(self) -> list:
        """The selected cases, in run order. Raises :class:`SourceError` for a bad source
        (a damaged bundle, an unreadable cards folder), naming the file."""
        from mtg_judge.conformance.bundle import BundleError, load_cases
        from mtg_judge.conformance.resources import FIXTURES_DIR

        source = self.fixtures if self.fixtures is not None else FIXTURES_DIR
        try:
            return load_cases(source, rulesets=self.rulesets)
        except BundleError as exc:
            raise SourceError(f"--mtg-fixtures: {exc}") from None
        except Exception as exc:  # FixtureError and friends name the file
            raise SourceError(f"--mtg-fixtures {source}: {type(exc).__name__}: {exc}") from None

    def run(self, case):
        """Run one case on this process's engine; a CaseResult, never raises."""
        from mtg_judge.conformance.protocol import EngineError, ProtocolEngine
        from mtg_judge.conformance.runner import CaseResult, _engine_error_message, run_case

        if self.fatal is None and self.engine is None:
            self.engine = ProtocolEngine(self.command, self.timeout, validate=self.validate)
            try:
                self.engine.start()
            except EngineError as exc:
                self.fatal = f"cannot start the engine {self.command!r}: " \
                             f"{_engine_error_message(exc)}"
        if self.fatal is not None:
            return CaseResult(case, "errored", message=self.fatal, error_kind="crash")
        return run_case(case, self.engine)

    def stop(self) -> None:
        if self.engine is not None:
            self.engine.stop()
            self.engine = None


def pytest_configure(config):
    command = config.getoption("mtg_engine", None)
    if command is None:
        return
    import shlex

    try:
        if not shlex.split(command):
            raise ValueError("empty command")
    except ValueError as exc:
        raise pytest.UsageError(f"--mtg-engine {command!r}: {exc}") from None
    from mtg_judge.conformance.protocol import shell_syntax_warning

    warning = shell_syntax_warning(command)
    if warning is not None and not hasattr(config, "workerinput"):  # on stderr, as run does
        import sys

        print(f"warning: {warning}", file=sys.stderr)
    from mtg_judge.conformance.runner import RULESETS as known

    rulesets = config.getoption("mtg_ruleset")
    for name in rulesets or []:
        if name not in known:
            raise pytest.UsageError(f"--mtg-ruleset {name!r}: expected one of "
                                    f"{', '.join(known)}")
    timeout = config.getoption("mtg_timeout")
    if not timeout > 0:
        raise pytest.UsageError(f"--mtg-timeout {timeout}: expected a number of seconds > 0")
    fixtures = config.getoption("mtg_fixtures")
    if fixtures is not None:
        fixtures = Path(fixtures).expanduser()
        if not fixtures.exists():
            raise pytest.UsageError(f"--mtg-fixtures {fixtures}: no such folder or bundle "
                                    "(expected a fixtures folder, or a bundle folder or zip "
                                    "written by 'mtg-judge export')")
        fixtures = fixtures.resolve()
    min_played = config.getoption("mtg_min_played")
    if min_played is not None and not 0 <= min_played <= 1:
        raise pytest.UsageError(f"--mtg-min-played {min_played:g}: expected a fraction from 0 "
                                "to 1 (e.g. 0.9)")
    suite = _Suite(command, fixtures, rulesets, timeout, config.getoption("mtg_validate_protocol"))
    suite.min_played = min_played
    config.stash[_SUITE] = suite
    config.pluginmanager.register(_Tally(suite), "mtg-judge-tally")


def pytest_report_header(config):
    suite = config.stash.get(_SUITE, None)
    if suite is None:
        return None
    from mtg_judge.conformance.protocol import _package_version

    source = suite.fixtures or "the installed suite's fixtures"
    rulesets = ", ".join(suite.rulesets) if suite.rulesets else "all"
    return (f"mtg-judge {_package_version()}: engine {suite.command!r}, cases from {source}, "
            f"rulesets {rulesets}, timeout {suite.timeout:g} s")


class MtgGroup(pytest.Collector):
    """The cases of one ``<document>/<mechanic>`` (node id ``mtg-judge/<document>/<mechanic>``)."""

    def __init__(self, *, cases=(), **kwargs):
        super().__init__(**kwargs)
        self.cases = list(cases)

    def collect(self):
        return [MtgCase.from_parent(self, name=case.name, case=case) for case in self.cases]


class CaseNotPassed(Exception):
    """Raised by :class:`MtgCase` for a failed or errored case; holds the ``CaseResult``."""

    def __init__(self, result):
        super().__init__(result.describe())
        self.result = result


class MtgCase(pytest.Item):
    """One case (a fixture under one ruleset) run on the ``--mtg-engine`` engine."""

    def __init__(self, *, case, **kwargs):
        super().__init__(**kwargs)
        self.case = case

    def runtest(self):
        suite = self.config.stash[_SUITE]
        result = suite.run(self.case)
        self.user_properties.append(("mtg_status", result.status))
        if result.error_kind:
            self.user_properties.append(("mtg_error_kind", result.error_kind))
        if suite.fatal is not None:
            # An engine that cannot start: this case says why, once, and the run stops
            # (exit 2, pytest's "interrupted", as 'mtg-judge run'; issue 25), instead of
            # the same traceback once per case.
            self.session.shouldstop = ("mtg-judge: the engine cannot start (the first failure "
                                       "says why); the other cases were not run")
        if result.status == "skipped":
            _skip(result.message or "skipped")
        if result.status in ("failed", "errored"):
            raise CaseNotPassed(result)

    def repr_failure(self, excinfo, style=None):
        if isinstance(excinfo.value, CaseNotPassed):
            return excinfo.value.result.describe()
        return super().repr_failure(excinfo, style=style)

    def reportinfo(self):
        return self.case.path, 0, self.case.name


def _skip(reason: str) -> None:
    """pytest.skip, reported at the case's fixture file (``-rs``) rather than at this line."""
    try:
        raise pytest.skip.Exception(reason, _use_item_location=True)
    except TypeError:  # a pytest without that (private) argument
        pytest.skip(reason)


@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(session, config, items):
    """Add one item per case (before ``-k`` and others deselect). Runs in every xdist worker
    (the controller does not collect); the cases come in run order, so every worker builds
    the same node ids in the same order."""
    suite = config.stash.get(_SUITE, None)
    if suite is None:
        return
    try:
        cases = suite.cases()
    except SourceError as exc:
        # A collection error (also forwarded by xdist workers): "ERROR collecting mtg-judge"
        # with the message, and pytest stops with "1 error during collection".
        config.hook.pytest_collectreport(report=pytest.CollectReport(
            "mtg-judge", "failed", str(exc), []))
        return
    groups: dict[str, list] = {}
    for case in cases:
        key = "/".join(part for part in ("mtg-judge", case.document, case.mechanic) if part)
        groups.setdefault(key, []).append(case)
    for key, cases in groups.items():
        group = MtgGroup.from_parent(session, name=key, nodeid=key, cases=cases)
        collected = group.collect()
        # What a collector that pytest walked itself reports: the terminal's "collected N
        # items" counts these.
        config.hook.pytest_collectreport(report=pytest.CollectReport(
            group.nodeid, "passed", None, collected))
        items.extend(collected)


class _Tally:
    """A plugin object (registered by :func:`pytest_configure` with ``--mtg-engine``) that
    counts the run's figures where the reports arrive: each case's status from the
    ``mtg_status`` property its item records (with xdist, in the controller, from every
    worker's reports) and the number of cases selected (left after ``-k``/``--deselect``)."""

    def __init__(self, suite: "_Suite"):
        self.suite = suite

    def pytest_runtest_logreport(self, report):
        status = dict(getattr(report, "user_properties", None) or ()).get("mtg_status")
        if status in self.suite.counts and report.when == "call":
            self.suite.counts[status] += 1
            self.suite.counts["total"] += 1

    @pytest.hookimpl(trylast=True)
    def pytest_collection_finish(self, session):
        if not hasattr(session.config, "workerinput"):  # without xdist: the items left
            self.suite.selected = sum(isinstance(item, MtgCase)
                                      for item in getattr(session, "items", None) or [])

    @pytest.hookimpl(optionalhook=True)
    def pytest_xdist_node_collection_finished(self, node, ids):
        # with xdist: every worker collects the same items; the first worker's list counts
        if not self.suite.selected:
            self.suite.selected = sum(1 for nodeid in ids if nodeid.startswith("mtg-judge/"))


def _verdict(suite: "_Suite") -> tuple[str, list[str], bool]:
    """The compliance line of the run (PROTOCOL §6: the figures of 'mtg-judge run'), the
    lines that fail it, and whether it fails: no case passed (an engine that skips
    everything is not green, §4), or fewer cases run than ``--mtg-min-played``."""
    from mtg_judge.conformance.runner import headline, played

    counts = suite.counts
    not_run = max(0, (suite.selected or 0) - counts["total"])
    run, selected = played(counts, not_run)
    problems = []
    if selected and not counts["passed"]:
        problems.append("no case passed")
    minimum = suite.min_played
    if minimum is not None and (not selected or run / selected < minimum):
        problems.append(f"played {run} of {selected} selected cases "
                        f"({100 * run / max(selected, 1):.1f}%): below --mtg-min-played "
                        f"{minimum:g} ({100 * minimum:.1f}%); the others were skipped or not run")
    line = f"mtg-judge compliance: {headline(counts, not_run)}"
    if not_run:
        line += f" ({not_run} selected cases not run)"
    return line, problems, bool(problems)


def pytest_terminal_summary(terminalreporter, exitstatus, config):
    suite = config.stash.get(_SUITE, None)
    if suite is None or hasattr(config, "workerinput") or config.option.collectonly:
        return
    line, problems, _fails = _verdict(suite)
    terminalreporter.write_sep("-", "mtg-judge")
    terminalreporter.write_line(line)
    for problem in problems:
        terminalreporter.write_line(problem, red=True)


def pytest_sessionfinish(session, exitstatus):
    suite = session.config.stash.get(_SUITE, None)
    if suite is None:
        return
    suite.stop()
    if hasattr(session.config, "workerinput") or session.config.option.collectonly:
        return  # the controller judges the whole run; --collect-only runs nothing
    _line, _problems, fails = _verdict(suite)
    if fails and exitstatus == pytest.ExitCode.OK:
        session.exitstatus = pytest.ExitCode.TESTS_FAILED
