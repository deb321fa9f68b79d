"""Real cards made fully expressible for the breadth bar (issue 23 item 4), where no seed
unit's fixture applies: each test plays the card's own data (fixtures/cards/) and checks
what the Comprehensive Rules rule it cites demands. Fixtures cover the parts a seed unit
speaks about (finalfantasy.transform.02: Galian Beast returns front face up)."""

from __future__ import annotations

from typing import Any

import test_vocabulary_effects as shapes  # tests/ is on sys.path: the shape walk's builders
from test_legal_choices import position

from mtg_judge.engine import legal, run_scenario


def _play(alice: dict, bob: dict, script: list[dict], inline: list[dict] = (), **kw: Any) -> dict:
    return shapes.run_built(shapes._game(alice, bob, script, list(inline), **kw))


def _events(result: dict, etype: str) -> list[dict]:
    return [e for e in result["events"] if e["type"] == etype]


def _clean(result: dict) -> None:
    bad = [e for e in result["events"] if e["type"] in ("action_rejected", "script_error")]
    assert not bad, bad


# ------------------------------------------------------------------ Vincent Valentine
def _bolt(target: str, *, transformed: bool = False, bob_bears: str = "Grizzly Bears",
          counters: dict[str, int] | None = None) -> dict:
    bears: dict[str, Any] = {"alias": "bears", "card": bob_bears}
    if counters:
        bears["counters"] = counters
    return _play({"hand": ["bolt=Lightning Bolt"], "mana_pool": {"R": 1},
                  "battlefield": [{"alias": "vincent", "card": "Vincent Valentine", "transformed": transformed},
                                  "mine=Grizzly Bears"]},
                 {"battlefield": [bears]},
                 [{"action": "cast", "player": "alice", "card": "bolt", "targets": [target]},
                  {"action": "resolve"}, {"action": "resolve"}])


def test_vincent_gets_counters_equal_to_the_dead_creatures_last_known_power() -> None:
    """"Whenever a creature an opponent controls dies, put a number of +1/+1 counters on
    Vincent Valentine equal to that creature's power": the creature is in the graveyard as
    the ability resolves, so its power is its last known information (CR 608.2h, 603.10a):
    Bob's Grizzly Bears with a +1/+1 counter died as a 3/3 (the card in the graveyard is a
    2/2): three counters, Vincent is a 5/5."""
    result = _bolt("bears", counters={"+1/+1": 1})
    _clean(result)
    assert [(e["object"], e["counter"], e["count"]) for e in _events(result, "counters_added")] == [
        ("vincent", "+1/+1", 3)]
    v = result["state"]["battlefield"]["vincent"]
    assert (v["power"], v["toughness"]) == (5, 5)


def test_vincent_ignores_a_creature_its_controller_controls() -> None:
    """"A creature an opponent controls": Alice's own Grizzly Bears dying triggers nothing
    (CR 603.10a: the trigger condition is checked as the creature last existed, under Alice)."""
    result = _bolt("mine")
    _clean(result)
    assert _events(result, "ability_triggered") == []
    assert result["state"]["battlefield"]["vincent"]["counters"] == {}


def test_galian_beast_has_only_the_back_faces_abilities() -> None:
    """CR 712.8e (finalfantasy.transform.03): with its back face up it has only the back
    face's abilities, so Bob's creature dying gives Galian Beast no counters."""
    result = _bolt("bears", transformed=True)
    _clean(result)
    assert _events(result, "counters_added") == []


# ------------------------------------------------------------------ Sarkhan, Dragon Ascendant
NEXT_TURN = [{"action": "advance", "to": "upkeep", "turn": 4}]


def _sarkhan(then: list[dict] = ()) -> dict:
    """Alice controls Sarkhan, Dragon Ascendant and Amoeboid Changeling; she casts Shivan
    Dragon: Sarkhan's "whenever a Dragon you control enters" ability resolves; then ``then``."""
    return _play({"hand": ["shivan=Shivan Dragon"], "mana_pool": {"C": 4, "R": 2},
                  "battlefield": ["sarkhan=Sarkhan, Dragon Ascendant", "ac=Amoeboid Changeling"]}, {},
                 [{"action": "cast", "player": "alice", "card": "shivan"}, {"action": "resolve"},
                  {"action": "resolve"}, *then])


def test_sarkhan_becomes_a_dragon_in_addition_to_its_other_types_until_end_of_turn() -> None:
    """"Put a +1/+1 counter on Sarkhan. Until end of turn, Sarkhan becomes a Dragon in addition
    to its other types and gains flying": a continuous effect from a resolved ability (CR
    611.2) in layer 4 (CR 613.1d, 205.1b): Human Druid Dragon, 3/3, flying."""
    result = _sarkhan()
    _clean(result)
    assert [(e["objects"], e["change"]) for e in _events(result, "types_changed")] == [
        (["sarkhan"], "gained_creature_types")]
    s = result["state"]["battlefield"]["sarkhan"]
    assert s["subtypes"] == ["Human", "Druid", "Dragon"]
    assert (s["power"], s["toughness"], s["keywords"]) == (3, 3, ["flying"])


def test_sarkhan_is_no_dragon_after_the_cleanup_step() -> None:
    """CR 514.2: "until end of turn" effects end in the cleanup step; in the next turn Sarkhan
    is a Human Druid again (the counter stays)."""
    result = _sarkhan(NEXT_TURN)
    _clean(result)
    s = result["state"]["battlefield"]["sarkhan"]
    assert s["subtypes"] == ["Human", "Druid"]
    assert (s["power"], s["keywords"]) == (3, [])


def test_a_later_loses_all_creature_types_removes_the_dragon_type() -> None:
    """CR 613.7: layer-4 effects apply in timestamp order. Amoeboid Changeling's "target
    creature loses all creature types until end of turn", activated after Sarkhan became a
    Dragon, has the later timestamp: Sarkhan has no creature type at all."""
    result = _sarkhan([{"action": "activate", "player": "alice", "source": "ac", "ability": 1,
                        "targets": ["sarkhan"]}, {"action": "resolve"}])
    _clean(result)
    assert result["state"]["battlefield"]["sarkhan"]["subtypes"] == []


def test_an_earlier_loses_all_creature_types_leaves_the_dragon_type() -> None:
    """CR 613.7: the Changeling's ability resolved first (earlier timestamp), then Sarkhan's:
    it lost Human and Druid, then became a Dragon."""
    result = _play({"hand": ["shivan=Shivan Dragon"], "mana_pool": {"C": 4, "R": 2},
                    "battlefield": ["sarkhan=Sarkhan, Dragon Ascendant", "ac=Amoeboid Changeling"]}, {},
                   [{"action": "activate", "player": "alice", "source": "ac", "ability": 1, "targets": ["sarkhan"]},
                    {"action": "resolve"}, {"action": "cast", "player": "alice", "card": "shivan"},
                    {"action": "resolve"}, {"action": "resolve"}])
    _clean(result)
    assert result["state"]["battlefield"]["sarkhan"]["subtypes"] == ["Dragon"]


# ------------------------------------------------------------------ "up to one target" (Dirgur Island Dragon)
def _strike_setup() -> tuple[dict, list[dict]]:
    scenario, _ = shapes._game({"hand": ["dirgur=Dirgur Island Dragon"], "mana_pool": {"U": 2}},
                               {"battlefield": ["bears=Grizzly Bears"]}, [])
    return scenario["setup"], scenario["cards"]


def _strike(targets: list[Any]) -> dict:
    return _play({"hand": ["dirgur=Dirgur Island Dragon"], "mana_pool": {"U": 2}},
                 {"battlefield": ["bears=Grizzly Bears"]},
                 [{"action": "cast", "player": "alice", "card": "dirgur", "face": "omen", "targets": targets},
                  {"action": "resolve"}])


def test_legal_moves_offer_the_omen_with_and_without_its_up_to_one_target() -> None:
    """CR 601.2c: "up to one target creature" may be cast with zero or one target; the legal
    moves list both (no target: an empty list), each accepted by the engine."""
    setup, _ = _strike_setup()
    game, decision = position(setup, [])
    casts = [a for a in legal.legal_actions(game, decision)
             if a.get("action") == "cast" and a.get("card") == "dirgur" and a.get("face") == "omen"]
    assert sorted(a.get("targets", []) for a in casts) == [[], ["bears"]]


def test_a_null_target_is_no_target() -> None:
    """The input's ``null`` for an ``up_to`` target is the same choice as leaving it out."""
    none, null = _strike([]), _strike([None])
    for result in (none, null):
        _clean(result)
        assert [e["targets"] for e in _events(result, "spell_cast")] == [[]]
        assert _events(result, "tapped") == [] and len(_events(result, "card_drawn")) == 1
    one = _strike(["bears"])
    _clean(one)
    assert [e["object"] for e in _events(one, "tapped")] == ["bears"]


def test_a_target_left_out_of_a_required_spec_is_missing() -> None:
    """Only an ``up_to`` target may be left unchosen: Lightning Bolt with ``[null]`` is
    rejected (``missing_targets``)."""
    result = _play({"hand": ["bolt=Lightning Bolt"], "mana_pool": {"R": 1}}, {},
                   [{"action": "cast", "player": "alice", "card": "bolt", "targets": [None]}])
    assert [e["code"] for e in _events(result, "action_rejected")] == ["missing_targets"]


# ------------------------------------------------------------------ menace (Boggart Brute, CR 702.111b)
def _brute_setup() -> tuple[dict, list[dict]]:
    """Alice's Boggart Brute attacks; Bob has two Grizzly Bears; the declare blockers step."""
    scenario, _ = shapes._game({"battlefield": ["brute=Boggart Brute"]},
                               {"battlefield": ["b1=Grizzly Bears", "b2=Grizzly Bears"]},
                               [{"action": "declare_attackers", "player": "alice", "attackers": ["brute"]},
                                {"action": "resolve"}], step="declare_attackers")
    return scenario["setup"], scenario["script"]


def _brute_blocked_by(blockers: list[str]) -> dict:
    setup, script = _brute_setup()
    blocks = [{"blocker": b, "attacker": "brute"} for b in blockers]
    return run_scenario({"setup": setup, "script": [*script, {"action": "declare_blockers", "player": "bob",
                                                              "blocks": blocks}]}, "modern")


def test_menace_one_blocker_is_rejected() -> None:
    """CR 702.111b: a creature with menace can't be blocked except by two or more creatures:
    one Grizzly Bears alone is ``cannot_block``."""
    result = _brute_blocked_by(["b1"])
    assert [e["code"] for e in _events(result, "action_rejected")] == ["cannot_block"]
    assert _events(result, "blockers_declared") == []


def test_menace_two_blockers_or_none_are_legal() -> None:
    """Two blockers block it; no blocker is legal too."""
    for blockers in (["b1", "b2"], []):
        result = _brute_blocked_by(blockers)
        _clean(result)
        [declared] = _events(result, "blockers_declared")
        assert sorted(b["blocker"] for b in declared["blocks"]) == blockers


def test_legal_blocks_of_a_menace_creature_have_two_blockers_or_none() -> None:
    """The legal moves offer no block and the double block, never one Bears alone."""
    setup, script = _brute_setup()
    game, decision = position(setup, script)
    blocks = sorted(sorted(b["blocker"] for b in a["blocks"]) for a in legal.legal_actions(game, decision))
    assert blocks == [[], ["b1", "b2"]]


# ------------------------------------------------------------------ Vanille, Cheerful l'Cie
def _vanille(graveyard: list[str], library: list[str], answers: list[Any]) -> dict:
    """Alice casts Vanille (its enters trigger: mill two cards, then return a permanent card
    from her graveyard to her hand); ``answers`` answer the choice."""
    return _play({"hand": ["vanille=Vanille, Cheerful l'Cie"], "mana_pool": {"G": 1, "C": 3},
                  "graveyard": graveyard, "library": library}, {},
                 [{"action": "cast", "player": "alice", "card": "vanille"}, {"action": "resolve"},
                  {"action": "resolve"},
                  *[{"action": "choose", "player": "alice", "choice": a} for a in answers]])


def test_vanille_returns_a_card_it_just_milled() -> None:
    """CR 608.2c: "mill two cards, then return a permanent card from your graveyard": the
    instructions are followed in order, so a card milled by the first may be returned (no
    target: it is chosen as the effect is applied, CR 608.2d). Lightning Bolt (an instant,
    not a permanent card) is not among the options: choosing it is ``invalid_choice``."""
    result = _vanille(["bolt=Lightning Bolt"], ["l1=Grizzly Bears", "l2=Forest", "l3=Island"], ["bolt", "l1"])
    assert [e["code"] for e in _events(result, "action_rejected")] == ["invalid_choice"]
    milled = [e["card"] for e in _events(result, "zone_changed") if e.get("cause") == "mill"]
    assert milled == ["l1", "l2"]
    back = [e for e in _events(result, "zone_changed") if e.get("cause") == "return_from_graveyard_to_hand"]
    assert [(e["card"], e["from"], e["to"]) for e in back] == [("l1", "graveyard", "hand")]
    alice = result["state"]["players"]["alice"]
    assert alice["hand"] == ["l1"] and sorted(alice["graveyard"]) == ["bolt", "l2"]


def test_vanille_asks_nothing_without_a_permanent_card() -> None:
    """Nothing to return (two instants milled, an instant in the graveyard): nothing is asked,
    nothing moves."""
    result = _vanille(["bolt=Lightning Bolt"], ["l1=Giant Growth", "l2=Giant Growth", "l3=Island"], [])
    _clean(result)
    assert not any(e.get("cause") == "return_from_graveyard_to_hand" for e in _events(result, "zone_changed"))
    assert result["state"]["players"]["alice"]["hand"] == []


def test_the_choice_offers_the_permanent_cards() -> None:
    """The legal answers are the permanent cards in the graveyard (a land included)."""
    scenario, _ = shapes._game({"hand": ["vanille=Vanille, Cheerful l'Cie"], "mana_pool": {"G": 1, "C": 3},
                                "graveyard": ["bolt=Lightning Bolt", "bears=Grizzly Bears"],
                                "library": ["l1=Forest", "l2=Giant Growth", "l3=Island"]}, {}, [])
    game, decision = position(scenario["setup"], [{"action": "cast", "player": "alice", "card": "vanille"},
                                                  {"action": "resolve"}, {"action": "resolve"}])
    assert decision.get("reason") == "graveyard_card"
    assert sorted(a["choice"] for a in legal.legal_actions(game, decision)) == ["bears", "l1"]  # options are card aliases (FORMAT §5)
