"""conformance/reports.py and `mtg-judge report` (DESIGN §10): JSON Lines round trip, the
badge, JUnit XML, the static HTML page, comparing two reports, and bad report files.

Reports are built from synthetic case results (no engine runs here; the fault-injection
tests in test_harness_faults.py produce reports through real protocol runs).
"""

from __future__ import annotations

import json
import re
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from click.testing import CliRunner

from mtg_judge.conformance import reports
from mtg_judge.conformance.casepage import page_path
from mtg_judge.conformance.expect import Mismatch
from mtg_judge.conformance.runner import Case, CaseResult, Check, summary_table
from mtg_judge.tools.cli import main

IMPLEMENTATION = {"name": "toy-engine", "version": "2.0", "language": "rust",
                  "homepage": "https://example.org/toy", "rulesets": ["modern"],
                  "capabilities": ["state"]}
EVENTS_SKIPPED = "the engine does not declare the 'events' capability"


def make_case(fid: str, root: Path, expect: dict | None = None, ruleset: str = "modern") -> Case:
    document, mechanic, name = fid.split(".")
    return Case(fid, ruleset, root / document / mechanic / f"{name}.json", document, mechanic,
                {"id": fid, "expect": expect or {}})


def results(root: Path, statuses: dict[str, str] | None = None) -> list[CaseResult]:
    """Four cases, one per status unless ``statuses`` (id -> status) says otherwise."""
    statuses = statuses or {"classic.stack.ok": "passed", "classic.stack.bad": "failed",
                            "classic.combat.boom": "errored",
                            "timespiral.suspend.later": "skipped"}
    out = []
    log = [{"type": "game_started", "turn": 1}, {"type": "priority_received", "player": "alice"},
           {"type": "spell_cast", "card": "bolt", "player": "alice"},
           {"type": "priority_passed", "player": "alice"}]
    for fid, status in statuses.items():
        expect = {"events": [{"type": "spell_resolved", "card": "bolt"}],
                  "state": {"turn": 1}}
        case = make_case(fid, root, expect)
        skipped = [Check("expect.events[0]", "skipped", EVENTS_SKIPPED),
                   Check("script", "skipped", EVENTS_SKIPPED)]
        if status == "passed":
            out.append(CaseResult(case, "passed", [], {"state": {"turn": 1}}, "",
                                  [*skipped, Check("expect.state", "passed")]))
        elif status == "failed":
            mismatch = Mismatch("expect.events[0]", "no matching event after event #2",
                                ("pattern: {\"card\":\"bolt\",\"type\":\"spell_resolved\"}",
                                 "next events (#3…):", "  #3 priority_passed player=alice"))
            out.append(CaseResult(case, "failed", [mismatch], {"events": log},
                                  "1 of 3 checks failed",
                                  [Check("expect.events[0]", "failed"),
                                   Check("expect.state", "passed"), Check("script", "passed")]))
        elif status == "errored":
            out.append(CaseResult(case, "errored", message="crash: the engine exited <boom> "
                                  "& \x1b[31mred\x1b[0m\nengine stderr (last lines):\npanic",
                                  error_kind="crash"))
        else:
            out.append(CaseResult(case, "skipped", message="ruleset 'modern' is not declared"))
    return out


@pytest.fixture
def report(tmp_path) -> reports.Report:
    root = tmp_path / "fixtures"
    return reports.build_report(results(root), IMPLEMENTATION, fixtures_root=root,
                                engine_command="toy --protocol", started="2026-01-31T12:00:00Z",
                                selection={"rulesets": None, "keyword": "stack or combat"})


def invoke(*args):
    return CliRunner().invoke(main, [str(a) for a in args])


# --------------------------------------------------------------------------------------------
# JSON Lines


def test_records_have_the_documented_shape(report, tmp_path):
    assert report.header == {
        "kind": "header", "report_version": 1,
        "suite": {"name": "mtg-judge", "version": report.header["suite"]["version"]},
        "implementation": IMPLEMENTATION, "engine": "toy --protocol", "rulesets": ["modern"],
        "selection": {"rulesets": None, "keyword": "stack or combat"},
        "fixtures": (tmp_path / "fixtures").resolve().as_posix(),
        "started": "2026-01-31T12:00:00Z"}
    ok, bad, boom, later = report.cases
    assert ok.pop("needs")["events"] == ["spell_resolved"]  # conformance/needs.py
    assert ok == {"kind": "case", "id": "classic.stack.ok", "ruleset": "modern",
                  "name": "classic.stack.ok[modern]", "document": "classic",
                  "mechanic": "stack", "path": "classic/stack/ok.json", "status": "passed",
                  "message": "", "error_kind": None, "mismatches": [],
                  "checks": {"passed": 1, "failed": 0, "skipped": 2},
                  "skipped_checks": [{"check": "expect.events[0]", "reason": EVENTS_SKIPPED},
                                     {"check": "script", "reason": EVENTS_SKIPPED}]}
    assert bad["mismatches"][0].startswith("expect.events[0]: no matching event after event #2")
    assert bad["expect"] == {"events": [{"type": "spell_resolved", "card": "bolt"}],
                             "state": {"turn": 1}}
    assert bad["log"][2] == "#2 spell_cast card=bolt player=alice"
    assert boom["error_kind"] == "crash" and "expect" in boom and boom["log"] == []
    assert "expect" not in later and later["status"] == "skipped"
    assert report.footer == {"kind": "footer", "compliance": "33.3%", "not_run": 0,
                             "counts": {"passed": 1, "failed": 1, "errored": 1, "skipped": 1,
                                        "total": 4}, "skipped_checks": 2,
                             "run": 3, "selected": 4, "overall": "25.0%",
                             "headline": "3/4 run · 33.3% of run · 25.0% of all"}


def test_jsonl_round_trip(report, tmp_path):
    path = tmp_path / "report.jsonl"
    path.write_text(reports.dump_jsonl(report), encoding="utf-8")
    lines = path.read_text(encoding="utf-8").splitlines()
    assert len(lines) == 6 and all(line == json.dumps(json.loads(line), sort_keys=True,
                                                      separators=(",", ":"),
                                                      ensure_ascii=False) for line in lines)
    again = reports.read_report(path)
    assert again.records() == report.records()


def test_only_the_header_carries_a_time(report):
    text = reports.dump_jsonl(report)
    times = re.findall(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ", text)
    assert times == ["2026-01-31T12:00:00Z"]
    assert re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ", reports.now())


def test_long_logs_are_capped(tmp_path):
    case = make_case("classic.stack.long", tmp_path, {"events": [{"type": "game_ended"}]})
    events = [{"type": "priority_passed", "player": "alice"}] * (reports.LOG_LIMIT + 5)
    result = CaseResult(case, "failed", [Mismatch("expect.events[0]", "no matching event")],
                        {"events": events})
    record = reports.case_record(result, tmp_path)
    assert len(record["log"]) == reports.LOG_LIMIT + 1
    assert record["log"][-1] == "… 5 more events"


@pytest.mark.parametrize("text, line, problem", [
    ("", 0, "empty report: no header line"),
    ('{"kind":"case"}\n', 1, "expected the header"),
    ('{"kind":"header","report_version":1}\nnot json\n', 2, "not JSON"),
    ('{"kind":"header","report_version":1}\n[1]\n', 2, "expected a JSON object"),
    ('{"kind":"header","report_version":1}\n{"kind":"nope"}\n', 2, "unknown kind 'nope'"),
    ('{"kind":"header","report_version":99}\n', 1, "report_version 99"),
    ('{"kind":"header","report_version":1}\n{"kind":"case","id":"a","ruleset":"modern",'
     '"document":"d","mechanic":"m","status":"great"}\n', 2, "status 'great'"),
    ('{"kind":"header","report_version":1}\n{"kind":"case","id":"a"}\n', 2,
     "missing or non-string ruleset, document, mechanic, status"),
    ('{"kind":"header","report_version":1}\n{"kind":"footer"}\n{"kind":"footer"}\n', 3,
     "a record after the footer"),
])
def test_bad_report_files_are_named_with_their_line(tmp_path, text, line, problem):
    path = tmp_path / "r.jsonl"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(reports.ReportError) as info:
        reports.read_report(path)
    assert info.value.line == line and problem in info.value.problem
    assert str(info.value).startswith(f"{path}:{line}: " if line else f"{path}: ")


def test_a_report_without_footer_is_rebuilt(report, tmp_path):
    path = tmp_path / "r.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in report.records()[:-1]))
    # PROTOCOL §6: a report without its footer is a killed run's, and says so
    assert reports.read_report(path).footer == {**report.footer, "partial": True}


# --------------------------------------------------------------------------------------------
# Tables, badge


def test_summary_table_is_the_runs_table(tmp_path, report):
    original = results(tmp_path / "fixtures")
    for by in ("document", "mechanic"):
        assert reports.summary_table(report, by) == summary_table(original, by)
    assert "classic/stack" in reports.summary_table(report, "mechanic")


@pytest.mark.parametrize("passed, failed, skipped, message, color", [
    (10, 0, 0, "100.0% (10/10)", "brightgreen"),
    # skipped cases count against the leading figure and its colour (issue 16)
    (10, 0, 3, "76.9% (10/13) · 100.0% of 10 run", "yellowgreen"),
    (1, 0, 19, "5.0% (1/20) · 100.0% of 1 run", "red"),
    (145, 10, 0, "93.5% (145/155)", "green"),
    (3, 1, 0, "75.0% (3/4)", "yellowgreen"),
    (1, 1, 0, "50.0% (1/2)", "yellow"),
    (1, 3, 0, "25.0% (1/4)", "orange"),
    (0, 4, 0, "0.0% (0/4)", "red"),
    # PROTOCOL §6: passed / all, also for an engine that skips everything (issue 25)
    (0, 0, 5, "0.0% (0/5)", "red"),
])
def test_badge(tmp_path, passed, failed, skipped, message, color):
    statuses = {f"classic.x.p{i}": "passed" for i in range(passed)}
    statuses |= {f"classic.x.f{i}": "failed" for i in range(failed)}
    statuses |= {f"classic.x.s{i}": "skipped" for i in range(skipped)}
    rep = reports.build_report(results(tmp_path, statuses), IMPLEMENTATION)
    assert reports.badge(rep) == {"schemaVersion": 1, "label": "mtg-judge",
                                  "message": message, "color": color}


def test_badge_of_no_case_selected_is_grey():
    rep = reports.build_report([], IMPLEMENTATION)
    assert reports.badge(rep) == {"schemaVersion": 1, "label": "mtg-judge",
                                  "message": "no results", "color": "lightgrey"}


# --------------------------------------------------------------------------------------------
# JUnit XML


def test_junit(report):
    text = reports.render_junit(report)
    root = ET.fromstring(text.encode("utf-8"))
    assert root.tag == "testsuites"
    assert {k: root.get(k) for k in ("tests", "failures", "errors", "skipped")} == {
        "tests": "4", "failures": "1", "errors": "1", "skipped": "1"}
    suites = {s.get("name"): s for s in root.findall("testsuite")}
    assert list(suites) == ["classic", "timespiral"]
    assert {k: suites["classic"].get(k) for k in ("tests", "failures", "errors", "skipped")} == {
        "tests": "3", "failures": "1", "errors": "1", "skipped": "0"}
    cases = {c.get("name"): c for c in root.iter("testcase")}
    bad = cases["classic.stack.bad[modern]"]
    assert bad.get("classname") == "classic.stack" and bad.get("file") == "classic/stack/bad.json"
    assert bad.find("failure").get("message") == (
        "expect.events[0]: no matching event after event #2")
    assert "#3 priority_passed" in bad.find("failure").text
    error = cases["classic.combat.boom[modern]"].find("error")
    assert error.get("type") == "crash"
    assert "\\x1b[31mred" in error.text and "\x1b" not in text  # escaped for XML 1.0
    assert cases["timespiral.suspend.later[modern]"].find("skipped").get("message") == (
        "ruleset 'modern' is not declared")
    assert "expect.events[0]: " + EVENTS_SKIPPED in cases["classic.stack.ok[modern]"].find(
        "system-out").text
    props = {p.get("name"): p.get("value") for p in suites["classic"].iter("property")}
    # the figures of PROTOCOL §6 (the footer's: 3 run of 4, 1 passed), as every report says
    assert props == {"implementation": "toy-engine", "implementation.version": "2.0",
                     "engine": "toy --protocol",
                     "mtg_judge.headline": "3/4 run · 33.3% of run · 25.0% of all",
                     "mtg_judge.run": "3", "mtg_judge.selected": "4", "mtg_judge.not_run": "0",
                     "mtg_judge.overall": "25.0%", "mtg_judge.compliance": "33.3%"}


# --------------------------------------------------------------------------------------------
# HTML


def test_html_page(report, tmp_path):
    page = reports.render_html(report)
    # static: no script, no stylesheet or image to fetch
    assert not re.search(r"<script|<link|<img|src=|@import|url\(", page)
    assert "<h2>By document</h2>" in page and "<h2>By mechanic</h2>" in page
    assert ">33.3%<" in page and "toy-engine 2.0" in page
    # each failing case is expandable, with a link to its fixture file
    assert page.count("<details id=") == 2
    fixture = (tmp_path / "fixtures" / "classic" / "stack" / "bad.json").resolve().as_uri()
    assert f'href="{fixture}"' in page
    # the expected patterns, the failed one marked; the log around the mismatch
    assert '<span class="hit">✗ events[0] {&quot;card&quot;: &quot;bolt&quot;' in page
    assert '<span class="hit">#2 spell_cast card=bolt player=alice</span>' in page
    # engine output is escaped
    assert "&lt;boom&gt; &amp; \\x1b[31mred" in page and "<boom>" not in page
    # skipped cases and checks are listed
    assert "ruleset &#x27;modern&#x27; is not declared" in page
    assert f"2 checks in 1 case: {EVENTS_SKIPPED}".replace("'", "&#x27;") in page


def test_html_fixture_links_under_a_base_url(report):
    page = reports.render_html(report, fixtures_url="https://example.org/suite/fixtures/")
    assert 'href="https://example.org/suite/fixtures/classic/stack/bad.json"' in page


def test_log_excerpt_points_at_the_mismatch():
    log = [f"#{i} priority_passed player=alice" for i in range(30)]
    case = {"log": log, "mismatches": [
        "expect.events[1]: no matching event after event #10\n    pattern: {}\n"
        "    next events (#11…):\n      #11 priority_passed\n      #12 priority_passed",
        "expect.absent[0]: forbidden event occurred\n    pattern: {}\n    #25 priority_passed"]}
    lines, hits = reports.log_excerpt(case, context=2)
    assert hits == {10, 25}
    assert [i for i, _ in lines] == [-1, 8, 9, 10, 11, 12, -1, 23, 24, 25, 26, 27, -1]
    # no event named: the end of the log, what led to the final state
    lines, hits = reports.log_excerpt({"log": log, "mismatches": ["expect.state: x"]})
    assert hits == set() and [i for i, _ in lines] == [-1, *range(20, 30)]


def test_expected_lines_mark_the_failed_patterns():
    case = {"expect": {"events": [{"type": "a"}, {"type": "b"}], "state": {"turn": 2}},
            "mismatches": ["expect.events[1]: no matching event", "expect.state: state.turn: x"]}
    assert reports.expected_lines(case) == [
        ('  events[0] {"type": "a"}', False), ('✗ events[1] {"type": "b"}', True),
        ('✗ state {"turn": 2}', True)]


def test_write_reports(report, tmp_path):
    paths = reports.write_reports(report, tmp_path / "out" / "dir")
    assert sorted(p.name for p in paths.values()) == sorted(reports.REPORT_FILES.values())
    assert reports.read_report(paths["jsonl"]).records() == report.records()
    assert json.loads(paths["badge"].read_text()) == reports.badge(report)
    # no temporary file left behind; cases/ holds the failing cases' pages (issue 25)
    assert sorted(p.name for p in (tmp_path / "out" / "dir").iterdir()) == sorted(
        [*reports.REPORT_FILES.values(), "cases"])
    bad = [c["name"] for c in report.cases if c["status"] in ("failed", "errored")]
    assert sorted(p.name for p in (tmp_path / "out" / "dir" / "cases").iterdir()) == sorted(
        path.split("/")[1] for path in map(page_path, bad))


# --------------------------------------------------------------------------------------------
# Comparing two reports


def saved(tmp_path: Path, name: str, statuses: dict[str, str], version: str) -> Path:
    rep = reports.build_report(results(tmp_path / "fixtures", statuses),
                               {**IMPLEMENTATION, "version": version})
    path = tmp_path / name
    path.write_text(reports.dump_jsonl(rep), encoding="utf-8")
    return path


def test_compare(tmp_path):
    old = saved(tmp_path, "old.jsonl", {"classic.a.x": "passed", "classic.a.y": "failed",
                                        "classic.a.z": "errored", "classic.a.gone": "passed",
                                        "classic.a.same": "passed"}, "1.0")
    new = saved(tmp_path, "new.jsonl", {"classic.a.x": "failed", "classic.a.y": "passed",
                                        "classic.a.z": "skipped", "classic.a.new": "passed",
                                        "classic.a.same": "passed"}, "1.1")
    changes = reports.compare(reports.read_report(old), reports.read_report(new))
    assert [(str(c), c.kind) for c in changes] == [
        ("classic.a.gone[modern]: passed -> (absent)", "regression"),
        ("classic.a.new[modern]: (absent) -> passed", "fix"),
        ("classic.a.x[modern]: passed -> failed", "regression"),
        ("classic.a.y[modern]: failed -> passed", "fix"),
        ("classic.a.z[modern]: errored -> skipped", "other")]
    result = invoke("report", old, "--compare", new)
    assert result.exit_code == 1, result.output  # regressions
    assert result.output.splitlines()[0] == (
        f"from {old} (toy-engine 1.0, 5 cases) to {new} (toy-engine 1.1, 5 cases):")
    assert "regressions (passed, now not):\n  classic.a.gone[modern]: passed -> (absent)\n" \
           "  classic.a.x[modern]: passed -> failed\n" in result.output
    assert "5 cases changed: 2 regressions, 2 fixes, 1 other" in result.output
    same = invoke("report", old, "--compare", old)
    assert same.exit_code == 0 and "no case changed status" in same.output
    assert "warning" not in result.output + same.output  # the same selection, neither interrupted


def test_compare_warns_about_different_selections_and_an_interrupted_run(tmp_path):
    """A case one report did not select, or an interrupted run did not reach, shows as
    (absent): the comparison says so before its changes."""
    a = reports.read_report(saved(tmp_path, "a.jsonl", {"classic.a.x": "passed"}, "1.0"))
    b = reports.read_report(saved(tmp_path, "b.jsonl", {"classic.a.y": "passed"}, "1.0"))
    b.header["selection"] = {"rulesets": None, "keyword": "stack"}
    b.footer["interrupted"] = True
    text = reports.format_changes(reports.compare(a, b), a, b, "A", "B")
    assert text.splitlines()[1] == ("warning: the reports ran different selections (A: every case; "
                                    "B: -k 'stack'): a case one of them did not select shows as (absent)")
    assert text.splitlines()[2] == ("warning: B is the report of an interrupted run: the cases it did "
                                    "not reach show as (absent)")


# --------------------------------------------------------------------------------------------
# `mtg-judge report`


def test_report_command_rerenders(report, tmp_path):
    path = tmp_path / "report.jsonl"
    path.write_text(reports.dump_jsonl(report), encoding="utf-8")
    out = tmp_path / "out"
    result = invoke("report", path, "--html", out / "i.html", "--junit", out / "j.xml",
                    "--badge", out / "b.json", "--by-mechanic")
    assert result.exit_code == 0, result.output
    assert reports.summary_table(report, "document") in result.output
    assert reports.summary_table(report, "mechanic") in result.output
    assert f"skipped checks: 2 checks in 1 case: {EVENTS_SKIPPED}" in result.output
    assert (out / "i.html").read_text(encoding="utf-8") == reports.render_html(report)
    assert (out / "j.xml").read_text(encoding="utf-8") == reports.render_junit(report)
    assert json.loads((out / "b.json").read_text()) == reports.badge(report)


def test_report_command_bad_file(tmp_path):
    path = tmp_path / "broken.jsonl"
    path.write_text('{"kind":"header","report_version":1}\n{oops\n', encoding="utf-8")
    result = invoke("report", path)
    assert result.exit_code == 2
    assert f"{path}:2: not JSON" in result.output
    assert invoke("report", tmp_path / "missing.jsonl").exit_code == 2  # click: no such file


def test_report_command_help():
    result = invoke("report", "--help")
    assert result.exit_code == 0 and "--compare" in result.output and "--junit" in result.output


def test_a_shared_memo_gives_the_same_records_as_none():
    """build_report works each file's path and each card's needs out once (case_record's
    memo, issue 21); on real cases sharing card objects the records are those of
    case_record without a memo."""
    from mtg_judge.conformance.runner import DEFAULT_ROOT, collect

    cases = [c for c in collect() if "flashback" in c.name or "adventure" in c.name][:60]
    shared = {id(card) for c in cases for card in c.scenario["cards"].values()}
    assert len(shared) < sum(len(c.scenario["cards"]) for c in cases)  # cards are shared
    done = [CaseResult(c, "passed") for c in cases]
    memo: dict = {}
    root = DEFAULT_ROOT.resolve()
    assert [reports.case_record(r, root, memo) for r in done] == [
        reports.case_record(r, root) for r in done]
    assert reports.build_report(done, IMPLEMENTATION, fixtures_root=DEFAULT_ROOT,
                                started="x").cases == [reports.case_record(r, root) for r in done]
    assert all(record["needs"]["keywords"] or record["needs"]["effects"]
               for record in (reports.case_record(r, root) for r in done))
