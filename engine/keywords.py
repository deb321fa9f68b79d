"""Keyword abilities that are triggered or activated abilities, written out as the ability
data the engine interprets (CR 702). A card file only says ``{"keyword": "echo", "cost":
"{2}{R}"}``; this module gives the abilities that keyword stands for.

Each function returns a list of ``(key, ability dict)``; ``key`` names the ability in the
log (``"flanking"``, ``"echo"`` …) where printed abilities use their index.
"""

from __future__ import annotations

from typing import Any

from . import bookkeeping, job_select, ward


def triggered_from_keywords(keywords: list[dict[str, Any]]) -> list[tuple[str, dict[str, Any]]]:
    """Triggered abilities of keywords on a permanent (CR 702.25 flanking, 702.23 rampage,
    702.30 echo)."""
    out: list[tuple[str, dict[str, Any]]] = []
    for kw in keywords:
        name = kw["keyword"]
        if name == "flanking":
            # "Whenever this creature becomes blocked by a creature without flanking, the
            # blocking creature gets -1/-1 until end of turn."
            out.append(("flanking", {"kind": "triggered",
                                     "trigger": {"event": "becomes_blocked_by", "object": "self",
                                                 "blocker": {"not_keywords": ["flanking"]}},
                                     "effects": [{"type": "modify_pt", "what": "blocking_creature",
                                                  "power": -1, "toughness": -1, "duration": "end_of_turn"}]}))
        elif name == "rampage":
            n = kw.get("n", 1)
            # "Whenever this creature becomes blocked, it gets +N/+N until end of turn for
            # each creature blocking it beyond the first." (computed on resolution, 702.23b)
            out.append(("rampage", {"kind": "triggered", "trigger": {"event": "becomes_blocked", "object": "self"},
                                    "effects": [{"type": "modify_pt", "what": "self",
                                                 "power": {"blockers_beyond_first": n},
                                                 "toughness": {"blockers_beyond_first": n},
                                                 "duration": "end_of_turn"}]}))
        elif name == "increment":  # Secrets of Strixhaven (engine/bookkeeping.py)
            out.append(("increment", bookkeeping.INCREMENT))
        elif name == "ward":  # CR 702.21a (engine/ward.py)
            out.append(("ward", ward.ward_ability(kw)))
        elif name == "job_select":  # CR 702.182a (engine/job_select.py)
            out.append(("job_select", job_select.JOB_SELECT))
        elif name == "mobilize":
            out.append(("mobilize", mobilize_ability(kw.get("n", 1))))
        elif name == "echo":
            # "At the beginning of your upkeep, if this came under your control since the
            # beginning of your last upkeep, sacrifice it unless you pay [cost]."
            out.append(("echo", {"kind": "triggered",
                                 "trigger": {"event": "beginning_of_step", "step": "upkeep", "player": "you"},
                                 "condition": {"came_under_control_since_last_upkeep": True},
                                 "effects": [{"type": "pay_or_sacrifice", "cost": kw["cost"], "reason": "echo"}]}))
    return out


WARRIOR_TOKEN: dict[str, Any] = {"types": ["Creature"], "subtypes": ["Warrior"],
                                 "colors": ["red"], "power": 1, "toughness": 1, "keywords": []}


def mobilize_ability(n: int) -> dict[str, Any]:
    """Mobilize N (CR 702.181a; rulings tarkir.mobilize.01–05): "Whenever this creature
    attacks, create N tapped and attacking 1/1 red Warrior creature tokens. Sacrifice them
    at the beginning of the next end step." The tokens are created even if the creature
    has left the battlefield, and the delayed triggered ability (CR 603.7) sacrifices them
    whatever happened to it."""
    return {"kind": "triggered", "trigger": {"event": "attacks", "object": "self"},
            "effects": [{"type": "create_token", "count": n, "token": WARRIOR_TOKEN,
                         "tapped": True, "attacking": True},
                        {"type": "create_delayed_trigger",
                         "trigger": {"event": "beginning_of_step", "step": "end", "player": "each", "next": True},
                         "effects": [{"type": "sacrifice", "what": "created_tokens"}]}]}


def exile_triggered_from_keywords(keywords: list[dict[str, Any]]) -> list[tuple[str, dict[str, Any]]]:
    """Triggered abilities that work while the card is exiled: suspend's upkeep trigger
    (CR 702.62a)."""
    out: list[tuple[str, dict[str, Any]]] = []
    for kw in keywords:
        if kw["keyword"] == "suspend":
            out.append(("suspend", {"kind": "triggered",
                                    "trigger": {"event": "beginning_of_step", "step": "upkeep", "player": "owner"},
                                    "condition": {"suspended": True},
                                    "effects": [{"type": "remove_counters", "what": "self", "counter": "time",
                                                 "count": 1}]}))
    return out


SUSPEND_CAST: dict[str, Any] = {
    # "When the last time counter is removed from this card, if it's exiled, you may play
    # it without paying its mana cost if able. If you can't, it remains exiled. If you cast
    # a creature spell this way, it gains haste until you lose control of ..." (CR 702.62a)
    "kind": "triggered", "trigger": {"event": "last_time_counter_removed"},
    "condition": {"in_exile": True},
    "effects": [{"type": "cast_exiled", "alternative": "suspend"}],
}

MADNESS_CAST: dict[str, Any] = {
    # "When this card is exiled this way, its owner may cast it by paying [cost] rather
    # than paying its mana cost. If that player doesn't, they put this card into their
    # graveyard." (CR 702.35a)
    "kind": "triggered", "trigger": {"event": "madness_exiled"},
    "effects": [{"type": "cast_exiled", "alternative": "madness"}],
}

STORM: dict[str, Any] = {
    # "When you cast this spell, copy it for each other spell that was cast before it this
    # turn. If the spell has any targets, you may choose new targets for any of the
    # copies." (CR 702.40a)
    "kind": "triggered", "trigger": {"event": "cast_self"},
    "effects": [{"type": "storm_copies"}],
}


def landcycling_ability(kw: dict[str, Any]) -> dict[str, Any]:
    """CR 702.29: "[Type]cycling [cost]" = "[Cost], Discard this card: Search your library
    for a [type] card, reveal it, put it into your hand, then shuffle." Activated from hand."""
    return {"kind": "activated", "zone": "hand", "cycling": True,
            "cost": {"mana": kw["cost"], "discard_self": True},
            "effects": [{"type": "search_library", "player": "controller",
                         "filter": {"subtypes": [kw["land_type"]]}, "to": "hand", "reveal": True}]}


def cycling_ability(kw: dict[str, Any]) -> dict[str, Any]:
    """CR 702.29a: "Cycling [cost]" = "[Cost], Discard this card: Draw a card." From hand."""
    return {"kind": "activated", "zone": "hand", "cycling": True,
            "cost": {"mana": kw["cost"], "discard_self": True},
            "effects": [{"type": "draw", "player": "controller", "count": 1}]}
