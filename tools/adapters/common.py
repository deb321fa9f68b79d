"""The protocol v1 loop shared by the adapters (docs/PROTOCOL.md §2); its replies are
built with the typed messages of :mod:`mtg_judge.conformance.messages`.

An adapter provides an ``implementation`` dict (the handshake) and a ``play(scenario, ruleset)``
function returning ``{"events", "state", "checkpoints"}``. ``play`` raises :class:`Skip` when
the scenario cannot be expressed for its engine (the reply is ``skipped`` with the reason);
any other exception becomes an ``errored`` reply, and the loop goes on.

Nothing but protocol lines goes to stdout: engines that print (python-mtg's driver narrates
on stdout) are run with stdout redirected to stderr (see :func:`protocol_stdout`).
"""

from __future__ import annotations

import contextlib
import json
import os
import sys
import traceback
from typing import IO, Any, Callable

from mtg_judge.conformance.messages import Errored, Handshake, Result, Skipped
from mtg_judge.engine.rulesets import DEFAULT_RULESET


def package_info(dist: str) -> tuple[str, str]:
    """``(version, homepage)`` of an installed distribution, from its own metadata
    (``"unknown"`` / ``""`` when it does not say)."""
    from importlib import metadata

    try:
        meta = metadata.metadata(dist)
    except metadata.PackageNotFoundError:
        return "unknown", ""
    homepage = ""
    for entry in meta.get_all("Project-URL") or []:
        label, _, url = entry.partition(",")
        if label.strip().lower() in ("homepage", "home", "repository", "source"):
            homepage = url.strip()
            break
    version = (meta.get_all("Version") or [None])[0]
    home = (meta.get_all("Home-page") or [None])[0]
    return version or "unknown", homepage or (home or "")


class Skip(Exception):
    """The scenario (its setup, a card or a script input) cannot be expressed for this engine."""


def _errored(seq: Any, exc: Exception) -> dict[str, Any]:
    """The errored reply (:class:`~mtg_judge.conformance.messages.Errored`) for an exception:
    ``"<type>: <message>"`` and the traceback, no ``type`` key (as the adapters always sent)."""
    context = {"message": f"{type(exc).__name__}: {exc}",
               "traceback": "".join(traceback.format_exception(type(exc), exc, exc.__traceback__))}
    return Errored(seq, context).to_json()


def _reply(out: IO[str], message: dict) -> None:
    out.write(json.dumps(message, sort_keys=True, separators=(",", ":"), ensure_ascii=False))
    out.write("\n")
    out.flush()


@contextlib.contextmanager
def protocol_stdout():
    """Yield the real stdout for protocol lines while ``sys.stdout`` (and file descriptor 1)
    point at stderr, so that anything an engine prints cannot corrupt the protocol stream."""
    sys.stdout.flush()
    saved_fd = os.dup(1)
    os.dup2(2, 1)
    out = os.fdopen(saved_fd, "w", encoding="utf-8", buffering=1)
    saved = sys.stdout
    sys.stdout = sys.stderr
    try:
        yield out
    finally:
        sys.stdout = saved
        out.flush()


def serve(implementation: dict | Callable[[], dict],
          play: Callable[[dict, str], dict],
          stdin: IO[str] | None = None) -> int:
    """Answer protocol v1 requests from ``stdin`` until ``stop`` or end of input. Returns 0.

    ``implementation`` may be a callable, evaluated on the first ``start`` (so that importing
    the engine, which may fail, happens inside the loop and is reported as ``errored``).
    """
    stdin = stdin or sys.stdin
    with protocol_stdout() as out:
        for line in stdin:
            if not line.strip():
                continue
            try:
                request = json.loads(line)
            except ValueError as exc:
                _reply(out, Errored.of(None, f"not JSON: {exc}").to_json())
                continue
            if not isinstance(request, dict):
                _reply(out, Errored.of(None, "a request must be a JSON object").to_json())
                continue
            cmd = request.get("cmd")
            if cmd == "stop":
                break
            if cmd == "start":
                if request.get("version") != 1:
                    _reply(out, Errored.of(None, f"unsupported protocol version {request.get('version')!r}").to_json())
                    continue
                try:
                    impl = implementation() if callable(implementation) else implementation
                except Exception as exc:  # noqa: BLE001 - e.g. the engine is not installed
                    _reply(out, _errored(None, exc))
                    continue
                _reply(out, Handshake(impl).to_json())
                continue
            seq = request.get("seq")
            if cmd != "run":
                _reply(out, Errored.of(seq, f"unknown command {cmd!r}").to_json())
                continue
            try:
                result = play(request["scenario"], request.get("ruleset", DEFAULT_RULESET))
            except Skip as exc:
                _reply(out, Skipped(seq, str(exc)).to_json())
            except Exception as exc:  # noqa: BLE001 - every failure is a reply, not a crash
                _reply(out, _errored(seq, exc))
            else:
                _reply(out, Result.of(result, seq).to_json())
    return 0
