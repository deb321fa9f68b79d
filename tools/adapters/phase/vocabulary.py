"""phase's names for our vocabulary and back (FORMAT §4, §6): colors, steps and phases,
zones, counter kinds, keywords, and the keyword abilities that are triggered abilities.
Plain tables and one function (:func:`keyword_name`); no phase call.
"""

from __future__ import annotations

import json
import re
from typing import Any

COLOR_LETTER = {"white": "W", "blue": "U", "black": "B", "red": "R", "green": "G"}

PHASE_COLOR = {"White": "W", "Blue": "U", "Black": "B", "Red": "R", "Green": "G",
               "Colorless": "C"}

LETTER_PHASE_COLOR = {v: k for k, v in PHASE_COLOR.items()}

COLOR_WORD = {"White": "white", "Blue": "blue", "Black": "black", "Red": "red",
              "Green": "green"}

#: our step name -> phase's ``phase`` name
STEP_TO_PHASE = {
    "untap": "Untap", "upkeep": "Upkeep", "draw": "Draw", "precombat_main": "PreCombatMain",
    "beginning_of_combat": "BeginCombat", "declare_attackers": "DeclareAttackers",
    "declare_blockers": "DeclareBlockers", "first_strike_damage": "FirstStrikeDamage",
    "combat_damage": "CombatDamage", "end_of_combat": "EndCombat",
    "postcombat_main": "PostCombatMain", "end": "End", "cleanup": "Cleanup"}

PHASE_TO_STEP = {v: k for k, v in STEP_TO_PHASE.items()}

STEP_PHASE = {"untap": "beginning", "upkeep": "beginning", "draw": "beginning",
              "precombat_main": "precombat_main", "beginning_of_combat": "combat",
              "declare_attackers": "combat", "declare_blockers": "combat",
              "first_strike_damage": "combat", "combat_damage": "combat",
              "end_of_combat": "combat", "postcombat_main": "postcombat_main",
              "end": "ending", "cleanup": "ending"}

#: the step a game is loaded in (with priority) so that passing begins the setup step;
#: ``None``: the previous turn's end step (the untap step has no priority before it)
PREVIOUS_STEP = {"upkeep": "Untap", "draw": "Upkeep", "precombat_main": "Draw",
                 "beginning_of_combat": "PreCombatMain", "declare_attackers": "BeginCombat",
                 "declare_blockers": None, "postcombat_main": "EndCombat",
                 "end": "PostCombatMain", "end_of_combat": None, "untap": "End"}

ZONE_NAME: dict[Any, str] = {"Library": "library", "Hand": "hand", "Graveyard": "graveyard",
             "Exile": "exile", "Battlefield": "battlefield", "Stack": "stack",
             "Command": "command"}

#: our counter kinds phase names otherwise (its ``CounterType`` serde names); any other kind
#: of a single word is phase's own name for it (``lore``, ``time``, ``loyalty``, ``stun``) or
#: one of its ``Generic`` counters, which it names by the lowercase word (``storage``)
COUNTERS = {"+1/+1": "P1P1", "-1/-1": "M1M1"}

COUNTER_NAME = {v: k for k, v in COUNTERS.items()}


def phase_counter(name: str) -> str | None:
    """phase's ``CounterType`` name for our counter kind ``name`` (FORMAT §3.1), ``None`` for a
    kind phase has no counter for: a +X/+Y counter other than +1/+1 and -1/-1 (phase parses
    ``+1/+0`` as a ``Generic`` counter, which changes no power or toughness, CR 122.1a)."""
    if name in COUNTERS:
        return COUNTERS[name]
    if re.fullmatch(r"[a-z]+", name):
        return name
    return None

#: keyword abilities that are triggered abilities -> their trigger event (FORMAT §6, §11.4)
KEYWORD_TRIGGER = {"mobilize": "attacks", "increment": "spell_cast",
                   "job_select": "enters_battlefield"}

#: phase's keyword triggers without a printed definition (``provenance``) -> ability, trigger
SYNTHETIC_TRIGGER = {"Storm": ("storm", "cast_self")}

#: the triggers phase synthesizes for a keyword, known by the rule its description starts with
#: (phase's ``synthesize_suspend`` writes "CR 702.62a: At the beginning of your upkeep, ..."
#: and "CR 702.62a: When the last time counter is removed ...") -> ability, trigger
DESCRIBED_TRIGGER: list[tuple[str, tuple[str, str]]] = [
    (r"^CR 702\.62a: At the beginning of your upkeep", ("suspend", "beginning_of_step")),
    (r"^CR 702\.62a: When the last time counter is removed",
     ("suspend", "last_time_counter_removed")),
]

#: keywords whose triggered ability creates a delayed triggered ability (FORMAT §11.4)
DELAYED_BY_KEYWORD = ("mobilize",)

#: the event phase says triggered a delayed triggered ability -> our trigger event
DELAYED_TRIGGER_EVENT: dict[Any, str] = {"PhaseChanged": "beginning_of_step"}


def keyword_name(kw: Any) -> str:
    """phase's keyword (``"FirstStrike"``, ``{"Protection": {"Color": "White"}}``,
    ``{"Landwalk": "Forest"}``) in FORMAT §4's names (``first_strike``, ``protection:white``,
    ``landwalk:Forest``)."""
    if isinstance(kw, str):
        return re.sub(r"(?<!^)(?=[A-Z])", "_", kw).lower()
    if isinstance(kw, dict) and len(kw) == 1:
        (name, value), = kw.items()
        if name == "Landwalk" and isinstance(value, str):
            return f"landwalk:{value}"
        if name == "Protection" and isinstance(value, dict) and "Color" in value:
            return f"protection:{str(value['Color']).lower()}"
        bare = re.sub(r'(?<!^)(?=[A-Z])', '_', name).lower()
        if isinstance(value, dict) and value.get("type") in ("Cost", "Mana"):
            return bare  # a keyword with a cost (echo {1}{G}{G}): FORMAT §4 names it alone
        return f"{bare}:{json.dumps(value)}"
    return json.dumps(kw)
