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
    - ``legend_rule``: ``choose`` (CR 704.5j today: the controller keeps one and puts the
      rest into the graveyard); ``all_die`` (2006, CR 420.5e then: if two or more
      legendary permanents with the same name are in play, all are put into their
      owners' graveyards); ``newest_dies`` (1999 rulebook, "Leggenda": a second one with
      the same name is put into its owner's graveyard as it comes into play).
    - ``combat_damage_uses_stack``: assigned combat damage is put on the stack and dealt
      when it resolves, even if its source has left play, but not to a creature that has
      left play (1999 rulebook, "Danno da combattimento"; 2006 CR 510.2).
    - ``walls_cant_attack``: creatures of type Wall can't attack (1999 rulebook, "Muro").
    - ``mulligan``: ``london`` (CR 103.5 today: draw seven, then put one card on the bottom
      per mulligan) or ``draw_one_fewer`` (1999 rulebook and 2006: reshuffle and draw one
      card fewer each time).
    - ``buyback_owner_only``: buyback returns the spell only if its controller owns it
      (2006 rules, 502.16a: "into your hand instead of into your graveyard"); today
      (CR 702.27a) it goes to its owner's hand whoever controls it.
    - ``madness_exile_optional``: the discarding player *may* exile a madness card instead
      of putting it into the graveyard (2006 rules, 502.24a: "può rimuoverla dal gioco");
      today the exile is part of the replacement (CR 702.35a: "exiles it instead").
    - ``suspend_cast_mandatory``: when the last time counter is removed, the card must be
      cast if able (2006 rules, 502.59a, and the notes: an extra cost payable from the mana
      pool must be paid); today its owner *may* cast it (CR 702.62a).
    - ``planeswalkers``: the planeswalker card type exists (since 2007; CR 306, 606). Without
      it a planeswalker card can't be cast (``not_in_ruleset``) nor set up on the
      battlefield (engine/planeswalkers.py).

    - ``phasing_in_is_coming_under_control``: a permanent that phases in counts as having
      come under its controller's control then, so echo triggers at their next upkeep (2006:
      ruling timespiral.echo.04, "o se ha fasato ed è entrato"; the 2006 rules treated
      phasing as leaving and returning to play). Today phasing changes neither zone nor
      control (CR 702.26d). engine/phasing.py.

    - ``counter_annihilation``: a permanent with both +1/+1 and -1/-1 counters loses them in
      pairs as a state-based action (CR 704.5q; new in the 2006 rules, 420.5n, ruling
      timespiral.counter-annihilation.01, "Nuova Regola di Gioco"); False = the 1999 rules:
      both kinds stay on it (the power and toughness are the same either way).

    - ``token_name_adds_token``: a token whose name the effect that creates it doesn't give
      is named after its subtype(s) plus the word "Token" ("Spirit Token", current CR
      111.4: "If the spell or ability doesn't specify the name of the token, its name is
      the same as its subtype(s) plus the word 'Token.'"); False = the rule of the older
      eras, its name is the same as its creature type(s) ("Spirit"; CR 110.5c of the 2010s,
      "A 'Goblin Scout creature token,' for example, is named 'Goblin Scout'"). The seeds say
      nothing either way (classic.g-token.01 names no token); engine/cards.py ``token_name``.

    No switch for orphaned Auras: the 1999 rulebook says an enchantment whose permanent
    leaves play "is destroyed" ("Incantesimo"), but the rules of its time (Sixth Edition
    comprehensive rules, local enchantments: a state-based effect) put it into its owner's
    graveyard, as CR 704.5m does today; it is not destruction in any era.
    """

    name: str
    description: str
    mana_burn: bool = False
    pool_empties_each_step: bool = True
    exile_zone_name: str = "exile"
    max_hand_size: int = 7
    first_player_skips_draw: bool = True
    legend_rule: str = "choose"
    combat_damage_uses_stack: bool = False
    walls_cant_attack: bool = False
    mulligan: str = "london"
    buyback_owner_only: bool = False
    madness_exile_optional: bool = False
    suspend_cast_mandatory: bool = False
    planeswalkers: bool = True
    phasing_in_is_coming_under_control: bool = False
    counter_annihilation: bool = True
    token_name_adds_token: bool = True


MODERN = Ruleset(
    name="modern",
    description="The Comprehensive Rules as of the 2025-26 documents: no mana burn, mana "
                "empties after each step and phase, combat damage doesn't use the stack, "
                "no damage assignment order, the legend rule of CR 704.5j.",
)

TIMESPIRAL_2006 = Ruleset(
    name="timespiral-2006",
    description="The rules of the Time Spiral release notes (2006): mana burn when mana "
                "empties at the end of each phase, combat damage on the stack, the "
                "'removed from the game' zone, the 2006 legend rule (all copies die).",
    mana_burn=True,
    pool_empties_each_step=False,
    exile_zone_name="removed_from_game",
    legend_rule="all_die",
    combat_damage_uses_stack=True,
    mulligan="draw_one_fewer",
    buyback_owner_only=True,
    madness_exile_optional=True,
    suspend_cast_mandatory=True,
    planeswalkers=False,
    phasing_in_is_coming_under_control=True,
    token_name_adds_token=False,
)

CLASSIC_1999 = Ruleset(
    name="classic-1999",
    description="The Classic Sixth Edition basic rulebook (1999): mana burn at the end of "
                "each phase, combat damage on the stack, 'removed from the game', a new "
                "legend with the same name goes to the graveyard, Walls can't attack, the "
                "mulligan draws one card fewer.",
    mana_burn=True,
    pool_empties_each_step=False,
    exile_zone_name="removed_from_game",
    legend_rule="newest_dies",
    combat_damage_uses_stack=True,
    walls_cant_attack=True,
    mulligan="draw_one_fewer",
    planeswalkers=False,
    counter_annihilation=False,
    token_name_adds_token=False,
)

RULESETS: dict[str, Ruleset] = {r.name: r for r in (MODERN, TIMESPIRAL_2006, CLASSIC_1999)}


def get_ruleset(name: str) -> Ruleset:
    """Look a ruleset up by name. Raises KeyError naming the known ones."""
    try:
        return RULESETS[name]
    except KeyError:
        raise KeyError(f"unknown ruleset {name!r}; known: {', '.join(sorted(RULESETS))}") from None
