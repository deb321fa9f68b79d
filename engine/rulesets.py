"""Rulesets: named rules eras as small sets of switches over one engine (DESIGN §3).

Like python-chess variants: a ruleset is data (switches) read by the rules where they
differ, never a fork of the engine. ``RULESETS`` maps a name to its Ruleset.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Ruleset:
    """The switches one rules era sets.

    - ``mana_burn``: unspent mana causes life loss as the pool empties (1999/2006 rules;
      removed in 2010, CR 500.4 today has none).
    - ``pool_empties_each_step``: mana empties at the end of each step and phase (CR 500.4);
      False = only at the end of each phase (1999 rulebook).
    - ``exile_zone_name``: the name of the exile zone in the log (``exile`` or
      ``removed_from_game``).
    - ``max_hand_size``: the cleanup discard limit (CR 402.2, 514.1).
    - ``first_player_skips_draw``: the player who plays first skips the draw of turn 1
      (CR 103.8a).
    - ``damage_assignment_order``: attackers order their blockers and assign lethal damage
      in that order (CR 509.2 until 2024); False = divide freely (CR 510.1c–d today).
    - ``legend_rule``: ``choose`` (CR 704.5j today: the controller keeps one).
    - ``combat_damage_uses_stack``: combat damage is put on the stack (1999–2010 rules).
    """

    name: str
    description: str
    mana_burn: bool = False
    pool_empties_each_step: bool = True
    exile_zone_name: str = "exile"
    max_hand_size: int = 7
    first_player_skips_draw: bool = True
    damage_assignment_order: bool = False
    legend_rule: str = "choose"
    combat_damage_uses_stack: bool = False


MODERN = Ruleset(
    name="modern",
    description="The Comprehensive Rules as of the 2025-26 documents: no mana burn, mana "
                "empties after each step and phase, combat damage doesn't use the stack, "
                "no damage assignment order, the legend rule of CR 704.5j.",
)

RULESETS: dict[str, Ruleset] = {MODERN.name: MODERN}


def get_ruleset(name: str) -> Ruleset:
    """Look a ruleset up by name. Raises KeyError naming the known ones."""
    try:
        return RULESETS[name]
    except KeyError:
        raise KeyError(f"unknown ruleset {name!r}; known: {', '.join(sorted(RULESETS))}") from None
