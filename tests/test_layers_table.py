"""Continuous effects as a table (issue #14's lesson applied to the layer system): every
combination of a creature's base (a vanilla Goblin, a face-down creature, a land animated
into a 2/2, a Clone that copied a pumped Goblin), a lord (Goblin King), an anthem (Glorious
Anthem, Crusade), an Aura or Equipment (Holy Strength, Enfeeblement, Monk's Fist), Giant
Growth (before or after the land was animated), +1/+1 / -1/-1 counters, a creature-type change
and Dress Down ("creatures lose all abilities"), in each ruleset where the rules differ; then
smaller tables: keyword grants (Aura, Equipment, a resolved spell, a lord) before and after
Dress Down; state-based actions and the cleanup step (damage × Giant Growth × Aura × counters
× a regeneration shield); what a Clone may copy; card-type effects (animate, "isn't a
creature", "becomes a land") and creature-type effects (Slivers, changeling) in timestamp
order; a face-down creature turned face up. Each case builds a tiny game in process, puts the
effects on it the way resolved spells do (``ContinuousEffect`` with a timestamp, or the
engine's own effect handlers), and checks the engine's characteristics and state-based actions
against a small oracle written here from the rules text, never from the engine's output:

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
from mtg_judge.engine import effects as effects_mod
from mtg_judge.engine import state as state_mod
from mtg_judge.engine.cards import CardDefinition
from mtg_judge.engine.errors import ScriptExhausted
from mtg_judge.engine.objects import ContinuousEffect, StackItem
from mtg_judge.engine.scenario import _card_db, build_game

RULESETS = ("modern", "timespiral-2006", "classic-1999")
#: the creature under test: a white 2/2 Goblin, the same card face down, a Mountain that
#: became a 2/2 creature (Natural Affinity), a Clone that entered as a copy of the Goblin
BASES = ("goblin", "facedown", "land", "clone")
ANTHEMS = ("none", "Glorious Anthem", "Crusade")
AURAS = ("none", "Holy Strength", "Enfeeblement", "Monk's Fist")  # Monk's Fist: an Equipment, +1/+0
#: Giant Growth on it: none, or cast before / after the land was animated (one "pump" for
#: the other bases)
PUMPS = {"land": ("none", "before", "after"), "other": ("none", "pump")}
COUNTERS = ("none", "+1/+1", "-1/-1", "both")
TYPE_CHANGES = ("none", "no_creature_types", "all_creature_types")
AURA_PT = {"none": (0, 0), "Holy Strength": (1, 2), "Enfeeblement": (-2, -2), "Monk's Fist": (1, 0)}

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
                         self.aura.replace(" ", "").replace("'", ""), f"pump_{self.pump}", f"ctr_{self.counters}",
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
        ts = game.new_timestamp()
        game.effects.append(ContinuousEffect("gain_card_types", [target.ref], ts, types=("Creature",)))
        game.effects.append(ContinuousEffect("set_pt", [target.ref], ts, power=2, toughness=2))
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


# ------------------------------------------------------------------------------ layer 6 timestamps
#: when a keyword grant began, relative to Dress Down's timestamp (CR 613.7: an Aura or an
#: Equipment gets a new timestamp as it becomes attached, 613.7e)
WHEN = ("none", "before", "after")


@dataclass(frozen=True)
class KwCase:
    aura: str  # Aspect of Mongoose (enchanted creature has shroud)
    equipment: str  # Gorgon's Head (equipped creature has deathtouch)
    spell: str  # a resolved "gains flying until end of turn"
    king: bool
    dress_down: bool
    ruleset: str

    @property
    def id(self) -> str:
        return (f"aura_{self.aura}-equip_{self.equipment}-flying_{self.spell}-{'king' if self.king else 'noking'}"
                f"-{'dd' if self.dress_down else 'nodd'}-{self.ruleset}")


def _kw_cases() -> list[KwCase]:
    out = []
    for aura, equip, spell, king, dd in itertools.product(WHEN, WHEN, WHEN, (False, True), (False, True)):
        if not dd and "after" in (aura, equip, spell):
            continue  # without Dress Down, "after" is "before"
        for rs in (("modern",) if king and dd else RULESETS):
            out.append(KwCase(aura, equip, spell, king, dd, rs))
    return out


def kw_oracle(case: KwCase) -> list[str]:
    """CR 613.1f, 613.7: in layer 6 the effects apply in timestamp order; Dress Down removes
    every ability the creature has at that point (its printed haste, grants that began
    earlier); grants that began later still apply. The lord's grant: none under Dress Down
    (CR 613.8a)."""
    out = set() if case.dress_down else {"haste"}
    for when, kw in ((case.aura, "shroud"), (case.equipment, "deathtouch"), (case.spell, "flying")):
        if when == "after" or (when == "before" and not case.dress_down):
            out.add(kw)
    if case.king and not case.dress_down:
        out.add("landwalk:Mountain")
    return sorted(out)


def kw_build(case: KwCase):
    bf = [{"alias": "S", "card": "Table Hasty Goblin"}]
    if case.king:
        bf.append({"alias": "K", "card": "Goblin King"})
    if case.aura != "none":
        bf.append({"alias": "U", "card": "Aspect of Mongoose", "attached_to": "S"})
    if case.equipment != "none":
        bf.append({"alias": "E", "card": "Gorgon's Head", "attached_to": "S"})
    if case.dress_down:
        bf.append({"alias": "DD", "card": "Dress Down"})
    scenario = {"setup": {"turn": 3, "active_player": "alice", "step": "precombat_main", "players": [
        {"id": "alice", "battlefield": bf}, {"id": "bob"}]}}
    game = build_game(scenario, case.ruleset, _cards(), _Source())
    s = game.find("S")
    for phase in ("before", "dd", "after"):  # timestamps in this order
        if phase == "dd" and case.dress_down:
            game.find("DD").timestamp = game.new_timestamp()
        if case.aura == phase:
            game.find("U").timestamp = game.new_timestamp()
        if case.equipment == phase:
            game.find("E").timestamp = game.new_timestamp()
        if case.spell == phase:
            game.effects.append(ContinuousEffect("grant_keywords", [s.ref], game.new_timestamp(),
                                                 keywords=({"keyword": "flying"},)))
    return game


KW_CASES = _kw_cases()


@pytest.mark.parametrize("ruleset", RULESETS)
def test_keyword_timestamps(ruleset: str):
    wrong = []
    for case in (c for c in KW_CASES if c.ruleset == ruleset):
        game = kw_build(case)
        got = ch.keyword_names(game, game.find("S"))
        if got != kw_oracle(case):
            wrong.append((case.id, got, kw_oracle(case)))
    assert wrong == [], f"{len(wrong)} cases differ, e.g. {wrong[:5]}"


# ------------------------------------------------------------------------------ state-based actions and cleanup
@dataclass(frozen=True)
class SbaCase:
    damage: int
    pump: bool  # Giant Growth, until end of turn
    aura: str
    counter: str
    regenerate: bool  # a regeneration shield (CR 701.19)
    ruleset: str

    @property
    def id(self) -> str:
        return (f"dmg{self.damage}-{'gg' if self.pump else 'nogg'}-{self.aura.replace(' ', '').replace(chr(39), '')}"
                f"-ctr_{self.counter}-{'regen' if self.regenerate else 'noregen'}-{self.ruleset}")


SBA_CASES = [SbaCase(d, gg, aura, ctr, rg, rs) for d, gg, aura, ctr, rg, rs in itertools.product(
    range(6), (False, True), AURAS, ("none", "+1/+1", "-1/-1"), (False, True), RULESETS)]


def sba_oracle(case: SbaCase) -> dict:
    """A 2/2 Goblin with damage marked: CR 704.5f (toughness 0 or less: put into the graveyard,
    regeneration can't help) before 704.5g (lethal damage: destroyed, a regeneration shield
    replaces it: tapped, damage removed, CR 701.19c); what survives goes through the cleanup
    step, where damage wears off as "until end of turn" effects end (CR 514.2): it survives
    with its Aura's and counters' values."""
    dp, dt = AURA_PT[case.aura]
    n = {"none": 0, "+1/+1": 1, "-1/-1": -1}[case.counter]
    t = 2 + dt + n + (3 if case.pump else 0)
    if t <= 0:
        return {"now": "704.5f", "after_cleanup": None}
    # after the cleanup step: Giant Growth is gone; toughness 0 then is a 704.5f death in it
    after = (2 + dp + n, 2 + dt + n) if 2 + dt + n > 0 else "704.5f"
    if case.damage >= t:
        if case.regenerate:
            return {"now": "regenerated", "after_cleanup": after}
        return {"now": "704.5g", "after_cleanup": None}
    return {"now": None, "after_cleanup": after}


def sba_build(case: SbaCase):
    subject = {"alias": "S", "card": "Table Goblin", "damage": case.damage}
    if case.counter != "none":
        subject["counters"] = {case.counter: 1}
    bf = [subject]
    if case.aura != "none":
        bf.append({"alias": "U", "card": case.aura, "attached_to": "S"})
    scenario = {"setup": {"turn": 3, "active_player": "alice", "step": "end", "players": [
        {"id": "alice", "battlefield": bf}, {"id": "bob"}]}}
    game = build_game(scenario, case.ruleset, _cards(), _Source())
    s = game.find("S")
    if case.pump:
        game.effects.append(ContinuousEffect("modify_pt", [s.ref], game.new_timestamp(), power=3, toughness=3))
    if case.regenerate:
        s.regen_shields = 1
    return game


def sba_check(case: SbaCase) -> str | None:
    want = sba_oracle(case)
    game = sba_build(case)
    game.check_state()
    s = game.find("S")
    rules = [e["rule"] for e in game.events if e["type"] == "state_based_action" and e.get("card") == "S"]
    regenerated = any(e["type"] == "regenerated" and e.get("card") == "S" for e in game.events)
    if want["now"] in ("704.5f", "704.5g"):
        if s.zone != "graveyard" or rules != [want["now"]] or regenerated:
            return f"now: engine {s.zone} {rules} regenerated={regenerated}, oracle {want['now']}"
        destroyed = any(e["type"] == "destroyed" and e.get("card") == "S" for e in game.events)
        if destroyed != (want["now"] == "704.5g"):
            return f"destroyed={destroyed} for {want['now']}"
        return None
    if s.zone != "battlefield" or regenerated != (want["now"] == "regenerated"):
        return f"now: engine {s.zone} regenerated={regenerated}, oracle {want['now']}"
    try:
        game.cleanup_step()
    except ScriptExhausted:  # priority after a state-based action in the cleanup step (CR 514.3a)
        pass
    s = game.find("S")
    if want["after_cleanup"] == "704.5f":
        rules = [e["rule"] for e in game.events if e["type"] == "state_based_action" and e.get("card") == "S"]
        if s.zone != "graveyard" or rules[-1:] != ["704.5f"]:
            return f"after cleanup: engine {s.zone} {rules}, oracle 704.5f"
        return None
    if s.zone != "battlefield":
        return f"after cleanup: engine {s.zone}, oracle survives"
    got = ch.power_toughness(game, s)
    if got != want["after_cleanup"] or s.damage:
        return f"after cleanup: engine {got} damage {s.damage}, oracle {want['after_cleanup']}"
    return None


@pytest.mark.parametrize("ruleset", RULESETS)
def test_state_based_actions_and_cleanup(ruleset: str):
    wrong = [(c.id, why) for c in SBA_CASES if c.ruleset == ruleset and (why := sba_check(c)) is not None]
    assert wrong == [], f"{len(wrong)} cases differ, e.g. {wrong[:5]}"


# ------------------------------------------------------------------------------ layer 1: what a Clone may copy
#: the creature offered to the Clone: a Goblin with Giant Growth, an Aura and a +1/+1 counter;
#: a Mountain animated into a 2/2 creature; a Goblin that "isn't a creature" until end of turn;
#: a face-down creature
CLONE_SOURCES = ("pumped_goblin", "animated_land", "uncreatured_goblin", "facedown")


def clone_oracle(source: str) -> dict | None:
    """CR 707.2: the Clone may copy any creature on the battlefield (a creature now, after
    type-changing effects); it takes the copiable values only (the printed card, or a
    face-down 2/2 with no name and no abilities, CR 708.2), no effect, Aura or counter: a
    copy of an animated Mountain is a land named Mountain, not a creature (the layer-4 and
    7b effects aren't copied). None: not offered."""
    if source == "uncreatured_goblin":
        return None
    if source == "animated_land":
        return {"name": "Mountain", "creature": False, "land": True, "pt": None}
    if source == "facedown":
        return {"name": None, "creature": True, "land": False, "pt": (2, 2)}
    return {"name": "Table Goblin", "creature": True, "land": False, "pt": (2, 2)}


class _CloneSource:
    def __init__(self):
        self.offered = None

    def next(self, game, decision: dict) -> dict:
        if decision["kind"] == "choose" and decision.get("reason") == "copy":
            self.offered = list(decision.get("options", ()))
            choice = "G" if "G" in self.offered else "no"
            return {"action": "choose", "player": decision["player"], "choice": choice}
        raise ScriptExhausted()


@pytest.mark.parametrize("ruleset", RULESETS)
@pytest.mark.parametrize("source", CLONE_SOURCES)
def test_clone_copies_copiable_values(source: str, ruleset: str):
    want = clone_oracle(source)
    g = {"alias": "G", "card": "Mountain" if source == "animated_land" else "Table Goblin"}
    bf = [g, {"alias": "X", "card": "Table Goblin"}]  # X: another creature, so a choice is always asked
    if source == "pumped_goblin":
        g["counters"] = {"+1/+1": 1}
        bf.append({"alias": "U", "card": "Holy Strength", "attached_to": "G"})
    if source == "facedown":
        g["face_down"] = True
    scenario = {"setup": {"turn": 3, "active_player": "alice", "step": "precombat_main", "players": [
        {"id": "alice", "battlefield": bf, "hand": [{"alias": "S", "card": "Clone"}]}, {"id": "bob"}]}}
    src = _CloneSource()
    game = build_game(scenario, ruleset, _cards(), src)
    obj = game.find("G")
    if source == "pumped_goblin":
        game.effects.append(ContinuousEffect("modify_pt", [obj.ref], game.new_timestamp(), power=3, toughness=3))
    elif source == "animated_land":
        ts = game.new_timestamp()
        game.effects.append(ContinuousEffect("gain_card_types", [obj.ref], ts, types=("Creature",)))
        game.effects.append(ContinuousEffect("set_pt", [obj.ref], ts, power=2, toughness=2))
    elif source == "uncreatured_goblin":
        game.effects.append(ContinuousEffect("lose_card_types", [obj.ref], game.new_timestamp(), types=("Creature",)))
    game.move(game.find("S"), "battlefield", controller="alice")
    s = game.find("S")
    assert ("G" in (src.offered or [])) == (want is not None)
    if want is None:
        return
    assert s.name == want["name"]
    assert ch.is_type(s, "Creature") == want["creature"]
    assert ch.is_type(s, "Land") == want["land"]
    if want["pt"] is not None:
        assert ch.power_toughness(game, s) == want["pt"]


# ------------------------------------------------------------------------------ layer 4 in timestamp order, Slivers
#: creature-type effects on one creature, in timestamp order: gains all creature types, loses
#: them, becomes a Sliver / a Goblin (the type chosen, replacing its creature types)
TYPE_EFFECTS = ("all", "none", "set:Sliver", "set:Goblin")
BASE_TYPES = {"L": {"Sliver"}, "F": {"Sliver"}, "X": {"Goblin"}, "C": "all"}
BASE_PT = {"L": (1, 1), "F": (3, 3), "X": (2, 2), "C": (1, 1)}


@dataclass(frozen=True)
class TypeCase:
    target: str  # L: Sinew Sliver (all Slivers get +1/+1), X: a Goblin, C: Amoeboid Changeling
    sequence: tuple
    dress_down: bool

    @property
    def id(self) -> str:
        return f"{self.target}-{'+'.join(self.sequence) or 'printed'}-{'dd' if self.dress_down else 'nodd'}"


TYPE_CASES = [TypeCase(t, seq, dd) for t in ("L", "X", "C") for n in range(3)
              for seq in itertools.product(TYPE_EFFECTS, repeat=n) for dd in (False, True)]


def type_oracle(case: TypeCase) -> dict:
    """CR 613.1d, 613.7: the layer-4 effects on the target apply in timestamp order, after
    its characteristic-defining changeling (CR 702.73a, 604.3: it applies even under a later
    "loses all abilities", which acts in layer 6); then Sinew Sliver pumps every Sliver,
    itself included while it is one (timespiral.slivers.01, .05: a Sliver made a non-Sliver
    doesn't pump itself but still pumps the others), and Fury Sliver gives every Sliver
    double strike; under Dress Down neither lord has its ability (CR 613.8a)."""
    types = {k: v for k, v in BASE_TYPES.items()}
    for eff in case.sequence:
        types[case.target] = "all" if eff == "all" else set() if eff == "none" else {eff[4:]}
    out = {}
    for name in ("L", "F", "X", "C"):
        sliver = types[name] == "all" or "Sliver" in types[name]
        goblin = types[name] == "all" or "Goblin" in types[name]
        p, t = BASE_PT[name]
        kws = set()
        if name == "C" and not case.dress_down:
            kws.add("changeling")
        if sliver and not case.dress_down:
            p, t = p + 1, t + 1
            kws.add("double_strike")
        out[name] = {"pt": (p, t), "sliver": sliver, "goblin": goblin, "keywords": sorted(kws)}
    return out


def type_check(case: TypeCase) -> str | None:
    bf = [{"alias": "L", "card": "Sinew Sliver"}, {"alias": "F", "card": "Fury Sliver"},
          {"alias": "X", "card": "Table Goblin"}, {"alias": "C", "card": "Amoeboid Changeling"}]
    if case.dress_down:
        bf.append({"alias": "DD", "card": "Dress Down"})
    scenario = {"setup": {"turn": 3, "active_player": "alice", "step": "precombat_main", "players": [
        {"id": "alice", "battlefield": bf}, {"id": "bob"}]}}
    game = build_game(scenario, "modern", _cards(), _Source())
    ref = game.find(case.target).ref
    kinds = {"all": "all_creature_types", "none": "no_creature_types"}
    for eff in case.sequence:
        if eff in kinds:
            game.effects.append(ContinuousEffect(kinds[eff], [ref], game.new_timestamp()))
        else:
            game.effects.append(ContinuousEffect("set_creature_type", [ref], game.new_timestamp(), creature_type=eff[4:]))
    want = type_oracle(case)
    for name, w in want.items():
        obj = game.find(name)
        got = {"pt": ch.power_toughness(game, obj), "sliver": ch.has_subtype(game, obj, "Sliver"),
               "goblin": ch.has_subtype(game, obj, "Goblin"), "keywords": ch.keyword_names(game, obj)}
        if got != w:
            return f"{name}: engine {got}, oracle {w}"
    return None


def test_creature_types_in_timestamp_order():
    wrong = [(c.id, why) for c in TYPE_CASES if (why := type_check(c)) is not None]
    assert wrong == [], f"{len(wrong)} of {len(TYPE_CASES)} cases differ, e.g. {wrong[:5]}"


# ------------------------------------------------------------------------------ card types in timestamp order
#: resolved layer-4 effects on one permanent, run through the engine's effect handlers: Natural
#: Affinity's "becomes a 2/2 creature", "isn't a creature" (Test Uncreaturing Word), "becomes
#: a land in addition" (Test Landforming Word)
CARD_TYPE_EFFECTS = {
    "animate": {"type": "become_creature", "what": {"target": 0}, "power": 2, "toughness": 2},
    "uncreature": {"type": "lose_card_types", "what": {"target": 0}, "types": ["Creature"]},
    "landform": {"type": "gain_card_types", "what": {"target": 0}, "types": ["Land"]},
}


@dataclass(frozen=True)
class CardTypeCase:
    subject: str  # a Goblin creature or a Mountain
    sequence: tuple

    @property
    def id(self) -> str:
        return f"{self.subject}-{'+'.join(self.sequence) or 'printed'}"


CARD_TYPE_CASES = [CardTypeCase(subj, seq) for subj in ("Table Goblin", "Mountain") for n in range(4)
                   for seq in itertools.product(CARD_TYPE_EFFECTS, repeat=n)]


def card_type_oracle(case: CardTypeCase) -> dict:
    """CR 613.1d, 613.7: type-changing effects apply in timestamp order, so for each card
    type the latest effect that adds or removes it decides; with none, the printed types.
    A permanent that is a creature has its printed power and toughness, or 2/2 once an
    animation (layer 7b) applies to it."""
    creature = case.subject == "Table Goblin"
    land = case.subject == "Mountain"
    for eff in case.sequence:
        if eff == "animate":
            creature = True
        elif eff == "uncreature":
            creature = False
        else:
            land = True
    pt = (2, 2) if creature else None
    return {"creature": creature, "land": land, "pt": pt}


def card_type_check(case: CardTypeCase) -> str | None:
    scenario = {"setup": {"turn": 3, "active_player": "alice", "step": "precombat_main", "players": [
        {"id": "alice", "battlefield": [{"alias": "S", "card": case.subject}]}, {"id": "bob"}]}}
    game = build_game(scenario, "modern", _cards(), _Source())
    s = game.find("S")
    for eff in case.sequence:
        item = StackItem(ref=game.next_ref("ability"), kind="ability", controller="alice", ability={},
                         targets=[s.ref])
        effects_mod.run(effects_mod.Context(game, item, [True]), [dict(CARD_TYPE_EFFECTS[eff], duration="end_of_turn")])
    want = card_type_oracle(case)
    got = {"creature": ch.is_type(s, "Creature"), "land": ch.is_type(s, "Land"),
           "pt": ch.power_toughness(game, s) if ch.is_type(s, "Creature") else None}
    state_types = state_mod.snapshot(game)["battlefield"]["S"]["types"]
    if got != want:
        return f"engine {got}, oracle {want}"
    if ("Creature" in state_types) != want["creature"] or ("Land" in state_types) != want["land"]:
        return f"state types {state_types}, oracle {want}"
    return None


def test_card_types_in_timestamp_order():
    wrong = [(c.id, why) for c in CARD_TYPE_CASES if (why := card_type_check(c)) is not None]
    assert wrong == [], f"{len(wrong)} of {len(CARD_TYPE_CASES)} cases differ, e.g. {wrong[:5]}"


# ------------------------------------------------------------------------------ turned face up
@pytest.mark.parametrize("ruleset", ("modern", "timespiral-2006"))
def test_turned_face_up_keeps_effects_counters_and_attachments(ruleset: str):
    """timespiral.morph.12, CR 708.8: a face-down 2/2 with Giant Growth, a +1/+1 counter,
    Holy Strength and Monk's Fist, turned face up, is the same permanent: its printed values
    (Hystrodon 3/4) replace the face-down 2/2 in layer 1 and every layer-7c modification still
    applies (+3/+3, +1/+1, +1/+2, +1/+0)."""
    scenario = {"setup": {"turn": 3, "active_player": "alice", "step": "precombat_main", "players": [
        {"id": "alice", "battlefield": [{"alias": "S", "card": "Hystrodon", "face_down": True, "counters": {"+1/+1": 1}},
                                        {"alias": "U", "card": "Holy Strength", "attached_to": "S"},
                                        {"alias": "E", "card": "Monk's Fist", "attached_to": "S"}]}, {"id": "bob"}]}}
    game = build_game(scenario, ruleset, _cards(), _Source())
    s = game.find("S")
    game.effects.append(ContinuousEffect("modify_pt", [s.ref], game.new_timestamp(), power=3, toughness=3))
    mods = (3 + 1 + 1 + 1, 3 + 1 + 2 + 0)
    assert ch.power_toughness(game, s) == (2 + mods[0], 2 + mods[1])
    game.turn_face_up(s)
    s = game.find("S")
    assert ch.power_toughness(game, s) == (3 + mods[0], 4 + mods[1])
    assert "trample" in ch.keyword_names(game, s)


def test_table_size():
    assert (len(CASES), len(KW_CASES), len(SBA_CASES), len(CLONE_SOURCES) * 3, len(TYPE_CASES),
            len(CARD_TYPE_CASES)) == (7128, 156, 864, 12, 126, 80)
