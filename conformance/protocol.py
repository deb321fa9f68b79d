"""Protocol v1 (DESIGN §9): how engines talk to the suite, one JSON object per line.

The harness writes requests to the engine's stdin and reads one reply line per request from
its stdout::

    > {"cmd":"start","version":1}
    < {"implementation":{"name":...,"rulesets":[...],"capabilities":[...]},"version":1}
    > {"cmd":"run","ruleset":"modern","scenario":{...fixture..., "cards": {...}},"seq":1}
    < {"checkpoints":[...],"events":[...],"seq":1,"state":{...}}
    > {"cmd":"stop"}

A ``run`` is answered with the result (``events``, ``state``, ``checkpoints`` as in
docs/FORMAT.md §9), or ``{"seq", "skipped": true, "message"}``, or
``{"seq", "errored": true, "context": {...}}``. ``stop`` and end of input have no reply.

This module holds both sides:

* :func:`serve` runs the reference engine (``engine.run_scenario``) as a protocol server; it
  is what ``mtg-judge serve`` calls.
* :class:`ProtocolEngine` is the harness-side client: it starts an engine command, enforces
  a read timeout, restarts a crashed or hung engine, and raises :class:`EngineError` for
  anything that is not a well-formed answer to the request it sent.
* :class:`InProcessEngine` is the reference engine as one more connection, with the
  interface of :class:`ProtocolEngine`, so that ``run_case`` has one path.

Both sides read and write the typed messages of :mod:`mtg_judge.conformance.messages`.

docs/PROTOCOL.md is the description for engine authors.
"""

from __future__ import annotations

import contextlib
import functools
import io
import json
import os
import queue
import shlex
import signal
import subprocess
import sys
import tempfile
import threading
import time
from importlib import metadata
from pathlib import Path
from typing import IO, Any, Callable, Sequence

from mtg_judge.conformance.messages import (  # noqa: F401 - PROTOCOL_VERSION, RESULT_KEYS: named here too
    PROTOCOL_VERSION,
    REPLY,
    REQUESTS,
    RESULT_KEYS,
    Errored,
    Handshake,
    MessageError,
    Request,
    Result,
    Run,
    Skipped,
    Start,
    Stop,
    parse_run_reply,
    parse_start_reply,
    request_cmd,
)
from mtg_judge.engine.rulesets import NAMES as RULESET_NAMES

#: What a reply may say the engine can do (DESIGN §9 ``capabilities``). Each capability is
#: the key of the ``run`` reply that carries it: ``events`` (the event log), ``state`` (the
#: final state), ``checkpoints`` (mid-script states and legality probes). Unknown
#: capabilities are ignored.
CAPABILITIES = ["events", "state", "checkpoints"]

#: The parts of a state that ``mtg-judge fuzz`` compares between two engines (docs/PROTOCOL.md
#: §11). Each is a set of fields of FORMAT §4; an engine declares the parts it reports
#: faithfully in its handshake (``implementation.state_parts``); the parts compared are those
#: both engines declare. Unknown part names are ignored (a warning).
STATE_PARTS = {
    "turn": "turn, active_player, step",
    "priority": "priority",
    "life": "players.*.life, players.*.lost",
    "zones": "players.*.hand, graveyard, exile as multisets of card names; players.*.library as its size",
    "library_order": "players.*.library as the ordered list of card names (top first)",
    "mana_pool": "players.*.mana_pool",
    "lands_played": "players.*.lands_played",
    "battlefield": "the permanents as a multiset of (name, owner, controller, tapped, token, face_down)",
    "damage": "each permanent's marked damage",
    "counters": "each permanent's counters",
    "attachments": "each permanent's attached_to, as the name of the permanent it is attached to",
    "characteristics": "each permanent's power, toughness, types, subtypes, colors, keywords",
    "summoning_sick": "each permanent's summoning_sick",
    "stack": "the stack, bottom first: kind, card name, controller, targets by name",
    "combat": "attackers (name -> player attacked) and blockers (name -> attacker's name), as multisets",
    "game_over": "game_over (winners, losers, draw)",
}
#: The parts compared for an engine whose handshake has no ``state_parts`` (every part but
#: the opt-in ``library_order``: library order after a shuffle depends on the engine's PRNG).
DEFAULT_STATE_PARTS = tuple(p for p in STATE_PARTS if p != "library_order")

#: Result keys a ``run`` reply must hold when the engine declared the capability of that
#: name (``checkpoints`` may be left out: a missing checkpoint fails its own check).
REQUIRED_RESULT_KEYS = ("events", "state")

#: How much of an engine's stderr is kept in an :class:`EngineError` context.
STDERR_TAIL_BYTES = 4000

#: The setup zones that list cards (FORMAT §3.1); used to find the cards a scenario needs.
_ZONES = ("library", "hand", "graveyard", "exile", "battlefield")


# --------------------------------------------------------------------------------------------
# JSON lines


def dumps(obj: Any) -> str:
    """One canonical JSON line (sorted keys, no floats, no newline) for ``obj``.

    Uses ``mtg_judge.conformance.canonical.dumps``; raises ``TypeError`` for values canonical JSON
    refuses (floats, non-string keys, non-JSON objects).
    """
    try:
        from mtg_judge.conformance.canonical import dumps as canonical_dumps
    except ImportError:  # pragma: no cover - canonical.py is part of the package
        return json.dumps(obj, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return canonical_dumps(obj)


def _package_version() -> str:
    try:
        return metadata.version("mtg-judge")
    except metadata.PackageNotFoundError:  # running from a source tree that is not installed
        return "0+unknown"


def _homepage() -> str:
    """The package's ``Homepage`` project URL, or "" if the metadata has none."""
    try:
        meta = metadata.metadata("mtg-judge")
    except metadata.PackageNotFoundError:
        meta = None
    if meta is not None:
        for entry in meta.get_all("Project-URL") or []:
            label, _, url = entry.partition(",")
            if label.strip().lower() in ("homepage", "home", "source", "repository"):
                homepage: str = url.strip()
                return homepage
        home = (meta.get_all("Home-page") or [None])[0]
        if home:
            return str(home)
    return ""  # pyproject.toml declares no [project.urls] Homepage yet


def reference_implementation() -> dict:
    """The ``implementation`` object the reference engine declares in its handshake.

    Shape: ``{"name", "version", "language", "homepage", "rulesets", "capabilities"}``
    (DESIGN §9); ``rulesets`` is ``list(engine.RULESETS)``. Imports the engine.
    """
    from mtg_judge import engine

    return {
        "name": "mtg-judge-reference",
        "version": _package_version(),
        "language": "python",
        "homepage": _homepage(),
        "rulesets": list(engine.RULESETS),
        "capabilities": list(CAPABILITIES),
        "state_parts": list(STATE_PARTS),
    }


@functools.lru_cache(maxsize=1)
def _cached_implementation() -> dict:
    return reference_implementation()


def __getattr__(name: str) -> Any:
    """``IMPLEMENTATION``: the reference engine's handshake ``implementation``, computed on
    first use, so that importing this module for :class:`ProtocolEngine` does not import
    the engine."""
    if name == "IMPLEMENTATION":
        return _cached_implementation()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


# --------------------------------------------------------------------------------------------
# Scenarios


def cards_used(fixture: dict) -> list[str]:
    """Names of the cards a fixture's ``setup`` lists, sorted, each once (FORMAT §3.1).

    Every zone of every player is read (``library``, ``hand``, ``graveyard``, ``exile``,
    ``battlefield``). Tokens are defined inside card abilities and need no card file.
    """
    names: set[str] = set()
    for player in (fixture.get("setup") or {}).get("players") or []:
        if not isinstance(player, dict):
            continue
        for zone in _ZONES:
            for entry in player.get(zone) or []:
                if isinstance(entry, dict) and isinstance(entry.get("card"), str):
                    names.add(entry["card"])
    return sorted(names)


def build_scenario(fixture: dict, cards: dict[str, Any]) -> dict:
    """The ``scenario`` of a protocol ``run``: the fixture plus the cards it uses.

    ``cards`` maps card names to card JSON objects (``schema/card.schema.json``, as read from
    ``fixtures/cards/`` by ``mtg_judge.conformance.loader.load_cards``). Returns a new dict ``{**fixture, "cards": {name: card, ...}}`` holding only the cards
    :func:`cards_used` finds, and the ``meld_result`` card each meld card among them names (FORMAT §11.6).
    Raises ``KeyError`` naming a card that ``cards`` lacks.
    """
    used = {}
    for name in cards_used(fixture):
        if name not in cards:
            raise KeyError(f"fixture {fixture.get('id')!r} uses unknown card {name!r}")
        used[name] = cards[name]
    for name in sorted(used):  # a meld card brings its melded face's card (FORMAT §11.6)
        meld = used[name].get("meld") if isinstance(used[name], dict) else None
        result = meld.get("result") if isinstance(meld, dict) else None
        if isinstance(result, str) and result in cards and result not in used:
            used[result] = cards[result]
    return {**fixture, "cards": used}


# --------------------------------------------------------------------------------------------
# Server side: the reference engine


def _default_run(scenario: dict, ruleset: str, cards: Any = None) -> dict:
    from mtg_judge.engine import run_scenario

    return run_scenario(scenario, ruleset, cards=cards)


def _handle(msg: Any, started: bool, implementation: dict,
            run: Callable[..., dict]) -> tuple[str, dict | None]:
    """Answer one decoded message. Returns ``(cmd, reply)``: the request's ``cmd`` (``""``
    when it is answered ``errored``) and the reply object, None for ``stop``. The request
    is read with the classes of :mod:`mtg_judge.conformance.messages`; a ``run`` before
    ``start`` is refused before its fields are read."""
    try:
        cmd, seq = request_cmd(msg)
        if cmd == Run.CMD and not started:
            return "", Errored.of(seq, "run before start").to_json()
        request = REQUESTS[cmd].from_json(msg)
    except MessageError as exc:
        return "", Errored.of(exc.seq, exc.message).to_json()
    if isinstance(request, Stop):
        return Stop.CMD, None
    if isinstance(request, Start):
        return Start.CMD, Handshake(implementation).to_json()
    if request.ruleset not in implementation.get("rulesets", ()):
        return "", Errored.of(request.seq, f"run: unknown ruleset {request.ruleset!r}; this engine "
                              f"declared {implementation.get('rulesets')}").to_json()
    try:
        # Anything the engine prints must not corrupt the protocol stream.
        with contextlib.redirect_stdout(sys.stderr):
            result = run(request.scenario, request.ruleset, cards=request.scenario.get("cards"))
        reply = Result.of(result, request.seq).to_json()
    except Exception as exc:  # noqa: BLE001 - every failure is an errored reply
        return "", Errored.of(request.seq, f"{type(exc).__name__}: {exc}", exc).to_json()
    return Run.CMD, reply


#: The longest request line ``serve`` reads (bytes, newline included): 16 MiB, some hundred
#: times the largest scenario of the suite. A longer line is read to its end and dropped, and
#: answered ``errored`` (PROTOCOL §3), so that one runaway request can't take the memory.
MAX_REQUEST_BYTES = 16 * 1024 * 1024


def _read_request(reader: IO, limit: int) -> tuple[bytes | str, bool]:
    """One request line of ``reader`` (bytes or text) and whether it was longer than
    ``limit`` (then what is returned is only its start: the rest, up to the next newline or
    the end of input, has been read and dropped, a chunk at a time)."""
    raw = reader.readline(limit + 1)
    if len(raw) <= limit or raw[-1:] in (b"\n", "\n"):
        return raw, False
    while True:
        chunk = reader.readline(1 << 20)
        if not chunk or chunk[-1:] in (b"\n", "\n"):
            return raw[:64], True


def serve(stdin: IO | None = None, stdout: IO | None = None, *,
          implementation: dict | None = None,
          run: Callable[..., dict] | None = None, max_request: int = MAX_REQUEST_BYTES) -> int:
    """Serve protocol v1 for the reference engine until ``stop`` or end of input.

    ``stdin``/``stdout`` are text (or binary) streams, by default ``sys.stdin`` and
    ``sys.stdout``; lines are UTF-8. Every request but ``stop`` gets exactly one canonical
    JSON reply line, flushed at once:

    * ``start`` with ``version`` 1 -> ``{"version": 1, "implementation": IMPLEMENTATION}``;
    * ``run`` -> ``{"seq", "events", "state", "checkpoints"}`` from
      ``run(scenario, ruleset, cards=scenario.get("cards"))`` (``engine.run_scenario`` by
      default);
    * anything that fails (invalid JSON, a missing field, an unknown ``cmd`` or ruleset, a
      ``run`` before ``start``, any exception of the engine, e.g. ``engine.ScenarioError``)
      -> ``{"seq": <seq or null>, "errored": true, "context": {"message", "type"?,
      "traceback"?}}``, and the server goes on reading.

    A request line longer than ``max_request`` bytes (:data:`MAX_REQUEST_BYTES`) is dropped
    unread and answered ``{"seq": null, "errored": true, "context": {"message": "request
    line longer than N bytes ..."}}``.

    ``implementation`` and ``run`` replace the reference engine (for tests and adapters).
    Returns 0 after ``stop`` or end of input, 1 if the output pipe is closed.
    """
    stdin = sys.stdin if stdin is None else stdin
    stdout = sys.stdout if stdout is None else stdout
    if implementation is None:
        implementation = _cached_implementation()
    run = _default_run if run is None else run
    reader = getattr(stdin, "buffer", stdin)
    started = False
    while True:
        raw, too_long = _read_request(reader, max_request)
        if not raw:
            return 0
        line = raw.decode("utf-8", "replace") if isinstance(raw, bytes) else raw
        if not line.strip():
            continue
        reply: dict | None
        if too_long:
            cmd, reply = "", Errored.of(None, f"request line longer than {max_request} bytes "
                                              f"(starting {line[:40]!r}): dropped").to_json()
        else:
            try:
                msg = json.loads(line)
            except (ValueError, RecursionError) as exc:  # RecursionError: absurdly deep nesting
                cmd, reply = "", Errored.of(None, f"invalid JSON: {type(exc).__name__}: {exc}").to_json()
            else:
                cmd, reply = _handle(msg, started, implementation, run)
        if cmd == "stop":
            return 0
        started = started or cmd == "start"
        try:
            text = dumps(reply)
        except TypeError as exc:  # a result (or implementation) that is not canonical JSON
            text = dumps(Errored.of(reply.get("seq") if reply is not None else None,
                                    f"the result is not canonical JSON: {exc}", exc).to_json())
        try:
            _write_line(stdout, text)
        except (BrokenPipeError, ValueError):  # the harness went away
            return 1


def _write_line(stream: IO, text: str) -> None:
    """Write ``text`` and a newline as UTF-8 to a text or binary stream, and flush."""
    data = text + "\n"
    buffer = getattr(stream, "buffer", None)
    if buffer is not None:  # a text stream over a byte pipe: bypass its locale encoding
        stream.flush()
        buffer.write(data.encode("utf-8"))
        buffer.flush()
    elif isinstance(stream, (io.BufferedIOBase, io.RawIOBase)):
        stream.write(data.encode("utf-8"))
        stream.flush()
    else:
        stream.write(data)
        stream.flush()


# --------------------------------------------------------------------------------------------
# Harness side: talking to an engine


class EngineError(Exception):
    """An engine did not answer a request properly.

    ``kind`` is one of :attr:`KINDS`:

    * ``crash``: the engine exited (or could not be started, or closed its pipes);
    * ``timeout``: no reply line within the read timeout (the engine was killed);
    * ``bad_reply``: a reply that is not a JSON object, lacks required fields, or (with
      validation on) does not match the protocol schema;
    * ``wrong_seq``: a reply whose ``seq`` is not the request's;
    * ``errored``: the engine answered ``errored``; ``context`` is its ``context`` object.

    ``context`` is a JSON-able dict: for crashes and timeouts it holds ``returncode`` and
    ``stderr`` (the tail of the engine's stderr), for bad replies the offending ``line``.
    """

    KINDS = ("crash", "timeout", "bad_reply", "wrong_seq", "errored")

    def __init__(self, kind: str, message: str, context: dict | None = None):
        if kind not in self.KINDS:
            raise ValueError(f"unknown EngineError kind {kind!r}")
        super().__init__(f"{kind}: {message}")
        self.kind = kind
        self.message = message
        self.context = dict(context or {})


class InvalidRequest(ValueError):
    """A request of the harness that does not match the protocol schemas
    (``ProtocolEngine(validate=True)``): a harness bug, not the engine's fault."""


#: The rulesets the suite's fixtures use (DESIGN §3, engine/rulesets.py); an engine may
#: declare only these.
KNOWN_RULESETS = RULESET_NAMES


def handshake_warnings(implementation: dict) -> list[str]:
    """Warnings about a handshake ``implementation``: one naming the ``rulesets`` the suite
    does not know (no case is ever sent under them, so a misspelt name skips every case)
    with the known ones (:data:`KNOWN_RULESETS`), one naming the unknown ``capabilities``
    (ignored) with the known ones (:data:`CAPABILITIES`), one naming the unknown
    ``state_parts`` (ignored, :data:`STATE_PARTS`). ``[]`` when all is known;
    non-string or non-list values are left to the handshake's own checks."""
    out = []
    for key, known, effect in (
            ("rulesets", KNOWN_RULESETS, "no case is written for it; if it is a misspelling, "
                                         "the cases of the ruleset meant are skipped"),
            ("capabilities", tuple(CAPABILITIES), "ignored"),
            ("state_parts", tuple(STATE_PARTS), "ignored")):
        declared = implementation.get(key)
        if not isinstance(declared, list):
            continue
        unknown = [name for name in declared if isinstance(name, str) and name not in known]
        if unknown:
            noun = key[:-1] if len(unknown) == 1 else key
            noun = "capability" if noun == "capabilitie" else noun
            noun = noun.replace("_", " ")
            if len(unknown) > 1:
                effect = effect.replace("for it; if it is a misspelling", "for them; if they are misspellings")
                effect = effect.replace("the ruleset meant are", "the rulesets meant are")
            out.append(f"the engine declares the unknown {noun} "
                       f"{', '.join(repr(u) for u in unknown)} ({effect}); the suite knows "
                       f"{', '.join(known)}")
    return out


#: Shell operators that an engine command line, split like a shell splits words but run
#: without a shell (PROTOCOL §4), passes to the engine as plain arguments.
SHELL_OPERATORS = ("||", "|", "&&", "&", ";", ">>", ">", "<")


def shell_syntax_warning(command: str) -> str | None:
    """A warning for an ``--engine`` command line that uses shell syntax (a pipe, a
    redirection, ``;``, ``&``, ``&&``, ``$(...)`` or a backquote), or None. The command is
    run without a shell (``shlex.split``, PROTOCOL §4): ``python e.py | tee log`` starts
    ``python`` with the arguments ``e.py``, ``|``, ``tee`` and ``log``. The warning names the
    first such token and suggests a wrapper script. An unsplittable command gives None (its
    own error comes from the caller)."""
    try:
        words = shlex.split(command)
        lexer = shlex.shlex(command, posix=True, punctuation_chars=True)
        lexer.whitespace_split = False
        tokens = list(lexer)  # operators apart even when written against a word: e.py>log
    except ValueError:
        return None
    found = next((t for t in tokens if t in SHELL_OPERATORS), None)
    if found is None:
        found = next(("$(" for w in words if "$(" in w), None) or \
            next(("`" for w in words if "`" in w), None)
    if found is None:
        return None
    return (f"the engine command {command!r} contains the shell syntax {found!r}, which is "
            "passed to the engine as an argument: the command is not run by a shell (put "
            "pipes, redirections and substitutions in a wrapper script)")


def describe_engine_error(exc: BaseException) -> str:
    """The full text of an engine failure: for an :class:`EngineError`, ``<kind>:
    <message>``, the rest of its context as JSON (without the keys that are None: a
    timeout's process that has not exited has no return code), and the tail of the engine's stderr as
    plain text (what an engine author reads first after a crash, the handshake's included);
    ``str(exc)`` for any other exception."""
    if not isinstance(exc, EngineError):
        return str(exc)
    context = {key: value for key, value in exc.context.items() if value is not None}
    stderr = context.pop("stderr", None)
    parts = [str(exc)]
    if context:
        parts.append(json.dumps(context, indent=2, sort_keys=True, default=str))
    if isinstance(stderr, str) and stderr.strip():
        parts.append("engine stderr (last lines):\n" + stderr.rstrip())
    return "\n".join(parts)


def _pump(stream: IO[bytes], lines: queue.Queue) -> None:
    """Reader thread: move every line of ``stream`` into ``lines``, then ``None`` at EOF."""
    try:
        for line in iter(stream.readline, b""):
            lines.put(line)
    except (OSError, ValueError):
        pass
    finally:
        lines.put(None)


def _truncate(text: str, limit: int = 2000) -> str:
    return text if len(text) <= limit else text[:limit] + f"... ({len(text)} characters)"


# Protocol message schemas (schema/protocol-*.schema.json): message kind -> schema name.
_SCHEMA_NAMES = {
    "start": "protocol-start",
    "start_reply": "protocol-start-reply",
    "run": "protocol-run",
    "run_reply": "protocol-run-reply",
    "stop": "protocol-stop",
}


class ProtocolEngine:
    """Harness-side client of protocol v1: runs scenarios on an engine command.

    ``command`` is a shell-like command line (split with ``shlex.split``) or an argument
    list, e.g. ``"mtg-judge serve"`` or ``"python my_engine.py"``. The process is started
    with stdin/stdout pipes; its stderr goes to a temporary file whose tail is reported
    when it crashes. ``timeout`` (seconds) bounds every read of a reply line, the handshake
    included. With ``validate=True`` every message is checked against the protocol schemas
    (``schema/protocol-*.schema.json``, via ``mtg_judge.conformance.loader.validate``) in both
    directions: an invalid request raises :class:`InvalidRequest` (a ``ValueError``), an invalid reply
    ``EngineError("bad_reply")``.

    Use it as a context manager (``__enter__`` starts the engine and shakes hands)::

        with ProtocolEngine("mtg-judge serve") as eng:
            eng.implementation["name"]       # 'mtg-judge-reference'
            eng.run(scenario, "modern")      # Result(seq=1): .events, .state, .checkpoints

    After a crash, a timeout, an unreadable reply or a wrong ``seq`` the engine process is
    killed, and the next :meth:`run` starts a new one (and sends ``start`` again);
    :attr:`restarts` counts these restarts.
    """

    def __init__(self, command: str | Sequence[str], timeout: float = 30.0,
                 validate: bool = False, *, cwd: str | None = None,
                 env: dict[str, str] | None = None):
        self.command = command if isinstance(command, str) else shlex.join(command)
        self.argv = shlex.split(command) if isinstance(command, str) else list(command)
        if not self.argv:
            raise ValueError("empty engine command")
        self.timeout = timeout
        self.validate = validate
        self.cwd = cwd
        self.env = env
        #: The engine's handshake ``implementation`` once :meth:`start` succeeded.
        self.implementation: dict | None = None
        #: How many times the engine was restarted after a failure.
        self.restarts = 0
        self._proc: subprocess.Popen | None = None
        self._lines: queue.Queue | None = None
        self._reader: threading.Thread | None = None
        self._stderr: IO[bytes] | None = None
        self._seq = 0
        self._broken = False  # the process must be replaced before the next request

    # -- context manager ---------------------------------------------------------------------

    def __enter__(self) -> "ProtocolEngine":
        self.start()
        return self

    def __exit__(self, *exc_info: Any) -> None:
        self.stop()

    def __repr__(self) -> str:
        return f"ProtocolEngine({self.command!r}, timeout={self.timeout!r})"

    # -- public API --------------------------------------------------------------------------

    @property
    def capabilities(self) -> list[str]:
        """The capabilities the engine declared in its handshake (DESIGN §9), as a list of
        strings; all of :data:`CAPABILITIES` if its ``implementation`` has no
        ``capabilities`` key (a lenient default for engines written before the key was
        required; with validation on, the schema requires it). ``[]`` before :meth:`start`.
        """
        if self.implementation is None:
            return []
        declared = self.implementation.get("capabilities", CAPABILITIES)
        return [c for c in declared if isinstance(c, str)]

    def start(self) -> dict:
        """Start the engine (if it is not running) and shake hands.

        Sends :class:`~mtg_judge.conformance.messages.Start` (``{"cmd": "start", "version":
        1}``) and returns the reply's ``implementation`` (``{"name", "version", "language",
        "homepage", "rulesets", "capabilities"}``), also kept in :attr:`implementation`; the
        reply is read as a :class:`~mtg_judge.conformance.messages.Handshake`. Raises
        :class:`EngineError` (``crash``, ``timeout``, ``bad_reply`` for a version other than
        1 or a missing implementation, ``errored``).
        """
        if self._alive() and not self._broken and self.implementation is not None:
            return self.implementation
        if self._proc is not None:
            self._kill()
        self.implementation = None
        self._spawn()
        try:
            self._send("start", Start())
            obj = self._receive("start_reply")
            try:
                reply = parse_start_reply(obj)
            except MessageError as exc:
                raise EngineError("bad_reply", exc.message, {"reply": obj}) from None
            if isinstance(reply, Errored):
                raise EngineError("errored", "the engine refused the handshake", reply.context)
        except BaseException:
            self._broken = True
            raise
        self.implementation = reply.implementation
        self._broken = False
        return reply.implementation

    def run(self, scenario: dict, ruleset: str, *,
            scenario_json: str | None = None) -> Result | Skipped:
        """Run one scenario (a fixture plus its ``cards``, see :func:`build_scenario`).

        Sends a :class:`~mtg_judge.conformance.messages.Run` (``{"cmd": "run", "seq": n,
        "ruleset": ruleset, "scenario": scenario}``) with a new ``seq`` and returns the
        reply read as a :class:`~mtg_judge.conformance.messages.Result` (its
        :meth:`~mtg_judge.conformance.messages.Result.result` is ``{"events": [...],
        "state": {...}, "checkpoints": [...]}``, the keys the engine sent), or a
        :class:`~mtg_judge.conformance.messages.Skipped` if the engine skipped the case or
        did not declare ``ruleset`` (then nothing is sent, and its ``seq`` is None). If the
        engine did not declare the ``checkpoints`` capability, ``expect.checkpoints`` is
        left out of the scenario sent. ``scenario_json``: ``scenario`` as canonical JSON
        text when the caller has it (``Case.scenario_json``), spliced into the request line
        instead of serializing the scenario again (the same bytes).

        The result holds only the keys of declared :attr:`capabilities`; a reply must hold
        ``events`` and ``state`` when they are declared (else ``bad_reply``), and a key the
        engine sends without declaring it is dropped (never checked).

        Raises :class:`EngineError`: ``crash``, ``timeout``, ``bad_reply``, ``wrong_seq``,
        or ``errored`` (the engine's ``context`` in ``.context``). A crashed or hung engine
        is restarted before the next request, so the next call can succeed.
        """
        if self._proc is not None and not self._alive():
            self._broken = True  # it died between two requests
        if self._broken:
            self.restarts += 1
        if self._broken or self.implementation is None:
            self.start()
        impl = self.implementation or {}
        if ruleset not in impl.get("rulesets", []):
            return Skipped(None, f"ruleset {ruleset!r} is not declared by the engine")
        declared = self.capabilities
        trimmed = self._trim(scenario, impl)
        self._seq += 1
        seq = self._seq
        self._send("run", Run(seq, ruleset, trimmed),
                   scenario_json if trimmed is scenario else None)
        obj = self._receive("run_reply")
        if obj.get("seq") != seq:
            self._broken = True
            raise EngineError("wrong_seq", f"reply seq {obj.get('seq')!r}, expected {seq}",
                              {"expected": seq, "got": obj.get("seq")})
        try:
            reply = parse_run_reply(obj)
        except MessageError as exc:
            raise EngineError("bad_reply", exc.message, {"path": exc.path, "reply": _truncate(dumps(obj))}) from None
        if isinstance(reply, Errored):
            raise EngineError("errored", reply.message, reply.context)
        if isinstance(reply, Skipped):
            return reply
        missing = [key for key in REQUIRED_RESULT_KEYS if key in declared and key not in reply.keys]
        if missing:
            raise EngineError("bad_reply", f"the run reply lacks {', '.join(missing)} (declared "
                              f"capabilities: {', '.join(declared) or 'none'})",
                              {"reply": _truncate(dumps(obj))})
        # Only what the engine declared is used: undeclared keys are not checked.
        return reply.only(declared)

    def stop(self, grace: float = 5.0) -> None:
        """Send ``stop`` and wait up to ``grace`` seconds for the engine to exit, then kill it.

        Safe to call more than once, and on an engine that already died.
        """
        proc = self._proc
        if proc is None:
            return
        if proc.poll() is None:
            try:
                self._send("stop", Stop())
            except (EngineError, ValueError):
                pass
            with contextlib.suppress(OSError):
                if proc.stdin is not None:  # a pipe (_spawn)
                    proc.stdin.close()
            try:
                proc.wait(timeout=grace)
            except subprocess.TimeoutExpired:
                pass
        self._kill()
        self.implementation = None

    def close(self) -> None:
        """:meth:`stop` with the default grace: the name every connection shares
        (:class:`InProcessEngine`)."""
        self.stop()

    # -- process handling --------------------------------------------------------------------

    def _alive(self) -> bool:
        return self._proc is not None and self._proc.poll() is None

    def _spawn(self) -> None:
        self._stderr = tempfile.TemporaryFile()
        try:
            self._proc = subprocess.Popen(
                self.argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                stderr=self._stderr, cwd=self.cwd, env=self.env,
                start_new_session=(os.name == "posix"),
            )
        except OSError as exc:
            self._stderr.close()
            self._stderr = None
            self._proc = None
            self._broken = True
            hint = ""
            if isinstance(exc, FileNotFoundError) and self.argv:
                beside = Path(sys.executable).parent / self.argv[0]
                if beside.exists() and os.sep not in self.argv[0]:
                    hint = (f" ({self.argv[0]!r} is not on PATH; this Python's environment has it: "
                            f"{beside})")
            raise EngineError("crash", f"cannot start {self.command!r}: {exc}{hint}",
                              {"command": self.command}) from exc
        self._lines = queue.Queue()
        self._reader = threading.Thread(target=_pump, args=(self._proc.stdout, self._lines),
                                        name=f"protocol-reader-{self._proc.pid}", daemon=True)
        self._reader.start()

    def _kill(self) -> None:
        """Kill the engine process (and its process group) and release its pipes."""
        proc = self._proc
        if proc is None:
            return
        if proc.poll() is None:
            try:
                if os.name == "posix":
                    os.killpg(proc.pid, signal.SIGKILL)  # the group this harness created
                else:  # pragma: no cover
                    proc.kill()
            except (ProcessLookupError, PermissionError):
                pass
        with contextlib.suppress(subprocess.TimeoutExpired):
            proc.wait(timeout=5)
        for stream in (proc.stdin, proc.stdout):
            with contextlib.suppress(OSError, ValueError):
                if stream is not None:
                    stream.close()
        if self._reader is not None:
            self._reader.join(timeout=1)
        if self._stderr is not None:
            with contextlib.suppress(OSError):
                self._stderr.close()
        self._proc = self._lines = self._reader = self._stderr = None

    def _stderr_tail(self) -> str:
        if self._stderr is None:
            return ""
        try:
            self._stderr.flush()
            size = self._stderr.seek(0, os.SEEK_END)
            self._stderr.seek(max(0, size - STDERR_TAIL_BYTES))
            return self._stderr.read().decode("utf-8", "replace")
        except (OSError, ValueError):
            return ""

    def _failure(self, kind: str, message: str, **context: Any) -> EngineError:
        """Mark the process broken, kill it, and build the error to raise."""
        self._broken = True
        proc = self._proc
        if proc is not None and kind in ("crash", "timeout"):
            if kind == "crash":
                with contextlib.suppress(subprocess.TimeoutExpired):
                    proc.wait(timeout=2)
            context.setdefault("returncode", proc.poll())
            context["stderr"] = self._stderr_tail()
        self._kill()
        return EngineError(kind, message, context)

    # -- messages ----------------------------------------------------------------------------

    def _send(self, kind: str, request: Request, scenario_json: str | None = None) -> None:
        """Write ``request`` as one canonical JSON line (validated first when
        :attr:`validate`). ``scenario_json``: a :class:`Run`'s scenario as canonical JSON
        text, put into the line as it is (:func:`_run_line`)."""
        msg = request.to_json()
        if self.validate:
            errors = _validate(msg, kind, "<request>")
            if errors:
                raise InvalidRequest(f"invalid {kind} request: " + "; ".join(errors))
        if not self._alive():
            raise self._failure("crash", "the engine is not running")
        proc = self._proc
        assert proc is not None and proc.stdin is not None  # alive, with a pipe (_spawn)
        if isinstance(request, Run) and scenario_json is not None:
            line = _run_line(request, scenario_json)
        else:
            line = dumps(msg)
        try:
            proc.stdin.write(line.encode("utf-8") + b"\n")
            proc.stdin.flush()
        except (BrokenPipeError, OSError, ValueError) as exc:
            raise self._failure("crash", f"cannot write to the engine: {exc}") from None

    def _receive(self, kind: str) -> dict:
        """Read the next non-blank reply line within the timeout and decode it."""
        deadline = time.monotonic() + self.timeout
        proc, lines = self._proc, self._lines
        assert proc is not None and lines is not None  # started (_spawn)
        while True:
            if time.monotonic() > deadline:  # also when blank lines keep arriving
                raise self._failure("timeout", f"no reply within {self.timeout:g} s")
            try:
                line = lines.get(timeout=max(0.0, deadline - time.monotonic()))
            except queue.Empty:
                raise self._failure("timeout", f"no reply within {self.timeout:g} s") from None
            if line is None:
                rc = None
                with contextlib.suppress(subprocess.TimeoutExpired):
                    rc = proc.wait(timeout=2)
                raise self._failure("crash", f"the engine exited (return code {rc}) "
                                    "before replying")
            if line.strip():
                break
        text = line.decode("utf-8", "replace")
        try:
            reply = json.loads(text)
        except (ValueError, RecursionError) as exc:
            raise self._failure("bad_reply", f"the reply is not JSON: {type(exc).__name__}: {exc}",
                                line=_truncate(text.rstrip("\n"))) from None
        if not isinstance(reply, dict):
            raise self._failure("bad_reply", "the reply is not a JSON object",
                                line=_truncate(text.rstrip("\n")))
        if self.validate and not (kind == "start_reply" and reply.get("errored")):
            errors = _validate(reply, kind, REPLY)
            if errors:
                raise EngineError("bad_reply", "the reply does not match the protocol "
                                  "schema: " + "; ".join(errors), {"errors": errors})
        return reply

    def _trim(self, scenario: dict, impl: dict) -> dict:
        """Leave out what the engine did not declare (DESIGN §9): checkpoint probes."""
        if "checkpoints" in self.capabilities:
            return scenario
        expect = scenario.get("expect")
        if not isinstance(expect, dict) or "checkpoints" not in expect:
            return scenario
        return {**scenario, "expect": {k: v for k, v in expect.items() if k != "checkpoints"}}


@functools.lru_cache(maxsize=1)
def reference_engine() -> tuple[Callable[..., dict], frozenset[str]]:
    """``(engine.run_scenario, the rulesets it knows)``: the reference engine, imported on
    first use (then cached, so a forked worker inherits it)."""
    from mtg_judge import engine

    return engine.run_scenario, frozenset(engine.RULESETS)


class InProcessEngine:
    """The reference engine as one more connection: the interface of
    :class:`ProtocolEngine` (:attr:`implementation`, :attr:`capabilities`, :meth:`run`,
    :meth:`close`), served by ``engine.run_scenario`` in this process, exactly as ``mtg-judge
    serve`` would serve it, without the JSON lines.

    :meth:`run` gives the engine a fresh copy of the scenario (parsed from its canonical
    JSON text, sorted keys, as a protocol engine receives it), so no run can alter the
    caller's data; the engine's exceptions are raised as they are (``engine.ScenarioError``
    for a setup that cannot be built), where a server would answer ``errored``. It holds no
    state: one instance serves any number of threads and forked processes.
    """

    #: Every capability (DESIGN §9): the reference engine reports events, state and checkpoints.
    capabilities: list[str] = list(CAPABILITIES)

    def __repr__(self) -> str:
        return "InProcessEngine()"

    def __enter__(self) -> "InProcessEngine":
        return self

    def __exit__(self, *exc_info: Any) -> None:
        self.close()

    @property
    def implementation(self) -> dict:
        """The reference engine's handshake ``implementation`` (:func:`reference_implementation`)."""
        return dict(_cached_implementation())

    def start(self) -> dict:
        """The handshake: :attr:`implementation` (nothing to start)."""
        return self.implementation

    def run(self, scenario: dict, ruleset: str, *,
            scenario_json: str | None = None) -> Result | Skipped:
        """Play ``scenario`` (a fixture plus its ``cards``) under ``ruleset`` with
        ``engine.run_scenario(copy, ruleset, cards=copy["cards"])``; returns its
        :class:`~mtg_judge.conformance.messages.Result` (``seq`` None, the engine's own
        objects), or a :class:`~mtg_judge.conformance.messages.Skipped` for a ruleset the
        engine does not know. ``scenario_json``: ``scenario`` as canonical JSON text when
        the caller has it (``Case.scenario_json``, written once per case), parsed into the
        copy; otherwise the copy goes through :func:`dumps` (``TypeError`` for data that is
        not canonical JSON). Raises whatever the engine raises."""
        run_scenario, known = reference_engine()
        if ruleset not in known:
            return Skipped(None, f"the reference engine has no ruleset {ruleset}")
        copy = json.loads(scenario_json if scenario_json is not None else dumps(scenario))
        return Result.of(run_scenario(copy, ruleset, cards=copy.get("cards")))

    def close(self) -> None:
        """Nothing to release."""


#: What :func:`mtg_judge.conformance.runner.run_case` runs on: either connection.
Connection = ProtocolEngine | InProcessEngine


def _run_line(request: Run, scenario_json: str) -> str:
    """The canonical JSON line of ``request`` (what :func:`dumps` makes of
    ``request.to_json()``) with its scenario given as canonical JSON text: the keys
    ``cmd``, ``ruleset``, ``scenario``, ``seq`` are in sorted order, so the text goes in
    between unchanged."""
    return (f'{{"cmd":"run","ruleset":{dumps(request.ruleset)},"scenario":{scenario_json},'
            f'"seq":{dumps(request.seq)}}}')


def _validate(message: dict, kind: str, where: str) -> list[str]:
    """Validate a protocol message with ``mtg_judge.conformance.loader.validate``; [] if unavailable."""
    try:
        from mtg_judge.conformance.loader import validate
    except ImportError:
        return []
    return [str(error) for error in validate(message, _SCHEMA_NAMES[kind], where)]
