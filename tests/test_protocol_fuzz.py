"""Protocol fuzzing (docs/PROTOCOL.md): hostile input to ``mtg-judge serve`` and silent or
misbehaving engines for the harness (``mtg_judge.conformance.protocol.ProtocolEngine``).

The server answers ``errored`` to anything it can't use and keeps serving, or exits cleanly
(code 0) at the end of its input; it never hangs. The harness never hangs on an engine: every
read is bounded by its timeout. Every test has its own time bound (subprocess timeouts, a
watchdog thread), so a hang fails the test instead of blocking the run.

Four robustness bugs found here are fixed and their tests guard them: the server died on a
request whose ``seq`` held a float or on a deeply nested JSON line; the harness raised
RecursionError on a deeply nested reply, and could miss its timeout when an engine flooded
blank lines.
"""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
import textwrap
import threading
import time
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from mtg_judge.conformance.canonical import dumps
from mtg_judge.conformance.protocol import EngineError, ProtocolEngine, serve

ROOT = Path(__file__).resolve().parent.parent
SERVE = [sys.executable, "-m", "mtg_judge.tools.cli", "serve"]
START = dumps({"cmd": "start", "version": 1}) + "\n"
settings.register_profile("ci", max_examples=30, derandomize=True, deadline=None, database=None,
                          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
settings.register_profile("long", max_examples=3000, deadline=None, database=None,
                          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
PROFILE = settings.get_profile(os.environ.get("MTG_JUDGE_HYPOTHESIS_PROFILE", "ci"))


def fixture_scenario() -> dict:
    from mtg_judge.conformance.loader import load_cards, load_fixture
    from mtg_judge.conformance.protocol import build_scenario
    fixture = load_fixture(ROOT / "fixtures/classic/stack/last-in-first-out.json")
    return build_scenario(fixture, load_cards(ROOT / "fixtures/cards"))


def talk(lines: list, timeout: float = 120, close: bool = True) -> tuple[int, list[dict], str]:
    """Feed raw lines (str or bytes, newlines included) to ``mtg-judge serve``; return its exit
    code, its reply objects and its stderr. The process must finish within ``timeout``."""
    data = b"".join(line if isinstance(line, bytes) else line.encode("utf-8") for line in lines)
    proc = subprocess.run(SERVE, input=data, cwd=ROOT, capture_output=True, timeout=timeout)
    out = proc.stdout.decode("utf-8")
    return proc.returncode, [json.loads(line) for line in out.splitlines() if line.strip()], \
        proc.stderr.decode("utf-8", "replace")


def line(obj) -> str:
    return json.dumps(obj) + "\n"


# -------------------------------------------------------------------------- the server
MALFORMED = [
    ("not json", "{not json\n", "invalid JSON"),
    ("truncated", '{"cmd": "run", "seq": 4\n', "invalid JSON"),
    ("a list", "[1, 2, 3]\n", "JSON object"),
    ("a string", '"start"\n', "JSON object"),
    ("null", "null\n", "JSON object"),
    ("cmd a number", line({"cmd": 5, "seq": 1}), "unknown cmd"),
    ("cmd missing", line({"seq": 2}), "unknown cmd"),
    ("unknown cmd", line({"cmd": "shutdown", "seq": 3}), "unknown cmd"),
    ("version a string", line({"cmd": "start", "version": "1"}), "version"),
    ("version 2", line({"cmd": "start", "version": 2}), "version"),
    ("ruleset a number", line({"cmd": "run", "seq": 6, "ruleset": 5, "scenario": {}}), "ruleset"),
    ("unknown ruleset", line({"cmd": "run", "seq": 7, "ruleset": "vintage", "scenario": {}}), "ruleset"),
    ("scenario a list", line({"cmd": "run", "seq": 8, "ruleset": "modern", "scenario": []}), "scenario"),
    ("no seq", line({"cmd": "run", "ruleset": "modern", "scenario": {}}), "seq"),
    ("empty scenario", line({"cmd": "run", "seq": 9, "ruleset": "modern", "scenario": {}}), "players"),
    ("players not a list", line({"cmd": "run", "seq": 10, "ruleset": "modern",
                                 "scenario": {"setup": {"players": 5}}}), "Error"),
    ("script not a list", line({"cmd": "run", "seq": 11, "ruleset": "modern",
                                "scenario": {**fixture_scenario(), "script": "pass"}}),
     "script: expected a JSON array of inputs, not string"),
    ("invalid UTF-8", b'{"cmd": "\xff\xfe"}\n', "unknown cmd"),
]


def test_malformed_requests_are_errored_one_by_one_and_the_server_goes_on():
    scenario = fixture_scenario()
    good = line({"cmd": "run", "seq": 99, "ruleset": "modern", "scenario": scenario})
    lines = [START, "\n"] + [raw for _, raw, _ in MALFORMED] + ["   \n", good, line({"cmd": "stop"}), good]
    code, replies, _ = talk(lines)
    assert code == 0
    assert replies[0]["version"] == 1
    for (name, _, words), reply in zip(MALFORMED, replies[1:]):
        assert reply.get("errored") is True, (name, reply)
        assert words in reply["context"]["message"], (name, reply["context"]["message"])
    assert replies[len(MALFORMED) + 1]["seq"] == 99 and "events" in replies[len(MALFORMED) + 1]
    assert len(replies) == len(MALFORMED) + 2  # nothing after stop


def test_script_entries_that_are_not_objects_are_bad_inputs_in_a_normal_reply():
    """Each is rejected with ``bad_input`` at its index (docs/FORMAT.md §8); the game goes on."""
    scenario = {**fixture_scenario(), "script": [5, "x", None]}
    code, replies, _ = talk([START, line({"cmd": "run", "seq": 1, "ruleset": "modern", "scenario": scenario}),
                             line({"cmd": "stop"})])
    assert code == 0 and "errored" not in replies[1]
    rejected = [(e["at"], e["code"], e["message"]) for e in replies[1]["events"] if e["type"] == "action_rejected"]
    assert rejected == [(0, "bad_input", "an input is a JSON object, not number"),
                        (1, "bad_input", "an input is a JSON object, not string"),
                        (2, "bad_input", "an input is a JSON object, not null")]


def test_run_before_start_is_errored():
    code, replies, _ = talk([line({"cmd": "run", "seq": 1, "ruleset": "modern", "scenario": fixture_scenario()}),
                             START])
    assert code == 0
    assert replies[0] == {"seq": 1, "errored": True, "context": {"message": "run before start"}}
    assert replies[1]["version"] == 1


def test_a_five_megabyte_line_is_answered_quickly():
    pad = "x" * 5_000_000
    huge_valid = line({"cmd": "run", "seq": 1, "ruleset": "modern", "scenario": {"id": "big", "notes": pad}})
    huge_invalid = '{"cmd": "run", "seq": 2, "padding": "' + pad + "\n"
    start = time.monotonic()
    code, replies, _ = talk([START, huge_valid, huge_invalid, line({"cmd": "run", "seq": 3})], timeout=60)
    assert code == 0 and time.monotonic() - start < 60
    assert [r.get("errored") for r in replies[1:]] == [True, True, True]
    assert replies[1]["seq"] == 1 and replies[2]["seq"] is None and replies[3]["seq"] == 3


def test_stdin_closed_in_the_middle_of_a_message():
    proc = subprocess.Popen(SERVE, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=ROOT)
    try:
        proc.stdin.write(START.encode())
        proc.stdin.flush()
        assert json.loads(proc.stdout.readline())["version"] == 1
        proc.stdin.write(b'{"cmd": "run", "seq": 5, "ruleset": "mod')  # no newline: then EOF
        proc.stdin.close()
        proc.stdin = None  # closed: communicate() only reads
        out, _ = proc.communicate(timeout=60)
    finally:
        proc.kill()
    assert proc.returncode == 0
    replies = [json.loads(x) for x in out.decode().splitlines() if x.strip()]
    assert all(r.get("errored") for r in replies) and len(replies) <= 1


def test_end_of_input_without_stop_exits_zero():
    assert talk([START])[0] == 0
    assert talk([])[:2] == (0, [])


def test_a_float_seq_is_errored():
    code, replies, err = talk([START, line({"cmd": "run", "seq": 1.5}), line({"cmd": "run", "seq": [2.0]}),
                               line({"cmd": "start", "version": 1})])
    assert code == 0, err[-500:]
    assert [r.get("errored") for r in replies[1:3]] == [True, True] and replies[3]["version"] == 1


def test_a_deeply_nested_line_is_errored():
    code, replies, err = talk([START, "[" * 100_000 + "]" * 100_000 + "\n", START])
    assert code == 0, err[-500:]
    assert replies[1]["errored"] is True and replies[2]["version"] == 1


# ------------------------------------------------------------------ the server, fuzzed
json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-5, 10 ** 12) | st.text(max_size=10)
    | st.floats(allow_nan=False, allow_infinity=False),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
    max_leaves=20)
commands = st.sampled_from(["start", "run", "stop", "dance", "", "START"]) | json_values
rulesets = st.sampled_from(["modern", "timespiral-2006", "classic-1999", "vintage"]) | json_values


@st.composite
def mutated_scenario(draw):
    """A real scenario with one part replaced by a random JSON value (setup, script, an
    entry of a zone, a card, a script input …)."""
    scenario = json.loads(json.dumps(fixture_scenario()))
    paths = []

    def walk(node, path):
        paths.append(path)
        if isinstance(node, dict):
            for k, v in node.items():
                walk(v, path + [k])
        elif isinstance(node, list):
            for i, v in enumerate(node):
                walk(v, path + [i])
    walk(scenario, [])
    path = draw(st.sampled_from(paths[1:]))
    target = scenario
    for key in path[:-1]:
        target = target[key]
    target[path[-1]] = draw(json_values)
    return scenario


messages = st.one_of(
    json_values,
    st.fixed_dictionaries({"cmd": commands}, optional={"seq": json_values, "version": json_values,
                                                       "ruleset": rulesets, "scenario": json_values}),
    st.fixed_dictionaries({"cmd": st.just("run"), "seq": st.integers(0, 10 ** 9), "ruleset": rulesets,
                           "scenario": mutated_scenario()}),
)


def serve_with_watchdog(text: str, timeout: float = 60) -> tuple[int | None, str]:
    """``serve()`` in a thread on ``text``; fails the test if it runs longer than ``timeout``."""
    out = io.StringIO()
    result: dict = {}

    def target():
        try:
            result["code"] = serve(io.StringIO(text), out)
        except BaseException as exc:  # noqa: BLE001 - reported by the caller
            result["error"] = exc
    worker = threading.Thread(target=target, daemon=True)
    worker.start()
    worker.join(timeout)
    assert not worker.is_alive(), f"serve() still running after {timeout} s"
    if "error" in result:
        raise result["error"]
    return result.get("code"), out.getvalue()


def _stop_with_a_bad_seq(m) -> bool:
    return isinstance(m, dict) and m.get("cmd") == "stop" and "seq" in m and not (
        m["seq"] is None or (isinstance(m["seq"], int) and not isinstance(m["seq"], bool)))


@PROFILE
@given(msgs=st.lists(messages.filter(lambda m: not _stop_with_a_bad_seq(m)), max_size=6))
def test_serve_answers_every_message_once_and_never_hangs(msgs):
    """Any sequence of JSON messages (floats are tested by test_a_float_seq_is_errored): one reply line
    per message up to ``stop``, each a JSON object that is ``errored`` or the answer to
    that message, in order; then exit code 0."""
    code, text = serve_with_watchdog(START + "".join(json.dumps(m) + "\n" for m in msgs))
    assert code == 0
    replies = [json.loads(x) for x in text.splitlines()]
    expected = 1
    for m in msgs:
        if isinstance(m, dict) and m.get("cmd") == "stop":
            break
        expected += 1
    assert len(replies) == expected
    assert replies[0]["version"] == 1
    for m, reply in zip(msgs, replies[1:]):
        assert isinstance(reply, dict)
        if reply.get("errored"):
            assert isinstance(reply["context"]["message"], str)
        elif isinstance(m, dict) and m.get("cmd") == "run":
            assert reply["seq"] == m["seq"] and "events" in reply and "state" in reply
        else:
            assert isinstance(m, dict) and m.get("cmd") == "start" and reply["version"] == 1


def test_stop_stops_whatever_its_seq():
    code, replies, _ = talk([START, line({"cmd": "stop", "seq": []}), START])
    assert code == 0 and len(replies) == 1


# ------------------------------------------------------------------ the harness side
ENGINES = {
    # reads and never answers, not even the handshake
    "silent": "import sys\nfor _ in sys.stdin: pass\n",
    # answers the handshake, then never answers a run
    "mute-after-start": textwrap.dedent("""
        import json, sys, time
        sys.stdin.readline()
        print(json.dumps({"version": 1, "implementation": {"name": "m", "version": "1", "language": "py",
              "homepage": "", "rulesets": ["modern"], "capabilities": ["events", "state"]}}), flush=True)
        for _ in sys.stdin:
            time.sleep(3600)
    """),
    # half a line, no newline, then silence
    "half-line": "import sys, time\nsys.stdin.readline()\nsys.stdout.write('{\"version\": 1, \"impl')\n"
                 "sys.stdout.flush()\ntime.sleep(3600)\n",
    # closes its stdout but stays alive
    "closed-stdout": "import os, sys, time\nsys.stdin.readline()\nos.close(1)\ntime.sleep(3600)\n",
    # a five-megabyte line that is not JSON
    "huge-garbage": "import sys, time\nsys.stdin.readline()\nsys.stdout.write('x' * 5_000_000 + '\\n')\n"
                    "sys.stdout.flush()\ntime.sleep(3600)\n",
    # writes a lot to stderr before answering (the harness must not block on that pipe)
    "chatty-stderr": "import sys, time\nsys.stdin.readline()\nsys.stderr.write('e' * 2_000_000)\n"
                     "sys.stderr.flush()\ntime.sleep(3600)\n",
}
EXPECTED_KIND = {"silent": "timeout", "mute-after-start": "timeout", "half-line": "timeout",
                 "closed-stdout": "crash", "huge-garbage": "bad_reply", "chatty-stderr": "timeout"}


def harness_call(script: Path, timeout: float, run: bool, bound: float) -> tuple[object, float]:
    """Start the engine (and run a scenario) in a watchdog thread; returns what was raised
    (or returned) and how long it took. A harness still blocked after ``bound`` seconds
    fails the test (the engine process is killed to free the thread)."""
    eng = ProtocolEngine([sys.executable, str(script)], timeout=timeout)
    result: dict = {}

    def target():
        try:
            eng.start()
            result["value"] = eng.run({"id": "x"}, "modern") if run else eng.implementation
        except BaseException as exc:  # noqa: BLE001
            result["value"] = exc
    t0 = time.monotonic()
    worker = threading.Thread(target=target, daemon=True)
    worker.start()
    worker.join(bound)
    elapsed = time.monotonic() - t0
    alive = worker.is_alive()
    if alive and eng._proc is not None:
        eng._proc.kill()
        worker.join(10)
    eng.stop()
    assert not alive, f"the harness was still waiting after {bound} s"
    return result.get("value"), elapsed


@pytest.mark.parametrize("name", sorted(ENGINES))
def test_the_harness_never_hangs_on_a_misbehaving_engine(tmp_path, name):
    script = tmp_path / f"{name}.py"
    script.write_text(ENGINES[name], encoding="utf-8")
    value, elapsed = harness_call(script, timeout=2.0, run=name == "mute-after-start", bound=30)
    assert isinstance(value, EngineError), value
    assert value.kind == EXPECTED_KIND[name]
    assert elapsed < 20


def test_the_harness_times_out_an_engine_that_floods_blank_lines(tmp_path):
    script = tmp_path / "flood.py"
    script.write_text("import sys\nsys.stdin.readline()\nwhile True:\n    sys.stdout.write('\\n' * 1000)\n"
                      "    sys.stdout.flush()\n", encoding="utf-8")
    value, _ = harness_call(script, timeout=1.0, run=False, bound=15)
    assert isinstance(value, EngineError) and value.kind == "timeout"


def test_a_deeply_nested_reply_is_a_bad_reply(tmp_path):
    script = tmp_path / "deep.py"
    script.write_text(textwrap.dedent("""
        import json, sys
        sys.stdin.readline()
        print(json.dumps({"version": 1, "implementation": {"name": "d", "version": "1", "language": "py",
              "homepage": "", "rulesets": ["modern"], "capabilities": ["events", "state"]}}), flush=True)
        sys.stdin.readline()
        print('{"seq": 1, "events": ' + "[" * 100000 + "]" * 100000 + ', "state": {}}', flush=True)
        sys.stdin.readline()
    """), encoding="utf-8")
    value, _ = harness_call(script, timeout=5.0, run=True, bound=30)
    assert isinstance(value, EngineError) and value.kind == "bad_reply"
