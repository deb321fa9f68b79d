"""The shape of an input (docs/FORMAT.md §3.2), checked before the rules look at it.

An input can come from anywhere (a script, a protocol client, a fuzzer): a field of the
wrong JSON type is rejected with the typed code ``bad_input`` instead of reaching the rules
(where it would be a crash, not a rejection).
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Any, Callable, TypeGuard

#: the input actions of docs/FORMAT.md §3.2 (the enum ``action`` of schema/common.schema.json)
ACTIONS = ("pass", "resolve", "advance", "play_land", "cast", "activate", "declare_attackers",
           "declare_blockers", "assign_damage", "order_triggers", "choose_targets", "discard", "choose",
           "random", "mulligan", "keep", "suspend", "turn_face_up")

_PLAYER_ID = re.compile(r"[a-z][a-z0-9_]*")

#: the key under which an input source reports an entry that was not a JSON object (its
#: type name), so the rejection keeps the entry's script index
NOT_AN_OBJECT = "$not_an_object"


def _is_int(v: Any) -> TypeGuard[int]:
    return isinstance(v, int) and not isinstance(v, bool)


@dataclass(frozen=True)
class _ListOf:
    """The check of a list whose every entry passes ``item`` (which names the bad entry in
    the message of :func:`shape_problem`)."""

    item: Callable[[Any], bool]

    def __call__(self, v: Any) -> bool:
        return isinstance(v, list) and all(self.item(x) for x in v)


def _list_of(check: Callable[[Any], bool]) -> Callable[[Any], bool]:
    return _ListOf(check)


def _mana(v: Any) -> bool:
    return isinstance(v, dict) and all(isinstance(k, str) and _is_int(n) for k, n in v.items())


def _str(v: Any) -> bool:
    return isinstance(v, str)


def _pay_entry(v: Any) -> bool:
    return isinstance(v, str) or (isinstance(v, dict) and isinstance(v.get("source"), str)
                                  and isinstance(v.get("color", ""), str)
                                  and isinstance(v.get("extra_color", ""), str))


def _target(v: Any) -> bool:
    return v is None or isinstance(v, str)  # None: an "up to" target left unchosen (CR 601.2c)


def _attacker(v: Any) -> bool:
    return isinstance(v, str) or (isinstance(v, dict) and isinstance(v.get("attacker"), str)
                                  and isinstance(v.get("target", ""), str))  # the player or planeswalker attacked


def _block(v: Any) -> bool:
    return isinstance(v, dict) and isinstance(v.get("blocker"), str) and isinstance(v.get("attacker"), str)


#: field → the test its value must pass (fields not listed are not the rules' business)
FIELD_CHECKS: dict[str, Callable[[Any], bool]] = {
    "action": lambda v: v in ACTIONS, "player": _str, "card": _str, "source": _str, "attacker": _str,
    "alternative": _str, "harmonize_tap": _str, "behold": _str, "color": _str, "extra_color": _str, "to": _str,
    "targets": _list_of(_target), "cards": _list_of(_str), "discard": _list_of(_str), "exile": _list_of(_str),
    "bottom": _list_of(_str), "order": _list_of(_str),
    "pay_with": _list_of(_pay_entry), "attackers": _list_of(_attacker), "blocks": _list_of(_block),
    "modes": _list_of(_is_int), "kicker": _list_of(_is_int),
    "mana": _mana, "produce": _mana,
    "assignment": _mana,
    "x": _is_int, "turn": _is_int,
    "ability": lambda v: _is_int(v) or isinstance(v, str),
    "buyback": lambda v: isinstance(v, bool),
    "face": _str,  # the face cast, e.g. "omen" (engine/faces.py)
    "choice": lambda v: isinstance(v, str) or (isinstance(v, list) and all(isinstance(x, (str, int)) for x in v)),
}


def shape_problem(inp: Any) -> str | None:
    """Why ``inp`` is not an input of the documented shape, or None if it is."""
    if not isinstance(inp, dict):
        return f"an input is a JSON object, not {json_type(inp)}"
    if NOT_AN_OBJECT in inp:
        return f"an input is a JSON object, not {inp[NOT_AN_OBJECT]}"
    for key, check in FIELD_CHECKS.items():
        if key in inp and not check(inp[key]):
            if isinstance(check, _ListOf) and isinstance(inp[key], list):
                i = next(i for i, x in enumerate(inp[key]) if not check.item(x))
                return (f"field {key!r}: entry {i} ({_short(inp[key][i])}) is not of the documented shape; "
                        "see docs/FORMAT.md §3.2")
            if key == "action" and isinstance(inp[key], str):
                return f"unknown action {inp[key]!r}; the actions are {', '.join(ACTIONS)} (docs/FORMAT.md §3.2)"
            return f"field {key!r} has the wrong type ({json_type(inp[key])}); see docs/FORMAT.md §3.2"
    return None


def rejection_fields(inp: Any) -> dict[str, Any]:
    """The fields of an input an ``action_rejected`` event echoes (docs/FORMAT.md §8):
    ``{"at": int | None, "player": str | None, "action": str | None}``. A value not of its
    documented shape (a list as the player, an unknown action, a negative index) is echoed as
    None, so the event itself always matches schema/event.schema.json."""
    if not isinstance(inp, dict):
        return {"at": None, "player": None, "action": None}
    at, player, action = inp.get("at"), inp.get("player"), inp.get("action")
    return {
        "at": at if _is_int(at) and at >= 0 else None,
        "player": player if isinstance(player, str) and _PLAYER_ID.fullmatch(player) else None,
        "action": action if action in ACTIONS else None,
    }


def _short(v: Any, limit: int = 60) -> str:
    try:
        text = json.dumps(v, sort_keys=True)
    except (TypeError, ValueError):
        text = repr(v)
    return text if len(text) <= limit else text[:limit - 1] + "…"


def json_type(v: Any) -> str:
    """The JSON name of a value's type: object, array, string, number, boolean, null."""
    if v is None:
        return "null"
    if isinstance(v, bool):
        return "boolean"
    if isinstance(v, (int, float)):
        return "number"
    names: dict[type, str] = {dict: "object", list: "array", str: "string"}
    return names.get(type(v), type(v).__name__)
