"""The pytest11 plugin (conformance/pytest_plugin.py): `pytest --mtg-engine "COMMAND"` from a
folder outside the checkout, with no test files, runs the suite as pytest items."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
import xml.etree.ElementTree as ET

import pytest

from mtg_judge.conformance.runner import collect

SERVE = f"{sys.executable} -m mtg_judge.tools.cli serve"

#: Declares modern only, answers a bare log (cases fail), crashes on one fixture.
BAD_ENGINE = textwrap.dedent("""
    import json, sys
    for line in sys.stdin:
        msg = json.loads(line)
        if msg["cmd"] == "stop":
            break
        if msg["cmd"] == "start":
            reply = {"version": 1, "implementation": {"name": "bad", "version": "0",
                     "language": "python", "homepage": "", "rulesets": ["modern"],
                     "capabilities": ["events", "state"]}}
        elif msg["scenario"]["id"] == "classic.stack.last-in-first-out":
            print("boom: cannot handle this one", file=sys.stderr, flush=True)
            sys.exit(3)
        else:
            reply = {"seq": msg["seq"], "events": [{"type": "game_started"}],
                     "state": {"turn": 1}}
        print(json.dumps(reply), flush=True)
""")


def pytest_run(cwd, *args, env=None, timeout=600):
    """``python -m pytest ARGS`` in ``cwd`` (outside the checkout)."""
    return subprocess.run([sys.executable, "-m", "pytest", "-p", "no:cacheprovider", *args],
                          cwd=cwd, capture_output=True, text=True, timeout=timeout,
                          env={**os.environ, **(env or {})})


@pytest.fixture
def outside(tmp_path):
    folder = tmp_path / "engine-repo"
    folder.mkdir()
    return folder


def test_the_whole_suite_with_two_workers(outside):
    proc = pytest_run(outside, "--mtg-engine", SERVE, "-n", "2", "--junitxml", "junit.xml")
    tail = proc.stdout[-3000:] + proc.stderr[-2000:]
    assert proc.returncode == 0, tail
    names = [c.name for c in collect()]
    assert f" {len(names)} passed" in proc.stdout.splitlines()[-1], tail
    assert "created: 2/2 workers" in proc.stdout
    cases = ET.parse(outside / "junit.xml").getroot().iter("testcase")
    assert sorted(c.get("name") for c in cases) == sorted(names)


def test_node_ids_are_stable(outside):
    runs = [pytest_run(outside, "--mtg-engine", SERVE, "--collect-only", "-q", "-k", "stack",
                       env={"PYTHONHASHSEED": seed}) for seed in ("0", "4242")]
    assert runs[0].returncode == 0, runs[0].stdout + runs[0].stderr
    ids = [line for line in runs[0].stdout.splitlines() if "::" in line]
    assert ids == [line for line in runs[1].stdout.splitlines() if "::" in line]
    expected = [f"mtg-judge/{c.document}/{c.mechanic}::{c.name}"
                for c in collect(keyword="stack")]
    assert ids == expected


def test_a_failing_engine_reads_like_mtg_judge_run(outside):
    (outside / "bad_engine.py").write_text(BAD_ENGINE)
    proc = pytest_run(outside, "--mtg-engine", f"{sys.executable} bad_engine.py",
                      "-k", "classic.stack", "-rs",
                      "--junitxml", "out/junit.xml")
    out = proc.stdout
    assert proc.returncode == 1, out + proc.stderr
    selected = collect(keyword="classic.stack")
    modern = [c for c in selected if c.ruleset == "modern"]
    assert len(modern) >= 2 and len(selected) > len(modern)
    assert [c.fixture_id for c in modern][0] == "classic.stack.last-in-first-out"
    # the crash errors its case; the engine is restarted and the next case runs
    assert "classic.stack.last-in-first-out[modern] ERRORED" in out
    assert "the engine exited (return code 3) before replying" in out
    assert "boom: cannot handle this one" in out  # the engine's stderr
    # failures read as CaseResult.describe() (mtg-judge run's text)
    other = next(c for c in modern if c.fixture_id != "classic.stack.last-in-first-out")
    assert f"{other.name} FAILED ({other.path})" in out
    assert "expect.events[0]: no matching event in the log" in out
    # skips carry their reason, at the fixture file
    assert "ruleset 'classic-1999' is not declared by the engine" in out
    last = out.splitlines()[-1]
    assert f"{len(modern)} failed" in last and f"{len(selected) - len(modern)} skipped" in last
    root = ET.parse(outside / "out" / "junit.xml").getroot()
    cases = {c.get("name"): c for c in root.iter("testcase")}
    assert set(cases) == {c.name for c in selected}
    crashed = cases["classic.stack.last-in-first-out[modern]"]
    assert "ERRORED" in crashed.find("failure").text
    props = {p.get("name"): p.get("value") for p in crashed.iter("property")}
    assert props == {"mtg_status": "errored", "mtg_error_kind": "crash"}
    assert cases[other.name].find("failure") is not None
    assert all(cases[c.name].find("skipped") is not None for c in selected if c.ruleset != "modern")
    assert crashed.get("classname") == "mtg-judge.classic.stack"


def test_a_bundle_and_an_engine_that_cannot_start(outside, tmp_path):
    from click.testing import CliRunner

    from mtg_judge.tools.cli import main

    zipped = tmp_path / "suite.zip"
    assert CliRunner().invoke(main, ["export", str(zipped), "-k", "trample"]).exit_code == 0
    count = len(collect(keyword="trample"))
    proc = pytest_run(outside, "--mtg-engine", SERVE, "--mtg-fixtures", str(zipped),
                      "--mtg-ruleset", "modern")
    modern = len(collect(keyword="trample", rulesets=["modern"]))
    assert proc.returncode == 0 and f"{modern} passed" in proc.stdout.splitlines()[-1], proc.stdout
    assert 0 < modern < count
    proc = pytest_run(outside, "--mtg-engine", str(tmp_path / "no-such-engine"),
                      "--mtg-fixtures", str(zipped), "--mtg-timeout", "60")
    # issue 25: exit 2 as `run` (not 1 like failures), the reason shown once (not once per
    # case), the other cases not run
    assert proc.returncode == 2, proc.stdout[-2000:]
    assert "1 failed" in proc.stdout.splitlines()[-1], proc.stdout[-2000:]
    # once in the report of the one failed case; pytest's short summary repeats a failure's
    # message (untruncated when $CI is set), which is not a repetition per case
    body = proc.stdout.split("short test summary info")[0]
    assert body.count("cannot start the engine") == 1 and "no-such-engine" in body
    assert "the engine cannot start (the first failure says why)" in proc.stdout
    assert f"({count - 1} selected cases not run)" in proc.stdout


@pytest.mark.parametrize("args, message", [
    (["--mtg-fixtures", "/does/not/exist"], "no such folder or bundle"),
    (["--mtg-ruleset", "bogus"], "expected one of modern"),
    (["--mtg-timeout", "0"], "expected a number of seconds > 0"),
])
def test_bad_options_are_usage_errors(outside, args, message):
    proc = pytest_run(outside, "--mtg-engine", SERVE, *args)
    assert proc.returncode == 4, proc.stdout + proc.stderr
    assert message in proc.stderr


def test_empty_engine_command_is_a_usage_error(outside):
    proc = pytest_run(outside, "--mtg-engine", " ")
    assert proc.returncode == 4 and "empty command" in proc.stderr


def test_inert_without_mtg_engine(outside):
    (outside / "test_mine.py").write_text(textwrap.dedent("""
        import sys

        def test_nothing_of_mtg_judge_loaded():
            loaded = [m for m in sys.modules if m == "syrupy" or m.startswith(
                ("mtg_judge.conformance.runner", "mtg_judge.conformance.loader",
                 "mtg_judge.engine", "jsonschema"))]
            assert loaded == []
    """))
    # only this plugin (no autoload of syrupy or xdist): it loads nothing of the suite
    proc = pytest_run(outside, "-p", "mtg_judge.conformance.pytest_plugin",
                      env={"PYTEST_DISABLE_PLUGIN_AUTOLOAD": "1"})
    assert proc.returncode == 0 and "1 passed" in proc.stdout, proc.stdout + proc.stderr
    # with every installed plugin: the project's own tests are all that is collected
    proc = pytest_run(outside, "--collect-only", "-q")
    assert proc.returncode == 0
    assert [line for line in proc.stdout.splitlines() if "::" in line] == \
        ["test_mine.py::test_nothing_of_mtg_judge_loaded"]
    assert "--mtg-engine" in pytest_run(outside, "--help").stdout


def test_a_damaged_bundle_is_a_collection_error(outside, tmp_path):
    from click.testing import CliRunner

    from mtg_judge.tools.cli import main

    damaged = tmp_path / "bundle"
    assert CliRunner().invoke(main, ["export", str(damaged), "-k", "trample"]).exit_code == 0
    case = next((damaged / "cases").rglob("modern.json"))
    case.write_text(case.read_text(encoding="utf-8").replace("alice", "alicia"), encoding="utf-8")
    proc = pytest_run(outside, "--mtg-engine", SERVE, "--mtg-fixtures", str(damaged))
    assert proc.returncode == 2, proc.stdout
    assert "ERROR collecting mtg-judge" in proc.stdout
    assert f"{case}: sha256 differs" in proc.stdout.replace("\n", "")


#: Skips every case (PROTOCOL §2 ``skipped`` reply): nothing implemented yet.
SKIP_ALL_ENGINE = textwrap.dedent("""
    import json, sys
    for line in sys.stdin:
        msg = json.loads(line)
        if msg["cmd"] == "stop":
            break
        if msg["cmd"] == "start":
            reply = {"version": 1, "implementation": {"name": "lazy", "version": "0",
                     "language": "python", "homepage": "", "rulesets": ["modern"],
                     "capabilities": ["events", "state"]}}
        else:
            reply = {"seq": msg["seq"], "skipped": True, "message": "nothing yet"}
        print(json.dumps(reply), flush=True)
""")


@pytest.mark.parametrize("workers", [[], ["-n", "2"]])
def test_an_engine_that_skips_everything_fails_as_run_does(outside, workers):
    """PROTOCOL §4: an engine that skips every case does not look green (issue 25: the
    plugin said "N skipped", rc 0, while `run` exits 1); the compliance line of `run`."""
    (outside / "lazy.py").write_text(SKIP_ALL_ENGINE)
    proc = pytest_run(outside, "--mtg-engine", f"{sys.executable} lazy.py", "-k", "classic.stack",
                      *workers)
    selected = len(collect(keyword="classic.stack"))
    assert proc.returncode == 1, proc.stdout[-3000:] + proc.stderr[-2000:]
    assert f"mtg-judge compliance: 0/{selected} run · - of run · 0.0% of all" in proc.stdout
    assert "no case passed" in proc.stdout


def test_the_compliance_line_and_min_played(outside):
    """The reference engine passes every case it runs; -k narrows the selection. With
    --mtg-min-played above the share run (the modern cases only), the run fails."""
    selected = collect(keyword="classic.stack")
    modern = [c for c in selected if c.ruleset == "modern"]
    proc = pytest_run(outside, "--mtg-engine", SERVE, "-k", "classic.stack")
    assert proc.returncode == 0, proc.stdout[-3000:]
    n = len(selected)
    assert f"mtg-judge compliance: {n}/{n} run · 100.0% of run · 100.0% of all" in proc.stdout
    proc = pytest_run(outside, "--mtg-engine", SERVE, "-k", "classic.stack",
                      "--mtg-ruleset", "modern", "--mtg-min-played", "0.5")
    assert proc.returncode == 0, proc.stdout[-3000:]
    # the reference engine declaring only modern: the other rulesets' cases are skipped,
    # the modern ones pass; the run fails on --mtg-min-played alone
    (outside / "modern_only.py").write_text(MODERN_ONLY)
    share = len(modern) / n
    for minimum, code in ((share - 0.01, 0), (share + 0.01, 1)):
        proc = pytest_run(outside, "--mtg-engine", f"{sys.executable} modern_only.py",
                          "-k", "classic.stack", "--mtg-min-played", f"{minimum:.3f}")
        assert proc.returncode == code, proc.stdout[-3000:]
        assert f"{len(modern)} passed, {n - len(modern)} skipped" in proc.stdout
        assert ("below --mtg-min-played" in proc.stdout) == bool(code)
    assert f"played {len(modern)} of {n} selected cases" in proc.stdout


#: The reference engine (mtg-judge serve) behind a proxy whose handshake declares modern only.
MODERN_ONLY = textwrap.dedent(f"""
    import json, subprocess, sys
    ref = subprocess.Popen({SERVE.split()!r}, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                           text=True)
    for line in sys.stdin:
        ref.stdin.write(line)
        ref.stdin.flush()
        if json.loads(line)["cmd"] == "stop":
            break
        reply = json.loads(ref.stdout.readline())
        if "implementation" in reply:
            reply["implementation"]["rulesets"] = ["modern"]
        print(json.dumps(reply), flush=True)
""")


def test_a_bad_min_played_is_a_usage_error(outside):
    proc = pytest_run(outside, "--mtg-engine", SERVE, "--mtg-min-played", "1.5")
    assert proc.returncode == 4 and "expected a fraction from 0 to 1" in proc.stderr


def test_shell_syntax_in_the_engine_command_is_warned_about(outside):
    proc = pytest_run(outside, "--mtg-engine", f"{SERVE} | tee log", "--collect-only", "-q",
                      "-k", "classic.stack.last-in-first-out")
    assert "warning: the engine command" in proc.stderr
    assert "contains the shell syntax '|'" in proc.stderr
