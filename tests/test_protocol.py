"""Protocol v1 (DESIGN §9): the reference server and the harness client.

* The reference engine through ``mtg-judge serve`` (a subprocess) gives exactly the in-process
  results for every fixture and ruleset.
* The server answers ``errored`` to bad input and keeps serving; it stops cleanly at EOF.
* :class:`ProtocolEngine` copes with engines that crash, hang, or answer out of turn (small
  fake engines written to temporary Python scripts).
"""

from __future__ import annotations

import io
import json
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from mtg_judge.conformance import protocol
from mtg_judge.conformance.canonical import dumps, normalize
from mtg_judge.conformance.protocol import (
    EngineError,
    ProtocolEngine,
    Result,
    Skipped,
    build_scenario,
    cards_used,
    serve,
)

ROOT = Path(__file__).resolve().parent.parent


# --------------------------------------------------------------------------------------------
# Helpers


def serve_argv() -> list[str]:
    """The command line of ``mtg-judge serve`` that works from this checkout."""
    _run_scenario()  # skips while the reference engine is not there
    cli = ROOT / "tools" / "cli.py"
    if not cli.exists():
        pytest.skip("tools/cli.py (mtg-judge serve) does not exist yet")
    if "__main__" in cli.read_text(encoding="utf-8"):
        return [sys.executable, "-m", "mtg_judge.tools.cli", "serve"]
    return [sys.executable, "-c", "from mtg_judge.tools.cli import main; main()", "serve"]


def talk(argv: list[str], lines: list[str], timeout: float = 120) -> tuple[int, list[dict]]:
    """Feed ``lines`` to a server process, close its stdin; return (exit code, reply objects)."""
    proc = subprocess.run(argv, input="".join(line + "\n" for line in lines), cwd=ROOT,
                          capture_output=True, text=True, encoding="utf-8", timeout=timeout)
    replies = [json.loads(line) for line in proc.stdout.splitlines() if line.strip()]
    return proc.returncode, replies


def serve_in_process(lines: list[str], run=None) -> tuple[int, list[dict]]:
    """Run :func:`serve` on a string of request lines with a fake engine ``run``."""
    out = io.StringIO()
    code = serve(io.StringIO("".join(line + "\n" for line in lines)), out,
                 implementation=FAKE_IMPLEMENTATION, run=run or fake_run)
    return code, [json.loads(line) for line in out.getvalue().splitlines()]


FAKE_IMPLEMENTATION = {"name": "fake", "version": "1", "language": "python",
                       "homepage": "https://example.invalid/", "rulesets": ["modern"],
                       "capabilities": ["events", "state", "checkpoints"]}


def fake_run(scenario: dict, ruleset: str, cards=None) -> dict:
    if scenario.get("id") == "boom":
        raise RuntimeError("the fake engine blew up")
    return {"events": [{"type": "game_started", "ruleset": ruleset}],
            "state": {"id": scenario.get("id"), "cards": sorted(cards or {})},
            "checkpoints": []}


START = dumps({"cmd": "start", "version": 1})


def run_line(seq, scenario_id="ok", ruleset="modern") -> str:
    return dumps({"cmd": "run", "seq": seq, "ruleset": ruleset,
                  "scenario": {"id": scenario_id, "cards": {"Forest": {"name": "Forest"}}}})


# --------------------------------------------------------------------------------------------
# serve() in process, with a fake engine (no subprocess, no reference engine needed)


def test_serve_handshake_and_run():
    code, replies = serve_in_process([START, run_line(7), dumps({"cmd": "stop"}), run_line(8)])
    assert code == 0
    assert replies[0] == {"version": 1, "implementation": FAKE_IMPLEMENTATION}
    assert replies[1] == {"seq": 7, "events": [{"type": "game_started", "ruleset": "modern"}],
                          "state": {"id": "ok", "cards": ["Forest"]}, "checkpoints": []}
    assert len(replies) == 2  # nothing is read after stop


@pytest.mark.parametrize("line, seq, words", [
    ("{not json", None, "invalid JSON"),
    ("[1, 2]", None, "JSON object"),
    (dumps({"cmd": "dance", "seq": 3}), 3, "unknown cmd"),
    (dumps({"cmd": "run", "ruleset": "modern", "scenario": {}}), None, "seq"),
    (dumps({"cmd": "run", "seq": 4, "scenario": {}}), 4, "ruleset"),
    (dumps({"cmd": "run", "seq": 5, "ruleset": "modern"}), 5, "scenario"),
    (dumps({"cmd": "run", "seq": 6, "ruleset": "vintage-1993", "scenario": {}}), 6, "ruleset"),
    (run_line(9, "boom"), 9, "blew up"),
])
def test_serve_answers_errored_and_keeps_serving(line, seq, words):
    code, replies = serve_in_process([START, line, run_line(10)])
    assert code == 0
    error, after = replies[1], replies[2]
    assert error["errored"] is True and error["seq"] == seq
    assert words in error["context"]["message"]
    assert after["seq"] == 10 and "events" in after


def test_serve_result_with_a_float_is_errored():
    def floaty(scenario, ruleset, cards=None):
        return {"events": [{"type": "life_lost", "amount": 1.5}], "state": {}, "checkpoints": []}

    _, replies = serve_in_process([START, run_line(1), run_line(2)], run=floaty)
    assert replies[1]["seq"] == 1 and replies[1]["errored"] is True
    assert "float" in replies[1]["context"]["message"]
    assert replies[2]["seq"] == 2 and replies[2]["errored"] is True


def test_serve_engine_exception_has_traceback():
    _, replies = serve_in_process([START, run_line(1, "boom")])
    assert replies[1]["context"]["type"] == "RuntimeError"
    assert "Traceback" in replies[1]["context"]["traceback"]


def test_serve_run_before_start_and_bad_version():
    _, replies = serve_in_process([run_line(1), dumps({"cmd": "start", "version": 2}),
                                   run_line(2), START, run_line(3)])
    assert replies[0] == {"seq": 1, "errored": True, "context": {"message": "run before start"}}
    assert replies[1]["errored"] and "version" in replies[1]["context"]["message"]
    assert replies[2]["errored"] and replies[2]["context"]["message"] == "run before start"
    assert replies[3]["version"] == 1
    assert replies[4]["seq"] == 3 and "errored" not in replies[4]


def test_serve_engine_prints_do_not_corrupt_stdout(capsys):
    def noisy(scenario, ruleset, cards=None):
        print("debug output")
        return fake_run(scenario, ruleset, cards)

    out = io.StringIO()
    serve(io.StringIO(START + "\n" + run_line(1) + "\n"), out,
          implementation=FAKE_IMPLEMENTATION, run=noisy)
    assert [json.loads(line)["version" if i == 0 else "seq"]
            for i, line in enumerate(out.getvalue().splitlines())] == [1, 1]
    assert "debug output" in capsys.readouterr().err


def test_serve_writes_canonical_lines():
    out = io.StringIO()
    serve(io.StringIO(START + "\n" + run_line(1) + "\n"), out,
          implementation=FAKE_IMPLEMENTATION, run=fake_run)
    for line in out.getvalue().splitlines():
        assert line == dumps(json.loads(line))


def test_reference_implementation():
    engine = pytest.importorskip("mtg_judge.engine")
    if not hasattr(engine, "RULESETS"):
        pytest.skip("engine.RULESETS does not exist yet")
    impl = protocol.IMPLEMENTATION
    assert impl["name"] == "mtg-judge-reference"
    assert impl["language"] == "python"
    assert impl["capabilities"] == ["events", "state", "checkpoints"]
    assert impl["rulesets"] == list(engine.RULESETS)
    assert set(impl) == {"name", "version", "language", "homepage", "rulesets", "capabilities", "state_parts"}
    assert impl["state_parts"] == list(protocol.STATE_PARTS)  # every part, library order included (§11)


def test_build_scenario_keeps_only_the_cards_used():
    fixture = {"id": "x", "setup": {"players": [
        {"id": "alice", "hand": [{"alias": "bolt", "card": "Lightning Bolt"}],
         "battlefield": [{"alias": "m", "card": "Mountain"}, {"alias": "m2", "card": "Mountain"}]},
        {"id": "bob", "library": [{"alias": "f", "card": "Forest"}]}]}}
    cards = {"Lightning Bolt": {"name": "Lightning Bolt"}, "Mountain": {"name": "Mountain"},
             "Forest": {"name": "Forest"}, "Island": {"name": "Island"}}
    assert cards_used(fixture) == ["Forest", "Lightning Bolt", "Mountain"]
    scenario = build_scenario(fixture, cards)
    assert sorted(scenario["cards"]) == ["Forest", "Lightning Bolt", "Mountain"]
    assert "cards" not in fixture
    with pytest.raises(KeyError, match="Forest"):
        build_scenario(fixture, {"Lightning Bolt": {}, "Mountain": {}})


# --------------------------------------------------------------------------------------------
# ProtocolEngine against fake engines (temporary Python scripts)

FAKE_ENGINE = textwrap.dedent('''
    import json, os, sys, time

    # Behaviour is chosen by the scenario id: ok | crash | hang | wrong-seq | garbage |
    # errored | skip | no-events | print-state. argv[1] optionally overrides the handshake.
    handshake = {"version": 1, "implementation": {
        "name": "fake", "version": "0", "language": "python", "homepage": "https://example.invalid",
        "rulesets": ["modern", "classic-1999"], "capabilities": ["events", "state"]}}
    if len(sys.argv) > 1:
        handshake.update(json.loads(sys.argv[1]))
    pid = os.getpid()

    def reply(obj):
        sys.stdout.write(json.dumps(obj) + "\\n")
        sys.stdout.flush()

    for line in sys.stdin:
        msg = json.loads(line)
        if msg["cmd"] == "stop":
            break
        if msg["cmd"] == "start":
            reply(handshake)
            continue
        seq, scenario = msg["seq"], msg["scenario"]
        what = scenario["id"]
        if what == "crash":
            sys.stderr.write("fake engine: segfault, sort of\\n")
            sys.stderr.flush()
            os._exit(3)
        elif what == "hang":
            time.sleep(3600)
        elif what == "wrong-seq":
            reply({"seq": seq + 100, "events": [], "state": {}})
        elif what == "garbage":
            sys.stdout.write("this is not json\\n")
            sys.stdout.flush()
        elif what == "errored":
            reply({"seq": seq, "errored": True, "context": {"message": "no such card"}})
        elif what == "skip":
            reply({"seq": seq, "skipped": True, "message": "not implemented: suspend"})
        elif what == "no-events":
            reply({"seq": seq, "state": {}})
        else:
            reply({"seq": seq, "events": [{"type": "game_started", "ruleset": msg["ruleset"]}],
                   "state": {"pid": pid, "expect": scenario.get("expect")}})
''')


@pytest.fixture
def fake_engine(tmp_path):
    script = tmp_path / "fake_engine.py"
    script.write_text(FAKE_ENGINE, encoding="utf-8")

    def make(timeout: float = 10.0, handshake: dict | None = None) -> ProtocolEngine:
        argv = [sys.executable, str(script)]
        if handshake is not None:
            argv.append(json.dumps(handshake))
        return ProtocolEngine(argv, timeout=timeout)

    return make


def scenario(what: str, **extra) -> dict:
    return {"id": what, **extra}


def test_engine_handshake_and_run(fake_engine):
    with fake_engine() as eng:
        assert eng.implementation["name"] == "fake"
        first = eng.run(scenario("ok"), "modern")
        assert isinstance(first, Result) and first.seq == 1
        assert first.events == [{"type": "game_started", "ruleset": "modern"}]
        assert first.keys == ("events", "state") and set(first.result()) == {"events", "state"}
        assert eng.run(scenario("ok"), "classic-1999").result()["state"]["pid"] == first.result()["state"]["pid"]
        assert eng.restarts == 0


@pytest.mark.parametrize("what, kind, context, restarted", [
    # The engine exits mid-run: its return code and stderr are reported; a new one starts.
    ("crash", "crash", {"returncode": 3, "stderr": "fake engine: segfault, sort of\n"}, True),
    # It hangs: killed after the read timeout (1 s here); a new one starts.
    ("hang", "timeout", {"returncode": None, "stderr": ""}, True),
    # It answers out of turn, or with a line that is not JSON: the stream cannot be trusted.
    ("wrong-seq", "wrong_seq", {"expected": 2, "got": 102}, True),
    ("garbage", "bad_reply", {"line": "this is not json"}, True),
    # A JSON reply without events: the engine is still in step, no restart.
    ("no-events", "bad_reply", None, False),
])
def test_engine_failure_then_next_run_works(fake_engine, what, kind, context, restarted):
    with fake_engine(timeout=1.0) as eng:
        pid = eng.run(scenario("ok"), "modern").result()["state"]["pid"]
        with pytest.raises(EngineError) as info:
            eng.run(scenario(what), "modern")
        assert info.value.kind == kind
        if context is not None:
            assert info.value.context == context
        after = eng.run(scenario("ok"), "modern").result()
        assert after["events"] == [{"type": "game_started", "ruleset": "modern"}]
        assert (after["state"]["pid"] != pid) == restarted
        assert eng.restarts == int(restarted)


def test_engine_errored_and_skipped(fake_engine):
    with fake_engine() as eng:
        with pytest.raises(EngineError) as info:
            eng.run(scenario("errored"), "modern")
        assert info.value.kind == "errored"
        assert info.value.context == {"message": "no such card"}
        assert eng.run(scenario("skip"), "modern") == Skipped(2, "not implemented: suspend")
        assert eng.restarts == 0


def test_engine_sends_nothing_undeclared(fake_engine):
    with fake_engine() as eng:
        skipped = eng.run(scenario("crash"), "timespiral-2006")  # never sent: no crash
        assert isinstance(skipped, Skipped) and skipped.seq is None and "timespiral-2006" in skipped.message
        # The fake did not declare "checkpoints": the probes are left out of the scenario.
        expect = {"events": [], "checkpoints": [{"after": 0, "state": {}}]}
        echoed = eng.run(scenario("ok", expect=expect), "modern").result()["state"]["expect"]
        assert echoed == {"events": []}
        assert eng.restarts == 0


def test_engine_wrong_protocol_version(fake_engine):
    eng = fake_engine(handshake={"version": 2})
    try:
        with pytest.raises(EngineError) as info:
            eng.start()
        assert info.value.kind == "bad_reply" and "version" in info.value.message
    finally:
        eng.stop()


def test_engine_command_not_found(tmp_path):
    eng = ProtocolEngine(str(tmp_path / "no-such-engine"), timeout=5)
    with pytest.raises(EngineError) as info:
        eng.start()
    assert info.value.kind == "crash"
    eng.stop()


def test_engine_stop_is_idempotent(fake_engine):
    eng = fake_engine()
    eng.start()
    proc = eng._proc
    eng.stop()
    eng.stop()
    assert proc.returncode == 0  # it left on "stop", it was not killed


# --------------------------------------------------------------------------------------------
# The reference engine through `mtg-judge serve`


def _suite() -> tuple[list[dict], dict[str, dict]]:
    """(every fixture, card JSON by name) of the suite."""
    from mtg_judge.conformance.loader import load_all_fixtures, load_cards

    fixtures = [fixture for _path, fixture in load_all_fixtures()]
    if not fixtures:
        pytest.skip("no fixtures yet")
    return fixtures, load_cards()


def _run_scenario():
    engine = pytest.importorskip("mtg_judge.engine")
    if not (hasattr(engine, "run_scenario") and hasattr(engine, "RULESETS")):
        pytest.skip("engine.run_scenario / engine.RULESETS do not exist yet")
    return engine.run_scenario


def test_reference_engine_through_serve_matches_in_process():
    argv = serve_argv()
    run_scenario = _run_scenario()
    fixtures, cards = _suite()
    cases = 0
    mismatches = []
    with ProtocolEngine(argv, timeout=60, validate=True) as eng:
        assert eng.implementation == protocol.IMPLEMENTATION
        for fixture in fixtures:
            scen = build_scenario(fixture, cards)
            for ruleset in fixture["rulesets"]:
                cases += 1
                try:
                    local = dumps(normalize(run_scenario(scen, ruleset, cards=scen["cards"])))
                except Exception as exc:  # the server must answer errored, same message
                    with pytest.raises(EngineError) as info:
                        eng.run(scen, ruleset)
                    assert info.value.kind == "errored"
                    assert str(exc) in info.value.message
                    continue
                remote = dumps(normalize(eng.run(scen, ruleset).result()))
                if remote != local:
                    mismatches.append(f"{fixture['id']} / {ruleset}")
        assert eng.restarts == 0
    assert cases > 0
    assert not mismatches, f"serve differs from in-process for: {mismatches}"


def _first_case() -> tuple[dict, str]:
    fixtures, cards = _suite()
    return build_scenario(fixtures[0], cards), fixtures[0]["rulesets"][0]


def test_serve_subprocess_malformed_line_then_next_run_works():
    argv = serve_argv()
    scen, ruleset = _first_case()
    run = dumps({"cmd": "run", "seq": 2, "ruleset": ruleset, "scenario": scen})
    code, replies = talk(argv, [START, "{oops", dumps({"cmd": "run", "seq": 1}), run,
                                dumps({"cmd": "stop"})])
    assert code == 0
    assert replies[0]["version"] == 1
    assert replies[1]["errored"] is True and replies[1]["seq"] is None
    assert replies[2]["errored"] is True and replies[2]["seq"] == 1
    assert replies[3]["seq"] == 2 and "events" in replies[3] and "errored" not in replies[3]
    assert len(replies) == 4


def test_serve_subprocess_run_before_start():
    argv = serve_argv()
    scen, ruleset = _first_case()
    code, replies = talk(argv, [dumps({"cmd": "run", "seq": 5, "ruleset": ruleset,
                                       "scenario": scen})])
    assert code == 0
    assert replies == [{"seq": 5, "errored": True, "context": {"message": "run before start"}}]


def test_serve_subprocess_eof_exits_zero():
    argv = serve_argv()
    code, replies = talk(argv, [START])
    assert code == 0
    assert replies == [{"version": 1, "implementation": protocol.IMPLEMENTATION}]
    code, replies = talk(argv, [])
    assert (code, replies) == (0, [])


def test_example_engine_in_protocol_md_works(tmp_path):
    """The minimal engine of docs/PROTOCOL.md §5 speaks the protocol as documented."""
    text = (ROOT / "docs" / "PROTOCOL.md").read_text(encoding="utf-8")
    block = text.split("<!-- example-engine", 1)[1].split("```python\n", 1)[1].split("```", 1)[0]
    script = tmp_path / "my_engine.py"
    script.write_text(block, encoding="utf-8")
    fixtures, cards = _suite()
    fixture = next(f for f in fixtures if "modern" in f["rulesets"])
    scen = build_scenario(fixture, cards)
    with ProtocolEngine([sys.executable, str(script)], timeout=10, validate=True) as eng:
        assert eng.implementation["name"] == "tiny-engine"
        assert eng.run(scen, "modern") == Skipped(1, f"not implemented yet: {fixture['id']}")
        assert isinstance(eng.run(scen, "classic-1999"), Skipped)  # not declared, not sent
        eng.validate = False  # send it a scenario the schema refuses
        with pytest.raises(EngineError) as info:
            eng.run({"no": "id"}, "modern")
        assert info.value.kind == "errored" and "KeyError" in info.value.message
        assert eng.restarts == 0


def test_an_engine_command_not_on_path_names_the_one_beside_this_python():
    """`--engine "mtg-judge serve"` typed with `.venv/bin/mtg-judge` and the venv not on PATH:
    the error says where this Python's environment has the command (a new user's first try
    of `mtg-judge fuzz --engine "mtg-judge serve"`)."""
    beside = Path(sys.executable).parent / "mtg-judge"
    assert beside.exists(), "the test environment installs the mtg-judge script beside python"
    engine = protocol.ProtocolEngine("mtg-judge serve", env={"PATH": "/nonexistent"})
    with pytest.raises(protocol.EngineError) as info:
        engine.start()
    assert "is not on PATH" in str(info.value) and str(beside) in str(info.value)


def test_serve_drops_a_request_line_over_the_limit_and_goes_on():
    """A runaway line is read to its end and answered errored with seq null (PROTOCOL §3),
    the next request is served; without its newline at the end of input, the same."""
    requests = (b'{"cmd":"start","version":1,"seq":1}\n' + b'{"cmd":"run","seq":2,"x":"' + b"a" * 5000
                + b'"}\n' + b'{"cmd":"nope","seq":3}\n' + b"b" * 3000)
    out = io.BytesIO()
    assert protocol.serve(io.BytesIO(requests), out, max_request=1000) == 0
    replies = [json.loads(line) for line in out.getvalue().decode("utf-8").splitlines()]
    assert [r.get("seq") for r in replies] == [None, None, 3, None]
    assert replies[0]["version"] == 1
    assert replies[1]["errored"] and "request line longer than 1000 bytes" in replies[1]["context"]["message"]
    assert "unknown cmd 'nope'" in replies[2]["context"]["message"]
    assert replies[3]["errored"] and "longer than 1000 bytes" in replies[3]["context"]["message"]
    assert protocol.MAX_REQUEST_BYTES == 16 * 1024 * 1024
