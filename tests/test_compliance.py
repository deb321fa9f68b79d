"""``mtg-judge compliance`` (tools/compliance.py, issue 24): docs/COMPLIANCE.md is generated
from the committed reports, and the phase bug scripts of docs/upstream/phase/ still show
their bugs.

* The document is exactly what the committed reports render to (no engine is run), and
  ``--check`` says so; it fails on a stale document.
* The renderer's figures are the reports' counts: a small made-up pair of reports is
  rendered and each figure checked against counts worked out by hand; a status the runner
  gains gets its own column (statuses are read generically).
* A saved (trimmed) report is still a report ``mtg-judge report`` reads.
* The hand-written prose holds no figures.
* ``bugs.json``: every bug has its report and script, its fixtures exist; the scripts import
  phase-python only. Marked ``adapters`` (skipped without phase-python): each script still
  reproduces its bug, so a phase release that fixes one makes this test fail.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from mtg_judge.conformance import reports as reports_module
from mtg_judge.conformance import runner
from mtg_judge.conformance.reports import Report, dump_jsonl, read_report
from mtg_judge.tools import compliance

ROOT = Path(__file__).resolve().parent.parent
BUGS = compliance.load_bugs()
ALL_BUGS = compliance.load_all_bugs()


def test_document_is_what_the_committed_reports_render_to():
    reports = compliance.load_reports()
    assert set(reports) == set(compliance.ENGINES), "docs/compliance/ lacks an engine's report"
    expected = compliance.render(reports, ALL_BUGS)
    assert compliance.DOCUMENT.read_text(encoding="utf-8") == expected, (
        "docs/COMPLIANCE.md is out of date: run mtg-judge compliance --render (or a full "
        "mtg-judge compliance)")


def test_check_passes_on_the_committed_document_and_fails_on_a_stale_one(tmp_path, monkeypatch):
    from mtg_judge.tools.cli import main

    result = CliRunner().invoke(main, ["compliance", "--check"])
    assert result.exit_code == 0, result.output
    stale = tmp_path / "COMPLIANCE.md"
    stale.write_text(compliance.DOCUMENT.read_text(encoding="utf-8").replace("| 0 |", "| 1 |", 1),
                     encoding="utf-8")
    monkeypatch.setattr(compliance, "DOCUMENT", stale)
    result = CliRunner().invoke(main, ["compliance", "--check"])
    assert result.exit_code == 1
    assert "out of date" in result.output


def _case(fixture_id: str, document: str, mechanic: str, status: str, ruleset: str = "modern",
          message: str = "") -> dict:
    return {"kind": "case", "id": fixture_id, "ruleset": ruleset, "document": document,
            "mechanic": mechanic, "status": status, "message": message,
            "name": f"{fixture_id}[{ruleset}]", "mismatches": [], "skipped_checks": []}


def _report(name: str, cases: list[dict], rulesets: list[str], **extra) -> Report:
    spec = compliance.ENGINES[name]
    header = {"kind": "header", "report_version": 1, "started": "2026-12-02T01:00:00Z",
              "implementation": {"name": spec.label, "version": "1.0", "rulesets": rulesets,
                                 "capabilities": ["events", "state"]},
              "compliance": {"engine": name, "package": spec.package, "package_version": "1.0",
                             "suite_commit": "abc1234", "validate_protocol": True, **extra}}
    return Report(header, cases, {})


def _made_up() -> dict[str, Report]:
    reference = _report("reference", [
        _case("a.x.one", "a", "x", "passed"), _case("a.x.two", "a", "x", "passed"),
        _case("a.y.one", "a", "y", "passed"),
        _case("a.x.one", "a", "x", "passed", ruleset="classic-1999"),
    ], ["modern", "classic-1999"])
    phase = _report("phase", [
        _case("a.x.one", "a", "x", "passed"), _case("a.x.two", "a", "x", "failed"),
        _case("a.y.one", "a", "y", "skipped", message="input #3 (suspend) cannot be given"),
        _case("a.x.one", "a", "x", "skipped", ruleset="classic-1999",
              message="ruleset classic-1999 is not declared"),
    ], ["modern"], upstream_scripts={"bug-one": "reproduces"})
    return {"reference": reference, "phase": phase}


def test_render_writes_the_reports_counts(tmp_path):
    bugs = [{"id": "bug-one", "title": "A bug", "status": "confirmed", "cr": "CR 614.6",
             "fixtures": ["a.x.two"], "script": "bug-one.py", "report": "bug-one.md",
             "upstream": {"status": "reported", "url": "https://example.invalid/1"}}]
    text = compliance.render(_made_up(), bugs, prose_dir=tmp_path)
    # every case: reference 4 passed of 4; phase 1 passed, 1 failed, 2 skipped: 2 run of 4,
    # 50.0% of run, 25.0% of all (DESIGN §10, PROTOCOL §6)
    assert "| reference (in-process) | 4 | 0 | 0 | 0 | 4/4 | 100.0% | 100.0% |" in text
    assert "| phase.rs | 1 | 1 | 0 | 2 | 2/4 | 50.0% | 25.0% |" in text
    # modern only: phase 1/1/0/1 of 3
    assert "| phase.rs | 1 | 1 | 0 | 1 | 2/3 | 50.0% | 33.3% |" in text
    # per mechanic (modern): a/x has 2 cases, the reference passed both, phase 1 passed 1 failed
    assert "| a/x | 2 | 2/0/0/0 · 100.0% | 1/1/0/0 · 50.0% |" in text
    assert "| a/y | 1 | 1/0/0/0 · 100.0% | 0/0/0/1 · - |" in text
    # the skip reason, numbers taken out; the reference skipped nothing
    assert "| 1 | input N (suspend) cannot be given |" in text
    assert "### reference (in-process): 0 skipped" in text
    # the bug row: its fixture's status in the phase report, the script's recorded result
    row = next(line for line in text.splitlines() if line.startswith("| [A bug]"))
    assert "`a.x.two`: failed" in row and "| reproduces |" in row
    assert "[reported](https://example.invalid/1)" in row
    assert "`abc1234`" in text and "`phase-python` 1.0" in text


def test_a_new_status_gets_its_own_column(tmp_path, monkeypatch):
    """Statuses are read from the runner (helper fuzzshard adds one, PROTOCOL §6)."""
    statuses = (*runner.STATUSES, "vacuous")
    monkeypatch.setattr(runner, "STATUSES", statuses)
    monkeypatch.setattr(compliance, "STATUSES", statuses)
    reports = _made_up()
    reports["phase"].cases.append(_case("a.y.two", "a", "y", "vacuous"))
    text = compliance.render(reports, [], prose_dir=tmp_path)
    assert "| engine | passed | failed | errored | skipped | vacuous | run |" in text
    assert "| phase.rs | 1 | 1 | 0 | 2 | 1 | 2/5 | 50.0% | 20.0% |" in text


def test_a_saved_report_is_still_a_report(tmp_path):
    spec = compliance.ENGINES["phase"]
    case = {**_case("a.x.two", "a", "x", "failed", message="m" * 500),
            "mismatches": ["expect.events[0]: no matching event\n    pattern: {...}", "b", "c"],
            "log": ["#0 game_started"], "expect": {"events": []}, "path": "a/x/two.json",
            "checks": {"passed": 1, "failed": 1, "skipped": 0}, "error_kind": None}
    full = Report({"kind": "header", "report_version": 1, "fixtures": "/somewhere/fixtures",
                   "engine": "/venv/bin/python -m x", "implementation": {}}, [case],
                  reports_module.footer_record([case]))
    saved = compliance.trim_report(full, spec, {"suite_commit": "abc1234"})
    path = tmp_path / "phase.jsonl"
    path.write_text(dump_jsonl(saved), encoding="utf-8")
    back = read_report(path)
    record = back.cases[0]
    assert record["status"] == "failed" and record["name"] == "a.x.two[modern]"
    assert "log" not in record and "expect" not in record
    assert len(record["message"]) == compliance.MESSAGE_LIMIT
    assert record["mismatches"] == ["expect.events[0]: no matching event", "b", "… 1 more"]
    assert back.header["fixtures"] == "fixtures" and back.header["engine"] == spec.command
    assert back.header["compliance"]["engine"] == "phase"
    assert back.footer["counts"]["failed"] == 1


def test_skip_reasons_group_alike_messages():
    assert compliance.skip_reason("input #3 (cast): kicker 'Kor Skyfisher'") == \
        compliance.skip_reason("input #12 (cast): kicker 'Vine Trellis'")
    assert "'source' is a required" in compliance.skip_reason("$.events[3]: 'source' is a required property")
    assert compliance.skip_reason("Fang, Fearless l'Cie: layout 'meld' is not translated") == \
        "Fang, Fearless l'Cie: layout 'meld' is not translated"  # a word, not a name: kept


def test_the_prose_holds_no_figures():
    """Every figure of the document comes from the generator (issue 24): the hand-written
    parts name no count or percentage."""
    figure = re.compile(r"\d+(\.\d+)?%|\b\d+ (of \d+|cases?|passed|failed|errored|skipped|"
                        r"games|signatures)\b")
    for path in sorted(compliance.PROSE_DIR.glob("*.md")):
        found = figure.findall(path.read_text(encoding="utf-8"))
        assert not found, f"{path.name} holds figures: {found}"


def test_every_bug_has_its_report_script_and_fixtures():
    ids = {case.fixture_id for case in runner.collect()}
    assert len({b["id"] for b in BUGS}) == len(BUGS)
    for bug in BUGS:
        assert (compliance.UPSTREAM_DIR / bug["report"]).is_file(), bug["id"]
        script = compliance.UPSTREAM_DIR / bug["script"]
        assert script.is_file(), bug["id"]
        assert "mtg_judge" not in script.read_text(encoding="utf-8"), (
            f"{script.name} must use phase-python alone")
        missing = [f for f in bug.get("fixtures", []) if f not in ids]
        assert not missing, f"{bug['id']}: unknown fixtures {missing}"
    for helper in ("repro.py", "endure_common.py"):
        assert "mtg_judge" not in (compliance.UPSTREAM_DIR / helper).read_text(encoding="utf-8")


@pytest.mark.adapters
@pytest.mark.parametrize("bug", [b for b in BUGS if b.get("script")], ids=lambda b: b["id"])
def test_bug_script_still_reproduces(bug):
    """Exit 1 and the wrong behaviour printed; 0 means the installed phase-python fixed it
    (update docs/upstream/phase/bugs.json and rerun mtg-judge compliance), 2 that the script
    no longer runs (an API change)."""
    pytest.importorskip("phase")
    run = subprocess.run([sys.executable, bug["script"]], cwd=compliance.UPSTREAM_DIR,
                         capture_output=True, text=True, timeout=300)
    assert run.returncode == 1 and "BUG REPRODUCED" in run.stdout, (
        f"exit {run.returncode}: {'fixed upstream? update bugs.json' if run.returncode == 0 else 'the script broke'}"
        f"\n{run.stdout}\n{run.stderr}")


def test_bugs_file_is_json_with_the_documented_keys():
    data = json.loads(compliance.BUGS_FILE.read_text(encoding="utf-8"))
    for bug in data["bugs"]:
        assert {"id", "title", "status", "cr", "fixtures", "script", "report",
                "upstream"} <= set(bug), bug.get("id")
        assert isinstance(bug["upstream"].get("status"), str)


def test_manabrew_bug_list_has_the_documented_keys_and_reports():
    """docs/upstream/manabrew/bugs.json has phase's shape; each bug's report exists, its
    fixtures exist, and the report holds a Rust reproduction (manabrew's public API)."""
    ids = {case.fixture_id for case in runner.collect()}
    bugs = ALL_BUGS["manabrew"]
    assert bugs
    for bug in bugs:
        assert {"id", "title", "status", "cr", "fixtures", "script", "report",
                "upstream"} <= set(bug), bug.get("id")
        report = compliance.bugs_file("manabrew").parent / bug["report"]
        assert "```rust" in report.read_text(encoding="utf-8"), bug["id"]
        assert set(bug["fixtures"]) <= ids, bug["id"]


def test_a_binary_engine_not_built_keeps_its_report(monkeypatch, tmp_path):
    """manabrew's adapter is a built program: without it the command runs nothing for it
    and keeps its committed report (never an error)."""
    from mtg_judge.tools.cli import main

    monkeypatch.setenv("MTG_JUDGE_MANABREW", str(tmp_path / "not-built"))
    spec = compliance.ENGINES["manabrew"]
    assert not spec.available() and spec.is_adapter
    assert spec.run_command() == str(tmp_path / "not-built")
    monkeypatch.setattr(compliance, "DOCUMENT", tmp_path / "COMPLIANCE.md")
    before = compliance.report_path("manabrew").read_bytes()
    result = CliRunner().invoke(main, ["compliance", "--engines", "manabrew"])
    assert result.exit_code == 0, result.output
    assert "its committed report is kept" in result.output
    assert compliance.report_path("manabrew").read_bytes() == before


def test_the_manabrew_bug_table_gives_each_fixtures_status(tmp_path):
    reports = _made_up()
    reports["manabrew"] = _report("manabrew", [_case("a.x.two", "a", "x", "errored")], ["modern"])
    bugs = {"phase": [], "manabrew": [{"id": "b", "title": "Landwalk ignored", "status": "confirmed",
                                       "cr": "CR 702.14c", "fixtures": ["a.x.two"], "script": None,
                                       "report": "b.md", "upstream": {"status": "not reported"}}]}
    (tmp_path / "manabrew.md").write_text("Triage prose.\n", encoding="utf-8")
    text = compliance.render(reports, bugs, prose_dir=tmp_path)
    assert "## manabrew-engine bugs" in text and "## phase.rs bugs" not in text
    row = next(line for line in text.splitlines() if line.startswith("| [Landwalk ignored]"))
    assert "(upstream/manabrew/b.md)" in row and "`a.x.two`: errored" in row
    assert text.index("## manabrew-engine bugs") < text.index("Triage prose.")
