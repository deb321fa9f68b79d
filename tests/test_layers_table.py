"""Continuous effects as a table (issue #14's lesson applied to the layer system): every
combination of a creature's base (a vanilla Goblin, a face-down creature, a land animated
into a 2/2, a Clone that copied a pumped Goblin), a lord (Goblin King), an anthem (Glorious
Anthem, Crusade), an Aura (Holy Strength, Enfeeblement), Giant Growth (before or after the
land was animated), +1/+1 / -1/-1 counters, a creature-type change and Dress Down ("creatures
lose all abilities"), in each ruleset where the rules differ. Each case builds a tiny game in
process, puts the effects on it the way resolved spells do (``ContinuousEffect`` with a
timestamp), and checks the engine's characteristics and state-based actions against a small
oracle written here from the rules text, never from the engine's output:

- CR 613.1 (and the 2006 rules' 418.5, the classic rulebook's "Effetto continuo"): layer 1
  copy effects (CR 707.2: a copy takes the copiable values only; effects, Auras and counters
  on the original are not copied), layer 4 type-changing effects, layer 6 ability adding and
  removing, layer 7 power/toughness;
- CR 613.4 (7a printed/copy and face-down 2/2 (CR 708.2), 7b setting effects such as an
  animated land's 2/2, 7c modifications: Auras, anthems, lords, Giant Growth and counters
  (CR 613.4c in the 2025 rules; a separate counters sublayer in older rules: same sums)),
  whatever the timestamps: a pump that began before the land became a 2/2 still applies;
- CR 205.3d, 613.1d: an animated land and a face-down creature have no creature type, so
  a lord that counts "Goblins" doesn't pump them; "loses all creature types" takes a Goblin
  out of the lord's reach, "all creature types" brings anything in (layer 4 before 7c);
- CR 613.1f, 613.7, 613.8a: "creatures lose all abilities" removes the abilities a creature
  had, including keywords granted before it by timestamp, but not those granted later; a
  lord that loses its abilities generates no effect (its effect depends on the lose-all
  effect, which is applied first), so neither its +1/+1 nor its landwalk reaches anyone;
- CR 704.5f (toughness 0 or less: put into the graveyard, not destroyed) vs. 704.5g (lethal
  damage: destroyed); CR 704.5q (timespiral.counter-annihilation.01: "Nuova Regola di Gioco",
  new in 2006): a +1/+1 and a -1/-1 counter on one permanent are removed in pairs, modern
  and 2006 only; CR 514.2: damage wears off at the same time as "until end of turn" effects
  end, so a pumped creature with damage that would be lethal without the pump survives the
  cleanup step.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass

import pytest

from mtg_judge.engine import characteristics as ch
from mtg_judge.engine.cards import CardDefinition
from mtg_judge.engine.errors import ScriptExhausted
from mtg_judge.engine.objects import ContinuousEffect
from mtg_judge.engine.scenario import _card_db, build_game

RULESETS = ("modern", "timespiral-2006", "classic-1999")
#: the creature under test: a white 2/2 Goblin, the same card face down, a Mountain that
#: became a 2/2 creature (Natural Affinity), a Clone that entered as a copy of the Goblin
BASES = ("goblin", "facedown", "land", "clone")
ANTHEMS = ("none", "Glorious Anthem", "Crusade")
AURAS = ("none", "Holy Strength", "Enfeeblement")
#: Giant Growth on it: none, or cast before / after the land was animated (one "pump" for
#: the other bases)
PUMPS = {"land": ("none", "before", "after"), "other": ("none", "pump")}
COUNTERS = ("none", "+1/+1", "-1/-1", "both")
TYPE_CHANGES = ("none", "no_creature_types", "all_creature_types")
AURA_PT = {"none": (0, 0), "Holy Strength": (1, 2), "Enfeeblement": (-2, -2)}

_CARDS: dict | None = None


def _cards() -> dict:
    global _CARDS
    if _CARDS is None:
        cards = dict(_card_db(None))
        d = CardDefinition.from_dict({
            "name": "Table Goblin", "mana_cost": "{1}{W}", "type_line": "Creature — Goblin", "supertypes": [],
            "types": ["Creature"], "subtypes": ["Goblin"], "oracle_text": "", "power": 2, "toughness": 2,
            "layout": "normal", "keywords": [], "abilities": []})
        cards[d.name] = d
        d = CardDefinition.from_dict({
            "name": "Table Hasty Goblin", "mana_cost": "{1}{R}", "type_line": "Creature — Goblin", "supertypes": [],
            "types": ["Creature"], "subtypes": ["Goblin"], "oracle_text": "Haste", "power": 2, "toughness": 2,
            "layout": "normal", "keywords": ["haste"], "abilities": []})
        cards[d.name] = d
        _CARDS = cards
    return _CARDS


class _Source:
    """Answers the Clone's copy choice with the Goblin ``G``; nothing else is asked."""

    def next(self, game, decision: dict) -> dict:
        if decision["kind"] == "choose" and decision.get("reason") == "copy":
            return {"action": "choose", "player": decision["player"], "choice": "G"}
        raise ScriptExhausted()


@dataclass(frozen=True)
class Case:
    base: str
    king: bool
    anthem: str
    aura: str
    pump: str
    counters: str
    type_change: str
    dress_down: bool
    ruleset: str

    @property
    def id(self) -> str:
        return "-".join([self.base, "king" if self.king else "noking", self.anthem.replace(" ", ""),
                         self.aura.replace(" ", ""), f"pump_{self.pump}", f"ctr_{self.counters}",
                         self.type_change, "dd" if self.dress_down else "nodd", self.ruleset])


def _cases() -> list[Case]:
    out = []
    for base in BASES:
        for king, anthem, aura, pump, ctr, tc, dd in itertools.product(
                (False, True), ANTHEMS, AURAS, PUMPS["land" if base == "land" else "other"], COUNTERS,
                TYPE_CHANGES, (False, True)):
            # the rulesets differ on counters (704.5q, new in 2006); a lord under a lose-all
            # effect is judged by the modern dependency rule (CR 613.8a) only
            rulesets = RULESETS if ctr == "both" and not (king and dd) else ("modern",)
            for rs in rulesets:
                out.append(Case(base, king, anthem, aura, pump, ctr, tc, dd, rs))
    return out


# ------------------------------------------------------------------------------ the oracle
def oracle(case: Case) -> dict:
    """Expected characteristics of the creature S, and what the state-based actions do."""
    # layer 1 / 7a: printed, copied (CR 707.2) or face-down (CR 708.2) values; 7b: the land's 2/2
    p, t = 2, 2
    goblin = case.base in ("goblin", "clone")  # face down: no subtypes; a land-creature: none (205.3d)
    white = case.base in ("goblin", "clone")
    # layer 4
    if case.type_change == "no_creature_types":
        goblin = False
    elif case.type_change == "all_creature_types":
        goblin = True
    keywords = set()
    # the lord: its ability is gone under Dress Down (CR 613.1f, 613.8a)
    if case.king and not case.dress_down and goblin:
        p, t = p + 1, t + 1
        keywords.add("landwalk:Mountain")
    # layer 7c: effects on S itself (a Clone copied none of those on the original, CR 707.2)
    own = case.base != "clone"
    if case.anthem == "Glorious Anthem" or (case.anthem == "Crusade" and white):
        p, t = p + 1, t + 1
    if own:
        dp, dt = AURA_PT[case.aura]
        p, t = p + dp, t + dt
        if case.pump != "none":
            p, t = p + 3, t + 3
        n = {"none": 0, "+1/+1": 1, "-1/-1": -1, "both": 0}[case.counters]
        p, t = p + n, t + n
    counters: dict = {}
    if own and case.counters != "none":
        counters = {"+1/+1": 1, "-1/-1": 1} if case.counters == "both" else {case.counters: 1}
        if case.counters == "both" and case.ruleset != "classic-1999":
            counters = {}  # CR 704.5q (2006: 420.5n)
    return {"pt": (p, t), "goblin": goblin, "keywords": sorted(keywords),
            "dies": "704.5f" if t <= 0 else None, "counters": counters}


# ------------------------------------------------------------------------------ the engine
def build(case: Case):
    """The game: alice controls S (and for a Clone the Goblin G it copied), the lord, the
    anthem, the Aura on S (or G) and Dress Down (the latest timestamp); effects from resolved
    spells are added as ``ContinuousEffect`` with increasing timestamps."""
    bf = []
    subject = {"alias": "S", "card": "Table Goblin"}
    if case.base == "facedown":
        subject["face_down"] = True
    elif case.base == "land":
        subject = {"alias": "S", "card": "Mountain"}
    host = "G" if case.base == "clone" else "S"
    if case.base == "clone":
        bf.append({"alias": "G", "card": "Table Goblin"})
    else:
        bf.append(subject)
    if case.counters != "none":
        ctr = {"+1/+1": 1, "-1/-1": 1} if case.counters == "both" else {case.counters: 1}
        bf[0]["counters"] = ctr
    if case.king:
        bf.append({"alias": "K", "card": "Goblin King"})
    if case.anthem != "none":
        bf.append({"alias": "A", "card": case.anthem})
    if case.aura != "none":
        bf.append({"alias": "U", "card": case.aura, "attached_to": host})
    hand = [{"alias": "S", "card": "Clone"}] if case.base == "clone" else []
    if case.dress_down:
        hand.append({"alias": "DD", "card": "Dress Down"})
    scenario = {"setup": {"turn": 3, "active_player": "alice", "step": "precombat_main", "players": [
        {"id": "alice", "battlefield": bf, "hand": hand}, {"id": "bob"}]}}
    game = build_game(scenario, case.ruleset, _cards(), _Source())
    target = game.find(host)

    def pump():
        game.effects.append(ContinuousEffect("modify_pt", [target.ref], game.new_timestamp(), power=3, toughness=3))

    if case.pump == "before" or case.pump == "pump":
        pump()
    if case.base == "land":  # Natural Affinity: layer 4 Creature, layer 7b 2/2 (engine/type_gain.py)
        target.gained_card_types = ("Creature",)
        game.effects.append(ContinuousEffect("set_pt", [target.ref], game.new_timestamp(), power=2, toughness=2))
    if case.pump == "after":
        pump()
    if case.base == "clone":
        game.move(game.find("S"), "battlefield", controller="alice")
    s = game.find("S")
    if case.type_change != "none":
        game.effects.append(ContinuousEffect(case.type_change, [s.ref], game.new_timestamp()))
    if case.dress_down:  # it enters last: the latest timestamp (its enters trigger is left pending)
        game.move(game.find("DD"), "battlefield", controller="alice")
    return game


CASES = _cases()
#: one test per (base, lord, Dress Down, ruleset): the cases of a group are checked in a loop
#: (a few thousand pytest items would take longer than the checks)
GROUPS: dict = {}
for _c in CASES:
    GROUPS.setdefault(f"{_c.base}-{'king' if _c.king else 'noking'}-{'dd' if _c.dress_down else 'nodd'}-{_c.ruleset}",
                      []).append(_c)


def check(case: Case) -> str | None:
    """The first difference between the engine and the oracle, or None."""
    want = oracle(case)
    game = build(case)
    s = game.find("S")
    got = {"creature": ch.is_type(s, "Creature"), "pt": ch.power_toughness(game, s),
           "goblin": ch.has_subtype(game, s, "Goblin"), "keywords": ch.keyword_names(game, s)}
    for key in got:
        if got[key] != want.get(key, True):
            return f"{key}: engine {got[key]!r}, oracle {want.get(key, True)!r}"
    game.check_state()
    s = game.find("S")
    sba = [e["rule"] for e in game.events if e["type"] == "state_based_action" and e.get("card") == "S"
           and e["rule"] in ("704.5f", "704.5g")]
    if want["dies"]:
        if s.zone != "graveyard" or sba != [want["dies"]]:
            return f"dies: engine {s.zone} {sba}, oracle {want['dies']}"
        if any(e["type"] == "destroyed" and e.get("card") == "S" for e in game.events):
            return "dies: destroyed, but CR 704.5f puts it into the graveyard"
        return None
    if s.zone != "battlefield":
        return f"dies: engine {s.zone} {sba}, oracle survives"
    counters = {k: v for k, v in s.counters.items() if v}
    if counters != want["counters"]:
        return f"counters: engine {counters}, oracle {want['counters']}"
    return None


@pytest.mark.parametrize("group", sorted(GROUPS))
def test_characteristics(group: str):
    wrong = [(c.id, why) for c in GROUPS[group] if (why := check(c)) is not None]
    assert wrong == [], f"{len(wrong)} of {len(GROUPS[group])} cases differ, e.g. {wrong[:5]}"
