"""The move generator's choices (engine/legal_choices.py, legal_combat.py, legal_start.py) at
positions the fixtures don't reach: each offered answer is accepted by the engine for real,
the answers the rules allow are all offered, and ``legal.accepts`` says what the engine does
with right and wrong answers alike, code included (docs/FORMAT.md §8)."""

from __future__ import annotations

from typing import Any

import pytest

from mtg_judge.engine import legal, load_card_db, run_scenario
from mtg_judge.engine.errors import ScriptExhausted
from mtg_judge.engine.legal_common import CHOICE_LIMIT
from mtg_judge.engine.scenario import ScriptInputs, build_game

DB = load_card_db()


class _Capture(ScriptInputs):
    def __init__(self, script: list) -> None:
        super().__init__(script)
        self.decision: Any = None

    def next(self, game: Any, decision: dict) -> dict:
        try:
            return super().next(game, decision)
        except ScriptExhausted:
            self.decision = decision
            raise


def position(setup: dict, script: list, ruleset: str = "modern", cards: dict | None = None) -> tuple[Any, dict]:
    """The game and the decision pending after ``script`` (``cards``: the card database, the
    project's card files by default)."""
    source = _Capture(list(script))
    game = build_game({"setup": setup}, ruleset, DB if cards is None else cards, source)
    try:
        game.play()
    except ScriptExhausted:
        pass
    assert source.decision is not None
    return game, source.decision


def engine_answer(setup: dict, script: list, inp: dict, ruleset: str = "modern") -> tuple[bool, Any]:
    """What the engine does with ``inp`` given after ``script``: (accepted, rejection code)."""
    result = run_scenario({"setup": setup, "script": list(script) + [inp]}, ruleset, DB)
    rejected = next((e for e in result["events"] if e["type"] == "action_rejected" and e.get("at") == len(script)),
                    None)
    return rejected is None, rejected["code"] if rejected else None


def agree(setup: dict, script: list, probes: list[dict], ruleset: str = "modern") -> list[dict]:
    """Check that every legal action at the position after ``script`` is accepted for real and
    that ``legal.accepts`` answers each of them and each of ``probes`` as the engine does;
    returns the legal actions."""
    game, decision = position(setup, script, ruleset)
    actions = legal.legal_actions(game, decision)
    for inp in actions + probes:
        assert legal.accepts(game, decision, inp) == engine_answer(setup, script, inp, ruleset), (decision, inp)
    return actions


def board(battlefield: list[tuple[str, str]], hand: list[tuple[str, str]] = (), opp: list[tuple[str, str]] = (),
          step: str = "precombat_main", **extra: Any) -> dict:
    return {"seed": 3, "turn": 3, "active_player": "alice", "step": step, **extra, "players": [
        {"id": "alice", "library": [{"alias": f"al{i}", "card": "Island"} for i in range(8)],
         "hand": [{"alias": a, "card": c} for a, c in hand],
         "battlefield": [{"alias": a, "card": c} for a, c in battlefield]},
        {"id": "bob", "library": [{"alias": f"bl{i}", "card": "Island"} for i in range(8)],
         "battlefield": [{"alias": a, "card": c} for a, c in opp]}]}


MORPHLING = board([("gm", "Greater Morphling"), ("i1", "Island"), ("i2", "Island")])
PASSES = [{"action": "pass", "player": "alice"}, {"action": "pass", "player": "bob"}]


def _morphling(ability: int) -> list[dict]:
    return [{"action": "activate", "player": "alice", "source": "gm", "ability": ability, "pay_with": ["i1", "i2"]},
            *PASSES]


def _choose(choice: Any) -> dict:
    return {"action": "choose", "player": "alice", "choice": choice}


WRONG = [_choose("zz_nothing"), _choose(5), _choose([]), _choose("yes"), _choose(["red", "zz"]),
         {"action": "choose", "player": "bob", "choice": "no"}, {"action": "pass", "player": "alice"}]


def test_a_keyword_of_your_choice_offers_every_keyword_of_the_list():
    """Greater Morphling: "gains your choice of banding, bushido 1, ..., landwalk of your
    choice, protection from a color of your choice, ..." (CR 702.14c landwalk, 702.16a
    protection): every keyword of its options is offered (banding, bushido and provoke are
    not: no rules, its card file lists them as unexpressed), landwalk with a land type and
    protection with a color, each accepted; wrong answers are refused as the engine refuses
    them."""
    actions = agree(MORPHLING, _morphling(0), WRONG + [_choose("landwalk"), _choose("protection"),
                                                       _choose("bushido:1"), _choose("banding"),
                                                       _choose("vigilance")])
    choices = [a["choice"] for a in actions]
    assert {"double_strike", "fear", "flying", "first_strike", "haste", "rampage:1", "shadow",
            "trample"} <= set(choices)
    assert not {"banding", "bushido:1", "provoke"} & set(choices)
    assert any(c.startswith("landwalk:") for c in choices) and any(c.startswith("protection:") for c in choices)
    assert len(choices) == len(set(choices))


def test_the_colors_of_your_choice_offers_each_color():
    """"Becomes the colors of your choice" (CR 105.1, 105.2): each of the five colors alone is
    offered and accepted, and several together; a name that is no color is refused."""
    actions = agree(MORPHLING, _morphling(1), WRONG + [_choose("black"), _choose(["white", "Island"])])
    assert {tuple(a["choice"]) for a in actions} >= {("white",), ("blue",), ("black",), ("red",), ("green",)}
    assert any(len(a["choice"]) > 1 for a in actions)


def test_the_creature_type_of_your_choice_is_offered_and_judged():
    """"Becomes the creature type of your choice" (CR 205.3m): creature types are offered and
    accepted; a word that is no creature type is refused as the engine refuses it."""
    # a list answer is left out: engine/effects.py _set_creature_type_choice raises TypeError
    # on it (unhashable), an engine crash reported apart
    probes = [p for p in WRONG if not isinstance(p.get("choice"), list)]
    actions = agree(MORPHLING, _morphling(2), probes + [_choose("Elf"), _choose("Forest"), _choose("Wizard")])
    assert actions and all(isinstance(a["choice"], str) for a in actions)


def test_plus_two_minus_two_or_minus_two_plus_two_offers_both():
    """"Gets +2/-2 or -2/+2": both options are offered and accepted (the card's own choice)."""
    actions = agree(MORPHLING, _morphling(5), WRONG + [_choose("+2/-2"), _choose([2, 2])])
    assert sorted(a["choice"] for a in actions) == [[-2, 2], [2, -2]]


def test_the_order_of_five_triggers_offers_distinct_orders_of_all_of_them():
    """CR 603.3b: a player puts their simultaneous triggers on the stack in any order. With
    more than four (too many orders to list), the generator offers the given order, its
    reverse and each rotation, all distinct. (Whether the engine accepts an order is its own
    check, ``Game._trigger_order``, through ``legal.accepts`` on a real question: this made-up
    decision is not one the game waits on, so ``accepts`` refuses to judge it.)"""
    refs = [f"ability#{i}" for i in range(1, 6)]
    decision = {"kind": "order_triggers", "player": "alice", "options": refs}
    game, _ = position(MORPHLING, [])
    orders = [c.input["order"] for c in legal.candidate_actions(game, decision)]
    assert sorted(orders) == sorted([refs, refs[::-1]] + [refs[i:] + refs[:i] for i in range(1, 5)])
    with pytest.raises(ValueError):
        legal.accepts(game, decision, {"action": "order_triggers", "player": "alice", "order": orders[0]})


def test_four_triggers_offer_every_order_up_to_the_limit():
    """CR 603.3b: with four triggers, the orders are permutations (24), CHOICE_LIMIT of them
    offered, all distinct."""
    refs = [f"ability#{i}" for i in range(1, 5)]
    game, _ = position(MORPHLING, [])
    orders = [c.input["order"] for c in legal.candidate_actions(
        game, {"kind": "order_triggers", "player": "alice", "options": refs})]
    assert len({tuple(o) for o in orders}) == CHOICE_LIMIT and all(sorted(o) == refs for o in orders)


COMBAT = [{"action": "advance", "to": "declare_attackers"}]


def _blocked(attacker: str, blockers: list[str]) -> list[dict]:
    return COMBAT + [{"action": "declare_attackers", "player": "alice", "attackers": [attacker]}, {"action": "resolve"},
                     {"action": "declare_blockers", "player": "bob",
                      "blocks": [{"blocker": b, "attacker": attacker} for b in blockers]},
                     {"action": "resolve"}]


def _assign(attacker: str, plan: dict) -> dict:
    return {"action": "assign_damage", "player": "alice", "attacker": attacker, "assignment": plan}


@pytest.mark.parametrize("attacker, card", [("giant", "Hill Giant"), ("wurm", "Craw Wurm")])
def test_damage_assignment_among_two_blockers(attacker, card):
    """CR 510.1c: an attacker blocked by two creatures assigns its combat damage among them in
    order, lethal damage to the first before any to the next. Offered: lethal to each in turn
    with the rest on the last, all to the first; each accepted for real; wrong plans refused as
    the engine refuses them."""
    setup = board([(attacker, card)], opp=[("b1", "Grizzly Bears"), ("b2", "Llanowar Elves")], step="precombat_main")
    script = _blocked(attacker, ["b1", "b2"])
    game, decision = position(setup, script)
    assert decision["kind"] == "assign_damage"
    power = {"giant": 3, "wurm": 6}[attacker]
    wrong = [_assign(attacker, {"b2": power}), _assign(attacker, {"b1": 1, "b2": power - 1}),
             _assign(attacker, {"b1": power + 1}), _assign(attacker, {"bob": power}), _assign(attacker, {"zz": 1})]
    actions = agree(setup, script, wrong)
    plans = [a["assignment"] for a in actions]
    assert {"b1": 2, "b2": power - 2} in plans  # lethal to the first, the rest to the next
    assert {"b1": power} in plans


def test_trample_assigns_the_rest_to_the_player():
    """CR 702.19b: a trampler assigns lethal damage to its blockers and the rest to the
    player; offered and accepted."""
    setup = board([("wurm", "Arrogant Wurm")], opp=[("b1", "Grizzly Bears"), ("b2", "Llanowar Elves")])
    script = _blocked("wurm", ["b1", "b2"])
    actions = agree(setup, script, [_assign("wurm", {"bob": 4}), _assign("wurm", {"b1": 1, "bob": 3})])
    assert {"b1": 2, "b2": 1, "bob": 1} in [a["assignment"] for a in actions]


def test_a_cleanup_discard_offers_distinct_sets_of_the_right_size():
    """CR 514.1: in the cleanup step the active player discards down to seven: the offered
    discards are distinct sets of exactly the excess, each accepted; wrong counts or cards
    refused as the engine refuses them."""
    hand = [(f"h{i}", c) for i, c in enumerate(["Grizzly Bears", "Shock", "Forest", "Island", "Hill Giant",
                                                  "Lightning Bolt", "Craw Wurm", "Mountain", "Plains", "Swamp"])]
    setup = board([], hand=hand)
    script = [{"action": "advance", "to": "cleanup"}]
    game, decision = position(setup, script)
    assert decision["kind"] == "discard" and decision["count"] == 3
    discard = [{"action": "discard", "player": "alice", "cards": c}
               for c in (["h0"], ["h0", "h1", "h1"], ["h0", "h1", "bl0"], ["h0", "h1", "zz"])]
    actions = agree(setup, script, discard)
    sets = [tuple(sorted(a["cards"])) for a in actions]
    assert len(sets) == CHOICE_LIMIT == len(set(sets)) and all(len(s) == 3 for s in sets)


def test_a_london_mulligan_keeps_with_one_card_on_the_bottom_per_mulligan():
    """CR 103.5 (London mulligan): after one mulligan, keep puts exactly one card of the hand on
    the bottom; the generator offers that and another mulligan; wrong bottoms refused as the
    engine refuses them."""
    setup = {"seed": 5, "start_of_game": True, "players": [
        {"id": "alice", "library": [{"alias": f"a{i}", "card": "Island"} for i in range(20)]},
        {"id": "bob", "library": [{"alias": f"b{i}", "card": "Island"} for i in range(20)]}]}
    script = [{"action": "mulligan", "player": "alice"}]
    game, decision = position(setup, script)
    assert decision == {"kind": "mulligan", "player": "alice", "mulligans": 1}
    hand = [o.ref for o in game.players["alice"].hand]
    wrong = [{"action": "keep", "player": "alice"}, {"action": "keep", "player": "alice", "bottom": hand[:2]},
             {"action": "keep", "player": "alice", "bottom": ["b1"]},
             {"action": "keep", "player": "alice", "bottom": [hand[0], hand[0]]},
             {"action": "pass", "player": "alice"}, {"action": "keep", "player": "bob", "bottom": hand[:1]},
             {"action": "mulligan", "player": "bob"}]
    actions = agree(setup, script, wrong)
    assert {"action": "mulligan", "player": "alice"} in actions
    keeps = [a for a in actions if a["action"] == "keep"]
    assert keeps and all(len(a["bottom"]) == 1 and a["bottom"][0] in hand for a in keeps)


def test_a_red_source_of_your_choice_offers_only_red_sources():
    """Circle of Protection: Red, "the next time a red source of your choice would deal damage
    to you this turn" (CR 609.7a): with a green spell on the stack and a red and a green
    creature on the battlefield, the red creature is offered and accepted, the green spell and
    the green creature are neither offered nor accepted."""
    setup = board([("cop", "Circle of Protection: Red"), ("p1", "Plains"), ("f1", "Forest"), ("bear", "Grizzly Bears")],
                  hand=[("growth", "Giant Growth")], opp=[("giant", "Hill Giant")])
    script = [{"action": "cast", "player": "alice", "card": "growth", "targets": ["bear"], "pay_with": ["f1"]},
              {"action": "activate", "player": "alice", "source": "cop", "ability": 0, "pay_with": ["p1"]}, *PASSES]
    game, decision = position(setup, script)
    assert decision["reason"] == "source_of_damage"
    candidates = [c.input["choice"] for c in legal.candidate_actions(game, decision)]
    assert candidates == ["giant"]
    agree(setup, script, [_choose("growth"), _choose("bear"), _choose("giant"), _choose("bob")])


def test_the_effect_a_choice_is_about_is_found_after_others_and_nested():
    """``legal_choices._find_effect``: the first effect of a type among a spell's effects or
    nested in their ``then``, ``else`` or ``effects`` (no card of the pool has its search or
    payment after another effect yet, FORMAT §11 allows it)."""
    from mtg_judge.engine.legal_choices import _find_effect

    search = {"type": "search_library", "filter": {"types": ["Land"]}}
    pay = {"type": "pay_optional", "cost": {"mana": "{1}"}}
    assert _find_effect([{"type": "draw"}, search], "search_library") is search
    assert _find_effect([{"type": "draw", "then": [{"type": "gain_life"}]},
                         {"type": "conditional", "then": [{"type": "draw"}], "else": [pay]}], "pay_optional") is pay
    assert _find_effect([{"type": "sequence", "effects": [{"type": "draw"}, search]}], "search_library") is search
    assert _find_effect([{"type": "draw", "then": [{"type": "gain_life"}]}], "search_library") is None
    assert _find_effect(None, "search_library") is None


def test_no_mulligan_is_offered_with_an_empty_hand_under_the_draw_one_fewer_rule():
    """The 1999 mulligan (each mulligan draws one card fewer): a player whose hand is empty
    can't take another; the generator doesn't even list it, and keeping is offered."""
    setup = {"seed": 5, "start_of_game": True, "players": [
        {"id": "alice", "library": [{"alias": f"a{i}", "card": "Island"} for i in range(30)]},
        {"id": "bob", "library": [{"alias": f"b{i}", "card": "Island"} for i in range(30)]}]}
    script = [{"action": "mulligan", "player": "alice"}] * 7
    game, decision = position(setup, script, "classic-1999")
    assert decision["kind"] == "mulligan" and not game.players["alice"].hand
    kinds = [c.input["action"] for c in legal.candidate_actions(game, decision)]
    assert kinds == ["keep"]
    agree(setup, script, [{"action": "mulligan", "player": "alice"}], "classic-1999")
