"""The typed protocol messages (conformance/messages.py; issue 26 item 4) and the one path of
``run_case``.

* Each message's ``to_json`` is the object on the wire (docs/PROTOCOL.md §2, the schemas
  ``schema/protocol-*.schema.json``), and ``from_json`` reads it back to an equal value.
* A message of the wrong shape raises :class:`MessageError` naming the JSON path and what
  was expected.
* ``run_case`` asks every engine the same way: the in-process reference engine is one more
  connection (:class:`InProcessEngine`), with the interface of :class:`ProtocolEngine`.
"""

from __future__ import annotations

import inspect
import json

import pytest

from mtg_judge.conformance import protocol, runner
from mtg_judge.conformance.canonical import dumps
from mtg_judge.conformance.loader import validate
from mtg_judge.conformance.messages import (
    REPLY,
    Errored,
    Handshake,
    MessageError,
    Result,
    Run,
    Skipped,
    Start,
    Stop,
    parse_request,
    parse_run_reply,
    parse_start_reply,
)
from mtg_judge.conformance.protocol import InProcessEngine, ProtocolEngine, _run_line

IMPLEMENTATION = {"name": "fake", "version": "1", "language": "python", "homepage": "",
                  "rulesets": ["modern"], "capabilities": ["events", "state"]}
EVENTS = [{"type": "game_started", "ruleset": "modern", "turn": 1}]

#: One value of each message, its wire object (written from docs/PROTOCOL.md §2), its schema.
MESSAGES = [
    (Start(), {"cmd": "start", "version": 1}, "protocol-start"),
    (Run(7, "modern", {"id": "x"}), {"cmd": "run", "seq": 7, "ruleset": "modern", "scenario": {"id": "x"}},
     None),  # a real scenario: test_the_spliced_run_line_is_the_canonical_line
    (Stop(), {"cmd": "stop"}, "protocol-stop"),
    (Handshake(IMPLEMENTATION), {"version": 1, "implementation": IMPLEMENTATION}, "protocol-start-reply"),
    (Result(3, EVENTS, None, []), {"seq": 3, "events": EVENTS, "checkpoints": []}, None),
    (Skipped(4, "not implemented: suspend"), {"seq": 4, "skipped": True, "message": "not implemented: suspend"},
     "protocol-run-reply"),
    (Errored(5, {"message": "no such card"}), {"seq": 5, "errored": True, "context": {"message": "no such card"}},
     "protocol-run-reply"),
    (Errored(None, {"message": "invalid JSON"}), {"seq": None, "errored": True, "context": {"message": "invalid JSON"}},
     "protocol-run-reply"),
]


@pytest.mark.parametrize("message, wire, schema", MESSAGES, ids=lambda v: type(v).__name__)
def test_to_json_is_the_wire_object_and_from_json_reads_it_back(message, wire, schema):
    assert message.to_json() == wire
    assert type(message).from_json(json.loads(dumps(wire))) == message
    if schema is not None:  # the contract stays the schemas'
        assert validate(wire, schema, "<message>") == []


def test_messages_are_frozen_values():
    with pytest.raises(AttributeError):
        Start().version = 2  # type: ignore[misc]
    assert not hasattr(Skipped(1, ""), "__dict__")  # slots


def test_the_typed_parsers_pick_the_class_of_each_line():
    assert parse_request({"cmd": "start", "version": 1}) == Start()
    assert parse_request({"cmd": "stop", "seq": "anything"}) == Stop()
    assert parse_request({"cmd": "run", "seq": 1, "ruleset": "modern", "scenario": {}}) == Run(1, "modern", {})
    assert parse_start_reply({"version": 1, "implementation": IMPLEMENTATION}) == Handshake(IMPLEMENTATION)
    assert parse_start_reply({"errored": True, "context": {"message": "no"}}) == Errored(None, {"message": "no"})
    assert parse_run_reply({"seq": 2, "skipped": True, "message": "m"}) == Skipped(2, "m")
    assert parse_run_reply({"seq": 2, "errored": True, "context": "x"}) == Errored(2, {"context": "x"})
    assert parse_run_reply({"seq": 2, "state": {}}) == Result(2, None, {}, None)


def test_a_result_keeps_the_keys_present_and_drops_the_undeclared():
    result = Result(1, EVENTS, {"turn": 1}, None)
    assert result.keys == ("events", "state")
    assert result.result() == {"events": EVENTS, "state": {"turn": 1}}
    assert result.only(["state"]) == Result(1, None, {"turn": 1}, None)
    assert Result.of({"events": EVENTS, "state": {}, "checkpoints": [], "extra": 1}, 9).to_json() == {
        "seq": 9, "events": EVENTS, "state": {}, "checkpoints": []}


@pytest.mark.parametrize("parse, obj, path, words", [
    (parse_request, [1, 2], "$", "JSON object"),
    (parse_request, {"cmd": "dance", "seq": 3}, "$.cmd", "unknown cmd"),
    (parse_request, {"cmd": "run", "seq": 1.5}, "$.seq", "seq must be an integer"),
    (parse_request, {"cmd": "start", "version": 2}, "$.version", "unsupported protocol version 2"),
    (parse_request, {"cmd": "run", "ruleset": "modern", "scenario": {}}, "$.seq", "missing field 'seq'"),
    (parse_request, {"cmd": "run", "seq": 4, "scenario": {}}, "$.ruleset", "'ruleset' must be a string"),
    (parse_request, {"cmd": "run", "seq": 5, "ruleset": "modern", "scenario": []}, "$.scenario",
     "'scenario' must be an object"),
    (parse_start_reply, {"version": 2, "implementation": IMPLEMENTATION}, "$.version", "protocol version 2"),
    (parse_start_reply, {"version": 1, "implementation": {"name": "x"}}, "$.implementation", "rulesets list"),
    (parse_start_reply, {"version": 1, "implementation": {**IMPLEMENTATION, "capabilities": "events"}},
     "$.implementation.capabilities", "not a list"),
    (parse_run_reply, {"seq": "1", "events": []}, "$.seq", "seq must be an integer"),
    (parse_run_reply, {"seq": 1, "events": None}, "$.events", "null, expected an array of events"),
    (parse_run_reply, {"seq": 1, "state": []}, "$.state", "an array, expected a state object"),
])
def test_a_bad_message_names_its_path_and_what_was_expected(parse, obj, path, words):
    with pytest.raises(MessageError) as info:
        parse(obj)
    error = info.value
    assert error.path == path and words in error.message and error.expected
    assert str(error).startswith(f"{error.where}: {path}: ")
    if parse is not parse_request:
        assert error.where == REPLY


def test_a_bad_run_keeps_its_seq_for_the_errored_reply():
    with pytest.raises(MessageError) as info:
        parse_request({"cmd": "run", "seq": 5, "ruleset": 1, "scenario": {}})
    assert info.value.seq == 5
    assert Errored.of(info.value.seq, info.value.message).to_json() == {
        "seq": 5, "errored": True, "context": {"message": "run: field 'ruleset' must be a string"}}


def test_a_bad_run_reply_is_a_bad_reply_naming_the_path(tmp_path):
    script = tmp_path / "engine.py"
    script.write_text(
        "import json, sys\n"
        "for line in sys.stdin:\n"
        "    msg = json.loads(line)\n"
        "    if msg['cmd'] == 'stop': break\n"
        "    if msg['cmd'] == 'start':\n"
        f"        print(json.dumps({{'version': 1, 'implementation': {IMPLEMENTATION!r}}}), flush=True)\n"
        "    else:\n"
        "        print(json.dumps({'seq': msg['seq'], 'events': 'lots', 'state': {}}), flush=True)\n",
        encoding="utf-8")
    with ProtocolEngine([protocol.sys.executable, str(script)], timeout=20) as engine:
        with pytest.raises(protocol.EngineError) as info:
            engine.run({"id": "x"}, "modern")
    assert info.value.kind == "bad_reply" and info.value.context["path"] == "$.events"
    assert "expected an array of events" in info.value.message


def test_the_spliced_run_line_is_the_canonical_line():
    """ProtocolEngine puts ``Case.scenario_json`` into the request line as it is: the bytes
    are those of ``dumps(Run(...).to_json())``."""
    [case] = runner.collect(rulesets=["modern"], keyword="classic.stack.last-in-first-out")
    request = Run(12, case.ruleset, case.scenario)
    assert _run_line(request, case.scenario_json) == dumps(request.to_json())
    assert validate(request.to_json(), "protocol-run", "<request>") == []


# --------------------------------------------------------------------------------------------
# One path


def test_the_in_process_engine_has_the_interface_of_the_protocol_client():
    client = ProtocolEngine("an-engine-never-started")
    for name in ("implementation", "capabilities", "run", "close", "start"):
        assert hasattr(InProcessEngine(), name) and hasattr(client, name), name
    assert list(inspect.signature(InProcessEngine.run).parameters) == list(
        inspect.signature(ProtocolEngine.run).parameters)
    engine = InProcessEngine()
    assert engine.implementation == protocol.reference_implementation()
    assert engine.capabilities == protocol.CAPABILITIES


def test_the_in_process_engine_answers_typed_replies_on_a_fresh_copy():
    [case] = runner.collect(rulesets=["modern"], keyword="classic.stack.last-in-first-out")
    before = dumps(case.scenario)
    reply = InProcessEngine().run(case.scenario, case.ruleset, scenario_json=case.scenario_json)
    assert isinstance(reply, Result) and reply.seq is None and reply.keys == ("events", "state", "checkpoints")
    assert dumps(case.scenario) == before  # the engine played a copy
    assert InProcessEngine().run(case.scenario, case.ruleset).result() == reply.result()  # copy made from the dict
    skipped = InProcessEngine().run(case.scenario, "vintage-1993")
    assert skipped == Skipped(None, "the reference engine has no ruleset vintage-1993")


def test_run_case_has_one_path_the_reference_is_a_connection(monkeypatch):
    """``run_case(case)`` is ``run_case(case, REFERENCE)``: the default connection is asked
    exactly as any other, and a stand-in connection gets the same call."""
    [case] = runner.collect(rulesets=["modern"], keyword="classic.stack.last-in-first-out")
    calls = []
    real = InProcessEngine.run

    def spy(self, scenario, ruleset, *, scenario_json=None):
        calls.append((type(self).__name__, scenario is case.scenario, ruleset, scenario_json == case.scenario_json))
        return real(self, scenario, ruleset, scenario_json=scenario_json)

    monkeypatch.setattr(InProcessEngine, "run", spy)
    default = runner.run_case(case)
    assert isinstance(runner.REFERENCE, InProcessEngine)
    explicit = runner.run_case(case, runner.REFERENCE)

    class Other:
        capabilities = ["events", "state", "checkpoints"]

        def run(self, scenario, ruleset, *, scenario_json=None):
            calls.append(("Other", scenario is case.scenario, ruleset, scenario_json == case.scenario_json))
            return real(InProcessEngine(), scenario, ruleset, scenario_json=scenario_json)

    other = runner.run_case(case, Other())
    assert calls == [("InProcessEngine", True, "modern", True)] * 2 + [("Other", True, "modern", True)]
    assert default.status == explicit.status == other.status == "passed"
    assert default.result == explicit.result == other.result


def test_run_case_reads_a_skipped_reply_of_any_connection():
    [case] = runner.collect(rulesets=["modern"], keyword="classic.stack.last-in-first-out")

    class Declines:
        capabilities = ["events"]

        def run(self, scenario, ruleset, *, scenario_json=None):
            return Skipped(1, "not implemented: the stack")

    outcome = runner.run_case(case, Declines())
    assert (outcome.status, outcome.message, outcome.result) == ("skipped", "not implemented: the stack", None)


# --------------------------------------------------------------------------------------------
# Reports read typed results


def test_a_case_record_round_trips_through_its_typed_reading(tmp_path):
    from mtg_judge.conformance import reports

    [case] = runner.collect(rulesets=["modern"], keyword="classic.stack.last-in-first-out")
    result = runner.run_case(case)
    record = reports.case_record(result, runner.DEFAULT_ROOT)
    typed = runner.CaseRecord.from_json(json.loads(dumps(record)))
    assert typed == runner.CaseRecord.of(result, record["path"])  # the same reading of both
    assert (typed.name, typed.status, typed.path) == (case.name, "passed", "classic/stack/last-in-first-out.json")
    assert typed.to_json() == record
    assert runner.summarize([record]) == runner.summarize([typed]) == runner.summarize([result])
    older = {k: v for k, v in record.items() if k not in ("name", "mismatches", "message")}
    assert runner.CaseRecord.from_json(older).to_json() == record  # an older report's defaults


@pytest.mark.parametrize("change, path, words", [
    ({"status": "great"}, "$.status", "status 'great', expected one of passed"),
    ({"document": None}, "$.document", "missing or non-string document"),
    ({"mismatches": "one"}, "$.mismatches", "a list of strings"),
    ({"error_kind": 3}, "$.error_kind", "a string or null"),
])
def test_a_bad_case_record_names_its_key(change, path, words):
    record = {"kind": "case", "id": "a", "ruleset": "modern", "document": "d", "mechanic": "m",
              "status": "passed", **change}
    with pytest.raises(runner.RecordError) as info:
        runner.CaseRecord.from_json(record)
    assert info.value.path == path and words in info.value.message and info.value.expected
