"""Fault injection: `mtg-judge run --engine` against engines that misbehave (DESIGN §9, §10).

Every fake engine is a small temporary Python script speaking protocol v1. It answers a
passing result to every scenario except the one whose id ends with ``trouble``, where it
misbehaves as its mode says: it crashes, hangs, answers with a wrong ``seq``, or answers a
line that is not JSON. One more declares no ``events`` capability, one skips everything, one
sends replies that break the protocol schemas. Each run goes through the CLI (click's
CliRunner) with ``--report-dir``, and the report files are checked: ``report.jsonl``
(statuses, error kinds, skipped checks), ``junit.xml`` (well-formed, counts per suite),
``badge.json``.
"""

from __future__ import annotations

import json
import sys
import textwrap
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from click.testing import CliRunner

from mtg_judge.tools.cli import main

CARD = {"name": "Grizzly Bears", "mana_cost": "{1}{G}", "type_line": "Creature — Bear",
        "supertypes": [], "types": ["Creature"], "subtypes": ["Bear"], "oracle_text": "",
        "power": 2, "toughness": 2, "layout": "normal", "keywords": [], "abilities": []}

#: What every fake engine's passing answer satisfies (and the "no events" one half of it).
EXPECT = {"events": [{"type": "game_started"}], "absent": [{"type": "game_ended"}],
          "state": {"turn": 1, "players": {"bob": {"life": 20}}}}

FAKE_ENGINE = textwrap.dedent('''
    import json, os, sys, time

    MODE = sys.argv[1]
    CAPABILITIES = ["state", "checkpoints"] if MODE == "no-events" else ["events", "state"]

    def reply(obj):
        sys.stdout.write(json.dumps(obj) + "\\n")
        sys.stdout.flush()

    for line in sys.stdin:
        msg = json.loads(line)
        if msg["cmd"] == "stop":
            break
        if msg["cmd"] == "start":
            reply({"version": 1, "implementation": {
                "name": "fake-" + MODE, "version": "1.0", "language": "python",
                "homepage": "", "rulesets": ["modern"], "capabilities": CAPABILITIES}})
            continue
        seq, scenario = msg["seq"], msg["scenario"]
        trouble = scenario["id"].endswith("trouble")
        if MODE == "skip-all":
            # a control character (BEL) that XML 1.0 cannot carry
            reply({"seq": seq, "skipped": True, "message": "nothing is implemented\\x07"})
            continue
        if trouble and MODE == "crash":
            sys.stderr.write("fake engine: about to crash\\n")
            sys.stderr.flush()
            os._exit(3)
        if trouble and MODE == "hang":
            time.sleep(3600)
        if trouble and MODE == "wrong-seq":
            reply({"seq": seq + 100, "events": [], "state": {}})
            continue
        if trouble and MODE == "garbage":
            sys.stdout.write("\\x00\\x1b[31mnot json <&> at all\\n")
            sys.stdout.flush()
            continue
        result = {"seq": seq, "state": {"turn": 1, "players": {"bob": {"life": 20}}}}
        if "events" in CAPABILITIES:
            # Not schema-valid (game_started lacks players, step, ...): fine unless validated.
            result["events"] = [{"type": "game_started", "turn": 1}]
        else:
            result["checkpoints"] = []
        reply(result)
''')


def make_fixture(fid: str, expect: dict) -> dict:
    return {"id": fid, "title": f"{fid} title", "rulings": [f"{fid.split('.')[0]}.x.01"],
            "rulesets": ["modern"],
            "setup": {"players": [{"id": "alice", "hand": [{"alias": "bear",
                                                             "card": "Grizzly Bears"}]},
                                  {"id": "bob"}]},
            "script": [], "expect": expect}


def write_tree(root: Path, fixtures: dict[str, dict]) -> Path:
    """A fixtures directory: the Grizzly Bears card and ``fixtures`` (relative path ->
    expect block); fixture ids are the path with dots, without ``.json``."""
    (root / "cards").mkdir(parents=True)
    (root / "cards" / "grizzly-bears.json").write_text(json.dumps(CARD), encoding="utf-8")
    for rel, expect in fixtures.items():
        fid = rel.removesuffix(".json").replace("/", ".")
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(json.dumps(make_fixture(fid, expect)), encoding="utf-8")
    return root


#: Cases in run order: a, b (the trouble case), c in classic; d in timespiral.
BASIC = {"classic/game/a-first.json": EXPECT, "classic/game/b-trouble.json": EXPECT,
         "classic/game/c-after.json": EXPECT, "timespiral/suspend/d-other.json": EXPECT}


@pytest.fixture
def tree(tmp_path):
    return write_tree(tmp_path / "fixtures", BASIC)


@pytest.fixture
def engine(tmp_path):
    """``engine(mode)`` -> the --engine command line of the fake engine in that mode."""
    script = tmp_path / "fake_engine.py"
    script.write_text(FAKE_ENGINE, encoding="utf-8")
    return lambda mode: f"{sys.executable} {script} {mode}"


def run_cli(*args) -> tuple[int, str]:
    result = CliRunner().invoke(main, [str(a) for a in args])
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        raise result.exception
    return result.exit_code, result.output


def read_jsonl(path: Path) -> tuple[dict, dict[str, dict], dict]:
    """(header, case records by id, footer) of a report.jsonl."""
    records = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]
    assert records[0]["kind"] == "header" and records[-1]["kind"] == "footer"
    cases = {r["id"]: r for r in records[1:-1]}
    assert all(r["kind"] == "case" for r in cases.values())
    return records[0], cases, records[-1]


def junit_counts(path: Path) -> dict[str, dict[str, str]]:
    """Per testsuite name: its count attributes, from a junit.xml that must parse."""
    root = ET.parse(path).getroot()  # raises ParseError if not well-formed
    assert root.tag == "testsuites"
    out = {}
    for suite in root.findall("testsuite"):
        attrs = {k: suite.get(k) for k in ("tests", "failures", "errors", "skipped")}
        assert int(attrs["tests"]) == len(suite.findall("testcase"))
        assert int(attrs["errors"]) == len(suite.findall("testcase/error"))
        assert int(attrs["failures"]) == len(suite.findall("testcase/failure"))
        assert int(attrs["skipped"]) == len(suite.findall("testcase/skipped"))
        out[suite.get("name")] = attrs
    return out


# --------------------------------------------------------------------------------------------
# One case goes wrong, the run goes on


@pytest.mark.parametrize("mode, kind, words", [
    # The engine exits mid-run: that case errors with its stderr; a fresh engine runs c and d.
    ("crash", "crash", "fake engine: about to crash"),
    # It hangs: killed after the read timeout (1 s), restarted for the next case.
    ("hang", "timeout", "no reply within 1 s"),
    # It answers out of turn: the stream cannot be trusted, restart.
    ("wrong-seq", "wrong_seq", "reply seq 102, expected 2"),
    # It answers a line that is not JSON (with control characters): restart.
    ("garbage", "bad_reply", "the reply is not JSON"),
])
def test_a_misbehaving_engine_errors_one_case_and_the_run_goes_on(tree, engine, tmp_path,
                                                                   mode, kind, words):
    out_dir = tmp_path / "report"
    code, output = run_cli("run", "--fixtures", tree, "--engine", engine(mode),
                           "--timeout", 1, "--report-dir", out_dir)
    assert code == 1, output
    assert "classic.game.b-trouble[modern] ERRORED" in output
    header, cases, footer = read_jsonl(out_dir / "report.jsonl")
    assert header["implementation"]["name"] == f"fake-{mode}"
    assert header["engine"] == engine(mode)
    assert {fid: c["status"] for fid, c in cases.items()} == {
        "classic.game.a-first": "passed", "classic.game.b-trouble": "errored",
        "classic.game.c-after": "passed", "timespiral.suspend.d-other": "passed"}
    trouble = cases["classic.game.b-trouble"]
    assert trouble["error_kind"] == kind
    assert words in trouble["message"]
    assert trouble["mismatches"] == [] and trouble["expect"] == EXPECT
    assert footer["counts"] == {"passed": 3, "failed": 0, "errored": 1, "skipped": 0,
                                "total": 4}
    assert footer["compliance"] == "75.0%"
    assert junit_counts(out_dir / "junit.xml") == {
        "classic": {"tests": "3", "failures": "0", "errors": "1", "skipped": "0"},
        "timespiral": {"tests": "1", "failures": "0", "errors": "0", "skipped": "0"}}
    error = ET.parse(out_dir / "junit.xml").getroot().find(".//testcase/error")
    assert error.get("type") == kind and words in error.text
    assert json.loads((out_dir / "badge.json").read_text()) == {
        "schemaVersion": 1, "label": "mtg-judge", "message": "75.0% (3/4)",
        "color": "yellowgreen"}
    html = (out_dir / "index.html").read_text(encoding="utf-8")
    assert "classic.game.b-trouble[modern]" in html and "\x00" not in html


@pytest.mark.parametrize("mode, shown", [
    ("garbage", "\\u0000\\u001b[31mnot json &lt;&amp;&gt; at all"),  # JSON-escaped context
    ("skip-all", 'message="nothing is implemented\\x07"'),  # a raw BEL, escaped for XML
])
def test_control_characters_keep_the_reports_well_formed(tree, engine, tmp_path, mode, shown):
    out_dir = tmp_path / "report"
    run_cli("run", "--fixtures", tree, "--engine", engine(mode), "--report-dir", out_dir)
    text = (out_dir / "junit.xml").read_text(encoding="utf-8")
    assert shown in text
    ET.fromstring(text.encode("utf-8"))


def test_crash_in_parallel_workers_still_runs_every_case(tree, engine, tmp_path):
    out_dir = tmp_path / "report"
    code, output = run_cli("run", "--fixtures", tree, "--engine", engine("crash"), "-n", 2,
                           "--report-dir", out_dir)
    assert code == 1, output
    _, cases, footer = read_jsonl(out_dir / "report.jsonl")
    assert list(cases) == sorted(cases)  # case order, whatever the scheduling
    assert footer["counts"]["passed"] == 3 and footer["counts"]["errored"] == 1


# --------------------------------------------------------------------------------------------
# Capabilities: what is not declared is not checked


def test_without_the_events_capability_event_checks_are_skipped(tmp_path, engine):
    root = write_tree(tmp_path / "fixtures", {
        # state right, but it is the setup's own (turn 1, bob at 20, an empty script): the
        # case is vacuous (PROTOCOL §3, issue 24 item 4), so skipped, not passed; its state
        # check passed and its event checks are listed as skipped
        "classic/game/a-state-ok.json": EXPECT,
        # state wrong: the state check still applies, and fails
        "classic/game/b-state-wrong.json": {**EXPECT, "state": {"turn": 2}},
        # nothing but events and rejections to check: the case is skipped, not passed
        "classic/game/c-events-only.json": {"events": [{"type": "game_started"}],
                                            "rejections": [{"at": 0, "code": "game_over"}]},
        # a checkpoint is checked: the engine declared checkpoints (and reported none)
        "classic/game/d-checkpoint.json": {"state": {"turn": 1},
                                           "checkpoints": [{"after": 0, "state": {}}]},
    })
    out_dir = tmp_path / "report"
    code, output = run_cli("run", "--fixtures", root, "--engine", engine("no-events"),
                           "--report-dir", out_dir)
    assert code == 1, output
    _, cases, footer = read_jsonl(out_dir / "report.jsonl")
    statuses = {fid.split(".")[-1]: c["status"] for fid, c in cases.items()}
    assert statuses == {"a-state-ok": "skipped", "b-state-wrong": "failed",
                        "c-events-only": "skipped", "d-checkpoint": "failed"}
    reason = "the engine does not declare the 'events' capability"
    ok = cases["classic.game.a-state-ok"]
    assert ok["message"].startswith("vacuous: ") and f"(not applied: {reason})" in ok["message"]
    assert ok["checks"] == {"passed": 1, "failed": 0, "skipped": 3}
    assert ok["skipped_checks"] == [{"check": "expect.events[0]", "reason": reason},
                                    {"check": "expect.absent[0]", "reason": reason},
                                    {"check": "script", "reason": reason}]
    wrong = cases["classic.game.b-state-wrong"]
    assert wrong["mismatches"] == ["expect.state: state.turn: expected 2, got 1"]
    assert [s["check"] for s in wrong["skipped_checks"]] == [
        "expect.events[0]", "expect.absent[0]", "script"]
    only = cases["classic.game.c-events-only"]
    assert only["message"] == f"no check could be applied: {reason}"
    assert [s["check"] for s in only["skipped_checks"]] == [
        "expect.events[0]", "expect.rejections[0]", "script"]
    checkpoint = cases["classic.game.d-checkpoint"]
    assert checkpoint["mismatches"][0].startswith("expect.checkpoints[0]: the engine reported "
                                                  "no checkpoint")
    assert footer["skipped_checks"] == 3 + 3 + 3 + 1
    assert "skipped checks (capabilities the engine does not declare):" in output
    assert f"10 checks in 4 cases: {reason}" in output
    # JUnit: the skipped case is <skipped>; the others list their skipped checks
    root_el = ET.parse(out_dir / "junit.xml").getroot()
    by_name = {tc.get("name"): tc for tc in root_el.iter("testcase")}
    assert by_name["classic.game.c-events-only[modern]"].find("skipped") is not None
    assert "expect.events[0]" in by_name["classic.game.a-state-ok[modern]"].find(
        "system-out").text


def test_without_checkpoints_capability_checkpoint_checks_are_skipped(tmp_path, engine):
    root = write_tree(tmp_path / "fixtures", {
        "classic/game/a.json": {**EXPECT, "checkpoints": [{"after": 0, "state": {}}]}})
    out_dir = tmp_path / "report"
    code, output = run_cli("run", "--fixtures", root, "--engine", engine("ok"),
                           "--report-dir", out_dir)
    assert code == 0, output
    _, cases, _ = read_jsonl(out_dir / "report.jsonl")
    assert cases["classic.game.a"]["skipped_checks"] == [
        {"check": "expect.checkpoints[0]",
         "reason": "the engine does not declare the 'checkpoints' capability"}]


# --------------------------------------------------------------------------------------------
# Exit codes, stopping early, validation


def test_an_engine_that_skips_everything_exits_1(tree, engine, tmp_path):
    out_dir = tmp_path / "report"
    code, output = run_cli("run", "--fixtures", tree, "--engine", engine("skip-all"),
                           "--report-dir", out_dir)
    assert code == 1, output
    assert "no case passed" in output
    # PROTOCOL §6: passed / all selected cases, red (issue 25: it was a grey "no results")
    assert json.loads((out_dir / "badge.json").read_text()) == {
        "schemaVersion": 1, "label": "mtg-judge", "message": "0.0% (0/4)", "color": "red"}


def test_all_selected_cases_pass_exits_0(tree, engine):
    code, output = run_cli("run", "--fixtures", tree, "--engine", engine("crash"), "-k",
                           "not trouble")
    assert code == 0, output
    assert "100.0%" in output


@pytest.mark.parametrize("flags, ran", [(["--fail-fast"], 1), (["-x"], 1),
                                        (["--max-fail", 2], 2), (["--max-fail", 9], 4)])
def test_fail_fast_and_max_fail_stop_the_run(tmp_path, engine, flags, ran):
    root = write_tree(tmp_path / "fixtures", {
        f"classic/game/{c}-trouble.json": EXPECT for c in "abcd"})
    out_dir = tmp_path / "report"
    code, output = run_cli("run", "--fixtures", root, "--engine", engine("wrong-seq"),
                           *flags, "--report-dir", out_dir)
    assert code == 1, output
    _, cases, footer = read_jsonl(out_dir / "report.jsonl")
    assert len(cases) == ran and footer["not_run"] == 4 - ran
    assert all(c["status"] == "errored" for c in cases.values())
    assert ("stopped early" in output) == (ran < 4)


def test_validate_protocol_errors_schema_breaking_replies(tree, engine, tmp_path):
    out_dir = tmp_path / "report"
    # Without validation the fake's sketchy events and state are good enough to pass.
    assert run_cli("run", "--fixtures", tree, "--engine", engine("ok"))[0] == 0
    code, output = run_cli("run", "--fixtures", tree, "--engine", engine("ok"),
                           "--validate-protocol", "--report-dir", out_dir)
    assert code == 1, output
    _, cases, footer = read_jsonl(out_dir / "report.jsonl")
    assert footer["counts"]["errored"] == 4
    for case in cases.values():
        assert case["error_kind"] == "bad_reply"
        assert "does not match the protocol schema" in case["message"]
        assert "$.events[0]" in case["message"]


def test_validate_protocol_needs_an_engine(tree):
    code, output = run_cli("run", "--fixtures", tree, "--validate-protocol")
    assert code == 2 and "--engine" in output


def test_validate_protocol_passes_the_reference_engine(tmp_path):
    pytest.importorskip("mtg_judge.engine")
    out_dir = tmp_path / "report"
    serve = f"{sys.executable} -m mtg_judge.tools.cli serve"
    code, output = run_cli("run", "--engine", serve, "--validate-protocol", "-k",
                           "classic.stack", "--report-dir", out_dir)
    assert code == 0, output
    header, _, footer = read_jsonl(out_dir / "report.jsonl")
    assert header["implementation"]["name"] == "mtg-judge-reference"
    assert footer["counts"]["total"] > 1
    assert footer["counts"]["passed"] == footer["counts"]["total"]
    assert footer["skipped_checks"] == 0


def test_case_records_are_deterministic(tree, engine, tmp_path):
    """Two runs give the same report lines, but for the header's start time."""
    texts = []
    for name in ("one", "two"):
        run_cli("run", "--fixtures", tree, "--engine", engine("wrong-seq"),
                "--report-dir", tmp_path / name)
        lines = (tmp_path / name / "report.jsonl").read_text(encoding="utf-8").splitlines()
        header = json.loads(lines[0])
        assert header.pop("started").endswith("Z")
        texts.append([header, *lines[1:]])
    assert texts[0] == texts[1]
