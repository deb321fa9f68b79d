"""Combat damage as a table (issue #14): every combination of the attacker's keywords
(deathtouch × trample × first strike / double strike), the number of blockers (0–3), the
damage already marked on them, a first-striking blocker, damage prevention (on a blocker,
the attacker or the defending player, or a blocker's protection gained after blocks), a
creature removed from combat after blocks, the attacker's power (0 or 5) and the three
rulesets. Each case plays the combat on the reference engine and checks it against a small
oracle written here from the rules text, never from the engine's output:

- CR 510.1a: a creature with 0 power assigns no combat damage.
- CR 510.1b/c (and, for 1999/2006, CR 310.2b–c of those years and the classic rulebook's
  "Danno da combattimento": "il giocatore attaccante decide come questa infliggerà i propri
  danni alle creature bloccanti"): an unblocked attacker assigns all its damage to the
  player; a blocked one divides it among the creatures *currently* blocking it as its
  controller chooses (no damage assignment order: none in 1999/2006, none since the 2025
  rules); with none left it assigns none (CR 506.4, 510.1c).
- CR 702.19b–c, 702.19e: with trample, damage may go to the player only once every blocker
  is assigned lethal damage; lethal counts damage already marked (CR 510.1c–d, 120.6) but
  not prevention; a trampler with no blockers left assigns all to the player.
- CR 702.2c, 702.19c: from a deathtouch source any nonzero amount is lethal.
- CR 702.7b, 702.4b, 510.4: first strike and double strike make a first combat damage step;
  only a double striker (and creatures that didn't deal first-strike damage) deal damage in
  the second, and the second step's lethal sees the damage marked in the first.
- CR 615, 120.3: prevention shields reduce the damage dealt, not the damage assigned;
  CR 704.5g–h: lethal damage or any deathtouch damage destroys a creature.

The engine's assignment validation is checked for every way to divide the damage: each
division the oracle calls illegal is fed through the game and must be rejected
(``invalid_damage_assignment``); each legal one must pass the engine's validator; the test
then answers with one legal division (lethal to each blocker in declaration order, the rest
to the player with trample, else to the first blocker) and checks damage, life and deaths.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass

import pytest

from mtg_judge.engine import combat as combat_mod
from mtg_judge.engine.cards import CardDefinition
from mtg_judge.engine.errors import IllegalAction, ScriptExhausted
from mtg_judge.engine.objects import ContinuousEffect, Shield
from mtg_judge.engine.scenario import _card_db, build_game

RULESETS = ("modern", "timespiral-2006", "classic-1999")
STRIKES = ("none", "first_strike", "double_strike")
#: the blockers, in declaration order: (toughness, damage marked in the "marked" variant);
#: each has power 1 and no keywords
BLOCKERS = ((2, 1), (3, 2), (2, 0))
ATTACKER_TOUGHNESS = 3
#: a prevention shield: the next 2 damage to b0 / all damage to the attacker / the next 2 to bob;
#: or b0 gains protection from red (the attacker's color) after blocks: it still blocks, and all
#: the attacker's damage to it is prevented (CR 702.16e)
PREVENTION = ("none", "blocker", "attacker", "player", "protection")
REMOVAL = ("none", "blocker", "attacker")  # removed from combat after blockers are declared (CR 506.4)
#: the first blocker may instead be a first striker with this power (it kills the attacker in
#: the first-strike step unless that damage is prevented)
FS_BLOCKER_POWER = 3


def _creature(name: str, power: int, toughness: int, keywords: list, color: str) -> CardDefinition:
    return CardDefinition.from_dict({
        "name": name, "mana_cost": "{1}{%s}" % color, "type_line": "Creature — Test", "supertypes": [],
        "types": ["Creature"], "subtypes": ["Test"], "oracle_text": "", "power": power, "toughness": toughness,
        "layout": "normal", "keywords": keywords, "abilities": []})


def _attacker_keywords(deathtouch: bool, trample: bool, strike: str) -> list:
    return ([k for k, on in (("deathtouch", deathtouch), ("trample", trample)) if on]
            + ([strike] if strike != "none" else []))


_CARDS: dict | None = None


def _cards() -> dict:
    global _CARDS
    if _CARDS is None:
        cards = dict(_card_db(None))
        for power in (0, 5):
            for dt, tr, st in itertools.product((False, True), (False, True), STRIKES):
                d = _creature(f"Table Attacker {power} {dt} {tr} {st}", power, ATTACKER_TOUGHNESS,
                              _attacker_keywords(dt, tr, st), "R")
                cards[d.name] = d
        for t in sorted({t for t, _ in BLOCKERS}):
            d = _creature(f"Table Blocker {t}", 1, t, [], "W")
            cards[d.name] = d
        d = _creature(f"Table First Striker {BLOCKERS[0][0]}", FS_BLOCKER_POWER, BLOCKERS[0][0], ["first_strike"], "W")
        cards[d.name] = d
        _CARDS = cards
    return _CARDS


@dataclass(frozen=True)
class Case:
    power: int
    deathtouch: bool
    trample: bool
    strike: str
    blockers: int
    marked: bool
    prevention: str
    removal: str
    ruleset: str
    fs_blocker: bool = False

    @property
    def id(self) -> str:
        kw = "+".join(_attacker_keywords(self.deathtouch, self.trample, self.strike)) or "vanilla"
        return (f"p{self.power}-{kw}-b{self.blockers}{'-fsb0' if self.fs_blocker else ''}"
                f"{'-marked' if self.marked else ''}-prev_{self.prevention}-rm_{self.removal}-{self.ruleset}")


def _cases() -> list[Case]:
    out = []
    for ruleset in RULESETS:
        for dt, tr, st in itertools.product((False, True), (False, True), STRIKES):
            for n in range(4):
                for marked in ((False, True) if n else (False,)):
                    for prev in (PREVENTION if n else ("none", "player")):
                        for rm in (REMOVAL if n else ("none",)):
                            out.append(Case(5, dt, tr, st, n, marked, prev, rm, ruleset))
            for n in range(3):  # CR 510.1a: a 0-power attacker
                out.append(Case(0, dt, tr, st, n, False, "none", "none", ruleset))
            for n in range(1, 4):  # CR 702.7b, 510.4: the first blocker has first strike
                for marked in (False, True):
                    for prev in ("none", "attacker"):
                        out.append(Case(5, dt, tr, st, n, marked, prev, "none", ruleset, fs_blocker=True))
    return out


# ------------------------------------------------------------------------------ the oracle
def _lethal(toughness: int, marked: int, deathtouch: bool) -> int:
    """CR 120.6, 510.1c–d, 702.19c, 702.2c: the amount that is lethal, counting damage already
    marked, not prevention; 1 from a deathtouch source."""
    left = max(0, toughness - marked)
    return min(1, left) if deathtouch else left


def _divisions(power: int, recipients: list) -> list[dict]:
    """Every way to divide ``power`` among ``recipients`` (whole amounts, 0 allowed)."""
    out = []
    for cut in itertools.combinations(range(power + len(recipients) - 1), len(recipients) - 1):
        bounds = (-1,) + cut + (power + len(recipients) - 1,)
        amounts = [bounds[i + 1] - bounds[i] - 1 for i in range(len(recipients))]
        out.append(dict(zip(recipients, amounts)))
    return out


def _legal(division: dict, blockers: dict, deathtouch: bool, trample: bool) -> bool:
    """CR 510.1c (free division among blockers), 702.19b–c: damage to the player needs lethal
    damage assigned to every blocker; without trample none may go to the player."""
    to_player = division.get("bob", 0)
    if to_player and not trample:
        return False
    if to_player:
        return all(division.get(b, 0) >= _lethal(t, m, deathtouch) for b, (t, m) in blockers.items())
    return True


def _chosen(power: int, blockers: dict, deathtouch: bool, trample: bool) -> dict:
    """The legal division the test answers with: lethal to each blocker in order, the rest to
    the player with trample, else to the first blocker."""
    left, out = power, {}
    for b, (t, m) in blockers.items():
        n = min(left, _lethal(t, m, deathtouch))
        out[b] = n
        left -= n
    if left:
        key = "bob" if trample else next(iter(blockers))
        out[key] = out.get(key, 0) + left
    return out


def oracle(case: Case) -> dict:
    """The expected outcome: the divisions offered in each of the attacker's damage steps
    ``[(blockers {alias: (toughness, marked)}, trample)]``, the damage dealt by the attacker
    ``[(step, target, amount)]``, bob's life and the set of creatures that died."""
    toughness = {f"b{i}": BLOCKERS[i][0] for i in range(case.blockers)}
    marked = {f"b{i}": (BLOCKERS[i][1] if case.marked else 0) for i in range(case.blockers)}
    dt_marked: set = set()
    shields = {"b0": {"blocker": 2, "protection": 10 ** 6}.get(case.prevention, 0),
               "bob": 2 if case.prevention == "player" else 0}
    in_combat = [f"b{i}" for i in range(case.blockers)]
    if case.removal == "blocker" and in_combat:
        in_combat.remove("b0")
    attacker_in = not (case.removal == "attacker" and case.blockers)
    blocked = case.blockers > 0
    life, attacker_damage, dead = 20, 0, set()
    dealt, decisions = [], []

    def hit(target: str, n: int, source_dt: bool) -> int:
        """CR 615: a shield prevents the next N; the rest is dealt (CR 120.3)."""
        nonlocal life
        prevented = min(shields.get(target, 0), n)
        if target in shields:
            shields[target] -= prevented
        n -= prevented
        if n <= 0:
            return 0
        if target == "bob":
            life -= n
        else:
            marked[target] += n
            if source_dt:
                dt_marked.add(target)
        return n

    power = {b: (FS_BLOCKER_POWER if case.fs_blocker and b == "b0" else 1) for b in toughness}
    first = {"b0"} if case.fs_blocker and case.blockers else set()
    steps = (["first", "regular"] if case.strike != "none" or first else ["regular"])
    for step in steps:
        # CR 510.4: first/double strikers deal damage in the first step; in the regular step
        # those that didn't, plus double strikers
        attacker_deals = attacker_in and "A" not in dead and case.power > 0 and (
            case.strike != "none" if step == "first" else case.strike != "first_strike")
        alive = [b for b in in_combat if b not in dead]
        assignment: dict = {}
        if attacker_deals:
            if not blocked:
                assignment = {"bob": case.power}
            elif not alive:
                assignment = {"bob": case.power} if case.trample else {}  # CR 702.19e
            else:
                current = {b: (toughness[b], marked[b]) for b in alive}
                if len(alive) > 1 or case.trample:
                    decisions.append((current, case.trample))
                assignment = _chosen(case.power, current, case.deathtouch, case.trample)
        # CR 510.4: a first-striking blocker deals its damage in the first step only, the
        # others in the regular step, if still blocking
        blocker_hits = 0
        if attacker_in:
            blocker_hits = sum(power[b] for b in alive if (b in first) == (step == "first"))
        for target, n in assignment.items():
            if n:
                got = hit(target, n, case.deathtouch)
                if got:
                    dealt.append((step, target, got))
        if blocker_hits and case.prevention != "attacker":
            attacker_damage += blocker_hits
        # CR 704.5g–h: state-based actions after the step's damage
        for b in alive:
            if marked[b] >= toughness[b] or b in dt_marked:
                dead.add(b)
        if attacker_damage >= ATTACKER_TOUGHNESS:
            dead.add("A")
    return {"decisions": decisions, "dealt": dealt, "life": life, "dead": dead}


# ------------------------------------------------------------------------------ the engine
class _Source:
    """The input source: attack with A, block with the blockers in order, remove a creature
    from combat at the first priority after blocks, answer each ``assign_damage`` with every
    division the oracle calls illegal (each must be rejected), then with the chosen one;
    stop at the end of combat."""

    def __init__(self, case: Case):
        self.case = case
        self.removed = False
        self.protected = False
        self.calls = 0
        self.queue: list = []
        self.asked: list = []
        self.validator_disagrees: list = []

    def next(self, game, decision: dict) -> dict:
        kind = decision["kind"]
        self.calls += 1
        if self.calls > 1000:
            raise AssertionError("the engine keeps asking")
        if game.step in ("end_of_combat", "postcombat_main"):
            raise ScriptExhausted()
        if kind == "declare_attackers":
            return {"action": "declare_attackers", "player": "alice", "attackers": ["A"]}
        if kind == "declare_blockers":
            return {"action": "declare_blockers", "player": "bob",
                    "blocks": [{"blocker": f"b{i}", "attacker": "A"} for i in range(self.case.blockers)]}
        if kind == "assign_damage":
            if not self.queue:
                if len(self.asked) >= 2:
                    raise AssertionError(f"asked a third time: the chosen division was rejected? {game.events[-1]}")
                self.queue = self._divisions(game)
            return self.queue.pop(0)
        if kind == "priority":
            if game.step == "declare_blockers" and not self.protected and self.case.prevention == "protection":
                self.protected = True  # an effect gives b0 protection from red until end of turn
                game.effects.append(ContinuousEffect("grant_keywords", [game.find("b0").ref], game.new_timestamp(),
                                                     keywords=({"keyword": "protection",
                                                                "from": {"colors": ["red"]}},)))
            if game.step == "declare_blockers" and not self.removed and self.case.removal != "none":
                self.removed = True
                ref = game.find("b0" if self.case.removal == "blocker" else "A").ref
                game.combat.remove(ref)  # an effect removes it from combat (CR 506.4)
            return {"action": "pass", "player": decision["player"]}
        raise AssertionError(f"unexpected decision {decision}")

    def _divisions(self, game) -> list[dict]:
        attacker = game.find("A")
        blockers = [game.objects[b] for b in game.combat.blockers_of(attacker.ref) if b in game.objects]
        aliases = [b.card for b in blockers]
        info = {a: (b.definition.toughness, b.damage) for a, b in zip(aliases, blockers)}
        self.asked.append((info, self.case.trample))
        recipients = aliases + (["bob"] if self.case.trample else [])
        power = self.case.power
        illegal, legal = [], []
        for div in _divisions(power, recipients):
            (legal if _legal(div, info, self.case.deathtouch, self.case.trample) else illegal).append(div)
        for div in legal:  # the engine's validator accepts every legal division
            try:
                combat_mod._check_assignment(game, {"attacker": "A", "assignment": div}, attacker, blockers, "bob",
                                             power, self.case.trample)
            except IllegalAction as err:
                self.validator_disagrees.append((div, "rejected", err.code))
        if not self.case.trample:  # a division naming the player: illegal without trample
            illegal.append({**dict.fromkeys(aliases, 0), aliases[0]: power - 1, "bob": 1})
        illegal.append({aliases[0]: power + 1})  # CR 510.1a: exactly its power
        chosen = _chosen(power, info, self.case.deathtouch, self.case.trample)
        return ([{"action": "assign_damage", "player": "alice", "attacker": "A", "assignment": d}
                 for d in illegal]
                + [{"action": "assign_damage", "player": "alice", "attacker": "A", "assignment": chosen}])


def play(case: Case):
    kw = f"Table Attacker {case.power} {case.deathtouch} {case.trample} {case.strike}"
    marked = [BLOCKERS[i][1] if case.marked else 0 for i in range(case.blockers)]
    scenario = {"setup": {"turn": 3, "active_player": "alice", "step": "declare_attackers", "players": [
        {"id": "alice", "battlefield": [{"alias": "A", "card": kw}]},
        {"id": "bob", "battlefield": [{"alias": f"b{i}", "card": (f"Table First Striker {BLOCKERS[i][0]}"
                                                                  if case.fs_blocker and i == 0 else
                                                                  f"Table Blocker {BLOCKERS[i][0]}"),
                                       "damage": marked[i]} for i in range(case.blockers)]}]}}
    source = _Source(case)
    game = build_game(scenario, case.ruleset, _cards(), source)
    if case.prevention == "blocker":
        game.shields.append(Shield(to=game.find("b0").ref, amount=2))
    elif case.prevention == "attacker":
        game.shields.append(Shield(to=game.find("A").ref, amount=None))
    elif case.prevention == "player":
        game.shields.append(Shield(to="bob", amount=2))
    try:
        game.play()
    except ScriptExhausted:
        pass
    return game, source


CASES = _cases()


@pytest.mark.parametrize("case", CASES, ids=[c.id for c in CASES])
def test_combat_damage(case: Case):
    want = oracle(case)
    game, source = play(case)
    # the engine's validator accepts every legal division
    assert source.validator_disagrees == []
    # every illegal division fed through the game is rejected with its code
    rejections = [e for e in game.events if e["type"] == "action_rejected"]
    assert all(r["code"] == "invalid_damage_assignment" for r in rejections), rejections
    # the decisions asked are the oracle's (the blockers still in combat, their marked damage)
    assert [(info, tr) for info, tr in source.asked] == want["decisions"]
    step = "first"
    dealt = []
    for e in game.events:
        if e["type"] == "step_began" and e.get("step") == "combat_damage":
            step = "regular"
        if e["type"] == "damage_dealt" and e.get("source_card") == "A":
            dealt.append((step, e.get("target_card", e["target"]), e["amount"]))
    assert dealt == want["dealt"]
    assert game.players["bob"].life == want["life"]
    dead = {a for a, o in game.by_card.items() if o.zone == "graveyard"}
    assert dead == want["dead"]


def test_table_size():
    assert len(CASES) == 3 * 12 * (2 + 3 * 2 * 5 * 3 + 3 + 3 * 2 * 2)
