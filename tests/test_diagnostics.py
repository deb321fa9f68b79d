"""Issue 16, part 5: clear diagnostics for an engine author.

A crash during the handshake shows the engine's stderr; an unknown ruleset or capability
in the handshake is a warning naming it and the known ones (once on stderr, and in the
report header); duplicate fixture ids are refused by ``run`` and by the pytest plugin; a
symlinked fixture folder is followed once (a loop does not hang); a file outside the
``<document>/<mechanic>/<name>.json`` layout is reported under its path; and without a
terminal the progress shows periodic counts.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
from click.testing import CliRunner
from test_harness_faults import EXPECT, FAKE_ENGINE, make_fixture, write_tree

from mtg_judge.conformance import protocol
from mtg_judge.conformance.runner import collect
from mtg_judge.tools.cli import main

ENGINE = textwrap.dedent('''
    import json, sys

    MODE = sys.argv[1]

    def reply(obj):
        sys.stdout.write(json.dumps(obj) + "\\n")
        sys.stdout.flush()

    for line in sys.stdin:
        msg = json.loads(line)
        if msg["cmd"] == "stop":
            break
        if msg["cmd"] == "start":
            if MODE == "crash":
                sys.stderr.write("Traceback (most recent call last):\\n")
                sys.stderr.write("RuntimeError: cannot load the card database\\n")
                sys.stderr.flush()
                sys.exit(4)
            reply({"version": 1, "implementation": {
                "name": "declarer", "version": "1.0", "language": "python", "homepage": "",
                "rulesets": ["modern", "pioneer"],
                "capabilities": ["events", "state", "telepathy"]}})
            continue
        reply({"seq": msg["seq"], "events": [{"type": "game_started", "turn": 1}],
               "state": {"turn": 1, "players": {"bob": {"life": 20}}}})
''')

BASIC = {"classic/game/a.json": EXPECT, "classic/game/b.json": EXPECT}


@pytest.fixture
def engine(tmp_path):
    script = tmp_path / "engine.py"
    script.write_text(ENGINE, encoding="utf-8")
    return lambda mode: f"{sys.executable} {script} {mode}"


def invoke(*args):
    return CliRunner().invoke(main, [str(a) for a in args])


# --------------------------------------------------------------------------------------------
# The handshake


def test_a_crash_during_the_handshake_shows_the_engines_stderr(tmp_path, engine):
    tree = write_tree(tmp_path / "fixtures", BASIC)
    result = invoke("run", "--fixtures", tree, "--engine", engine("crash"))
    assert result.exit_code == 2  # an engine that cannot start (issue 25)
    assert "cannot run the engine: crash: the engine exited (return code 4)" in result.output
    assert "engine stderr (last lines):" in result.output
    assert "RuntimeError: cannot load the card database" in result.output


def test_describe_engine_error_of_a_handshake_crash(engine):
    eng = protocol.ProtocolEngine(engine("crash"), timeout=10)
    with pytest.raises(protocol.EngineError) as info:
        eng.start()
    eng.stop()
    text = protocol.describe_engine_error(info.value)
    assert text.startswith("crash: the engine exited (return code 4)")
    assert text.endswith("RuntimeError: cannot load the card database")


def test_unknown_rulesets_and_capabilities_are_warned_about_once(tmp_path, engine):
    tree = write_tree(tmp_path / "fixtures", BASIC)
    out = tmp_path / "report"
    result = invoke("run", "--fixtures", tree, "--engine", engine("declarer"), "-n", 2,
                    "--report-dir", out)
    assert result.exit_code == 0, result.output
    ruleset = ("warning: the engine declares the unknown ruleset 'pioneer' (no case is written for "
               "it; if it is a misspelling, the cases of the ruleset meant are skipped); the suite "
               "knows modern, timespiral-2006, classic-1999")
    capability = ("warning: the engine declares the unknown capability 'telepathy' (ignored); "
                  "the suite knows events, state, checkpoints")
    assert result.output.count(ruleset) == 1, result.output
    assert result.output.count(capability) == 1
    header = json.loads((out / "report.jsonl").read_text(encoding="utf-8").splitlines()[0])
    assert header["warnings"] == [ruleset.removeprefix("warning: "),
                                  capability.removeprefix("warning: ")]


def test_known_rulesets_give_no_warning():
    assert protocol.handshake_warnings(protocol.reference_implementation()) == []
    assert protocol.handshake_warnings({"rulesets": ["modern", "pioneer", "x"]}) == [
        "the engine declares the unknown rulesets 'pioneer', 'x' (no case is written for them; if "
        "they are misspellings, the cases of the rulesets meant are skipped); the suite knows "
        "modern, timespiral-2006, classic-1999"]


# --------------------------------------------------------------------------------------------
# Progress without a terminal


def test_progress_prints_periodic_counts_without_a_terminal(tmp_path):
    tree = write_tree(tmp_path / "fixtures",
                      {f"classic/game/c{i:02}.json": EXPECT for i in range(25)})
    script = tmp_path / "fake.py"
    script.write_text(FAKE_ENGINE, encoding="utf-8")
    result = invoke("run", "--fixtures", tree, "--engine", f"{sys.executable} {script} pass")
    assert result.exit_code == 0, result.output
    counts = [line for line in result.output.splitlines() if line.startswith("running: ")]
    # 25 cases: a line every 3 (a tenth, rounded up), the start and the end.
    assert counts == ["running: 0/25", *(f"running: {n}/25" for n in range(3, 25, 3)),
                      "running: 25/25"]


# --------------------------------------------------------------------------------------------
# Duplicate ids, symlinks, stray files


def duplicate_tree(tmp_path: Path) -> Path:
    tree = write_tree(tmp_path / "fixtures", BASIC)
    (tree / "classic" / "other").mkdir()
    (tree / "classic" / "other" / "copy.json").write_text(
        json.dumps(make_fixture("classic.game.a", EXPECT)), encoding="utf-8")
    return tree


def test_run_refuses_duplicate_fixture_ids_as_validate_does(tmp_path, engine, monkeypatch):
    monkeypatch.chdir(tmp_path)  # messages name files relative to the current folder (issue 25)
    tree = duplicate_tree(tmp_path)
    message = ("fixtures/classic/other/copy.json: $.id: duplicate fixture id 'classic.game.a': "
               "fixtures/classic/game/a.json uses it too")
    result = invoke("run", "--fixtures", tree, "--engine", engine("declarer"))
    assert result.exit_code == 1
    assert message in result.output
    validate = invoke("validate", "--fixtures", tree)
    assert validate.exit_code == 1 and message in validate.output
    # whatever the selection: -k matches both files' cases
    selected = invoke("run", "--fixtures", tree, "-k", "game.b")
    assert selected.exit_code == 1 and message in selected.output


def test_the_pytest_plugin_refuses_duplicate_ids_at_collection(tmp_path, engine):
    tree = duplicate_tree(tmp_path)
    proc = subprocess.run(
        [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-p", "no:xdist",
         "--mtg-engine", engine("declarer"), "--mtg-fixtures", str(tree), "-q"],
        cwd=tmp_path, capture_output=True, text=True, timeout=120)
    assert proc.returncode != 0
    assert "ERROR collecting mtg-judge" in proc.stdout and "1 error" in proc.stdout
    assert "duplicate fixture id 'classic.game.a'" in proc.stdout
    assert "fixtures/classic/game/a.json" in proc.stdout


def test_a_symlinked_fixture_folder_is_followed_once(tmp_path):
    tree = write_tree(tmp_path / "fixtures", BASIC)
    elsewhere = tmp_path / "elsewhere" / "suspend"
    elsewhere.mkdir(parents=True)
    (elsewhere / "d.json").write_text(
        json.dumps(make_fixture("timespiral.suspend.d", EXPECT)), encoding="utf-8")
    (tree / "timespiral").mkdir()
    os.symlink(tmp_path / "elsewhere" / "suspend", tree / "timespiral" / "suspend")
    # a loop: a link back to the fixtures folder inside it
    os.symlink(tree, tree / "classic" / "game" / "loop")
    cases = collect(tree)
    assert [(c.name, c.document, c.mechanic) for c in cases] == [
        ("classic.game.a[modern]", "classic", "game"),
        ("classic.game.b[modern]", "classic", "game"),
        ("timespiral.suspend.d[modern]", "timespiral", "suspend")]
    assert cases[2].path == tree / "timespiral" / "suspend" / "d.json"


def test_a_symlink_loop_does_not_hang(tmp_path):
    tree = write_tree(tmp_path / "fixtures", BASIC)
    os.symlink(tree / "classic", tree / "classic" / "game" / "up")
    os.symlink(tree / "a-link", tree / "b-link")  # dangling links to each other
    os.symlink(tree / "b-link", tree / "a-link")
    assert [c.name for c in collect(tree)] == ["classic.game.a[modern]",
                                                "classic.game.b[modern]"]


def test_stray_and_dangling_files_are_reported_under_their_path(tmp_path, engine):
    tree = write_tree(tmp_path / "fixtures", BASIC)
    (tree / "stray.json").write_text(json.dumps(make_fixture("classic.misc.stray", EXPECT)),
                                     encoding="utf-8")
    os.symlink(tree / "nowhere.json", tree / "classic" / "game" / "gone.json")
    out = tmp_path / "report"
    result = invoke("run", "--fixtures", tree, "--engine", engine("declarer"),
                    "--report-dir", out, "--by-mechanic")
    assert result.exit_code == 1  # the dangling file errors
    records = [json.loads(line) for line in
               (out / "report.jsonl").read_text(encoding="utf-8").splitlines()[1:-1]]
    by_name = {r["name"]: r for r in records}
    stray = by_name["classic.misc.stray[modern]"]
    assert (stray["document"], stray["mechanic"], stray["status"]) == ("stray.json", "",
                                                                       "passed")
    gone = by_name["classic/game/gone.json[-]"]
    assert (gone["document"], gone["mechanic"], gone["status"]) == ("classic", "game",
                                                                    "errored")
    assert "gone.json" in gone["message"] and "cannot read the file" in gone["message"]
    assert all(r["document"] for r in records)
    lines = result.output.splitlines()
    # a row "stray.json" in the table per document and in the one per mechanic, no row
    # without a name (a line of counts that starts with blanks)
    assert sum(line.split()[:1] == ["stray.json"] for line in lines) == 2, result.output
    assert not any(re.match(r"\s+\d", line) for line in lines)
