"""The move generator's priority actions and payments (engine/legal_priority.py,
legal_mana.py, legal_common.py, legal_combat.py) at positions the fixtures don't reach: the
cheap filters the module docstring promises (split second, CR 702.61a), payments with a
source of two colors (CR 601.2g-h), a life payment equal to the life total (CR 119.4), one
attacker (CR 508.1), and the even sample ``spread``."""

from __future__ import annotations

import copy
from typing import Any

from test_legal_choices import position as choices_position

from mtg_judge.engine import legal, load_card_db
from mtg_judge.engine.cards import CardDefinition
from mtg_judge.engine.errors import ScriptExhausted
from mtg_judge.engine.legal_common import spread
from mtg_judge.engine.mana import ManaCost
from mtg_judge.engine.scenario import ScriptInputs, build_game

DB = load_card_db()


def _card(name: str, types: list[str], abilities: list[dict], **extra: Any) -> CardDefinition:
    """A card of this test only (the pool has no two-color land, no life-paying ability)."""
    return CardDefinition.from_dict({"name": name, "mana_cost": "", "type_line": " ".join(types), "supertypes": [],
                                     "types": types, "subtypes": [], "oracle_text": "", "layout": "normal",
                                     "keywords": [], "abilities": abilities, **extra})


CARDS = {**DB,
         "Test Dual": _card("Test Dual", ["Land"], [{"kind": "mana", "cost": {"tap": True},
                                                      "add": {"one_of": ["{R}", "{G}"]}}]),
         "Test Altar": _card("Test Altar", ["Artifact"], [{"kind": "activated", "cost": {"pay_life": 3},
                                                           "effects": [{"type": "draw", "player": "controller",
                                                                        "count": 1}]}])}




def position(setup: dict, script: list = ()) -> tuple[Any, dict]:
    """The game and the decision pending after ``script``, with this file's test cards."""
    return choices_position(setup, list(script), cards=CARDS)


def board(battlefield: list, hand: list = (), opp: list = (), opp_hand: list = (), life: int = 20,
          step: str = "precombat_main", counters: dict | None = None) -> dict:
    return {"seed": 3, "turn": 3, "active_player": "alice", "step": step, "players": [
        {"id": "alice", "life": life, "library": [{"alias": f"al{i}", "card": "Island"} for i in range(8)],
         "hand": [{"alias": a, "card": c} for a, c in hand],
         "battlefield": [{"alias": a, "card": c, **({"counters": counters[a]} if a in (counters or {}) else {})}
                         for a, c in battlefield]},
        {"id": "bob", "library": [{"alias": f"bl{i}", "card": "Island"} for i in range(8)],
         "hand": [{"alias": a, "card": c} for a, c in opp_hand],
         "battlefield": [{"alias": a, "card": c} for a, c in opp]}]}


def test_under_split_second_only_mana_abilities_and_special_actions_are_candidates():
    """CR 702.61a: while a spell with split second is on the stack, players can't cast spells
    or activate abilities that aren't mana abilities; the generator filters them before any
    dry run (candidate_actions), and the mana ability is still offered."""
    setup = board([("m1", "Mountain"), ("m2", "Mountain"), ("elf", "Llanowar Elves"), ("tome", "Jayemdae Tome")]
                  + [(f"i{i}", "Island") for i in range(4)],
                  hand=[("shock", "Sudden Shock"), ("bolt", "Lightning Bolt")], opp=[("bear", "Grizzly Bears")])
    cast = {"action": "cast", "player": "alice", "card": "shock", "targets": ["bob"], "pay_with": ["m1", "m2"]}
    game, decision = position(setup, [cast])
    assert decision == {"kind": "priority", "player": "alice"}
    kinds = {c.kind for c in legal.candidate_actions(game, decision)}
    assert kinds <= {"pass", "mana", "special"} and "mana" in kinds
    # with a Lightning Bolt on the stack instead, Sudden Shock and the Tome's ability are candidates
    game, decision = position(setup, [dict(cast, card="bolt", pay_with=["m1"])])
    assert {"cast", "activate"} <= {c.kind for c in legal.candidate_actions(game, decision)}


def test_a_payment_keeps_the_source_of_two_colors_for_the_color_only_it_can_pay():
    """CR 601.2g-h, and the order plan_payment documents: colored symbols are matched with
    single-color sources before sources of a color of choice, so {R}{G} is paid by the
    Mountain for {R} and the two-color land for {G}, whatever their order on the battlefield."""
    setup = board([("dual", "Test Dual"), ("m1", "Mountain")])
    game, _ = position(setup)
    assert legal.plan_payment(game, "alice", ManaCost.parse("{R}{G}")) == ["m1", {"source": "dual", "color": "G"}]
    assert legal.plan_payment(game, "alice", ManaCost.parse("{G}{G}")) is None


def test_a_life_payment_equal_to_the_life_total_is_offered():
    """CR 119.4: a player may pay life only if their life total is greater than or equal to the
    payment: at 3 life a cost of 3 life is offered (and accepted), at 2 it is not."""
    activate = {"action": "activate", "player": "alice", "source": "altar", "ability": 0}
    for life, offered in ((3, True), (4, True), (2, False)):
        game, decision = position(board([("altar", "Test Altar")], life=life))
        actions = legal.legal_actions(game, decision)
        assert (activate in actions) is offered, life
        assert legal.accepts(game, decision, activate) == ((True, None) if offered else (False, "cannot_pay"))


def test_one_creature_able_to_attack_is_offered_once():
    """CR 508.1a: the attacking creatures are chosen; with one creature able to attack the
    generator offers no attack and that creature alone, once each."""
    setup = board([("bear", "Grizzly Bears"), ("wall", "Wall of Stone")], step="beginning_of_combat")
    game, decision = position(setup, [{"action": "pass", "player": "alice"}, {"action": "pass", "player": "bob"}])
    assert decision["kind"] == "declare_attackers"
    assert [a["attackers"] for a in legal.legal_actions(game, decision)] == [[], ["bear"]]


def test_spread_keeps_at_most_k_evenly_spaced_with_the_first_and_the_last():
    """``legal_common.spread``: at most ``k`` elements, evenly spaced, first and last included;
    all of them when there are ``k`` or fewer (or no ``k``); one: the first."""
    seq = list(range(10))
    assert spread(seq, None) == seq and spread(seq, 10) == seq and spread(seq, 12) == seq
    assert spread(seq[:3], 8) == [0, 1, 2]
    assert spread(seq, 1) == [0]
    assert spread(seq, 2) == [0, 9]
    assert spread(seq, 4) == [0, 3, 6, 9]
    original = copy.copy(seq)
    assert spread(seq, 3) == [0, 4, 9] and seq == original  # round(4.5) == 4


def test_only_the_defending_players_creatures_are_offered_as_blockers():
    """CR 509.1a: the defending player chooses which creatures they control block. The
    attacking player's creature that stayed home and the defender's land are never candidate
    blockers, and the declaration with every able blocker is offered."""
    setup = board([("bear", "Grizzly Bears"), ("home", "Serra Angel")], opp=[("wolf", "Tundra Wolves"),
                                                                            ("plains", "Plains")],
                  step="beginning_of_combat")
    script = [{"action": "pass", "player": "alice"}, {"action": "pass", "player": "bob"},
              {"action": "declare_attackers", "player": "alice", "attackers": ["bear"]}, {"action": "resolve"}]
    game, decision = position(setup, script)
    assert decision == {"kind": "declare_blockers", "player": "bob"}
    blockers = {b["blocker"] for c in legal.candidate_actions(game, decision) for b in c.input["blocks"]}
    assert blockers == {"wolf"}
    assert {"action": "declare_blockers", "player": "bob", "blocks": [{"blocker": "wolf", "attacker": "bear"}]} \
        in legal.legal_actions(game, decision)


def test_a_storage_land_offers_its_mana_in_each_color_and_a_split():
    """Calciform Pools, "{1}, Remove X storage counters: Add X mana in any combination of {W}
    and/or {U}" (CR 106.1b, 605.1a): with two counters the generator offers X = 1 and 2, each
    color alone and, for two, one of each; all accepted."""
    setup = board([("pools", "Calciform Pools"), ("m1", "Mountain")], counters={"pools": {"storage": 2}})
    game, decision = position(setup)
    offered = [(a["x"], a["produce"]) for a in legal.legal_actions(game, decision)
               if a.get("source") == "pools" and a.get("ability") == 2]
    assert sorted(offered, key=repr) == sorted([(1, {"W": 1}), (1, {"U": 1}), (2, {"W": 2}), (2, {"U": 2}),
                                                (2, {"W": 1, "U": 1})], key=repr)


def test_no_cycling_is_offered_while_players_cant_cycle():
    """Stabilizer, "players can't cycle cards" (CR 702.29e): Backslide's cycling is not offered
    while it is on the battlefield, and is offered without it."""
    hand = [("slide", "Backslide")]
    lands = [(f"i{i}", "Island") for i in range(3)]
    for battlefield, offered in ((lands + [("stab", "Stabilizer")], False), (lands, True)):
        game, decision = position(board(battlefield, hand=hand))
        cycles = [c for c in legal.candidate_actions(game, decision) if c.input.get("source") == "slide"]
        assert bool(cycles) is offered


def test_only_the_controller_of_a_prepared_permanent_is_offered_its_copy():
    """Ruling strixhaven.prepare.10: only the current controller of a prepared permanent may
    cast its copy. Bob controls alice's prepared Emeritus of Conflict: alice is offered no
    cast of the copy (not even as a candidate); once Act of Treason gives her control, she is,
    and it is accepted."""
    setup = {"seed": 1, "turn": 3, "active_player": "alice", "step": "precombat_main", "players": [
        {"id": "alice", "library": [{"alias": f"a{i}", "card": "Island"} for i in range(5)],
         "hand": [{"alias": "aot", "card": "Act of Treason"}],
         "battlefield": [{"alias": f"m{i}", "card": "Mountain"} for i in range(1, 5)]
         + [{"alias": "emc", "card": "Emeritus of Conflict", "controller": "bob", "prepared": True}]},
        {"id": "bob", "library": [{"alias": f"b{i}", "card": "Island"} for i in range(5)]}]}
    game, decision = position(setup)
    assert not [c for c in legal.candidate_actions(game, decision) if c.input.get("card") == "prepared#1"]
    script = [{"action": "cast", "player": "alice", "card": "aot", "targets": ["emc"], "pay_with": ["m1", "m2", "m3"]},
              {"action": "pass", "player": "alice"}, {"action": "pass", "player": "bob"}]
    game, decision = position(setup, script)
    casts = [a for a in legal.legal_actions(game, decision) if a.get("card") == "prepared#1"]
    assert casts and all(a["action"] == "cast" for a in casts)


def test_a_land_without_a_triggered_mana_ability_is_tapped_for_mana_once():
    """CR 605.1a, 605.1b: a Forest's mana ability adds {G}; only a land enchanted with Fertile
    Ground also has a triggered mana ability adding one mana of any color (named by
    ``extra_color``). The plain Forest beside it is offered once, with no extra color; the
    enchanted one once per color."""
    setup = board([("f1", "Forest"), ("f2", "Forest"), ("fg", "Fertile Ground")])
    setup["players"][0]["battlefield"][2]["attached_to"] = "f1"
    game, decision = position(setup)
    taps = {ref: [a for a in legal.legal_actions(game, decision) if a.get("source") == ref] for ref in ("f1", "f2")}
    assert taps["f2"] == [{"action": "activate", "player": "alice", "source": "f2", "ability": 0}]
    assert sorted(a["extra_color"] for a in taps["f1"]) == ["B", "G", "R", "U", "W"]


def test_the_triggered_ability_of_a_keyword_is_found_for_its_targets():
    """``legal_targets.pending_target_item`` finds the ability a ``choose_targets`` decision is
    about by its ``ability_triggered`` event, a keyword's triggered ability too (flanking, CR
    702.25a: no target, so its only answer names none; no keyword trigger of the engine has a
    target yet, so no game asks it)."""
    setup = board([("cav", "Benalish Cavalry")], opp=[("bear", "Grizzly Bears")])
    script = [{"action": "advance", "to": "declare_attackers", "turn": 3},
              {"action": "declare_attackers", "player": "alice", "attackers": ["cav"]},
              {"action": "advance", "to": "declare_blockers", "turn": 3},
              {"action": "declare_blockers", "player": "bob", "blocks": [{"blocker": "bear", "attacker": "cav"}]}]
    game, decision = position(setup, script)
    [ev] = [e for e in game.events if e["type"] == "ability_triggered"]
    assert ev["ability"] == "flanking"
    ask = {"kind": "choose_targets", "player": "alice", "ability": ev["object"]}
    item, specs = legal.pending_target_item(game, ask)
    assert specs == [] and item.ability["trigger"]["event"] == "becomes_blocked_by" and item.source == "cav"
    # no game asks it, so the candidates are listed unverified (``accepts`` judges only the
    # question the game is waiting on, Game.asking)
    assert legal.legal_actions(game, ask, verify=False) == [{"action": "choose_targets", "player": "alice",
                                                            "targets": []}]
    assert legal.pending_target_item(game, dict(ask, ability="ability#99")) is None


def test_nothing_is_accepted_once_the_game_is_over():
    """CR 104.1, 104.3b: a player at 0 life loses; the two-player game is then over, the engine
    refuses every input (``game_over``, FORMAT §8) and so does ``accepts``; nothing is offered."""
    from mtg_judge.engine.errors import GameOver

    setup = board([("m1", "Mountain")], hand=[("bolt", "Lightning Bolt")])
    setup["players"][1]["life"] = 3
    script = [{"action": "cast", "player": "alice", "card": "bolt", "targets": ["bob"], "pay_with": ["m1"]},
              {"action": "pass", "player": "alice"}, {"action": "pass", "player": "bob"}]
    game = build_game({"setup": setup}, "modern", CARDS, ScriptInputs(script))
    try:
        game.play()
    except (ScriptExhausted, GameOver):
        pass
    assert game.over
    decision = {"kind": "priority", "player": "alice"}
    assert legal.accepts(game, decision, {"action": "pass", "player": "alice"}) == (False, "game_over")
    assert legal.legal_actions(game, decision) == []


def test_no_land_is_a_candidate_after_the_land_drop():
    """CR 305.2: a player may normally play one land a turn; after it, no land play is even
    a candidate (the cheap filter before any dry run), before it each land in hand is."""
    hand = [("for", "Forest"), ("isl", "Island")]
    for played, offered in ((0, {"for", "isl"}), (1, set())):
        setup = board([], hand=hand)
        setup["lands_played"] = played
        game, decision = position(setup)
        assert {c.input["card"] for c in legal.candidate_actions(game, decision) if c.kind == "land"} == offered
