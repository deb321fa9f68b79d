"""The messages of protocol v1 as typed values (DESIGN §9, docs/PROTOCOL.md §2).

Three requests (harness -> engine) and the replies to them (engine -> harness)::

    Start    {"cmd": "start", "version": 1}
    Run      {"cmd": "run", "seq": n, "ruleset": r, "scenario": {...}}
    Stop     {"cmd": "stop"}
    Handshake {"version": 1, "implementation": {...}}        the reply to start
    Result   {"seq": n, "events"?, "state"?, "checkpoints"?}  a run that played
    Skipped  {"seq": n, "skipped": true, "message": str}      a run the engine declines
    Errored  {"seq": n or null, "errored": true, "context": {"message", ...}}

Each is a frozen dataclass with ``from_json(obj, where)``, which reads the decoded JSON
object of a line and raises :class:`MessageError` (naming the JSON path and what was
expected) for one of the wrong shape, and ``to_json()``, which gives the exact object sent
on the wire. Both sides use them: :func:`mtg_judge.conformance.protocol.serve` (the
reference engine's server) reads requests and writes replies with them, the harness's
:class:`~mtg_judge.conformance.protocol.ProtocolEngine` writes requests and reads replies.

These checks are the ones each side needs in order to act on a message (is this a ``run``,
which ``seq``, is ``events`` a list); they are not a validation. The schemas
``schema/protocol-*.schema.json`` stay the contract: ``--validate-protocol`` checks every
message against them (``mtg_judge.conformance.loader.validate``, jsonschema).
"""

from __future__ import annotations

import traceback
from dataclasses import dataclass, field
from typing import Any, ClassVar, Iterable

#: The protocol version of these messages (``start.version``, ``Handshake.version``).
PROTOCOL_VERSION = 1
#: The keys of a ``run`` result, in FORMAT §9 order (each is the capability of that name).
RESULT_KEYS = ("events", "state", "checkpoints")
#: What labels a message that came from the harness or from an engine in a MessageError.
REQUEST, REPLY = "<request>", "<engine reply>"


class MessageError(ValueError):
    """A protocol message of the wrong shape.

    ``message``: one line saying what is wrong and what was expected (the text ``serve``
    puts in its ``errored`` reply); ``path``: the JSON path in the message (``$`` for the
    whole object, ``$.ruleset``); ``expected``: what was expected there, in words;
    ``where``: which message (:data:`REQUEST` or :data:`REPLY`); ``seq``: the message's
    ``seq`` when it could be read (an errored reply echoes it), else None.
    ``str(error)`` is ``"{where}: {path}: {message}"``.
    """

    def __init__(self, message: str, *, path: str = "$", expected: str = "",
                 where: str = REQUEST, seq: int | None = None) -> None:
        super().__init__(message)
        self.message, self.path, self.expected, self.where, self.seq = message, path, expected, where, seq

    def __str__(self) -> str:
        return f"{self.where}: {self.path}: {self.message}"


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _object(obj: object, where: str) -> dict[str, Any]:
    if not isinstance(obj, dict):
        raise MessageError(f"a message must be a JSON object, not {type(obj).__name__}",
                           expected="a JSON object", where=where)
    return obj


# --------------------------------------------------------------------------------------------
# Requests (harness -> engine)


@dataclass(frozen=True, slots=True)
class Start:
    """``{"cmd": "start", "version": 1}``: the handshake request, answered by a
    :class:`Handshake` (or an :class:`Errored` refusal)."""

    CMD: ClassVar[str] = "start"
    version: int = PROTOCOL_VERSION

    def to_json(self) -> dict[str, Any]:
        """The request object sent."""
        return {"cmd": self.CMD, "version": self.version}

    @classmethod
    def from_json(cls, obj: object, where: str = REQUEST) -> "Start":
        """Read a ``start`` request. Raises :class:`MessageError` at ``$.version`` for any
        version but :data:`PROTOCOL_VERSION` (the only one this side speaks)."""
        msg = _object(obj, where)
        version = msg.get("version")
        if not (_is_int(version) and version == PROTOCOL_VERSION):
            seq = msg.get("seq")
            raise MessageError(f"unsupported protocol version {version!r}; this engine speaks "
                               f"version {PROTOCOL_VERSION}", path="$.version",
                               expected=str(PROTOCOL_VERSION), where=where,
                               seq=seq if _is_int(seq) else None)
        return cls(version)


@dataclass(frozen=True, slots=True)
class Run:
    """``{"cmd": "run", "seq": n, "ruleset": r, "scenario": {...}}``: play one scenario (a
    fixture plus its ``cards``, FORMAT §3) under ruleset ``r``; answered by a
    :class:`Result`, :class:`Skipped` or :class:`Errored` echoing ``seq``."""

    CMD: ClassVar[str] = "run"
    seq: int
    ruleset: str
    scenario: dict[str, Any] = field(repr=False)

    def to_json(self) -> dict[str, Any]:
        """The request object sent (the scenario itself, not a copy)."""
        return {"cmd": self.CMD, "seq": self.seq, "ruleset": self.ruleset, "scenario": self.scenario}

    @classmethod
    def from_json(cls, obj: object, where: str = REQUEST) -> "Run":
        """Read a ``run`` request. Raises :class:`MessageError` for a missing or non-integer
        ``seq`` (then with ``seq`` None), a ``ruleset`` that is not a string or a
        ``scenario`` that is not an object (with the request's ``seq``). Whether the
        ruleset is one the engine declared is the engine's question, not the message's."""
        msg = _object(obj, where)
        if "seq" not in msg:
            raise MessageError("run: missing field 'seq'", path="$.seq", expected="an integer",
                               where=where)
        seq = msg["seq"]
        if not _is_int(seq):
            raise MessageError(f"seq must be an integer, not {type(seq).__name__}", path="$.seq",
                               expected="an integer", where=where)
        ruleset, scenario = msg.get("ruleset"), msg.get("scenario")
        if not isinstance(ruleset, str):
            raise MessageError("run: field 'ruleset' must be a string", path="$.ruleset",
                               expected="a string", where=where, seq=seq)
        if not isinstance(scenario, dict):
            raise MessageError("run: field 'scenario' must be an object", path="$.scenario",
                               expected="a JSON object (a fixture plus its cards)", where=where,
                               seq=seq)
        return cls(seq, ruleset, scenario)


@dataclass(frozen=True, slots=True)
class Stop:
    """``{"cmd": "stop"}``: the engine exits; no reply."""

    CMD: ClassVar[str] = "stop"

    def to_json(self) -> dict[str, Any]:
        """The request object sent."""
        return {"cmd": self.CMD}

    @classmethod
    def from_json(cls, obj: object, where: str = REQUEST) -> "Stop":
        """Read a ``stop`` request (any other field is ignored)."""
        _object(obj, where)
        return cls()


Request = Start | Run | Stop
#: The request classes by ``cmd``.
REQUESTS: dict[str, type[Start] | type[Run] | type[Stop]] = {c.CMD: c for c in (Start, Run, Stop)}


def request_cmd(obj: object, where: str = REQUEST) -> tuple[str, int | None]:
    """``(cmd, seq)`` of a decoded request line, before its fields are read: enough for a
    server to answer in turn (an errored reply echoes ``seq``; a ``run`` before ``start``
    is refused before its fields are). ``stop`` is recognised whatever else the message
    holds. Raises :class:`MessageError` for a message that is not an object, a ``seq``
    that is neither an integer nor absent, or a ``cmd`` other than ``start``, ``run`` and
    ``stop``."""
    msg = _object(obj, where)
    cmd = msg.get("cmd")
    if cmd == Stop.CMD:
        return Stop.CMD, None
    seq = msg.get("seq")
    if not (seq is None or _is_int(seq)):
        raise MessageError(f"seq must be an integer, not {type(seq).__name__}", path="$.seq",
                           expected="an integer", where=where)
    if not isinstance(cmd, str) or cmd not in REQUESTS:
        raise MessageError(f"unknown cmd {cmd!r}; expected start, run or stop", path="$.cmd",
                           expected="one of: start, run, stop", where=where, seq=seq)
    return cmd, seq


def parse_request(obj: object, where: str = REQUEST) -> Request:
    """The typed request of a decoded line (:func:`request_cmd`, then its class's
    ``from_json``). Raises :class:`MessageError`."""
    cmd, _seq = request_cmd(obj, where)
    return REQUESTS[cmd].from_json(obj, where)


# --------------------------------------------------------------------------------------------
# Replies (engine -> harness)


@dataclass(frozen=True, slots=True)
class Handshake:
    """The reply to ``start``: ``{"version": 1, "implementation": {...}}``.

    ``implementation`` is the engine's self-description (DESIGN §9: ``name``, ``version``,
    ``language``, ``homepage``, ``rulesets``, ``capabilities``, ``state_parts``), kept as the
    JSON object it is (reports print it whole).
    """

    implementation: dict[str, Any]
    version: int = PROTOCOL_VERSION

    @property
    def rulesets(self) -> list[str]:
        """The rulesets declared (the strings of ``implementation.rulesets``)."""
        return [r for r in self.implementation.get("rulesets") or [] if isinstance(r, str)]

    def to_json(self) -> dict[str, Any]:
        """The reply object sent."""
        return {"version": self.version, "implementation": self.implementation}

    @classmethod
    def from_json(cls, obj: object, where: str = REPLY) -> "Handshake":
        """Read a handshake reply. Raises :class:`MessageError` for a ``version`` other than
        :data:`PROTOCOL_VERSION` (``$.version``), an ``implementation`` that is not an
        object with a ``rulesets`` list (``$.implementation``), or ``capabilities`` present
        and not a list (``$.implementation.capabilities``)."""
        msg = _object(obj, where)
        if msg.get("version") != PROTOCOL_VERSION:
            raise MessageError(f"the engine speaks protocol version {msg.get('version')!r}, not "
                               f"{PROTOCOL_VERSION}", path="$.version",
                               expected=str(PROTOCOL_VERSION), where=where)
        impl = msg.get("implementation")
        if not isinstance(impl, dict) or not isinstance(impl.get("rulesets"), list):
            raise MessageError("the handshake reply has no implementation object with a "
                               "rulesets list", path="$.implementation",
                               expected="an object with a rulesets list", where=where)
        if not isinstance(impl.get("capabilities", []), list):
            raise MessageError("the handshake's implementation.capabilities is not a list",
                               path="$.implementation.capabilities", expected="a list of strings",
                               where=where)
        return cls(impl, PROTOCOL_VERSION)


#: The JSON type each result key must have (FORMAT §9), for :meth:`Result.from_json`.
_RESULT_TYPES: dict[str, tuple[type, str]] = {
    "events": (list, "an array of events (FORMAT §6)"),
    "state": (dict, "a state object (FORMAT §4)"),
    "checkpoints": (list, "an array of checkpoints (FORMAT §9)"),
}


@dataclass(frozen=True, slots=True)
class Result:
    """A ``run`` that played: ``{"seq": n, "events"?, "state"?, "checkpoints"?}``.

    Each result key is None when the reply left it out (an engine sends the keys of the
    capabilities it declared, DESIGN §9). ``seq`` is None for a result that did not come
    over the wire (the in-process reference engine's). The values are the engine's own
    objects, not copies.
    """

    seq: int | None
    events: list[Any] | None = field(default=None, repr=False)
    state: dict[str, Any] | None = field(default=None, repr=False)
    checkpoints: list[Any] | None = field(default=None, repr=False)

    @property
    def keys(self) -> tuple[str, ...]:
        """The result keys present, in :data:`RESULT_KEYS` order."""
        return tuple(key for key in RESULT_KEYS if getattr(self, key) is not None)

    def result(self) -> dict[str, Any]:
        """The result as FORMAT §9 writes it: ``{"events", "state", "checkpoints"}``, the
        keys present only (what :func:`mtg_judge.conformance.runner.check_result` checks
        and a report's log is read from)."""
        out: dict[str, Any] = {}
        if self.events is not None:
            out["events"] = self.events
        if self.state is not None:
            out["state"] = self.state
        if self.checkpoints is not None:
            out["checkpoints"] = self.checkpoints
        return out

    def only(self, capabilities: Iterable[str]) -> "Result":
        """This result without the keys of capabilities not in ``capabilities`` (an
        undeclared key is never checked)."""
        keep = set(capabilities)
        return Result(self.seq, *(getattr(self, key) if key in keep else None for key in RESULT_KEYS))

    def to_json(self) -> dict[str, Any]:
        """The reply object sent: ``seq`` and the keys present."""
        return {"seq": self.seq, **self.result()}

    @classmethod
    def of(cls, result: Any, seq: int | None = None) -> "Result":
        """The result an engine function returned (``engine.run_scenario``: a dict with
        ``events``, ``state``, ``checkpoints``), its keys taken as they are (no check, no
        copy; other keys are dropped). Raises ``TypeError`` if ``result`` is not a dict."""
        if not isinstance(result, dict):
            raise TypeError(f"the engine returned {type(result).__name__}, not a result object")
        return cls(seq, result.get("events"), result.get("state"), result.get("checkpoints"))

    @classmethod
    def from_json(cls, obj: object, where: str = REPLY) -> "Result":
        """Read a result reply. Raises :class:`MessageError` for a ``seq`` that is not an
        integer, or a result key present with the wrong JSON type (``events`` and
        ``checkpoints`` arrays, ``state`` an object; ``null`` is not absent). What is inside
        them is the schemas' to check (``--validate-protocol``)."""
        msg = _object(obj, where)
        seq = msg.get("seq")
        if not _is_int(seq):
            raise MessageError(f"seq must be an integer, not {type(seq).__name__}", path="$.seq",
                               expected="an integer", where=where)
        for key, (kind, expected) in _RESULT_TYPES.items():
            if key in msg and not isinstance(msg[key], kind):
                raise MessageError(f"the run reply's {key} is {_json_type(msg[key])}, expected "
                                   f"{expected}", path=f"$.{key}", expected=expected, where=where,
                                   seq=seq)
        return cls(seq, msg.get("events"), msg.get("state"), msg.get("checkpoints"))


@dataclass(frozen=True, slots=True)
class Skipped:
    """A ``run`` the engine declines: ``{"seq": n, "skipped": true, "message": str}`` (a
    skipped case, PROTOCOL §3). ``seq`` is None for a skip decided without asking the
    engine (a ruleset it did not declare)."""

    seq: int | None
    message: str = ""

    def to_json(self) -> dict[str, Any]:
        """The reply object sent."""
        return {"seq": self.seq, "skipped": True, "message": self.message}

    @classmethod
    def from_json(cls, obj: object, where: str = REPLY) -> "Skipped":
        """Read a skipped reply; a missing or non-string ``message`` is read leniently (its
        text, ``""`` for none): the schema requires a string, ``--validate-protocol`` says so."""
        msg = _object(obj, where)
        seq = msg.get("seq")
        return cls(seq if _is_int(seq) else None, str(msg.get("message") or ""))


@dataclass(frozen=True, slots=True)
class Errored:
    """A request the engine could not answer: ``{"seq": n or null, "errored": true,
    "context": {"message": str, "type"?: str, "traceback"?: str, ...}}``. ``seq`` is None
    when the request's could not be read."""

    seq: int | None
    context: dict[str, Any] = field(default_factory=dict)

    @property
    def message(self) -> str:
        """``context.message``, or a stock sentence when the engine gave none."""
        return str(self.context.get("message") or "the engine answered errored")

    def to_json(self) -> dict[str, Any]:
        """The reply object sent."""
        return {"seq": self.seq, "errored": True, "context": self.context}

    @classmethod
    def of(cls, seq: int | None, message: str, exc: BaseException | None = None) -> "Errored":
        """An errored reply saying ``message``; with ``exc``, its ``type`` (class name) and
        ``traceback`` too (what ``serve`` sends for an exception of the engine)."""
        context: dict[str, Any] = {"message": message}
        if exc is not None:
            context["type"] = type(exc).__name__
            context["traceback"] = "".join(traceback.format_exception(type(exc), exc, exc.__traceback__))
        return cls(seq, context)

    @classmethod
    def from_json(cls, obj: object, where: str = REPLY) -> "Errored":
        """Read an errored reply; a ``context`` that is not an object is kept under
        ``{"context": ...}`` (the schema requires an object, ``--validate-protocol`` says so)."""
        msg = _object(obj, where)
        seq, context = msg.get("seq"), msg.get("context")
        return cls(seq if _is_int(seq) else None,
                   context if isinstance(context, dict) else {"context": context})


RunReply = Result | Skipped | Errored


def parse_start_reply(obj: object, where: str = REPLY) -> Handshake | Errored:
    """The typed reply to ``start``: :class:`Errored` when it says ``errored``, else a
    :class:`Handshake`. Raises :class:`MessageError`."""
    if isinstance(obj, dict) and obj.get("errored"):
        return Errored.from_json(obj, where)
    return Handshake.from_json(obj, where)


def parse_run_reply(obj: object, where: str = REPLY) -> RunReply:
    """The typed reply to ``run``: :class:`Errored` (``errored`` set), :class:`Skipped`
    (``skipped`` set), else a :class:`Result`. Raises :class:`MessageError`."""
    msg = _object(obj, where)
    if msg.get("errored"):
        return Errored.from_json(msg, where)
    if msg.get("skipped"):
        return Skipped.from_json(msg, where)
    return Result.from_json(msg, where)


def _json_type(value: object) -> str:
    """The JSON name of a decoded value's type (``null``, ``a string``, ...)."""
    if value is None:
        return "null"
    for kind, name in ((bool, "a boolean"), (int, "a number"), (float, "a number"),
                       (str, "a string"), (list, "an array"), (dict, "an object")):
        if isinstance(value, kind):
            return name
    return type(value).__name__
