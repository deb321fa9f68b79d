"""Issue 16, part 1: an engine that skips most of the suite never looks fully compliant.

A fake engine passes the cases whose id ends with ``play`` and answers ``skipped`` to every
other one. Through ``mtg-judge run --report-dir`` and ``mtg-judge report``, the badge, the
HTML headline, the summary tables and the report footer all show the share of the suite
that was run next to the pass rate of the cases run, and the badge's colour comes from
passed / all cases. ``--min-played`` turns a low share into exit 1.
"""

from __future__ import annotations

import json
import sys
import textwrap

import pytest
from click.testing import CliRunner
from test_harness_faults import EXPECT, write_tree

from mtg_judge.conformance import reports
from mtg_judge.tools.cli import main

SKIPPER = textwrap.dedent('''
    import json, sys

    def reply(obj):
        sys.stdout.write(json.dumps(obj) + "\\n")
        sys.stdout.flush()

    for line in sys.stdin:
        msg = json.loads(line)
        if msg["cmd"] == "stop":
            break
        if msg["cmd"] == "start":
            reply({"version": 1, "implementation": {
                "name": "skipper", "version": "1.0", "language": "python", "homepage": "",
                "rulesets": ["modern"], "capabilities": ["events", "state"]}})
            continue
        seq, scenario = msg["seq"], msg["scenario"]
        if not scenario["id"].endswith("play"):
            reply({"seq": seq, "skipped": True, "message": "not implemented"})
            continue
        reply({"seq": seq, "events": [{"type": "game_started", "turn": 1}],
               "state": {"turn": 1, "players": {"bob": {"life": 20}}}})
''')

#: 2 cases run (both pass) and 18 skipped: 10% of the suite played.
FIXTURES = {"classic/game/a-play.json": EXPECT, "timespiral/suspend/b-play.json": EXPECT,
            **{f"classic/game/s{i:02}-skip.json": EXPECT for i in range(10)},
            **{f"timespiral/suspend/s{i:02}-skip.json": EXPECT for i in range(8)}}


@pytest.fixture
def skipper(tmp_path):
    script = tmp_path / "skipper.py"
    script.write_text(SKIPPER, encoding="utf-8")
    return f"{sys.executable} {script}"


@pytest.fixture
def tree(tmp_path):
    return write_tree(tmp_path / "fixtures", FIXTURES)


def invoke(*args):
    return CliRunner().invoke(main, [str(a) for a in args])


def test_an_engine_that_skips_most_cases_gets_honest_figures(tree, skipper, tmp_path):
    out = tmp_path / "report"
    result = invoke("run", "--fixtures", tree, "--engine", skipper, "--report-dir", out)
    # Nothing failed: the exit code stays 0 without --min-played.
    assert result.exit_code == 0, result.output
    # The printed table: run share, % of run and % of all per row and in total.
    lines = result.output.splitlines()
    head = next(line for line in lines if line.startswith("document"))
    assert head.split() == ["document", "passed", "failed", "errored", "skipped", "run",
                            "%", "of", "run", "%", "of", "all"]
    total = next(line for line in lines if line.startswith("total"))
    assert total.split() == ["total", "2", "0", "0", "18", "2/20", "100.0%", "10.0%"]
    classic = next(line for line in lines if line.startswith("classic"))
    assert classic.split()[-3:] == ["1/11", "100.0%", "9.1%"]
    assert "compliance: 2/20 run · 100.0% of run · 10.0% of all" in result.output

    # The badge: passed of all cases first, its colour from that figure (not green).
    badge = json.loads((out / "badge.json").read_text(encoding="utf-8"))
    assert badge == {"schemaVersion": 1, "label": "mtg-judge",
                     "message": "10.0% (2/20) · 100.0% of 2 run", "color": "red"}

    # The footer of report.jsonl.
    records = [json.loads(line) for line in
               (out / "report.jsonl").read_text(encoding="utf-8").splitlines()]
    footer = records[-1]
    assert footer["kind"] == "footer"
    assert (footer["run"], footer["selected"], footer["overall"], footer["compliance"]) == (
        2, 20, "10.0%", "100.0%")
    assert footer["headline"] == "2/20 run · 100.0% of run · 10.0% of all"

    # The HTML headline: the big figure is passed of all; the share run is next to it.
    html = (out / "index.html").read_text(encoding="utf-8")
    assert '<span class="big">10.0%</span>' in html
    assert "2 of 20 cases passed · 2/20 run · 100.0% of run" in html
    assert "<title>mtg-judge: skipper 1.0 10.0%</title>" in html
    assert '<span class="big">100.0%</span>' not in html

    # mtg-judge report re-renders the same figures.
    again = invoke("report", out / "report.jsonl", "--badge", tmp_path / "b.json")
    assert again.exit_code == 0, again.output
    assert "compliance: 2/20 run · 100.0% of run · 10.0% of all" in again.output
    assert json.loads((tmp_path / "b.json").read_text(encoding="utf-8")) == badge


def test_min_played_fails_a_run_that_skipped_too_much(tree, skipper):
    result = invoke("run", "--fixtures", tree, "--engine", skipper, "--min-played", "0.9")
    assert result.exit_code == 1, result.output
    assert ("played 2 of 20 selected cases (10.0%): below --min-played 0.9 (90.0%)"
            in result.output)


def test_min_played_passes_when_enough_was_played(tree, skipper):
    result = invoke("run", "--fixtures", tree, "--engine", skipper, "--min-played", "0.1")
    assert result.exit_code == 0, result.output
    assert "below --min-played" not in result.output


@pytest.mark.parametrize("value", ["1.5", "-0.1", "most"])
def test_min_played_is_a_fraction(tree, skipper, value):
    result = invoke("run", "--fixtures", tree, "--engine", skipper, "--min-played", value)
    assert result.exit_code == 2 and "--min-played" in result.output


def test_a_full_run_keeps_the_short_badge(tmp_path):
    from test_reports import IMPLEMENTATION, results

    rep = reports.build_report(results(tmp_path, {"classic.x.a": "passed",
                                                  "classic.x.b": "failed"}), IMPLEMENTATION)
    assert reports.badge(rep)["message"] == "50.0% (1/2)"
    assert rep.footer["headline"] == "2/2 run · 50.0% of run · 50.0% of all"


def test_cases_not_run_count_against_the_figures(tmp_path):
    """--max-fail leaves cases out: they are in the table's total and the footer."""
    from test_harness_faults import FAKE_ENGINE

    tree = write_tree(tmp_path / "fixtures", {f"classic/game/{c}-trouble.json": EXPECT
                                              for c in "abcd"})
    script = tmp_path / "fake.py"
    script.write_text(FAKE_ENGINE, encoding="utf-8")
    out = tmp_path / "report"
    result = invoke("run", "--fixtures", tree, "--engine", f"{sys.executable} {script} wrong-seq",
                    "--max-fail", 2, "--report-dir", out)
    assert result.exit_code == 1, result.output
    assert "compliance: 2/4 run · 0.0% of run · 0.0% of all" in result.output
    footer = json.loads((out / "report.jsonl").read_text(encoding="utf-8").splitlines()[-1])
    assert (footer["run"], footer["selected"], footer["not_run"]) == (2, 4, 2)
