"""Tests that kill random mutants of the seed-7 sample (docs/MUTANTS.md, the rows of subset a)
in engine code no ruling reaches, so no fixture can: the seeded generator's contract
(docs/FORMAT.md §7, a contract of the suite, not a rule of the game) and the other rows
judged by a test there. Each test names the mutant it was written for."""

from __future__ import annotations

from pathlib import Path

import pytest
from test_mutant_triage_s6a import _cards, _db, _game  # tests/ is on sys.path: seed 6's builders

from mtg_judge.engine import characteristics as ch
from mtg_judge.engine import combat, effects, endure_behold
from mtg_judge.engine.conditions import condition_holds
from mtg_judge.engine.effects import Context
from mtg_judge.engine.errors import IllegalAction
from mtg_judge.engine.inputs import json_type, shape_problem
from mtg_judge.engine.mana import ManaCost
from mtg_judge.engine.objects import StackItem
from mtg_judge.engine.scenario import run_scenario

# ---------------------------------------------------------------- games and card data
CARDS = Path(__file__).resolve().parents[1] / "fixtures" / "cards"


def _play(alice: dict, script: list[dict], bob: dict | None = None, *extra: dict,
          step: str = "precombat_main") -> dict:
    scenario = {"setup": {"turn": 3, "active_player": "alice", "step": step,
                          "players": [{"id": "alice", **alice}, {"id": "bob", **(bob or {})}]},
                "script": script}
    return run_scenario(scenario, "modern", cards=_db(*extra))


def _test_card(name: str, types: list[str], oracle: str, **fields) -> dict:
    """A card file's JSON for a test card (FORMAT §5), no mana ability, cost {1}."""
    return {"name": name, "mana_cost": "{1}", "type_line": " ".join(types), "supertypes": [], "types": types,
            "subtypes": [], "oracle_text": oracle, "layout": "normal", "keywords": [], **fields}


def _ability(game, source, **fields) -> Context:
    """The context of an ability of ``source`` (Alice's) resolving now, no target."""
    item = StackItem(ref="ability#99", kind="ability", controller="alice", ability={}, source=source.ref,
                     source_card=source.card, source_lki=source.copy(), **fields)
    return Context(game, item, [])


def test_a_static_restriction_with_no_filter_of_all_applies_to_nothing():
    # engine/characteristics.py affected_by_static `isinstance(spec, dict) and "all" in spec`
    # -> `or` (seed 7): a static restriction (cant_attack, cant_block, cant_be_blocked...)
    # applies to "self", the enchanted or equipped permanent, or {"all": filter}; another
    # reference names nothing there (a static ability has no target). The pool's restrictions
    # say "self" or "enchanted" only; the mutant reads spec["all"] of {"target": 0} and crashes.
    game = _game({"battlefield": _cards(("bears", "Grizzly Bears"))})
    bears = game.find("bears")
    assert ch.affected_by_static(game, bears, {"type": "cant_block", "affected": {"target": 0}}) == []
    assert ch.affected_by_static(game, bears, {"type": "cant_block", "affected": "self"}) == [bears]


_FEARSOME = _test_card("Test Fearsome Bear", ["Creature"], "This creature can't be blocked except by black creatures.",
                       power=2, toughness=2,
                       abilities=[{"kind": "static", "effect": {"type": "cant_be_blocked_except", "affected": "self",
                                                                "blockers": [{"colors": ["black"]}]}}])


def test_a_creature_that_cant_be_blocked_except_by_black_creatures_is_blocked_by_a_black_one_only():
    # engine/combat.py can_block `if not any(ch.matches(...) for f in eff["blockers"])` ->
    # `if any(...)` (seed 7): "can't be blocked except by ..." (the static cant_be_blocked_except,
    # FORMAT §5; fear's rule, CR 702.36b) lets a creature matching one of its filters block and
    # no other. No card of the pool has the static any more (Fear grants the keyword fear).
    game = _game({"battlefield": _cards(("fearsome", _FEARSOME["name"]))},
                 {"battlefield": _cards(("skeletons", "Drudge Skeletons"), ("bears", "Grizzly Bears"))}, _FEARSOME)
    fearsome = game.find("fearsome")
    combat.can_block(game, game.find("skeletons"), fearsome, "bob")  # black: allowed
    with pytest.raises(IllegalAction) as exc:
        combat.can_block(game, game.find("bears"), fearsome, "bob")
    assert exc.value.code == "cannot_block"


def test_a_block_naming_an_unknown_blocker_is_rejected_as_an_unknown_object():
    # engine/combat.py _declare_blockers `b is None or a is None` -> `and` (seed 7): a block
    # whose blocker or attacker names no object is rejected with unknown_object (FORMAT §8);
    # the mutant goes on with None and crashes. A fixture can't say it: the fixture lint refuses
    # a script naming an alias the setup doesn't have.
    result = _play({"battlefield": _cards(("bears", "Grizzly Bears"))},
                   [{"action": "declare_attackers", "player": "alice", "attackers": ["bears"]}, {"action": "resolve"},
                    {"action": "declare_blockers", "player": "bob", "blocks": [{"blocker": "ghost", "attacker": "bears"}]},
                    {"action": "declare_blockers", "player": "bob", "blocks": [{"blocker": "wall", "attacker": "ghost"}]},
                    {"action": "declare_blockers", "player": "bob", "blocks": []}],
                   {"battlefield": _cards(("wall", "Wall of Stone"))}, step="declare_attackers")
    rejected = [e for e in result["events"] if e["type"] == "action_rejected"]
    assert [(e["at"], e["code"]) for e in rejected] == [(2, "unknown_object"), (3, "unknown_object")]


def test_an_intervening_if_in_exile_is_false_for_the_same_object_elsewhere():
    # engine/conditions.py condition_holds, in_exile's `return False` -> `return True` (seed 7):
    # suspend's cast trigger says "if it's exiled" (CR 702.62a); checked for an object that is
    # not in exile, it is false. In a game a card that leaves exile is a new object (CR 400.7),
    # handled before this line as `gone`, so only the function's own contract shows it.
    game = _game({"battlefield": _cards(("bears", "Grizzly Bears"))})
    assert condition_holds(game, game.find("bears"), {"in_exile": True}) is False
    assert condition_holds(game, game.find("bears"), {"in_exile": False}) is True


_UNTAPPER = _test_card("Test Untapping Relic", ["Artifact"], "{Q}: You gain 1 life. ({Q} is the untap symbol.)",
                       abilities=[{"kind": "activated", "cost": {"untap": True},
                                   "effects": [{"type": "gain_life", "player": "controller", "amount": 1}]}])


def test_an_untap_cost_is_paid_by_untapping_a_tapped_permanent_only():
    # engine/costs.py pay_costs `if not source.tapped: raise` -> `if source.tapped` and the
    # dropped `not` (seed 7): the untap symbol {Q} is paid by untapping the permanent, so it
    # can be paid only while it is tapped (CR 107.6, 602.2b). No card of the pool has {Q}.
    result = _play({"battlefield": [{"alias": "relic", "card": _UNTAPPER["name"], "tapped": True}]},
                   [{"action": "activate", "player": "alice", "source": "relic", "ability": 0}, {"action": "resolve"},
                    {"action": "activate", "player": "alice", "source": "relic", "ability": 0}],
                   None, _UNTAPPER)
    rejected = [(e["at"], e["code"]) for e in result["events"] if e["type"] == "action_rejected"]
    assert rejected == [(2, "cannot_pay")]  # untapped now: {Q} can't be paid again
    assert result["state"]["players"]["alice"]["life"] == 21
    assert result["state"]["battlefield"]["relic"]["tapped"] is False


def test_answering_when_no_decision_is_pending_is_an_error():
    # engine/decisions.py Decisions.answer_pending `if question is None: raise ValueError` ->
    # `if not` (seed 7; called by the move generator only, engine/legal.py): with no pending
    # question there is nothing to answer.
    game = _game({})
    assert game.asking is None
    with pytest.raises(ValueError, match="no decision is pending"):
        game.answer_pending({"action": "choose", "player": "alice", "choice": "yes"})


_REPLACER = _test_card("Test Quiet Study", ["Enchantment"], "If you would draw a card, you gain 1 life instead.",
                       abilities=[{"kind": "replacement", "event": "draw", "affected": "controller",
                                   "instead": {"effects": [{"type": "gain_life", "player": "controller", "amount": 1}]}}])


def test_a_replaced_draw_draws_no_card():
    # engine/draw_replacement.py replace_draw `return True` -> `return None` (seed 7): the
    # caller draws only when no replacement applied (CR 614.1a: "instead"). The pool's one draw
    # replacement, Laboratory Maniac's, wins the game, which ends it before the return; one
    # whose effects leave the game going shows that the card is not drawn as well.
    game = _game({"battlefield": _cards(("study", _REPLACER["name"])),
                  "library": _cards(("top", "Island"), ("second", "Forest"))}, None, _REPLACER)
    game.draw("alice", 2)
    alice = game.players["alice"]
    assert [o.card for o in alice.hand] == [] and [o.card for o in alice.library] == ["top", "second"]
    assert alice.life == 22


def test_rampage_counts_no_blocker_outside_combat():
    # engine/effects.py Context.amount `g.combat is not None and source_ref` -> `or` (seed 7):
    # {"blockers_beyond_first": n} (rampage, CR 702.23b) counts the creatures blocking the
    # source now; with no combat there are none (the mutant asks a missing combat and crashes).
    # Rampage's trigger resolves in the declare blockers step, so no fixture reaches it.
    game = _game({"battlefield": _cards(("bears", "Grizzly Bears"))})
    assert game.combat is None
    assert _ability(game, game.find("bears")).amount({"blockers_beyond_first": 1}) == 0


def test_the_defending_player_is_the_player_the_attackers_attack():
    # engine/effects.py Context.refs "defending_player" `return [...]` -> `return None` (seed 7):
    # the reference "defending_player" (FORMAT §5) names the player attacked (CR 506.2), as a
    # list like every reference. No card of the pool says it.
    game = _game({"battlefield": _cards(("bears", "Grizzly Bears"))})
    ctx = _ability(game, game.find("bears"))
    assert ctx.refs("defending_player") == []
    game.combat = combat.Combat(declared=True, attackers={"bears": "bob"})
    assert ctx.refs("defending_player") == ["bob"]


def test_an_amount_read_from_the_triggering_object_uses_its_last_known_information():
    # engine/effects.py Context.known `spec == "triggering_object"` -> `!=` (seed 7; no case
    # reads an amount from the game): {"power_of": "triggering_object"} reads the object that
    # triggered the ability as it last existed if it has left its zone (CR 608.2h). The mutant
    # reads it through refs, which names nothing once it has died, and sends every other
    # reference (here "self") to the triggering object.
    game = _game({"battlefield": _cards(("giant", "Hill Giant"), ("bears", "Grizzly Bears"))})
    giant, bears = game.find("giant"), game.find("bears")
    ctx = _ability(game, bears, trigger_event={"triggering_object": "giant"})
    game.destroy(giant)
    assert game.objects.get("giant") is None
    assert ctx.amount({"power_of": "triggering_object"}) == 3
    assert ctx.amount({"power_of": "self"}) == 2


def test_counters_on_counts_every_kind_unless_one_is_named():
    # engine/effects.py game_amount `sum(...) if kind is None else ...` -> `is not None` (seed 7;
    # no case reads an amount from the game): {"counters_on": R} counts all the counters on R
    # (CR 122.1), {"counters_on": R, "counter": kind} those of that kind only.
    game = _game({"battlefield": [{"alias": "bears", "card": "Grizzly Bears", "counters": {"+1/+1": 2, "charge": 1}}]})
    ctx = _ability(game, game.find("bears"))
    assert ctx.amount({"counters_on": "self"}) == 3
    assert ctx.amount({"counters_on": "self", "counter": "charge"}) == 1


def test_moving_a_card_to_the_zone_it_is_in_does_nothing():
    # engine/effects.py _move's handler `obj.zone in (...) and obj.zone != to` -> `or` (seed 7):
    # an exile effect on a card already in exile leaves it there, the same object (no zone
    # change, CR 400.7 doesn't apply); the mutant moves it from exile to exile, a new object.
    game = _game({"exile": _cards(("exiled", "Grizzly Bears")), "battlefield": _cards(("giant", "Hill Giant"))})
    exiled = game.find("exiled")
    ctx = _ability(game, exiled)
    before = len(game.events)
    effects.run(ctx, [{"type": "exile", "what": "self"}])
    assert game.objects.get("exiled") is exiled and exiled.zone == "exile"
    assert [e for e in game.events[before:] if e["type"] == "zone_changed"] == []


def test_a_create_token_effect_without_a_count_creates_one():
    # engine/effects.py _create_token `eff.get("count", 1)` -> `2` (seed 7): "create a token"
    # is one (CR 111.2); schema/card.schema.json requires the count, so only card data the
    # schema doesn't check (a protocol run's cards, run_scenario's) reaches the default.
    game = _game({"battlefield": _cards(("bears", "Grizzly Bears"))})
    token = {"types": ["Creature"], "subtypes": ["Goblin"], "colors": ["red"], "power": 1, "toughness": 1, "keywords": []}
    effects.run(_ability(game, game.find("bears")), [{"type": "create_token", "token": token}])
    assert [o.ref for o in game.battlefield if o.is_token] == ["token#1"]


def test_endure_zero_does_nothing():
    # engine/endure_behold.py endure `n <= 0` -> `n < 0` (seed 7): "endure 0" does nothing
    # (CR 701.63b): no choice, no counter, no 0/0 Spirit token. The pool's endure numbers are
    # 1 to 3; an "endures X" with X = 0 would reach it.
    game = _game({"battlefield": _cards(("bears", "Grizzly Bears"))})
    bears = game.find("bears")
    before = len(game.events)
    effects.run(_ability(game, bears), [{"type": "endure", "what": "self", "n": "X"}])
    assert game.events[before:] == [] and game.asking is None
    assert bears.counters == {} and not any(o.is_token for o in game.battlefield)


def test_behold_options_offer_only_cards_with_the_quality():
    # engine/endure_behold.py behold_options `cand is not obj and can_behold(...) is None` ->
    # `or` (seed 7; called by the move generator only): the cards offered for a behold cost
    # are those that can be beheld, cards with the quality ("a Dragon", CR 701.4a, ruling
    # tarkir.behold.02), not every other card of the hand and permanent of the player.
    game = _game({"hand": _cards(("ce", "Caustic Exhale"), ("bears", "Grizzly Bears")),
                  "battlefield": _cards(("dragon", "Shivan Dragon"), ("forest", "Forest"))})
    assert endure_behold.behold_options(game, "alice", game.find("ce")) == [("dragon", None),
                                                                          (None, ManaCost.parse("{1}"))]


def test_a_pay_with_entry_is_an_alias_or_an_object_with_a_string_source():
    # engine/inputs.py _pay_entry `isinstance(v, dict) and isinstance(v.get("source"), str)
    # and ...` -> `or` (seed 7): an entry of pay_with is an alias or {"source": alias,
    # "color"?: str, "extra_color"?: str} (FORMAT §3.2); anything else is bad_input with a
    # message naming the entry. The scenario schema refuses the others in a fixture.
    assert shape_problem({"action": "pass", "pay_with": ["m1", {"source": "m2", "color": "R"}]}) is None
    for entry in (5, {"source": 5}, {"source": "m2", "color": 1}):
        problem = shape_problem({"action": "pass", "pay_with": ["m1", entry]})
        assert problem is not None and problem.startswith("field 'pay_with': entry 1 ")


def test_the_json_type_of_none_is_null():
    # engine/inputs.py json_type `return "null"` -> `return None` (seed 7; a message): an input
    # that is JSON null is named as such in the bad_input message.
    assert json_type(None) == "null"
    assert shape_problem(None) == "an input is a JSON object, not null"
