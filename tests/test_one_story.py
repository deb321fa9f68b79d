"""Every report tells one story (issue 25, item 1; PROTOCOL §6): the terminal tables, the
HTML page (its total rows included), the badge, JUnit and a re-rendered partial report all
give the same figures, with the cases not run counted in their rows, and an incomplete
report says so in each of them.

Reports are built from synthetic results (tests/test_reports.py's helpers); the expected
figures are worked out here from PROTOCOL §6's definitions: run = passed + failed + errored,
selected = every selected case (not run included), % of all = passed / selected.
"""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET

from click.testing import CliRunner
from test_reports import IMPLEMENTATION, make_case, results

from mtg_judge.conformance import reports
from mtg_judge.conformance.runner import summary_table
from mtg_judge.tools.cli import main

# 3 cases of classic finished (1 passed, 1 failed, 1 skipped) and 1 of timespiral (passed);
# the run was stopped before 4 more classic cases and 2 timespiral ones.
FINISHED = {"classic.stack.ok": "passed", "classic.stack.bad": "failed",
            "classic.combat.skip": "skipped", "timespiral.suspend.ok": "passed"}
NOT_RUN = ["classic.stack.n1", "classic.stack.n2", "classic.combat.n3", "classic.combat.n4",
           "timespiral.suspend.n5", "timespiral.suspend.n6"]


def stopped_report(tmp_path, interrupted=False) -> reports.Report:
    root = tmp_path / "fixtures"
    report = reports.build_report(results(root, FINISHED), IMPLEMENTATION, fixtures_root=root,
                                  not_run_cases=[make_case(f, root) for f in NOT_RUN],
                                  started="2026-01-31T12:00:00Z")
    if interrupted:
        report.footer["interrupted"] = True
    return report


def row(table: str, name: str) -> list[str]:
    return next(line.split() for line in table.splitlines() if line.split()[:1] == [name])


def test_the_rows_count_their_own_cases_not_run(tmp_path):
    report = stopped_report(tmp_path)
    assert report.footer["not_run"] == 6 and report.footer["selected"] == 10
    assert report.footer["not_run_groups"] == {"classic": {"combat": 2, "stack": 2},
                                               "timespiral": {"suspend": 2}}
    table = reports.summary_table(report, "document")
    # classic: 2 run (passed, failed) of its 3 + 4 = 7 cases; 1 passed = 14.3% of all
    assert row(table, "classic")[5:] == ["2/7", "50.0%", "14.3%"]
    assert row(table, "timespiral")[5:] == ["1/3", "100.0%", "33.3%"]
    assert row(table, "total")[5:] == ["3/10", "66.7%", "20.0%"]
    assert table.splitlines()[-1] == "compliance: 3/10 run · 66.7% of run · 20.0% of all"
    mechanics = reports.summary_table(report, "mechanic")
    assert row(mechanics, "classic/combat")[5:] == ["0/3", "-", "0.0%"]
    # the runner's table of the same results (what `run` printed before) agrees
    root = tmp_path / "fixtures"
    assert summary_table(results(root, FINISHED), "document",
                         not_run_cases=[make_case(f, root) for f in NOT_RUN]) == table


def test_the_html_total_rows_count_the_cases_not_run(tmp_path):
    page = reports.render_html(stopped_report(tmp_path))
    by_document = page.split("<h2>By document</h2>")[1].split("</table>")[0]
    total = by_document.split('<tr class="total">')[1]
    # issue 25: the total row said 435/435 of an interrupted run; it says run of selected
    assert "<td>3/10</td><td>66.7%</td><td>20.0%" in total
    classic = by_document.split("<td>classic</td>")[1].split("</tr>")[0]
    assert "<td>2/7</td><td>50.0%</td><td>14.3%" in classic
    assert "3/10 run · 66.7% of run · 20.0% of all" in page


def test_the_same_figures_in_the_badge_and_junit(tmp_path):
    report = stopped_report(tmp_path)
    assert reports.badge(report)["message"] == "20.0% (2/10) · 66.7% of 3 run"
    root = ET.fromstring(reports.render_junit(report).encode("utf-8"))
    for suite in root.findall("testsuite"):
        props = {p.get("name"): p.get("value") for p in suite.iter("property")}
        assert props["mtg_judge.headline"] == "3/10 run · 66.7% of run · 20.0% of all"
        assert (props["mtg_judge.run"], props["mtg_judge.selected"],
                props["mtg_judge.not_run"]) == ("3", "10", "6")
        assert props["mtg_judge.incomplete"] == ("stopped early: an incomplete report, 6 of 10 "
                                                 "selected cases not run")


def test_an_interrupted_report_says_so_everywhere(tmp_path):
    report = stopped_report(tmp_path, interrupted=True)
    note = "interrupted: an incomplete report, 6 of 10 selected cases not run"
    assert reports.incomplete_note(report) == note
    assert reports.badge(report)["message"].endswith(" interrupted")
    page = reports.render_html(report)
    assert "<strong>interrupted</strong>: an incomplete report, 6 of 10 selected cases not run" \
        in page
    root = ET.fromstring(reports.render_junit(report).encode("utf-8"))
    assert {p.get("value") for p in root.iter("property")
            if p.get("name") == "mtg_judge.incomplete"} == {note}
    path = tmp_path / "report.jsonl"
    path.write_text(reports.dump_jsonl(report))
    result = CliRunner().invoke(main, ["report", str(path)])
    assert result.exit_code == 1, result.output
    assert note in result.output
    assert "compliance: 3/10 run · 66.7% of run · 20.0% of all" in result.output


def test_a_killed_runs_partial_report_counts_what_it_planned(tmp_path):
    """A report.partial.jsonl (no footer) whose header plans 10 cases and holds 4: the
    re-rendered report says 3 run of 10 and that it is partial, in every form."""
    full = stopped_report(tmp_path)
    root = tmp_path / "fixtures"
    planned = [make_case(f, root) for f in [*FINISHED, *NOT_RUN]]
    partial = reports.PartialReport(tmp_path / "out")
    partial.open(reports.planned_header(full.header, planned))
    for case in full.cases:
        partial.add(case)
    partial.close()
    read = reports.read_report(partial.path)
    assert read.footer["partial"] is True
    assert (read.footer["not_run"], read.footer["selected"], read.footer["run"]) == (6, 10, 3)
    assert read.footer["not_run_groups"] == full.footer["not_run_groups"]
    assert reports.summary_table(read, "document") == reports.summary_table(full, "document")
    assert reports.badge(read)["message"] == "20.0% (2/10) · 66.7% of 3 run partial"
    assert "<strong>partial</strong>" in reports.render_html(read)
    result = CliRunner().invoke(main, ["report", str(partial.path), "--badge",
                                       str(tmp_path / "b.json")])
    assert result.exit_code == 1, result.output
    assert "partial: an incomplete report (a run killed before its end left " \
           "report.partial.jsonl), 6 of 10 selected cases not run" in result.output
    assert json.loads((tmp_path / "b.json").read_text())["message"].endswith(" partial")


def test_merging_slices_sums_the_places_of_the_cases_not_run(tmp_path):
    a = stopped_report(tmp_path / "a")
    root = tmp_path / "b" / "fixtures"
    b = reports.build_report(results(root, {"classic.mana.x": "passed"}), IMPLEMENTATION,
                             fixtures_root=root, not_run_cases=[make_case("classic.mana.y", root)])
    merged = reports.merge_reports([("a", a), ("b", b)])
    assert merged.footer["not_run"] == 7
    assert merged.footer["not_run_groups"]["classic"] == {"combat": 2, "mana": 1, "stack": 2}


def test_run_x_says_the_same_in_the_terminal_the_html_and_the_badge(tmp_path):
    """Issue 25: with -x the terminal said 1/1040 and the HTML 1/1. BASIC's cases in run
    order: classic a, b (the crashing one: -x stops there), c; timespiral d. Serially, a
    passes, b errors, c and d are not run: classic 2 run of 3, timespiral 0 of 1, total 2/4."""
    import sys

    from test_harness_faults import BASIC, FAKE_ENGINE, write_tree

    tree = write_tree(tmp_path / "fixtures", BASIC)
    script = tmp_path / "fake_engine.py"
    script.write_text(FAKE_ENGINE, encoding="utf-8")
    out = tmp_path / "report"
    result = CliRunner().invoke(main, ["run", "--fixtures", str(tree), "--engine",
                                       f"{sys.executable} {script} crash", "-x",
                                       "--report-dir", str(out)])
    assert result.exit_code == 1, result.output
    assert row(result.output, "classic")[5:] == ["2/3", "50.0%", "33.3%"]
    assert row(result.output, "timespiral")[5:] == ["0/1", "-", "0.0%"]
    assert row(result.output, "total")[5:] == ["2/4", "50.0%", "25.0%"]
    page = (out / "index.html").read_text(encoding="utf-8")
    total = page.split("<h2>By document</h2>")[1].split('<tr class="total">')[1]
    assert "<td>2/4</td><td>50.0%</td><td>25.0%" in total
    assert json.loads((out / "badge.json").read_text())["message"] == \
        "25.0% (1/4) · 50.0% of 2 run"
