"""Canonical JSON (DESIGN §5, FORMAT §6): sorted keys, no floats, byte-identical across runs.

Two runs of the same fixture and ruleset must serialize to the same bytes in any process,
worker or ``PYTHONHASHSEED``; everything that compares or stores engine output goes through
:func:`dumps` and :func:`normalize`.
"""

from __future__ import annotations

import json
from typing import Any

RESULT_KEYS = ("events", "state", "checkpoints")


def _check(obj: Any, path: str = "$") -> None:
    """Raise ``TypeError`` for anything canonical JSON refuses (floats, non-str keys, objects)."""
    if obj is None or isinstance(obj, (bool, int, str)):
        return
    if isinstance(obj, float):
        raise TypeError(f"{path}: floats are not allowed in canonical JSON (got {obj!r})")
    if isinstance(obj, (list, tuple)):
        for i, item in enumerate(obj):
            _check(item, f"{path}[{i}]")
        return
    if isinstance(obj, dict):
        for key, value in obj.items():
            if not isinstance(key, str):
                raise TypeError(f"{path}: object keys must be strings (got {key!r})")
            _check(value, f"{path}.{key}")
        return
    raise TypeError(f"{path}: {type(obj).__name__} is not JSON data")


def dumps(obj: Any) -> str:
    """Serialize ``obj`` as canonical JSON: one line, sorted keys, UTF-8 text, no floats.

    >>> dumps({"b": 1, "a": ["é", None]})
    '{"a":["é",null],"b":1}'

    Raises ``TypeError`` (naming the JSON path) for floats, non-string keys and non-JSON values.
    """
    _check(obj)
    return json.dumps(obj, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def normalize(result: dict) -> dict:
    """Return the comparable part of an engine result: ``{"events", "state", "checkpoints"}``.

    ``result`` is what ``engine.run_scenario`` or a protocol engine returns (FORMAT §9).
    Missing keys become ``[]`` / ``{}``; extra keys are dropped; tuples become lists; the
    output is a fresh copy with keys in sorted order. Raises ``TypeError`` like :func:`dumps`.
    """
    defaults: dict[str, Any] = {"events": [], "state": {}, "checkpoints": []}
    picked = {key: result.get(key, defaults[key]) for key in RESULT_KEYS}
    copy: dict = json.loads(dumps(picked))
    return copy


def snapshot_text(result: dict) -> str:
    """The text stored in a snapshot file: :func:`normalize`'d ``result`` as valid JSON with
    ``events`` first and **one canonical event per line**, then ``state`` and ``checkpoints``
    indented (sorted keys). An inserted or changed event is then one line in a diff.
    """
    norm = normalize(result)

    def block(value: object) -> str:
        text = json.dumps(value, indent=2, sort_keys=True, ensure_ascii=False)
        return text.replace("\n", "\n  ")

    events = ",\n".join(f"    {dumps(event)}" for event in norm["events"])
    events = f"[\n{events}\n  ]" if norm["events"] else "[]"
    return (f'{{\n  "events": {events},\n  "state": {block(norm["state"])},\n'
            f'  "checkpoints": {block(norm["checkpoints"])}\n}}\n')
