"""Matching an engine's result against a fixture's ``expect`` block (FORMAT §3.3).

:func:`check` is a pure function: ``check(fixture, result) -> list[Mismatch]``; an empty list
means the engine meets every expectation. ``result`` has the shape of FORMAT §9
(``{"events": [...], "state": {...}, "checkpoints": [...]}``).

Pattern rule: a pattern matches a value when every key it lists matches the value's key
(nested objects by the same rule, so a pattern lists only the fields that matter); lists and
scalars must be equal (``true`` is not ``1``). An object whose keys start with ``$`` is an
operator: ``{"$absent": true}`` (the key is missing), ``{"$contains": [..]}`` (a list holds
items matching these), ``{"$not_contains": [..]}``, ``{"$len": n}``.
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from mtg_judge.conformance.canonical import dumps

OPERATORS = ("$absent", "$contains", "$not_contains", "$len")
_MISSING = object()
#: How many log events a "missing event" mismatch shows after the last matched one.
NEARBY = 8


@dataclass(frozen=True)
class Mismatch:
    """One unmet expectation.

    ``where``: the JSON path in the fixture (``expect.events[2]``); ``message``: one line;
    ``details``: extra lines (nearby events, the offending input), shown indented.
    """

    where: str
    message: str
    details: tuple[str, ...] = field(default=())

    def __str__(self) -> str:
        return "\n".join([f"{self.where}: {self.message}", *(f"    {d}" for d in self.details)])


def _short(value: Any) -> str:
    """A compact one-line form of JSON data (strings unquoted at the top level)."""
    if isinstance(value, str):
        return value
    try:
        return dumps(value)
    except TypeError:
        return repr(value)


def summarize_event(event: dict, index: int | None = None) -> str:
    """One line for an event: ``#12 damage_dealt amount=3 source=bolt#2 target=bob``."""
    fields = " ".join(f"{k}={_short(v)}" for k, v in sorted(event.items()) if k != "type")
    prefix = f"#{index} " if index is not None else ""
    return f"{prefix}{event.get('type', '?')} {fields}".rstrip()


def _same(a: Any, b: Any) -> bool:
    """Deep equality that tells booleans from integers (``true`` is not ``1``)."""
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(_same(a[k], b[k]) for k in a)
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(_same(x, y) for x, y in zip(a, b))
    equal: bool = a == b
    if isinstance(a, (bool, dict, list)) or isinstance(b, (bool, dict, list)):
        return type(a) is type(b) and equal
    return equal


def _is_operator(pattern: Any) -> bool:
    """A dict whose keys all start with ``$`` is an operator (unknown ones are reported);
    ``$exile`` is the zone placeholder, not an operator."""
    return isinstance(pattern, dict) and bool(pattern) and all(
        k.startswith("$") and k != EXILE_PLACEHOLDER for k in pattern)


def _matches(pattern: Any, value: Any) -> bool:
    """``not differences(pattern, value)``, decided without formatting a difference: the
    search of :func:`check` calls this for every (pattern, event) pair it tries, and
    :func:`differences` only words the ones it reports (issue 21: formatting every
    difference while searching was a quarter of the suite's time)."""
    if isinstance(pattern, dict):
        # an operator's keys all start with "$": the first key rules most patterns out
        if pattern and next(iter(pattern)).startswith("$") and _is_operator(pattern):
            return _operator_matches(pattern, value)
        if value is _MISSING or not isinstance(value, dict):
            return False
        get = value.get
        for key, want in pattern.items():
            if not _matches(want, get(key, _MISSING)):
                return False
        return True
    if value is _MISSING:
        return False
    if type(pattern) is str:  # the common case; _same(str, x) is str == x
        same: bool = pattern == value
        return same
    return _same(pattern, value)


def _operator_matches(op: dict, value: Any) -> bool:
    """``not _operator_differences(op, value, path)``, without the messages."""
    for name, arg in op.items():
        if name == "$absent":
            if (value is not _MISSING) if arg else (value is _MISSING):
                return False
            continue
        if value is _MISSING:
            return False
        if name == "$len":
            if not isinstance(value, (list, dict)) or len(value) != arg:
                return False
        elif name in ("$contains", "$not_contains"):
            if not isinstance(value, list):
                return False
            wanted = name == "$contains"
            for item in arg:
                if any(_matches(item, v) for v in value) is not wanted:
                    return False
        else:  # an unknown operator never matches (differences reports it)
            return False
    return True


def differences(pattern: Any, value: Any, path: str = "$") -> list[str]:
    """Why ``value`` does not match ``pattern``: a list of ``"<path>: <reason>"`` (empty = match).

    ``value`` is ``_MISSING`` for a key that is not there (only ``$absent`` accepts that).
    """
    if _is_operator(pattern):
        return _operator_differences(pattern, value, path)
    if value is _MISSING:
        return [f"{path}: missing, expected {_short(pattern)}"]
    if isinstance(pattern, dict):
        if not isinstance(value, dict):
            return [f"{path}: expected an object, got {_short(value)}"]
        out: list[str] = []
        for key in sorted(pattern):
            out += differences(pattern[key], value.get(key, _MISSING), f"{path}.{key}")
        return out
    if _same(pattern, value):
        return []
    return [f"{path}: expected {_short(pattern)}, got {_short(value)}"]


def _operator_differences(op: dict, value: Any, path: str) -> list[str]:
    out: list[str] = []
    for name in sorted(op):
        arg = op[name]
        if name == "$absent":
            if arg and value is not _MISSING:
                out.append(f"{path}: expected to be absent, got {_short(value)}")
            elif not arg and value is _MISSING:
                out.append(f"{path}: expected to be present")
            continue
        if value is _MISSING:
            out.append(f"{path}: missing ({name} {_short(arg)})")
            continue
        if name == "$len":
            if not isinstance(value, (list, dict)) or len(value) != arg:
                got = len(value) if isinstance(value, (list, dict)) else _short(value)
                out.append(f"{path}: expected length {arg}, got {got}")
        elif name in ("$contains", "$not_contains"):
            if not isinstance(value, list):
                out.append(f"{path}: {name} needs a list, got {_short(value)}")
                continue
            for item in arg:
                found = any(_matches(item, v) for v in value)
                if name == "$contains" and not found:
                    out.append(f"{path}: does not contain {_short(item)} (has {_short(value)})")
                if name == "$not_contains" and found:
                    out.append(f"{path}: contains {_short(item)}")
        else:
            out.append(f"{path}: unknown operator {name} (known: {', '.join(OPERATORS)})")
    return out


def matches(pattern: Any, value: Any) -> bool:
    """True when ``value`` matches ``pattern`` (see the module docstring): the same verdict
    as ``not differences(pattern, value)``, without wording any difference."""
    return _matches(pattern, value)


def _candidates(pattern: Any, events: list[dict], by_type: dict[str, list[int]], start: int = 0) -> Iterable[int]:
    """The positions (from ``start``, in order) of the events ``pattern`` may match: those of
    its ``type`` when it names one as a plain string (an event of another type never
    matches it), else every event."""
    want = pattern.get("type") if isinstance(pattern, dict) else None
    if type(want) is str:
        positions = by_type.get(want, [])
        return positions[bisect_left(positions, start):]
    return range(start, len(events))


def _check_events(expect: dict, events: list[dict]) -> list[Mismatch]:
    out: list[Mismatch] = []
    by_type: dict[str, list[int]] = {}  # positions of the events of each type, in log order
    for j, event in enumerate(events):
        kind = event.get("type") if isinstance(event, dict) else None
        if type(kind) is str:
            by_type.setdefault(kind, []).append(j)
    pos = 0  # the next event that may match
    for i, pattern in enumerate(expect.get("events", [])):
        hit = next((j for j in _candidates(pattern, events, by_type, pos) if _matches(pattern, events[j])), None)
        if hit is not None:
            pos = hit + 1
            continue
        after = f"after event #{pos - 1}" if pos else "in the log"
        details = [f"pattern: {_short(pattern)}"]
        nearby = events[pos : pos + NEARBY]
        if nearby:
            details.append(f"next events (#{pos}…):")
            details += [f"  {summarize_event(e, pos + k)}" for k, e in enumerate(nearby)]
            if pos + NEARBY < len(events):
                details.append(f"  … {len(events) - pos - NEARBY} more")
        else:
            details.append("no events follow")
        same_type = [(j, e) for j, e in enumerate(events) if e.get("type") == pattern.get("type")]
        for j, e in same_type[:3]:
            why = "; ".join(differences(pattern, e))
            where = "earlier" if j < pos else "later"
            details.append(f"{where} {summarize_event(e, j)}  ({why or 'out of order'})")
        out.append(Mismatch(f"expect.events[{i}]", f"no matching event {after}", tuple(details)))
    for i, pattern in enumerate(expect.get("absent", [])):
        for j in _candidates(pattern, events, by_type):
            event = events[j]
            if _matches(pattern, event):
                out.append(Mismatch(f"expect.absent[{i}]", "forbidden event occurred",
                                    (f"pattern: {_short(pattern)}", summarize_event(event, j))))
    return out


def _check_state(where: str, pattern: dict, state: Any) -> list[Mismatch]:
    if _matches(pattern, state):
        return []
    problems = differences(pattern, state, "state")
    return [Mismatch(where, p) for p in problems]


def _describe_action(action: Any) -> str:
    if not isinstance(action, dict):
        return _short(action)
    rest = " ".join(f"{k}={_short(v)}" for k, v in sorted(action.items())
                    if k not in ("player", "action"))
    return " ".join(x for x in (action.get("player"), action.get("action"), rest) if x)


def _check_checkpoints(expect: dict, checkpoints: list[dict]) -> list[Mismatch]:
    out: list[Mismatch] = []
    for i, want in enumerate(expect.get("checkpoints", [])):
        where = f"expect.checkpoints[{i}]"
        got = next((c for c in checkpoints if c.get("after") == want.get("after")), None)
        if got is None:
            out.append(Mismatch(where, f"the engine reported no checkpoint after input "
                                       f"#{want.get('after')}"))
            continue
        if "state" in want:
            out += _check_state(f"{where}.state", want["state"], got.get("state", {}))
        probes = got.get("probes", [])

        def probe_for(action: dict) -> dict | None:
            return next((p for p in probes if _same(p.get("action"), action)), None)

        for k, action in enumerate(want.get("legal", [])):
            probe, desc = probe_for(action), _describe_action(action)
            if probe is None:
                out.append(Mismatch(f"{where}.legal[{k}]", f"no probe reported for {desc}"))
            elif probe.get("legal") is not True:
                out.append(Mismatch(f"{where}.legal[{k}]", f"{desc} should be legal, "
                                    f"engine rejects it ({probe.get('code')})"))
        for k, item in enumerate(want.get("illegal", [])):
            action = item.get("action")
            probe, desc = probe_for(action), _describe_action(action)
            code = item.get("code")
            if probe is None:
                out.append(Mismatch(f"{where}.illegal[{k}]", f"no probe reported for {desc}"))
            elif probe.get("legal") is not False:
                out.append(Mismatch(f"{where}.illegal[{k}]", f"{desc} should be illegal "
                                    f"({code or 'any code'}), engine accepts it"))
            elif code is not None and probe.get("code") != code:
                out.append(Mismatch(f"{where}.illegal[{k}]", f"{desc} rejected with "
                                    f"{probe.get('code')}, expected {code}"))
    return out


def _check_rejections(fixture: dict, events: list[dict]) -> list[Mismatch]:
    script = fixture.get("script", [])

    def input_line(at: Any) -> tuple[str, ...]:
        if isinstance(at, int) and 0 <= at < len(script):
            return (f"input #{at}: {_describe_action(script[at])}",)
        return ()

    out: list[Mismatch] = []
    rejected: dict[Any, tuple[int, dict[str, Any]]] = {}
    for j, e in enumerate(events):
        if e.get("type") == "action_rejected":
            rejected.setdefault(e.get("at"), (j, e))
    wanted = fixture.get("expect", {}).get("rejections", [])
    for i, want in enumerate(wanted):
        at, code = want.get("at"), want.get("code")
        if at not in rejected:
            out.append(Mismatch(f"expect.rejections[{i}]", f"input #{at} was not rejected "
                                f"(expected {code or 'a rejection'})", input_line(at)))
        elif code is not None and rejected[at][1].get("code") != code:
            got = rejected[at][1]
            out.append(Mismatch(f"expect.rejections[{i}]", f"input #{at} rejected with "
                                f"{got.get('code')}, expected {code}",
                                input_line(at) + (f"message: {got.get('message')}",)))
    expected_at = {w.get("at") for w in wanted}
    for j, e in enumerate(events):
        if e.get("type") == "action_rejected" and e.get("at") not in expected_at:
            out.append(Mismatch(f"events[{j}]", f"unexpected rejection of input #{e.get('at')}: "
                                f"{e.get('code')}", input_line(e.get("at"))
                                + (f"message: {e.get('message')}",)))
        elif e.get("type") == "script_error":
            out.append(Mismatch(f"events[{j}]", f"script error at input #{e.get('at')}: "
                                f"{e.get('code')}", input_line(e.get("at"))
                                + (f"message: {e.get('message')}",)))
    return out


EXILE_PLACEHOLDER = "$exile"


def _zone_names(value: object, exile: str) -> object:
    if value == EXILE_PLACEHOLDER:
        return exile
    if isinstance(value, dict):
        return {(exile if k == EXILE_PLACEHOLDER else k): _zone_names(v, exile) for k, v in value.items()}
    if isinstance(value, list):
        return [_zone_names(v, exile) for v in value]
    return value


def for_ruleset(fixture: dict, ruleset: str) -> dict:
    """The fixture as it holds under ``ruleset`` (FORMAT §3.3): ``expect`` replaced by
    ``expect_by_ruleset[ruleset]`` when the fixture has one, ``expect_by_ruleset`` dropped,
    and the placeholder ``"$exile"`` (a value or a key anywhere in ``expect``) replaced by
    the ruleset's name for the exile zone (``exile``, or ``removed_from_game`` in the 1999
    and 2006 rulesets), so engines and ``check`` see one concrete expectation."""
    from mtg_judge.engine.rulesets import RULESETS  # pure data: the rulesets' documented switches

    out = dict(fixture)
    by = out.pop("expect_by_ruleset", None)
    if by is not None:
        out["expect"] = by.get(ruleset, fixture.get("expect", {}))
    known = RULESETS.get(ruleset)
    exile = known.exile_zone_name if known is not None else "exile"
    out["expect"] = _zone_names(out.get("expect", {}), exile)
    return out


def check(fixture: dict, result: dict) -> list[Mismatch]:
    """Compare an engine ``result`` with ``fixture["expect"]`` (FORMAT §3.3).

    Checks, in order: the ordered subsequence of ``events``; ``absent`` patterns; the final
    ``state`` pattern; ``checkpoints`` (state pattern and legal/illegal probes); and
    ``rejections`` (every ``action_rejected`` must be listed with its ``at`` and, when given,
    ``code``; every listed one must happen; any ``script_error`` event is a mismatch).
    Returns the mismatches (empty when the result conforms); never raises for odd results.
    """
    expect = fixture.get("expect", {})
    events = result.get("events") or []
    out = _check_events(expect, events)
    if "state" in expect:
        out += _check_state("expect.state", expect["state"], result.get("state") or {})
    out += _check_checkpoints(expect, result.get("checkpoints") or [])
    out += _check_rejections(fixture, events)
    return out


def format_mismatches(mismatches: list[Mismatch]) -> str:
    """The readable multi-line form of a mismatch list (one block per mismatch)."""
    return "\n".join(str(m) for m in mismatches)
