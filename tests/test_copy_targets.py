"""A copy's targets (CR 707.10c): "the player may leave any number of the targets unchanged,
even if those targets would be illegal; if the player chooses to change some or all of the
targets, the new targets must be legal". Twincast copies bob's Cackling Counterpart ("target
creature you control"): alice's copy may keep bob's creature as its target (then it is
countered on resolution, CR 608.2b) or take a creature of hers; it may not take another of
bob's. Found by self-play (seed 20098, classic-1999: alice controlled no creature, no answer
was accepted and the game was stuck)."""

from __future__ import annotations

from test_selfplay import position

from mtg_judge.engine import legal, load_card_db, run_scenario

DB = load_card_db()


def _setup(alice_creature=True):
    return {"seed": 1, "turn": 4, "active_player": "bob", "step": "precombat_main", "players": [
        {"id": "alice", "library": [{"alias": f"al{i}", "card": "Island"} for i in range(3)],
         "hand": [{"alias": "twin", "card": "Twincast"}],
         "battlefield": [{"alias": "ai1", "card": "Island"}, {"alias": "ai2", "card": "Island"}]
         + ([{"alias": "abears", "card": "Grizzly Bears"}] if alice_creature else [])},
        {"id": "bob", "library": [{"alias": f"bl{i}", "card": "Island"} for i in range(3)],
         "hand": [{"alias": "cc", "card": "Cackling Counterpart"}],
         "battlefield": [{"alias": "bi1", "card": "Island"}, {"alias": "bi2", "card": "Island"},
                         {"alias": "bi3", "card": "Island"}, {"alias": "bbears", "card": "Grizzly Bears"},
                         {"alias": "bwolf", "card": "Tundra Wolves"}]}]}


SCRIPT = [{"action": "cast", "player": "bob", "card": "cc", "targets": ["bbears"], "pay_with": ["bi1", "bi2", "bi3"]},
          {"action": "pass", "player": "bob"},
          {"action": "cast", "player": "alice", "card": "twin", "targets": ["cc"], "pay_with": ["ai1", "ai2"]},
          {"action": "pass", "player": "alice"}, {"action": "pass", "player": "bob"}]


def _run(answer, setup=None, ruleset="modern"):
    script = SCRIPT + [{"action": "choose_targets", "player": "alice", "targets": answer}]
    return run_scenario({"setup": setup or _setup(), "script": script + [
        {"action": "pass", "player": "bob"}, {"action": "pass", "player": "alice"}]}, ruleset, DB)["events"]


def test_the_copied_target_may_stay_even_if_illegal_for_the_copy():
    for ruleset in ("modern", "classic-1999"):
        events = _run(["bbears"], _setup(alice_creature=False), ruleset)
        assert not [e for e in events if e["type"] in ("action_rejected", "script_error")]
        copied = next(e for e in events if e["type"] == "spell_copied")
        assert copied["controller"] == "alice" and copied["targets"] == ["bbears"]
        countered = next(e for e in events if e["type"] == "spell_countered")
        assert countered["object"] == copied["object"] and countered["reason"] == "illegal_targets"


def test_a_changed_target_must_be_legal():
    events = _run(["bwolf"])
    assert [e["code"] for e in events if e["type"] == "action_rejected"][0] == "invalid_target"
    assert not any(e["type"] == "spell_copied" for e in events)  # still asked: the copy waits
    events = _run(["abears"])
    assert not [e for e in events if e["type"] in ("action_rejected", "script_error")]
    assert next(e for e in events if e["type"] == "spell_copied")["targets"] == ["abears"]
    assert any(e["type"] == "token_created" and e["controller"] == "alice" for e in events)


def test_legal_moves_offer_the_copied_targets_and_each_offer_is_accepted():
    for alice_creature in (False, True):
        setup = _setup(alice_creature)
        game, decision = position(setup, SCRIPT)
        assert decision["kind"] == "choose_targets" and decision["reason"] == "copy_targets"
        offered = [a["targets"] for a in legal.legal_actions(game, decision)]
        assert offered[0] == ["bbears"] and (["abears"] in offered) == alice_creature
        assert ["bwolf"] not in offered
        for targets in offered:
            events = run_scenario({"setup": setup, "script": SCRIPT + [
                {"action": "choose_targets", "player": "alice", "targets": targets}]}, "modern", DB)["events"]
            assert not [e for e in events if e["type"] in ("action_rejected", "script_error")], targets
