"""Rulesets: named rules eras as small sets of switches over one engine (DESIGN §3).

Like python-chess variants and Showdown's mods: a ruleset is data (boolean and number
switches) read by the rules where they differ, and, for a rule with more than two
versions, a small strategy object with the methods the engine calls (:class:`LegendRule`,
:class:`MulliganRule`); never a fork of the engine. ``RULESETS`` maps a name to its
Ruleset; this module is the one source of the names (:data:`NAMES`,
:data:`DEFAULT_RULESET`): the runner, the protocol, self-play and the CLI read them here.

This module imports only :mod:`.errors` at load time, so that the harness can read the
names without loading the engine (``mtg_judge.engine`` imports its parts lazily).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar, Iterator

from .errors import IllegalAction

if TYPE_CHECKING:
    from .game import Game
    from .objects import GameObject


# --------------------------------------------------------------------------------------------
# The legend rule (CR 704.5j today; 420.5e in 2006; "Leggenda" in the 1999 rulebook)


@dataclass(frozen=True)
class LegendRule:
    """One era's legend rule, as the state-based action check applies it (engine/sba.py
    ``Game._legend_rule``): :meth:`groups` finds the sets of permanents it acts on, and
    :meth:`put_into_graveyard` says which of a set go to their owners' graveyards (each
    logged as ``state_based_action`` with :attr:`rule`). Subclasses set the class data
    and override the hooks where their era differs.

    - ``name``: the value of ``Ruleset.legend_rule`` in README's switch table;
    - ``rule``: the rule a ``state_based_action`` event cites;
    - ``per_controller``: the permanents that clash are one player's (CR 704.5j), or
      anyone's (2006, 1999).
    """

    name: ClassVar[str]
    rule: ClassVar[str]
    per_controller: ClassVar[bool]

    def is_legendary(self, game: Game, perm: GameObject) -> bool:
        """Whether the permanent (on the battlefield) is subject to the legend rule: it has
        the supertype legendary (CR 205.4d)."""
        return "Legendary" in perm.chars.supertypes

    def groups(self, game: Game) -> Iterator[list[GameObject]]:
        """The sets of two or more permanents on the battlefield, subject to the rule
        (:meth:`is_legendary`), with the same name (and the same controller, when
        ``per_controller``), in the order the rule deals with them: by player in APNAP
        order (CR 101.4), then by name. A generator: a player's sets are found once the
        previous player's have been dealt with."""
        for pid in game.apnap() if self.per_controller else [None]:
            names: dict[str, list[GameObject]] = {}
            for perm in game.battlefield:
                if (pid is None or perm.controller == pid) and perm.name is not None and self.is_legendary(game, perm):
                    names.setdefault(perm.name, []).append(perm)
            for _, perms in sorted(names.items()):
                if len(perms) >= 2:
                    yield perms

    def put_into_graveyard(self, game: Game, group: list[GameObject]) -> list[GameObject]:
        """The permanents of ``group`` (one of :meth:`groups`) that the rule puts into their
        owners' graveyards, in ``group``'s order."""
        raise NotImplementedError


@dataclass(frozen=True)
class ControllerChooses(LegendRule):
    """CR 704.5j (today): "If a player controls two or more legendary permanents with the
    same name, that player chooses one of them, and the rest are put into their owners'
    graveyards." The choice is a ``choose`` decision, reason ``legend_rule``; an answer
    that names none of them is rejected ``invalid_choice``."""

    name: ClassVar[str] = "choose"
    rule: ClassVar[str] = "704.5j"
    per_controller: ClassVar[bool] = True

    def put_into_graveyard(self, game: Game, group: list[GameObject]) -> list[GameObject]:
        """All but the one the controller chooses to keep (asked of the controller)."""
        pid = group[0].controller
        assert pid is not None  # a permanent on the battlefield has a controller
        refs = [p.ref for p in group]

        def keep(inp: dict[str, Any]) -> GameObject:
            obj = game.find(choice_ref) if isinstance(choice_ref := inp.get("choice"), str) else None
            if obj is None or obj.ref not in refs:
                raise IllegalAction("invalid_choice", f"choose one of {refs} to keep (CR 704.5j)")
            return obj

        kept = game.decide("choose", pid, "choose", keep, reason="legend_rule", options=refs)
        return [perm for perm in group if perm is not kept]


@dataclass(frozen=True)
class AllDie(LegendRule):
    """The 2006 rules (CR 420.5e then): "If two or more legendary permanents with the same
    name are in play, all are put into their owners' graveyards", whoever controls them."""

    name: ClassVar[str] = "all_die"
    rule: ClassVar[str] = "420.5e"
    per_controller: ClassVar[bool] = False

    def put_into_graveyard(self, game: Game, group: list[GameObject]) -> list[GameObject]:
        """All of them."""
        return list(group)


@dataclass(frozen=True)
class NewestDies(LegendRule):
    """The 1999 rulebook ("Leggenda"): a Legend that comes into play with the name of one
    already in play goes to its owner's graveyard. Legend was a creature type then (today's
    legendary creatures were Legends): a creature is subject to it if it is legendary or a
    Legend; the others are not."""

    name: ClassVar[str] = "newest_dies"
    rule: ClassVar[str] = "legend-1999"
    per_controller: ClassVar[bool] = False

    def is_legendary(self, game: Game, perm: GameObject) -> bool:
        """A creature (after type-changing effects, CR 613.1d) that is legendary or has the
        printed creature type Legend."""
        creature = "Creature" in game.layers.of(perm).types
        return creature and (super().is_legendary(game, perm) or "Legend" in perm.chars.subtypes)

    def put_into_graveyard(self, game: Game, group: list[GameObject]) -> list[GameObject]:
        """All but the one that came into play first (the lowest timestamp)."""
        return sorted(group, key=lambda o: o.timestamp)[1:]


# --------------------------------------------------------------------------------------------
# The mulligan (CR 103.5 today; the 1999 rulebook and 2006: one card fewer each time)


@dataclass(frozen=True)
class MulliganRule:
    """One era's mulligan, as the start of the game applies it (engine/start.py) and the
    move generator lists it (engine/legal_start.py). ``name`` is the value of
    ``Ruleset.mulligan`` in README's switch table."""

    name: ClassVar[str]

    def bottom_count(self, taken: int) -> int:
        """How many cards of the hand a player who keeps after ``taken`` mulligans puts on
        the bottom of their library."""
        raise NotImplementedError

    def may_take(self, hand_size: int) -> bool:
        """Whether a player whose hand holds ``hand_size`` cards may take a mulligan."""
        raise NotImplementedError

    def new_hand_size(self, opening: int, previous: int) -> int:
        """How many cards the new hand after a mulligan has: ``opening`` is the opening
        hand size (CR 103.5: seven), ``previous`` the size of the hand put back."""
        raise NotImplementedError


@dataclass(frozen=True)
class LondonMulligan(MulliganRule):
    """CR 103.5 (today): shuffle the hand into the library, draw a new hand of seven, and
    on keeping put one card on the bottom of the library per mulligan taken."""

    name: ClassVar[str] = "london"

    def bottom_count(self, taken: int) -> int:
        """One card per mulligan taken."""
        return taken

    def may_take(self, hand_size: int) -> bool:
        """Always: a player may take any number of mulligans."""
        return True

    def new_hand_size(self, opening: int, previous: int) -> int:
        """The opening hand size."""
        return opening


@dataclass(frozen=True)
class DrawOneFewer(MulliganRule):
    """The 1999 rulebook and the 2006 rules: reshuffle the hand into the library and draw
    one card fewer each time; nothing goes on the bottom."""

    name: ClassVar[str] = "draw_one_fewer"

    def bottom_count(self, taken: int) -> int:
        """None."""
        return 0

    def may_take(self, hand_size: int) -> bool:
        """While the hand holds a card (a hand of none can't shrink)."""
        return hand_size > 0

    def new_hand_size(self, opening: int, previous: int) -> int:
        """One card fewer than the hand put back."""
        return previous - 1


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
    - ``legend_rule``: a :class:`LegendRule` strategy, named ``choose``
      (:class:`ControllerChooses`, CR 704.5j today: the controller keeps one and puts the
      rest into the graveyard); ``all_die`` (:class:`AllDie`, 2006, CR 420.5e then: if two
      or more legendary permanents with the same name are in play, all are put into their
      owners' graveyards); ``newest_dies`` (:class:`NewestDies`, 1999 rulebook,
      "Leggenda": a second one with the same name is put into its owner's graveyard as it
      comes into play).
    - ``combat_damage_uses_stack``: assigned combat damage is put on the stack and dealt
      when it resolves, even if its source has left play, but not to a creature that has
      left play (1999 rulebook, "Danno da combattimento"; 2006 CR 510.2).
    - ``walls_cant_attack``: creatures of type Wall can't attack (1999 rulebook, "Muro").
    - ``mulligan``: a :class:`MulliganRule` strategy, named ``london``
      (:class:`LondonMulligan`, CR 103.5 today: draw seven, then put one card on the bottom
      per mulligan) or ``draw_one_fewer`` (:class:`DrawOneFewer`, 1999 rulebook and 2006:
      reshuffle and draw one card fewer each time).
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
    legend_rule: LegendRule = ControllerChooses()
    combat_damage_uses_stack: bool = False
    walls_cant_attack: bool = False
    mulligan: MulliganRule = LondonMulligan()
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
    legend_rule=AllDie(),
    combat_damage_uses_stack=True,
    mulligan=DrawOneFewer(),
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
    legend_rule=NewestDies(),
    combat_damage_uses_stack=True,
    walls_cant_attack=True,
    mulligan=DrawOneFewer(),
    planeswalkers=False,
    counter_annihilation=False,
    token_name_adds_token=False,
)

RULESETS: dict[str, Ruleset] = {r.name: r for r in (MODERN, TIMESPIRAL_2006, CLASSIC_1999)}
#: The names of the rulesets, in the order of DESIGN §3 (the one list of them: the runner,
#: the protocol, self-play, the CLI and the pytest plugin read it here).
NAMES: tuple[str, ...] = tuple(RULESETS)
#: The ruleset a run, a scenario or a game uses when none is named (DESIGN §3).
DEFAULT_RULESET: str = MODERN.name


def get_ruleset(name: str) -> Ruleset:
    """Look a ruleset up by name. Raises KeyError naming the known ones."""
    try:
        return RULESETS[name]
    except KeyError:
        raise KeyError(f"unknown ruleset {name!r}; known: {', '.join(sorted(RULESETS))}") from None
