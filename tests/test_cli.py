"""tools/cli.py through click's CliRunner, on small fixture trees and fake engines."""

import json
import sys
import textwrap

import click
import pytest
from click.testing import CliRunner

from mtg_judge.conformance import protocol, runner
from mtg_judge.tools.cli import main


def _commands(group, prefix=()) -> list[list[str]]:
    """Every command of the CLI, groups and their subcommands included, as argument lists."""
    out = [list(prefix)]
    ctx = click.Context(group)
    for name in group.list_commands(ctx):  # click's listing: lazily imported commands too
        command = group.get_command(ctx, name)
        out += _commands(command, (*prefix, name)) if hasattr(command, "commands") else [[*prefix, name]]
    return out


COMMANDS = _commands(main)

CARD = {"name": "Grizzly Bears", "mana_cost": "{1}{G}", "type_line": "Creature — Bear",
        "supertypes": [], "types": ["Creature"], "subtypes": ["Bear"], "oracle_text": "",
        "power": 2, "toughness": 2, "layout": "normal", "keywords": [], "abilities": []}


def fake_result(ruleset):
    """What the fake engines answer to every scenario."""
    return {"events": [{"type": "game_started", "ruleset": ruleset, "turn": 1}],
            "state": {"turn": 1}, "checkpoints": []}


def make_fixture(fid, expect, rulesets=("modern",)):
    return {"id": fid, "title": f"{fid} title", "rulings": [f"{fid.split('.')[0]}.x.01"],
            "rulesets": list(rulesets),
            "setup": {"players": [{"id": "alice", "hand": [{"alias": "bear",
                                                             "card": "Grizzly Bears"}]},
                                  {"id": "bob"}]},
            "script": [], "expect": expect}


@pytest.fixture
def tree(tmp_path):
    """fixtures/ with one passing, one failing and one classic-1999-only fixture."""
    root = tmp_path / "fixtures"
    (root / "cards").mkdir(parents=True)
    (root / "cards" / "grizzly-bears.json").write_text(json.dumps(CARD))
    docs = {
        "classic/game/ok.json": make_fixture("classic.game.ok",
                                             {"events": [{"type": "game_started"}]}),
        "classic/game/bad.json": make_fixture("classic.game.bad",
                                              {"events": [{"type": "game_ended"}]}),
        "timespiral/old/only.json": make_fixture("timespiral.old.only",
                                                 {"events": [{"type": "game_ended"}]},
                                                 rulesets=["classic-1999"]),
    }
    for rel, fixture in docs.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(json.dumps(fixture))
    return root


@pytest.fixture
def fake_engine(monkeypatch):
    """Replace the in-process reference engine by fake_result (no real engine needed)."""
    monkeypatch.setattr(protocol, "reference_engine", lambda: (
        lambda scenario, ruleset, cards=None: fake_result(ruleset),
        frozenset({"modern", "classic-1999"})))


FAKE_PROTOCOL_ENGINE = textwrap.dedent("""
    import json, sys
    for line in sys.stdin:
        msg = json.loads(line)
        if msg["cmd"] == "stop":
            break
        if msg["cmd"] == "start":
            reply = {"version": 1, "implementation": {"name": "fake", "version": "0",
                     "language": "python", "homepage": "", "rulesets": ["modern"],
                     "capabilities": ["events", "state"]}}
        else:
            reply = {"seq": msg["seq"], "events": [{"type": "game_started",
                     "ruleset": msg["ruleset"], "turn": 1}], "state": {"turn": 1},
                     "checkpoints": []}
        print(json.dumps(reply), flush=True)
""")


def invoke(*args):
    return CliRunner().invoke(main, [str(a) for a in args])


@pytest.mark.parametrize("command", COMMANDS, ids=lambda c: " ".join(c) or "mtg-judge")
def test_every_command_has_help(command):
    assert len(COMMANDS) >= 13 and ["export"] in COMMANDS and ["snapshots", "update"] in COMMANDS
    result = invoke(*command, "--help")
    assert result.exit_code == 0, result.output
    assert "Usage:" in result.output
    # every command of a group is explained in its listing
    if command in ([], ["snapshots"]):
        assert "Commands:" in result.output


@pytest.mark.parametrize("args", [["run", "--ruleset", "bogus"], ["run", "-n", "0"],
                                  ["run", "--no-such-option"], ["run", "-k", "a and ("],
                                  ["show"], ["run", "--fixtures", "/does/not/exist"],
                                  ["no-such-command"]])
def test_bad_arguments_exit_2(args):
    result = invoke(*args)
    assert result.exit_code == 2, result.output


def test_run_reports_failures_and_exits_1(tree, fake_engine):
    result = invoke("run", "--fixtures", tree, "-n", 1, "--by-mechanic")
    assert result.exit_code == 1, result.output
    out = result.output
    assert "classic.game.bad[modern] FAILED" in out
    assert "expect.events[0]: no matching event in the log" in out
    assert "#0 game_started ruleset=modern turn=1" in out
    assert "classic/game" in out  # the per-mechanic table
    assert "classic.game.ok[modern] FAILED" not in out


def test_run_selection_passes_and_exits_0(tree, fake_engine):
    result = invoke("run", "--fixtures", tree, "-n", 1, "-k", "ok and not only")
    assert result.exit_code == 0, result.output
    assert "total" in result.output and "100.0%" in result.output


def test_run_nothing_selected_exits_2(tree, fake_engine):
    result = invoke("run", "--fixtures", tree, "-k", "nothing-matches-this")
    assert result.exit_code == 2  # bad input (conformance/cli_errors.py)
    assert "no cases selected" in result.output


def test_run_through_the_protocol_in_parallel(tree, tmp_path):
    script = tmp_path / "fake_engine.py"
    script.write_text(FAKE_PROTOCOL_ENGINE)
    result = invoke("run", "--fixtures", tree, "-n", 2, "--engine",
                    f"{sys.executable} {script}")
    assert result.exit_code == 1, result.output
    assert "classic.game.bad[modern] FAILED" in result.output
    # classic-1999 is not declared by the fake engine: skipped, never sent; summarised by
    # reason (issue 25), listed with --list-skipped
    assert "timespiral.old.only[classic-1999]: " not in result.output
    assert "skipped (1; --list-skipped lists them):" in result.output
    listed = invoke("run", "--fixtures", tree, "-n", 2, "--engine", f"{sys.executable} {script}",
                    "--list-skipped")
    assert "timespiral.old.only[classic-1999]: " in listed.output
    rows = {line.split()[0]: line.split()[1:5] for line in result.output.splitlines()
            if line.startswith(("classic ", "timespiral "))}
    assert rows == {"classic": ["1", "1", "0", "0"], "timespiral": ["0", "0", "0", "1"]}


def test_engine_that_cannot_start_exits_2_with_a_report_saying_why(tree, tmp_path):
    """Issue 25: exit 2 as in fuzz and show (not 1 like failures), and the report says why."""
    out = tmp_path / "report"
    result = invoke("run", "--fixtures", tree, "--engine", "/no/such/engine", "--timeout", 2,
                    "--report-dir", out)
    assert result.exit_code == 2
    assert "cannot run the engine" in result.stderr
    jsonl = (out / "report.jsonl").read_text()
    footer = json.loads(jsonl.splitlines()[-1])
    assert "No such file or directory" in footer["engine_error"]
    assert footer["run"] == 0 and footer["not_run"] == footer["selected"] == 3
    assert "<strong>the engine cannot start</strong>" in (out / "index.html").read_text()
    badge = json.loads((out / "badge.json").read_text())
    assert badge["message"] == "0.0% (0/3) · the engine cannot start" and badge["color"] == "red"
    again = invoke("report", out / "report.jsonl")
    assert again.exit_code == 1 and "the engine cannot start: crash: cannot start" in again.output


def test_show_prints_a_transcript(tree, fake_engine):
    result = invoke("show", "classic.game.ok", "--fixtures", tree)
    assert result.exit_code == 0, result.output
    assert "hand: Grizzly Bears (bear)" in result.output
    assert "T1 None, precombat main: the game starts" in result.output or \
           "the game starts" in result.output
    assert "Expectations: met" in result.output
    path = tree / "classic" / "game" / "bad.json"
    result = invoke("show", path)
    assert result.exit_code == 1 and "Expectations NOT met" in result.output
    assert invoke("show", "no.such.fixture", "--fixtures", tree).exit_code == 2
    assert invoke("show", "classic.game.ok", "--fixtures", tree,
                  "--ruleset", "classic-1999").exit_code == 2


def test_coverage_json(tree, fake_engine, monkeypatch):
    catalog = {"documents": {"classic": {"file": "c.txt"}, "timespiral": {"file": "t.txt"}},
               "rulings": [{"id": "classic.x.01", "doc": "c.txt"},
                           {"id": "classic.y.01", "doc": "c.txt"},
                           {"id": "timespiral.x.01", "doc": "t.txt"}]}
    (tree / "untestable.json").write_text(json.dumps(
        [{"id": "classic.y.01", "reason": "printed-card cosmetics"}]))
    (tree / "audit").mkdir(exist_ok=True)
    (tree / "audit" / "t.json").write_text(json.dumps({"document": "timespiral", "units": [
        {"id": "timespiral.x.01", "claims": [
            {"claim": "flipped or not", "status": "open", "checked_by": [], "note": "no flip cards"}]}]}))
    monkeypatch.setattr("mtg_judge.conformance.coverage.load_catalog", lambda: catalog)
    result = invoke("coverage", "--fixtures", tree, "--json")
    assert result.exit_code == 0, result.output
    report = json.loads(result.output[result.output.index("{"):])
    assert report["totals"] == {"total": 3, "covered": 1, "untestable": 1, "missing": 1}
    assert report["documents"]["timespiral"]["missing_ids"] == ["timespiral.x.01"]
    text = invoke("coverage", "--fixtures", tree, "--missing").output
    assert "missing: timespiral.x.01" in text and "classic" in text
    assert report["audit"]["timespiral"]["open_claims"] == [
        {"unit": "timespiral.x.01", "claim": "flipped or not", "note": "no flip cards"}]
    timespiral = next(line for line in text.splitlines() if line.startswith("timespiral"))
    assert timespiral.split()[-2:] == ["0/1", "1"]
    assert "open claim: timespiral.x.01: flipped or not (no flip cards)" in text


def test_validate_a_bad_fixture_dir_exits_1(tmp_path):
    root = tmp_path / "fixtures"
    (root / "cards").mkdir(parents=True)
    (root / "classic" / "game").mkdir(parents=True)
    (root / "classic" / "game" / "broken.json").write_text(json.dumps(
        {"id": "classic.game.broken", "rulesets": ["modern"], "setup": {}, "script": "no"}))
    result = invoke("validate", "--fixtures", root)
    assert result.exit_code == 1, result.output
    assert "broken.json" in result.output


@pytest.mark.parametrize("expr, expected", [
    ("bolt", True), ("BOLT", True), ("bolt and modern", True), ("bolt and not modern", False),
    ("nothing or stack", True), ("not (bolt or stack)", False), ("", True),
])
def test_k_expressions(expr, expected):
    assert runner.keyword_matches(expr, "classic.stack.bolt-first[modern]") is expected


@pytest.mark.parametrize("expr", ["and", "a or", "(a", "a b", "a )"])
def test_malformed_k_expressions(expr):
    with pytest.raises(ValueError):
        runner.keyword_matches(expr, "x")


def test_validate_refuses_a_folder_without_fixtures(tmp_path):
    result = invoke("validate", "--fixtures", tmp_path)
    assert result.exit_code == 1
    assert "no fixture files (<document>/<mechanic>/<name>.json) and no card files " \
           f"(cards/*.json) in {tmp_path}: nothing to validate" in result.output


def test_show_by_id_names_the_problem_of_an_invalid_fixture(tmp_path):
    from mtg_judge.conformance.resources import FIXTURES_DIR

    fixture = json.loads((FIXTURES_DIR / "classic" / "stack" / "last-in-first-out.json").read_text())
    fixture["rulesets"] = ["pioneer"]
    (tmp_path / "cards").mkdir()
    (tmp_path / "classic" / "stack").mkdir(parents=True)
    (tmp_path / "classic" / "stack" / "last-in-first-out.json").write_text(json.dumps(fixture))
    result = invoke("show", "classic.stack.last-in-first-out", "--fixtures", tmp_path)
    assert result.exit_code == 1, result.output
    assert "fixture 'classic.stack.last-in-first-out' is invalid" in result.output
    assert "$.rulesets[0]: 'pioneer' is not one of" in result.output
    unknown = invoke("show", "classic.stack.no-such-id", "--fixtures", tmp_path)
    assert unknown.exit_code == 2 and "no fixture with id or path" in unknown.output


def test_version_names_the_installed_package():
    """``mtg-judge --version`` prints the version of the installed distribution (pyproject)."""
    from importlib.metadata import version

    from click.testing import CliRunner

    from mtg_judge.tools.cli import main
    result = CliRunner().invoke(main, ["--version"])
    assert result.exit_code == 0
    assert result.output.strip() == f"mtg-judge, version {version('mtg-judge')}"
