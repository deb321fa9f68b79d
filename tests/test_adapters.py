"""The adapters of real third-party engines (tools/adapters/, DESIGN §12).

* The shared protocol loop answers every request, ``errored`` for bad ones, and keeps serving.
* phase.rs (``phase-python``): a handful of fixtures played through the adapter, in-process
  and over protocol v1 with every message validated against the schemas; scenarios phase
  cannot play are skipped with a reason.
* python-mtg: its handshake (state only), a scenario it can express, and one it cannot.

Each engine's tests are skipped only when its package cannot be imported
(``pip install -e '.[adapters]'``).
"""

from __future__ import annotations

import io
import json
import re
import sys
from pathlib import Path

import pytest

from mtg_judge.conformance.expect import check, for_ruleset, format_mismatches
from mtg_judge.conformance.protocol import ProtocolEngine, build_scenario, cards_used
from mtg_judge.tools.adapters.common import Skip, serve

ROOT = Path(__file__).resolve().parent.parent
FIXTURES = ROOT / "fixtures"
PHASE_COMMAND = f"{sys.executable} -m mtg_judge.tools.adapters.phase_adapter"
PYMTG_COMMAND = f"{sys.executable} -m mtg_judge.tools.adapters.pymtg_adapter"


def slug(name: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", name.lower()).strip("-")


def scenario(fixture_id: str, ruleset: str = "modern") -> dict:
    """The protocol scenario of one fixture, read by id (only its own card files are read)."""
    for path in FIXTURES.rglob("*.json"):
        if "cards" in path.parts or path.name == "untestable.json":
            continue
        fixture = json.loads(path.read_text(encoding="utf-8"))
        if isinstance(fixture, dict) and fixture.get("id") == fixture_id:
            cards = {name: json.loads((FIXTURES / "cards" / f"{slug(name)}.json")
                                      .read_text(encoding="utf-8"))
                     for name in cards_used(fixture)}
            for card in list(cards.values()):  # a meld card brings its melded face's card
                result = (card.get("meld") or {}).get("result")
                if result:
                    cards[result] = json.loads((FIXTURES / "cards" / f"{slug(result)}.json")
                                               .read_text(encoding="utf-8"))
            return for_ruleset(build_scenario(fixture, cards), ruleset)
    pytest.skip(f"fixture {fixture_id} is not in this checkout")


# --------------------------------------------------------------------------------------------
# The protocol loop


def talk(lines: list[str], play, monkeypatch) -> list[dict]:
    """Run :func:`serve` on request lines; return the reply objects."""
    import contextlib

    import mtg_judge.tools.adapters.common as common

    captured = io.StringIO()
    monkeypatch.setattr(common, "protocol_stdout", lambda: contextlib.nullcontext(captured))
    serve({"name": "t", "version": "0", "language": "python", "homepage": "",
           "rulesets": ["modern"], "capabilities": ["state"]}, play,
          io.StringIO("".join(line + "\n" for line in lines)))
    return [json.loads(line) for line in captured.getvalue().splitlines()]


def test_protocol_loop_answers_every_request_and_keeps_serving(monkeypatch):
    def play(scenario, ruleset):
        if scenario.get("id") == "skip":
            raise Skip("not expressible")
        if scenario.get("id") == "boom":
            raise RuntimeError("boom")
        return {"events": [], "state": {"turn": 1}}

    replies = talk([
        '{"cmd":"start","version":1}',
        'not json',
        '{"cmd":"run","seq":1,"ruleset":"modern","scenario":{"id":"ok"}}',
        '{"cmd":"run","seq":2,"ruleset":"modern","scenario":{"id":"skip"}}',
        '{"cmd":"run","seq":3,"ruleset":"modern","scenario":{"id":"boom"}}',
        '{"cmd":"dance","seq":4}',
        '{"cmd":"stop"}',
        '{"cmd":"run","seq":5,"ruleset":"modern","scenario":{"id":"ok"}}',
    ], play, monkeypatch)
    assert replies[0]["version"] == 1 and replies[0]["implementation"]["name"] == "t"
    assert replies[1] == {"seq": None, "errored": True, "context": replies[1]["context"]}
    assert replies[2] == {"seq": 1, "events": [], "state": {"turn": 1}}
    assert replies[3] == {"seq": 2, "skipped": True, "message": "not expressible"}
    assert replies[4]["seq"] == 3 and replies[4]["errored"] is True
    assert "boom" in replies[4]["context"]["message"]
    assert replies[5]["seq"] == 4 and replies[5]["errored"] is True
    assert len(replies) == 6  # nothing after stop


# --------------------------------------------------------------------------------------------
# phase.rs

PHASE_PASSING = [
    "classic.stack.last-in-first-out",
    "classic.abilities.countered-creature-spell-never-enters",
    "classic.casting.x-cost-stream-of-life",
    "classic.combat.unblocked-damages-player-blocked-damages-blocker",
    "classic.combat.lethal-damage-adds-up",
    "classic.card-types.land-one-per-turn",
]


@pytest.fixture(scope="module")
def phase_adapter():
    pytest.importorskip("phase")
    from mtg_judge.tools.adapters import phase_adapter
    return phase_adapter


@pytest.mark.parametrize("fixture_id", PHASE_PASSING)
def test_phase_plays_fixtures(phase_adapter, fixture_id):
    sc = scenario(fixture_id)
    result = phase_adapter.play(sc, "modern")
    assert set(result) == {"events", "state", "checkpoints"}
    assert result["events"][0]["type"] == "game_started"
    mismatches = check(sc, result)
    assert not mismatches, format_mismatches(mismatches)


@pytest.mark.parametrize("fixture_id", [
    "tarkir.omen.naming-the-creature-does-not-name-the-omen",  # a cast with face "omen"
    "tarkir.harmonize.milled-card-cast-before-opponents-can-act",  # harmonize + its tap
    "tarkir.flurry.second-spell-triggers-and-resolves-first",  # trigger named by its event
])
def test_phase_translates_tarkir_casts(phase_adapter, fixture_id):
    sc = scenario(fixture_id)
    result = phase_adapter.play(sc, "modern")
    mismatches = check(sc, result)
    assert not mismatches, format_mismatches(mismatches)


@pytest.mark.parametrize("fixture_id", [
    "timespiral.suspend.cast-during-upkeep-with-haste",  # time counters set up; may-cast
    "timespiral.suspend.countered-upkeep-trigger-removes-no-counter",  # Stifle an ability
    "timespiral.kicker.kicked-giant-destroys-all-other-creatures",  # OptionalCostChoice
    "timespiral.kicker.kicker-paid-only-once",  # a kicker index asked once only
    "timespiral.buyback.countered-spell-goes-to-the-graveyard",
    "timespiral.morph.turning-face-up-is-a-special-action",  # face-down setup, TurnFaceUp
    "timespiral.morph.face-down-permanents-are-kept-apart",  # AlternativeCastChoice FaceDown
    "timespiral.madness.discarded-card-is-cast-for-its-madness-cost",  # CastSpellAsMadness
    "timespiral.echo.unpaid-echo-means-sacrifice",  # UnlessPayment, cannot_pay
    "classic.triggers.controller-chooses-order-of-own-triggers",  # OrderTriggers
    "classic.legend.controller-chooses-which-to-keep",  # ChooseLegend
    "classic.combat.tapped-creature-cannot-attack",  # {attacker, target} in a probe
    "timespiral.flash.works-from-any-zone-it-can-be-cast-from",  # a free casting permission
    "classic.casting.mana-cost-is-paid-from-the-hand",  # without_paying, no permission
    "finalfantasy.meld.melded-permanent-dies-both-cards-to-the-graveyard",  # Melded, both leave
    "finalfantasy.meld.naming-the-melded-face",  # the melded face built as phase's meld layout
    "timespiral.landcycling.swampcycling-searches-for-a-swamp-and-counts-as-cycling",  # keyword
    "timespiral.madness.madness-cost-only-as-the-trigger-resolves",  # CastSpellAsMadness refused
    "strixhaven.flashback.x-counts-in-the-total-cost-before-reductions",  # mana vs phase's cost
])
def test_phase_translates_what_its_api_offers(phase_adapter, fixture_id):
    """Each of these cases passes through a translation of issue 24 (the comment names it);
    the reply is also valid against the protocol schema (no case errors under
    --validate-protocol)."""
    from mtg_judge.conformance.loader import validate

    sc = scenario(fixture_id)
    result = phase_adapter.play(sc, "modern")
    assert not validate({"seq": 1, **result}, "protocol-run-reply", "<reply>")
    mismatches = check(sc, result)
    assert not mismatches, format_mismatches(mismatches)


def test_phase_suspend_and_face_down_events(phase_adapter):
    events = phase_adapter.play(scenario("timespiral.suspend.countered-upkeep-trigger-removes-no-counter"),
                                "modern")["events"]
    trig = [e for e in events if e["type"] == "ability_triggered" and e["source_card"] == "corpse"]
    assert trig and all(e["ability"] == "suspend" for e in trig)  # phase's synthesized triggers
    assert any(e["type"] == "ability_countered" for e in events)
    put = [e for e in events if e["type"] == "ability_put_on_stack"]
    assert put and all("source" in e for e in put)  # the event schema requires it
    result = phase_adapter.play(scenario("timespiral.morph.face-down-permanents-are-kept-apart"),
                                "modern")
    cast = [e for e in result["events"] if e["type"] == "spell_cast" and e.get("face_down")]
    assert cast and all(e["name"] is None and e["alternative"] == "morph" for e in cast)


def test_phase_counter_kinds_and_attack_targets(phase_adapter):
    from mtg_judge.tools.adapters.phase.vocabulary import phase_counter

    assert phase_counter("+1/+1") == "P1P1" and phase_counter("-1/-1") == "M1M1"
    assert phase_counter("time") == "time" and phase_counter("storage") == "storage"
    assert phase_counter("+1/+0") is None  # phase would make it a Generic counter (CR 122.1a)
    assert phase_adapter.classify("Invalid action: ObjectId(5) can't attack "
                                  "Planeswalker(ObjectId(8)) (CR 508.1c/d attack restriction)") \
        == "cannot_attack"
    assert phase_adapter.classify("Action not allowed: Activation restriction not satisfied: "
                                  "MatchesCardCastTiming") == "sorcery_timing"


def test_phase_omen_face_and_harmonize_in_the_log(phase_adapter):
    events = phase_adapter.play(scenario("tarkir.omen.naming-the-creature-does-not-name-the-omen"),
                                "modern")["events"]
    cast = next(e for e in events if e["type"] == "spell_cast" and e["card"] == "twin")
    assert cast["face"] == "omen" and cast["name"] == "Charring Bite"
    left = next(e for e in events if e["type"] == "zone_changed" and e["card"] == "twin"
                and e["from"] == "stack")
    assert left["name"] == "Twinmaw Stormbrood"  # the card again once off the stack
    events = phase_adapter.play(scenario("tarkir.harmonize.milled-card-cast-before-opponents-can-act"),
                                "modern")["events"]
    assert any(e["type"] == "spell_cast" and e.get("alternative") == "harmonize" for e in events)


def test_phase_object_references_follow_zone_changes(phase_adapter):
    sc = scenario("classic.stack.last-in-first-out")
    events = phase_adapter.play(sc, "modern")["events"]
    moves = [(e["object"], e["new_object"], e["from"], e["to"]) for e in events
             if e["type"] == "zone_changed" and e["card"] == "blast"]
    assert moves == [("blast", "blast#2", "hand", "stack"),
                     ("blast#2", "blast#3", "stack", "graveyard")]


def test_phase_granted_alternative_cost_it_never_offers_is_rejected(phase_adapter):
    """Fist of Suns: phase parses its CastWithAlternativeCost static but its CastSpell offers
    no choice of that cost (phase-python 0.103.0): the cast with ``alternative: "fist"`` is
    refused (invalid_alternative), never cast as if the field were absent."""
    sc = scenario("tarkir.omen.omen-may-be-cast-for-an-alternative-cost")
    result = phase_adapter.play(sc, "modern")
    rejected = [e for e in result["events"] if e["type"] == "action_rejected"]
    assert rejected and rejected[0]["at"] == 0
    assert rejected[0]["code"] == "invalid_alternative"
    assert "fist" in rejected[0]["message"]
    assert not [e for e in result["events"] if e["type"] == "spell_cast"]


def test_phase_nameless_token_is_reported_nameless(phase_adapter):
    """phase's endure Spirit token has an empty name (CR 111.4 would name it "Spirit
    Token"): reported as phase made it, with ``name: null`` (valid under the schema)."""
    from mtg_judge.conformance.loader import validate

    sc = scenario("tarkir.endure.endure-n-puts-n-counters-or-creates-an-n-n-spirit")
    result = phase_adapter.play(sc, "modern")
    assert not validate({"seq": 1, **result}, "protocol-run-reply", "<reply>")
    created = [e for e in result["events"] if e["type"] == "token_created"]
    assert created and all(e["name"] is None for e in created)


def test_phase_any_colour_mana_ability_activated_by_an_activate_input(phase_adapter):
    """An ``activate`` of a mana ability of any colour (Birds of Paradise) with ``color``
    (FORMAT §3.2): phase asks ChooseManaColor after its ActivateAbility, the adapter answers
    with the input's colour, and the mana pays the next spell (the sharded campaign's
    ``rejection:cast:accepted/rejected:wrong_decision``, seed 2417: phase was left waiting)."""
    fixture = {"id": "t.birds", "rulesets": ["modern"], "setup": {
        "turn": 3, "active_player": "alice", "step": "precombat_main", "players": [
            {"id": "alice", "battlefield": [{"alias": "birds", "card": "Birds of Paradise", "summoning_sick": False}],
             "hand": [{"alias": "shift", "card": "Cloudshift"}]},
            {"id": "bob"}]},
        "script": [{"action": "activate", "player": "alice", "source": "birds", "ability": 0, "color": "W"},
                   {"action": "cast", "player": "alice", "card": "shift", "targets": ["birds"]}],
        "expect": {}}
    cards = {name: json.loads((FIXTURES / "cards" / f"{slug(name)}.json").read_text(encoding="utf-8"))
             for name in ("Birds of Paradise", "Cloudshift")}
    result = phase_adapter.play(build_scenario(fixture, cards), "modern")
    assert not [e for e in result["events"] if e["type"] == "action_rejected"], result["events"][-3:]
    cast = [e for e in result["events"] if e["type"] == "spell_cast"]
    assert len(cast) == 1 and cast[0]["mana_paid"] == {"W": 1}


def test_phase_discard_cost_of_an_activated_ability(phase_adapter):
    """Trespasser il-Vec's "Discard a card: ..." (CR 118.3, 602.2b): phase asks PayCost
    (Discard) after its ActivateAbility, the adapter answers with the input's ``discard``;
    without one it is ``cannot_pay``, as on the reference engine (the campaign's
    ``state:players.graveyard`` and ``rejection:pass:accepted/rejected:wrong_decision``)."""
    def play(activate):
        fixture = {"id": "t.trespasser", "rulesets": ["modern"], "setup": {
            "turn": 3, "active_player": "alice", "step": "precombat_main", "players": [
                {"id": "alice", "battlefield": [{"alias": "rogue", "card": "Trespasser il-Vec"}],
                 "hand": [{"alias": "forest", "card": "Forest"}]},
                {"id": "bob"}]},
            "script": [activate, {"action": "pass", "player": "alice"}], "expect": {}}
        cards = {name: json.loads((FIXTURES / "cards" / f"{slug(name)}.json").read_text(encoding="utf-8"))
                 for name in ("Trespasser il-Vec", "Forest")}
        return phase_adapter.play(build_scenario(fixture, cards), "modern")

    result = play({"action": "activate", "player": "alice", "source": "rogue", "ability": 0, "discard": ["forest"]})
    types = [e["type"] for e in result["events"]]
    assert "action_rejected" not in types and "card_discarded" in types and "ability_activated" in types
    assert result["state"]["players"]["alice"]["graveyard"] == ["forest"]  # the card alias (FORMAT §6)
    result = play({"action": "activate", "player": "alice", "source": "rogue", "ability": 0})
    rejected = [e for e in result["events"] if e["type"] == "action_rejected"]
    assert rejected and rejected[0]["at"] == 0 and rejected[0]["code"] == "cannot_pay"


def test_phase_skips_what_it_cannot_express(phase_adapter):
    sc = scenario("classic.stack.last-in-first-out")
    with pytest.raises(Skip, match="ruleset classic-1999"):
        phase_adapter.play(sc, "classic-1999")
    odd = json.loads(json.dumps(sc))
    bolt = odd["cards"]["Lightning Blast"]
    bolt["oracle_text"] = "Lightning Blast frobnicates the moon."
    with pytest.raises(Skip, match="Lightning Blast"):
        phase_adapter.play(odd, "modern")
    scripted = json.loads(json.dumps(sc))
    scripted["script"] = [{"action": "random", "outcome": "heads"}]
    with pytest.raises(Skip, match="random"):
        phase_adapter.play(scripted, "modern")


def test_phase_card_in_mtgjson_shape(phase_adapter):
    card = json.loads((FIXTURES / "cards" / "black-knight.json").read_text(encoding="utf-8"))
    mtgjson = phase_adapter.mtgjson_card(card)
    assert mtgjson["manaCost"] == "{B}{B}" and mtgjson["manaValue"] == 2
    assert mtgjson["colors"] == ["B"] and mtgjson["text"] == card["oracle_text"]
    assert mtgjson["keywords"] == ["First strike", "Protection"]
    face = phase_adapter.build_face(card)
    assert face["keywords"] == ["FirstStrike", {"Protection": {"Color": "White"}}]


def test_phase_rejection_codes_come_from_explicit_messages(phase_adapter):
    assert phase_adapter.classify("Action not allowed: Creature has summoning sickness: x") \
        == "summoning_sick"
    assert phase_adapter.classify("Not your priority") == "not_your_priority"
    assert phase_adapter.classify("Action not allowed: something new") is None
    assert phase_adapter.classify("Invalid action: Selected object not eligible to behold") \
        == "invalid_payment"


def test_phase_over_the_protocol_with_validation(phase_adapter):
    sc = scenario("classic.stack.last-in-first-out")
    with ProtocolEngine(PHASE_COMMAND, timeout=60, validate=True) as engine:
        impl = engine.implementation
        assert impl["rulesets"] == ["modern"]
        assert impl["capabilities"] == ["events", "state", "checkpoints"]
        result = engine.run(sc, "modern").result()
    assert not check(sc, result), format_mismatches(check(sc, result))


# --------------------------------------------------------------------------------------------
# python-mtg


@pytest.fixture(scope="module")
def pymtg_adapter():
    pytest.importorskip("mtg")
    from mtg_judge.tools.adapters import pymtg_adapter
    return pymtg_adapter


def test_pymtg_skips_what_it_cannot_express(pymtg_adapter):
    sc = scenario("classic.stack.last-in-first-out")  # bob responds: no priority for him
    with pytest.raises(Skip):
        pymtg_adapter.play(sc, "modern")
    sc = scenario("classic.combat.zero-attackers")  # the engine runs on into bob's turn
    with pytest.raises(Skip, match="moved on to turn"):
        pymtg_adapter.play(sc, "modern")


def test_pymtg_plays_what_it_can_express(pymtg_adapter):
    sc = scenario("classic.zones.tokens-are-put-onto-the-battlefield-without-paying")
    try:
        result = pymtg_adapter.play(sc, "modern")
    except Skip as exc:
        pytest.fail(f"skipped: {exc}")
    assert result["events"] == []  # python-mtg keeps no event log
    state = result["state"]
    assert set(state["players"]) == {"alice", "bob"}
    assert state["active_player"] in ("alice", "bob")
    assert all(entry["object"] == key for key, entry in state["battlefield"].items())


def test_pymtg_handshake_declares_state_only(pymtg_adapter):
    with ProtocolEngine(PYMTG_COMMAND, timeout=120, validate=True) as engine:
        impl = engine.implementation
    assert impl["name"] == "python-mtg"
    assert impl["capabilities"] == ["state"] and impl["rulesets"] == ["modern"]
