"""Total cost determination as a table (issue #14): every way the card pool lets a spell be
cast (its mana cost; X; kicker; buyback; flashback; madness; suspend; "without paying its
mana cost"; Fist of Suns' alternative cost; morph face down; an Omen face; a card with no
mana cost; harmonize; a prepared permanent's copy; additional costs on top of an alternative
cost) × cost increases (0–2 Spheres of Resistance) × reductions (Helm of Awakening, 0–2 Ruby
Medallions, Emerald Medallion) × the three rulesets. Each case casts the spell on
the reference engine and checks it against an oracle written here from the rules text, never
from the engine's output:

- CR 601.2b, 107.3a: X is chosen before the total cost is determined; CR 107.3b: when the
  spell is cast without paying its mana cost, or for an alternative cost without {X}, the
  only legal X is 0 (timespiral.suspend.01: "senza pagare il suo costo di mana").
- CR 601.2f, 118.9: the total cost is the mana cost or the one alternative cost (flashback
  702.34a, madness 702.35a, morph's {3} 702.37c, suspend/"without paying" = {0}, Fist of
  Suns), with X replaced by its value, plus additional costs (kicker 702.33a, buyback
  702.27a), plus cost increases, minus reductions; a generic reduction takes generic mana
  only (X's included), never colored mana, never below zero.
- CR 118.6 and timespiral.no-mana-cost.01–02: a card with no mana cost can't be cast by
  paying it ({} + {1} can't be computed), but it can be cast without paying its mana cost.
- CR 708.2a, 702.37c: a face-down spell is a colorless 2/2 with no mana cost; tarkir.omen.05:
  an Omen cast as its Omen face has only that face's characteristics (color included).
- CR 202.3e: on the stack, X in the mana cost counts as the value chosen; additional and
  alternative costs don't change the mana value (CR 118.9d, 202.3b).

For each case the engine must reject a payment one generic mana short and one generic mana
over the expected total (``invalid_payment``), then accept the exact total; an X that must
be 0 is rejected (``invalid_x``); the spell on the stack has the expected X and mana value.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass

import pytest

from mtg_judge.engine import characteristics as ch
from mtg_judge.engine.cards import CardDefinition
from mtg_judge.engine.errors import IllegalAction
from mtg_judge.engine.scenario import _card_db, build_game

RULESETS = ("modern", "timespiral-2006", "classic-1999")

#: a buyback spell (the card pool's one buyback card, Reiterate, needs a spell to copy)
TABLE_BUYBACK = CardDefinition.from_dict({
    "name": "Table Buyback", "mana_cost": "{1}{R}", "type_line": "Instant", "supertypes": [], "types": ["Instant"],
    "subtypes": [], "layout": "normal", "oracle_text": "Buyback {3}\nThis deals 1 damage to any target.",
    "keywords": [{"keyword": "buyback", "cost": "{3}"}], "abilities": [],
    "spell": {"targets": [{"kind": "any"}], "effects": [{"type": "deal_damage", "amount": 1, "to": {"target": 0}}]}})


@dataclass(frozen=True)
class Base:
    """One way to cast a spell: ``card`` starts in ``zone``; ``how``: None (its mana cost),
    ``fist`` (Fist of Suns), ``without_paying``, ``flashback``, ``morph``, ``suspend`` or
    ``madness`` (forced casts from exile), ``omen``; the oracle's view of it: ``cost`` (the
    base cost as (generic, {color: n}, x symbols), None = no mana cost), ``colors`` of the
    spell, ``mv`` (mana value without X), ``mv_x`` (X symbols of its mana cost)."""

    name: str
    card: str
    zone: str
    how: str | None
    cost: tuple | None
    colors: tuple
    mv: int
    mv_x: int = 0
    targets: tuple = ()
    kicker: str | None = None  # the kicker cost (generic, {color: n})
    buyback: int | None = None
    xs: tuple = (0,)


WUBRG = {"W": 1, "U": 1, "B": 1, "R": 1, "G": 1}
BASES = (
    Base("blaze", "Blaze", "hand", None, (0, {"R": 1}, 1), ("red",), 1, 1, ("bob",), xs=(0, 1, 3)),
    Base("blaze-fist-of-suns", "Blaze", "hand", "fist", (0, {"W": 1, "U": 1, "B": 1, "R": 1, "G": 1}, 0),
         ("red",), 1, 1, ("bob",), xs=(0, 2)),
    Base("blaze-without-paying", "Blaze", "exile", "without_paying", (0, {}, 0), ("red",), 1, 1, ("bob",), xs=(0, 2)),
    Base("jilt", "Jilt", "hand", None, (1, {"U": 1}, 0), ("blue",), 2, 0, ("g1",), kicker=(1, {"R": 1})),
    Base("buyback", "Table Buyback", "hand", None, (1, {"R": 1}, 0), ("red",), 2, 0, ("bob",), buyback=3),
    Base("think-twice", "Think Twice", "hand", None, (1, {"U": 1}, 0), ("blue",), 2),
    Base("think-twice-flashback", "Think Twice", "graveyard", "flashback", (2, {"U": 1}, 0), ("blue",), 2),
    Base("dark-withering-madness", "Dark Withering", "exile", "madness", (0, {"B": 1}, 0), ("black",), 6, 0, ("g1",)),
    Base("rift-bolt-suspend", "Rift Bolt", "exile", "suspend", (0, {}, 0), ("red",), 3, 0, ("bob",)),
    Base("ancestral-vision-hand", "Ancestral Vision", "hand", None, None, ("blue",), 0, 0, ("alice",)),
    Base("ancestral-vision-suspend", "Ancestral Vision", "exile", "suspend", (0, {}, 0), ("blue",), 0, 0, ("alice",)),
    Base("hystrodon", "Hystrodon", "hand", None, (4, {"G": 1}, 0), ("green",), 5),
    Base("hystrodon-morph", "Hystrodon", "hand", "morph", (3, {}, 0), (), 0),
    Base("twinmaw-creature", "Twinmaw Stormbrood", "hand", None, (5, {"W": 1}, 0), ("white",), 6),
    Base("twinmaw-omen", "Twinmaw Stormbrood", "hand", "omen", (1, {"R": 1}, 0), ("red",), 2, 0, ("g1",)),
    # CR 107.4e, 202.2d: hybrid {U/R} is blue and red (paid here with {U}); a generic reduction
    # takes only the {3}
    Base("elemental-summoning-hybrid", "Elemental Summoning", "hand", None, (3, {"U": 2}, 0), ("blue", "red"), 5),
    # additional costs on top of an alternative cost or a free cast (CR 118.9d, 601.2f)
    Base("jilt-fist-of-suns", "Jilt", "hand", "fist", (0, WUBRG, 0), ("blue",), 2, 0, ("g1",), kicker=(1, {"R": 1})),
    Base("jilt-without-paying", "Jilt", "exile", "without_paying", (0, {}, 0), ("blue",), 2, 0, ("g1",),
         kicker=(1, {"R": 1})),
    Base("buyback-fist-of-suns", "Table Buyback", "hand", "fist", (0, WUBRG, 0), ("red",), 2, 0, ("bob",), buyback=3),
    # tarkir.omen.13: an Omen may be cast for an alternative cost
    Base("twinmaw-omen-fist-of-suns", "Twinmaw Stormbrood", "hand", "omen+fist", (0, WUBRG, 0), ("red",), 2, 0,
         ("g1",)),
    # CR 702.180a: harmonize's own cost (no creature tapped for it here)
    # strixhaven.prepare.19: a prepared permanent's copy is cast for its spell's mana cost, or an
    # alternative cost
    Base("prepared-copy", "Emeritus of Conflict", "prepared", None, (0, {"R": 1}, 0), ("red",), 1, 0, ("bob",)),
    Base("prepared-copy-fist-of-suns", "Emeritus of Conflict", "prepared", "fist", (0, WUBRG, 0), ("red",), 1, 0,
         ("bob",)),
    Base("wild-ride-harmonize", "Wild Ride", "graveyard", "harmonize", (4, {"R": 1}, 0), ("red",), 1, 0, ("g1",)),
)


@dataclass(frozen=True)
class Case:
    base: Base
    x: int
    kicked: bool
    buyback: bool
    spheres: int
    helm: int
    rubies: int
    emerald: int
    ruleset: str

    @property
    def id(self) -> str:
        extra = "".join([f"-x{self.x}" if self.base.xs != (0,) else "", "-kicked" if self.kicked else "",
                         "-buyback" if self.buyback else ""])
        return (f"{self.base.name}{extra}-sphere{self.spheres}-helm{self.helm}-ruby{self.rubies}"
                f"-emerald{self.emerald}-{self.ruleset}")


def _cases() -> list[Case]:
    out = []
    for ruleset in RULESETS:
        for base in BASES:
            for x in base.xs:
                for kicked in ((False, True) if base.kicker else (False,)):
                    for bb in ((False, True) if base.buyback else (False,)):
                        for s, h, r, e in itertools.product(range(3), range(2), range(3), range(2)):
                            out.append(Case(base, x, kicked, bb, s, h, r, e, ruleset))
    return out


# ------------------------------------------------------------------------------ the oracle
def oracle(case: Case) -> dict:
    """``{"castable": bool, "x_ok": bool, "generic": int, "colored": {c: n}, "mv": int}``."""
    b = case.base
    if b.cost is None:  # CR 118.6, timespiral.no-mana-cost.01: {} + anything can't be paid
        return {"castable": False}
    generic, colored, x_symbols = b.cost[0], dict(b.cost[1]), b.cost[2]
    x_ok = case.x == 0 or x_symbols > 0  # CR 107.3b
    generic += x_symbols * case.x  # CR 601.2f: X replaced by its value
    if case.kicked:
        generic += b.kicker[0]
        for c, n in b.kicker[1].items():
            colored[c] = colored.get(c, 0) + n
    if case.buyback:
        generic += b.buyback
    generic += case.spheres  # increases
    reduction = case.helm + (case.rubies if "red" in b.colors else 0) + (case.emerald if "green" in b.colors else 0)
    generic = max(0, generic - reduction)  # reductions: generic only, never below 0
    mv = b.mv + b.mv_x * case.x  # CR 202.3e
    return {"castable": True, "x_ok": x_ok, "generic": generic, "colored": colored, "mv": mv}


# ------------------------------------------------------------------------------ the engine
_CARDS: dict | None = None


def _cards() -> dict:
    global _CARDS
    if _CARDS is None:
        _CARDS = dict(_card_db(None))
        _CARDS[TABLE_BUYBACK.name] = TABLE_BUYBACK
    return _CARDS


def _game(case: Case):
    b = case.base
    battlefield = ([{"alias": f"sphere{i}", "card": "Sphere of Resistance"} for i in range(case.spheres)]
                   + [{"alias": f"helm{i}", "card": "Helm of Awakening"} for i in range(case.helm)]
                   + [{"alias": f"ruby{i}", "card": "Ruby Medallion"} for i in range(case.rubies)]
                   + [{"alias": f"emerald{i}", "card": "Emerald Medallion"} for i in range(case.emerald)]
                   + ([{"alias": "fist", "card": "Fist of Suns"}] if "fist" in (b.how or "") else []))
    spell = {"alias": "spell", "card": b.card}
    alice = {"id": "alice", "battlefield": battlefield, "library": [{"alias": "lib", "card": "Island"}]}
    if b.zone == "prepared":  # the permanent is prepared: its spell's copy is in exile (FORMAT §11.9)
        battlefield.append({**spell, "prepared": True})
    else:
        alice[b.zone] = [spell]
    bob = {"id": "bob", "battlefield": [{"alias": "g1", "card": "Hill Giant"}, {"alias": "g2", "card": "Hill Giant"}]}
    scenario = {"setup": {"turn": 3, "active_player": "alice", "step": "precombat_main", "players": [alice, bob]}}
    game = build_game(scenario, case.ruleset, _cards(), None)
    game.players["alice"].pool.add({"W": 9, "U": 9, "B": 9, "R": 9, "G": 9, "C": 20})
    if b.how == "without_paying":
        game.find("spell").may_cast_free_by = "alice"
    return game


def _input(case: Case, x: int, spend: dict) -> dict:
    b = case.base
    inp = {"card": "prepared#1" if b.zone == "prepared" else "spell", "mana": spend}
    if b.how in ("without_paying", "flashback", "morph", "harmonize"):
        inp["alternative"] = b.how
    if "fist" in (b.how or ""):
        inp["alternative"] = "fist"
    if "omen" in (b.how or ""):
        inp["face"] = "omen"
    if b.xs != (0,) or x:
        inp["x"] = x
    targets = list(b.targets) + (["g2"] if case.kicked else [])
    if targets:
        inp["targets"] = targets
    if case.kicked:
        inp["kicker"] = [0]
    if case.buyback:
        inp["buyback"] = True
    return inp


def _cast(game, case: Case, x: int, spend: dict):
    """Cast as the engine's callers do, inside a transaction: a cast refused part-way (a
    payment that fails once the card is on the stack, CR 601.2h) leaves the game unchanged
    for the next attempt (CR 732.1)."""
    forced = case.base.how if case.base.how in ("suspend", "madness") else None
    with game.transaction():
        return game.cast("alice", _input(case, x, spend), forced=forced)


def _code(game, case: Case, x: int, spend: dict) -> str | None:
    try:
        _cast(game, case, x, spend)
    except IllegalAction as err:
        return err.code
    return None


CASES = _cases()


@pytest.mark.parametrize("case", CASES, ids=[c.id for c in CASES])
def test_total_cost(case: Case):
    want = oracle(case)
    game = _game(case)
    if not want["castable"]:
        assert _code(game, case, 0, {}) == "cannot_pay"
        return
    spend = dict(want["colored"])
    if want["generic"]:
        spend["C"] = want["generic"]
    if not want["x_ok"]:
        assert _code(game, case, case.x, spend) == "invalid_x"
        return
    if want["generic"]:
        assert _code(game, case, case.x, {**spend, "C": want["generic"] - 1}) == "invalid_payment"
    assert _code(game, case, case.x, {**spend, "C": want["generic"] + 1}) == "invalid_payment"
    item = _cast(game, case, case.x, spend)
    cast = [e for e in game.events if e["type"] == "spell_cast"][-1]
    assert cast["mana_paid"] == {k: v for k, v in spend.items() if v}
    assert item.x == case.x
    assert ch.matches(game, item, {"mana_value": want["mv"]}, "alice"), "mana value on the stack (CR 202.3e)"


def test_table_size():
    per_modifiers = 3 * 2 * 3 * 2
    variants = sum(len(b.xs) * (2 if b.kicker else 1) * (2 if b.buyback else 1) for b in BASES)
    assert len(CASES) == 3 * variants * per_modifiers


@pytest.mark.parametrize("ruleset", RULESETS)
def test_suspending_is_no_cast_so_cost_increases_dont_apply(ruleset):
    """CR 702.62a, 116.2f: suspending a card is a special action paying its suspend cost, not
    casting a spell: Spheres of Resistance don't make it cost more (timespiral.suspend.01)."""
    case = Case(BASES[0], 0, False, False, 2, 0, 0, 0, ruleset)
    game = _game(case)
    game.players["alice"].hand.append(game.create_card_object("bolt", _cards()["Rift Bolt"], "alice", "hand"))
    with pytest.raises(IllegalAction) as err:
        game.special_action("alice", {"action": "suspend", "card": "bolt", "mana": {"R": 1, "C": 2}})
    assert err.value.code == "invalid_payment"
    game.special_action("alice", {"action": "suspend", "card": "bolt", "mana": {"R": 1}})
    assert game.find("bolt").zone == "exile" and game.find("bolt").counters == {"time": 1}
