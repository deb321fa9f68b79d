"""Issue 16, part 4: ``mtg-judge run`` survives Ctrl-C, SIGTERM and SIGKILL.

Each test starts a real ``mtg-judge run`` in a subprocess whose engine is slowed down (a
fake protocol engine, or the in-process reference engine patched to sleep per case) so that
the run is surely in progress, waits until ``report.partial.jsonl`` holds some finished
cases, signals the run, and checks the exit code, the summary, the reports written and that
no worker or engine process is left behind (every process that ran a case wrote its pid).
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from mtg_judge.conformance.reports import PARTIAL_FILE, read_report

pytestmark = pytest.mark.skipif(os.name != "posix", reason="POSIX signals")

#: A protocol v1 engine: the reference engine, sleeping SLEEP seconds per case, that appends
#: its pid to PIDS when it starts.
SLOW_ENGINE = """
import os, sys, time
from mtg_judge import engine
from mtg_judge.conformance.protocol import serve
with open(sys.argv[1], "a") as out:
    out.write(f"{os.getpid()}\\n")
def run(scenario, ruleset, cards=None):
    time.sleep(float(sys.argv[2]))
    return engine.run_scenario(scenario, ruleset, cards=cards)
sys.exit(serve(run=run))
"""

#: ``mtg-judge run`` (the CLI's own entry point) with the in-process reference engine
#: sleeping per case; every process that runs a case (the parent and its forked workers)
#: appends its pid to PIDS.
SLOW_IN_PROCESS = """
import os, sys, time
from mtg_judge import engine
original = engine.run_scenario
def run_scenario(*args, **kwargs):
    with open(os.environ["PIDS"], "a") as out:
        out.write(f"{os.getpid()}\\n")
    time.sleep(float(os.environ["SLEEP"]))
    return original(*args, **kwargs)
engine.run_scenario = run_scenario
from mtg_judge.tools.cli import main
main(sys.argv[1:], prog_name="mtg-judge")
"""


def _start(tmp_path: Path, *args: str, in_process: bool = False,
           sleep: float = 0.1, new_session: bool = False) -> subprocess.Popen:
    pids = tmp_path / "pids.txt"
    env = {**os.environ, "PIDS": str(pids), "SLEEP": str(sleep)}
    if in_process:
        argv = [sys.executable, "-c", SLOW_IN_PROCESS, "run", *args]
    else:
        script = tmp_path / "slow_engine.py"
        script.write_text(SLOW_ENGINE)
        engine = f"{sys.executable} {script} {pids} {sleep}"
        argv = [sys.executable, "-m", "mtg_judge.tools.cli", "run", "--engine", engine, *args]
    return subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            env=env, cwd=tmp_path, start_new_session=new_session)


def _case_lines(path: Path) -> list[dict]:
    try:
        lines = path.read_text(encoding="utf-8").splitlines()
    except FileNotFoundError:
        return []
    return [r for r in map(json.loads, lines) if r.get("kind") == "case"]


def _wait_for_cases(proc: subprocess.Popen, partial: Path, count: int,
                    deadline: float = 60.0) -> None:
    end = time.monotonic() + deadline
    while time.monotonic() < end:
        assert proc.poll() is None, proc.communicate()
        if len(_case_lines(partial)) >= count:
            return
        time.sleep(0.05)
    proc.kill()
    raise AssertionError(f"fewer than {count} cases in {partial} after {deadline} s")


def _assert_gone(pids: list[int], deadline: float = 10.0) -> None:
    """Every pid is gone (os.kill(pid, 0) raises), within ``deadline`` seconds."""
    end = time.monotonic() + deadline
    alive = list(pids)
    while alive and time.monotonic() < end:
        alive = [pid for pid in alive if _alive(pid)]
        if alive:
            time.sleep(0.05)
    assert not alive, f"processes left behind: {alive}"


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    return True


def _pids(tmp_path: Path, exclude: int | None = None) -> list[int]:
    text = (tmp_path / "pids.txt").read_text()
    return sorted({int(line) for line in text.split()} - {exclude})


def _check_interrupted(tmp_path: Path, proc: subprocess.Popen, sent: str, seen: int) -> None:
    out, err = proc.communicate(timeout=60)
    assert proc.returncode == 130, (out, err)
    assert "Aborted!" not in err and "Traceback" not in err, err
    report_dir = tmp_path / "report"
    assert not (report_dir / PARTIAL_FILE).exists()
    report = read_report(report_dir / "report.jsonl")
    done = report.counts["total"]
    assert done >= seen
    assert report.footer["interrupted"] is True
    assert report.footer["not_run"] > 0
    assert report.counts["passed"] == done  # no case counted as errored by the interrupt
    selected = done + report.footer["not_run"]
    # the summary table and the interrupt line
    assert "total" in out and "passed" in out
    assert f"interrupted by {sent}: {report.footer['not_run']} of {selected} cases not run" in out
    badge = json.loads((report_dir / "badge.json").read_text())
    assert "interrupted" in badge["message"]
    assert "interrupted" in (report_dir / "index.html").read_text()
    assert (report_dir / "junit.xml").read_text().count("<testcase") == done
    # the final report lists the cases in run order
    names = [c["name"] for c in report.cases]
    assert names == sorted(names, key=names.index)
    children = _pids(tmp_path, exclude=proc.pid)
    assert children, "no worker or engine process recorded its pid"
    _assert_gone(children)


@pytest.mark.parametrize("sent", [signal.SIGINT, signal.SIGTERM], ids=["SIGINT", "SIGTERM"])
def test_in_process_parallel_run_stops_cleanly(tmp_path, sent):
    proc = _start(tmp_path, "-n", "2", "--report-dir", "report", in_process=True, sleep=0.05)
    _wait_for_cases(proc, tmp_path / "report" / PARTIAL_FILE, 6)
    seen = len(_case_lines(tmp_path / "report" / PARTIAL_FILE))
    proc.send_signal(sent)
    _check_interrupted(tmp_path, proc, sent.name, seen)
    assert len(_pids(tmp_path, exclude=proc.pid)) == 1  # the one forked worker


@pytest.mark.parametrize("sent", [signal.SIGINT, signal.SIGTERM], ids=["SIGINT", "SIGTERM"])
def test_engine_run_stops_cleanly(tmp_path, sent):
    proc = _start(tmp_path, "-n", "2", "--report-dir", "report", sleep=0.1)
    _wait_for_cases(proc, tmp_path / "report" / PARTIAL_FILE, 4)
    seen = len(_case_lines(tmp_path / "report" / PARTIAL_FILE))
    proc.send_signal(sent)
    _check_interrupted(tmp_path, proc, sent.name, seen)


def test_serial_engine_run_without_report_dir(tmp_path):
    proc = _start(tmp_path, sleep=0.1)
    end = time.monotonic() + 60
    while not (tmp_path / "pids.txt").exists() and time.monotonic() < end:
        assert proc.poll() is None, proc.communicate()
        time.sleep(0.05)
    time.sleep(1)  # the engine runs a few cases
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=60)
    assert proc.returncode == 130, (out, err)
    assert "interrupted by SIGINT" in out and "total" in out
    _assert_gone(_pids(tmp_path))


def test_sigkill_leaves_a_readable_partial_report(tmp_path):
    proc = _start(tmp_path, "--report-dir", "report", sleep=0.1)
    partial = tmp_path / "report" / PARTIAL_FILE
    _wait_for_cases(proc, partial, 3)
    proc.kill()
    proc.communicate(timeout=30)
    report = read_report(partial)
    assert report.header["kind"] == "header"
    assert report.counts["total"] >= 3
    assert report.counts["passed"] == report.counts["total"]
    assert not (tmp_path / "report" / "report.jsonl").exists()
    # the engine sees its stdin close and exits
    _assert_gone(_pids(tmp_path))


def test_in_process_serial_run_stops_cleanly(tmp_path):
    proc = _start(tmp_path, "-n", "1", "--report-dir", "report", in_process=True, sleep=0.05)
    _wait_for_cases(proc, tmp_path / "report" / PARTIAL_FILE, 3)
    seen = [c["name"] for c in _case_lines(tmp_path / "report" / PARTIAL_FILE)]
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=60)
    assert proc.returncode == 130, (out, err)
    report = read_report(tmp_path / "report" / "report.jsonl")
    assert report.footer["interrupted"] is True and report.counts["total"] >= len(seen)
    # serial: the partial file held the cases in run order, a prefix of the final report's
    assert [c["name"] for c in report.cases][:len(seen)] == seen
    assert _pids(tmp_path) == [proc.pid]  # no other process ran a case


# -- the writer and the reader, in-process ---------------------------------------------------


def _records(names: list[str]) -> list[dict]:
    return [{"kind": "case", "id": name, "ruleset": "modern", "name": f"{name}[modern]",
             "document": "classic", "mechanic": "stack", "path": "", "status": "passed",
             "message": "", "error_kind": None, "mismatches": [],
             "checks": {"passed": 1, "failed": 0, "skipped": 0}, "skipped_checks": []}
            for name in names]


def _header() -> dict:
    return {"kind": "header", "report_version": 1, "suite": {"name": "mtg-judge"},
            "implementation": {"name": "toy"}, "engine": None, "rulesets": ["modern"],
            "selection": {"rulesets": None, "keyword": None}, "fixtures": None,
            "started": "2026-01-31T12:00:00Z"}


def test_partial_report_is_readable_after_every_line_and_removed_by_finish(tmp_path):
    from mtg_judge.conformance.reports import PartialReport, Report, footer_record

    partial = PartialReport(tmp_path / "out")
    partial.add(_records(["ignored"])[0])  # before open: nothing written
    assert not partial.path.exists()
    partial.open(_header())
    assert read_report(partial.path).cases == []
    cases = _records(["classic.stack.b", "classic.stack.a"])
    for n, record in enumerate(cases, 1):
        partial.add(record)
        assert [c["id"] for c in read_report(partial.path).cases] == \
            [c["id"] for c in cases[:n]]
    report = Report(_header(), sorted(cases, key=lambda c: c["id"]),
                    footer_record(cases, 3, interrupted=True))
    paths = partial.finish(report)
    assert not partial.path.exists()
    again = read_report(paths["jsonl"])
    assert [c["id"] for c in again.cases] == ["classic.stack.a", "classic.stack.b"]
    assert again.footer["interrupted"] is True and again.footer["not_run"] == 3
    partial.close()  # a second close is harmless


def test_interrupted_marker_survives_reading_and_merging(tmp_path):
    from mtg_judge.conformance import reports

    whole = reports.Report(_header(), _records(["classic.stack.a"]),
                           reports.footer_record(_records(["classic.stack.a"])))
    assert "interrupted" not in whole.footer  # complete reports are unchanged
    assert "interrupted" not in reports.badge(whole)["message"]
    cut = reports.Report(_header(), _records(["classic.stack.b"]),
                         reports.footer_record(_records(["classic.stack.b"]), 2, True))
    assert reports.badge(cut)["message"].endswith(" interrupted")
    assert "interrupted" in reports.render_html(cut)
    (tmp_path / "cut.jsonl").write_text(reports.dump_jsonl(cut))
    assert reports.read_report(tmp_path / "cut.jsonl").footer["interrupted"] is True
    merged = reports.merge_reports([("a", whole), ("b", cut)])
    assert merged.footer["interrupted"] is True and merged.footer["not_run"] == 2
    assert "interrupted" not in reports.merge_reports([("a", whole)]).footer


def test_report_command_reads_a_partial_report(tmp_path):
    from click.testing import CliRunner

    from mtg_judge.conformance.reports import PartialReport
    from mtg_judge.tools.cli import main

    partial = PartialReport(tmp_path)
    partial.open(_header())
    for record in _records(["classic.stack.a", "classic.stack.b"]):
        partial.add(record)
    partial.close()
    result = CliRunner().invoke(main, ["report", str(partial.path)])
    # PROTOCOL §6: the report of a killed run says it is incomplete and is not green
    assert result.exit_code == 1, result.output
    assert "classic" in result.output and "2" in result.output
    assert "partial: an incomplete report" in result.output


def test_interrupt_during_the_handshake_reports_nothing_run(tmp_path):
    """The engine is still starting (it sleeps before reading the handshake): the run stops
    at once, every case counts as not run, the engine is gone."""
    script = tmp_path / "sleepy_engine.py"
    script.write_text("import os, sys, time\n"
                      f"open({str(tmp_path / 'pids.txt')!r}, 'a').write(f'{{os.getpid()}}\\n')\n"
                      "time.sleep(60)\n")
    proc = subprocess.Popen([sys.executable, "-m", "mtg_judge.tools.cli", "run", "--engine",
                             f"{sys.executable} {script}", "-k", "stack",
                             "--report-dir", "report"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            cwd=tmp_path)
    end = time.monotonic() + 60
    while not (tmp_path / "pids.txt").exists() and time.monotonic() < end:
        time.sleep(0.05)
    time.sleep(0.5)  # the harness waits for the handshake reply
    proc.send_signal(signal.SIGTERM)
    sent = time.monotonic()
    out, err = proc.communicate(timeout=60)
    assert time.monotonic() - sent < 4  # the stuck engine is killed, not given 5 s of grace
    assert proc.returncode == 130, (out, err)
    report = read_report(tmp_path / "report" / "report.jsonl")
    assert report.cases == [] and report.footer["interrupted"] is True
    assert report.footer["not_run"] > 0
    assert f"interrupted by SIGTERM: {report.footer['not_run']} of" in out
    _assert_gone(_pids(tmp_path))


def test_a_second_signal_does_not_cut_the_cleanup_short(tmp_path):
    proc = _start(tmp_path, "-n", "2", "--report-dir", "report", sleep=0.1)
    _wait_for_cases(proc, tmp_path / "report" / PARTIAL_FILE, 2)
    proc.send_signal(signal.SIGINT)
    time.sleep(0.02)
    proc.send_signal(signal.SIGINT)
    proc.send_signal(signal.SIGTERM)
    out, err = proc.communicate(timeout=60)
    assert proc.returncode == 130, (out, err)
    assert "Aborted!" not in err and "Traceback" not in err
    assert read_report(tmp_path / "report" / "report.jsonl").footer["interrupted"] is True
    _assert_gone(_pids(tmp_path, exclude=proc.pid))


@pytest.mark.parametrize("in_process", [True, False], ids=["in-process", "engine"])
def test_ctrl_c_in_a_terminal_reaches_the_whole_process_group(tmp_path, in_process):
    """A terminal's Ctrl-C sends SIGINT to every process of the foreground group: the
    forked workers ignore it (the parent stops them), the engines run in their own session;
    the outcome is the same as a SIGINT to the parent alone."""
    proc = _start(tmp_path, "-n", "2", "--report-dir", "report", in_process=in_process,
                  sleep=0.05 if in_process else 0.1, new_session=True)
    _wait_for_cases(proc, tmp_path / "report" / PARTIAL_FILE, 4)
    seen = len(_case_lines(tmp_path / "report" / PARTIAL_FILE))
    os.killpg(proc.pid, signal.SIGINT)
    _check_interrupted(tmp_path, proc, "SIGINT", seen)


def test_run_in_a_thread_that_cannot_set_signal_handlers(tmp_path):
    """Embedded (a CliRunner in a worker thread): no handler is installed, the run works."""
    import threading

    from click.testing import CliRunner

    from mtg_judge.tools.cli import main

    outcome = {}

    def call() -> None:
        outcome["result"] = CliRunner().invoke(main, ["run", "-n", "1", "-k",
                                                      "last-in-first-out"])

    thread = threading.Thread(target=call)
    thread.start()
    thread.join(60)
    result = outcome["result"]
    assert result.exit_code == 0, (result.output, result.exception)
    assert "total" in result.output


def test_a_keyboard_interrupt_without_the_handler_counts_as_sigint(tmp_path, monkeypatch):
    """run_suite raising RunInterrupted (a plain KeyboardInterrupt reached it): the finished
    results are reported as interrupted by SIGINT, exit 130."""
    from click.testing import CliRunner

    from mtg_judge.conformance import runner
    from mtg_judge.tools import cli

    def interrupted_suite(cases, **kwargs):
        kwargs["on_start"]({"name": "toy", "rulesets": list(runner.RULESETS)})
        raise runner.RunInterrupted([runner.run_case(cases[0])])

    monkeypatch.setattr(cli, "run_suite", interrupted_suite)
    result = CliRunner().invoke(cli.main, ["run", "-n", "1", "-k", "stack",
                                           "--report-dir", str(tmp_path / "r")])
    assert result.exit_code == 130, (result.output, result.exception)
    report = read_report(tmp_path / "r" / "report.jsonl")
    assert report.counts["total"] == 1 and report.footer["interrupted"] is True
    assert f"interrupted by SIGINT: {report.footer['not_run']} of" in result.output
    assert not (tmp_path / "r" / PARTIAL_FILE).exists()


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="PR_SET_PDEATHSIG")
def test_sigkill_of_a_parallel_in_process_run_leaves_no_worker(tmp_path):
    proc = _start(tmp_path, "-n", "2", "--report-dir", "report", in_process=True, sleep=0.05)
    partial = tmp_path / "report" / PARTIAL_FILE
    _wait_for_cases(proc, partial, 6)
    proc.kill()
    proc.communicate(timeout=30)
    assert read_report(partial).counts["total"] >= 6
    workers = _pids(tmp_path, exclude=proc.pid)
    assert len(workers) == 1
    _assert_gone(workers, deadline=30)  # killed with the parent (then reaped by init)
