"""Issue 23 item 1 and 3: conditions read from the trigger event and the turn, and "can't be
sacrificed" (engine/event_conditions.py; docs/FORMAT.md §13.6).

- ``triggering_spell_targets`` (CR 115.1, 603.4): Shiko and Narset, Unified copies a second
  spell that targets a permanent or player (fixtures tarkir.flurry.shiko-*); here a filter on
  the permanent (``{"controller": "you"}``) and the targets remembered once the spell has left
  the stack.
- ``triggering_object_matches`` (CR 603.4): Anje Falkenrath (fixture
  timespiral.madness.a-discard-trigger-reads-whether-the-discarded-card-has-madness).
- ``your_turn`` (CR 500: "if it's your turn"): Stolen Vitality in either player's turn.
- ``step`` (CR 500.1) and ``cant_be_sacrificed`` (CR 701.17, 118.3): Zurgo, Thunder's Decree.
"""

from __future__ import annotations

import test_vocabulary_effects as shapes  # tests/ is on sys.path

from mtg_judge.conformance import card_semantics

_game = shapes._game
_test_card = shapes._test_card


_run = shapes.run_built


def _types(result: dict) -> list[str]:
    return [e["type"] for e in result["events"]]


def _stolen_vitality(active: str) -> dict:
    script = [{"action": "cast", "player": "alice", "card": "sv", "targets": ["bears"]}, {"action": "resolve"}]
    if active == "bob":
        script.insert(0, {"action": "pass", "player": "bob"})
    return _run(_game({"hand": ["sv=Stolen Vitality"], "battlefield": ["bears=Grizzly Bears"],
                       "mana_pool": {"R": 1, "C": 1}}, {}, script, active=active))


def test_your_turn_chooses_trample_in_your_turn_and_first_strike_in_the_opponents() -> None:
    """CR 500 ("if it's your turn"), 608.2c: Stolen Vitality's conditional effect is read as it
    resolves, for its controller: Alice's turn gives trample, Bob's first strike; +3/+1 both."""
    mine, his = _stolen_vitality("alice"), _stolen_vitality("bob")
    bears_mine, bears_his = mine["state"]["battlefield"]["bears"], his["state"]["battlefield"]["bears"]
    assert "trample" in bears_mine["keywords"] and "first_strike" not in bears_mine["keywords"]
    assert "first_strike" in bears_his["keywords"] and "trample" not in bears_his["keywords"]
    assert (bears_mine["power"], bears_mine["toughness"]) == (bears_his["power"], bears_his["toughness"]) == (5, 3)


def test_zurgos_warriors_survive_their_end_step_sacrifice_and_stay() -> None:
    """CR 701.17 with the static ability's condition (CR 611.3): during Alice's end step her
    Warrior tokens can't be sacrificed, so mobilize's delayed trigger (CR 603.7) resolves and
    sacrifices nothing; they are still there in Bob's turn."""
    result = _run(shapes._zurgo_keeps_its_warriors())
    assert "sacrificed" not in _types(result)
    assert {"token#1", "token#2"} <= set(result["state"]["battlefield"])
    assert any(e["type"] == "ability_resolved" for e in result["events"][-20:])


def test_outside_the_end_step_a_warrior_token_is_sacrificed() -> None:
    """The condition's step (CR 500.1): in Alice's main phase the token is sacrificed."""
    result = _run(shapes._zurgo_in_the_main_phase())
    assert "sacrificed" in _types(result) and set(result["state"]["battlefield"]) == {"zurgo"}


def test_a_cost_that_sacrifices_a_permanent_that_cant_be_sacrificed_cant_be_paid() -> None:
    """CR 118.3: "Sacrifice this creature" can't be paid for a creature that can't be
    sacrificed: the activation is rejected with cannot_pay and nothing happens (a Warrior
    token in Alice's end step with Zurgo)."""
    token = _test_card("Test Warrior Token Maker", ["Instant"], "…", spell={"targets": [], "effects": [
        {"type": "create_token", "count": 1, "token": {
            "types": ["Creature"], "subtypes": ["Warrior"], "colors": ["red"], "power": 1, "toughness": 1,
            "abilities": [{"kind": "activated", "cost": {"sacrifice_self": True}, "effects": shapes._gain()}]}}]})
    result = _run(_game({"battlefield": ["zurgo=Zurgo, Thunder's Decree"], "hand": ["m=Test Warrior Token Maker"],
                         "mana_pool": {"C": 1}}, {},
                        [{"action": "cast", "player": "alice", "card": "m"}, {"action": "resolve"},
                         {"action": "activate", "player": "alice", "source": "token#1", "ability": 0}],
                        [token], step="end"))
    rejected = [e for e in result["events"] if e["type"] == "action_rejected"]
    assert [e["code"] for e in rejected] == ["cannot_pay"]
    assert "token#1" in result["state"]["battlefield"] and result["state"]["players"]["alice"]["life"] == 20


def _watcher(spec: dict) -> dict:
    return _test_card("Test Target Watcher", ["Enchantment"], "Whenever you cast a spell, if it targets …, you gain 1 life.",
                      abilities=[{"kind": "triggered", "trigger": {"event": "spell_cast", "player": "you"},
                                  "condition": {"triggering_spell_targets": spec}, "effects": shapes._gain()}])


def _bolt(target: str, spec: dict, counter: bool = False) -> dict:
    """Alice controls the watcher and casts Lightning Bolt at ``target`` (her Bears ``mine``,
    Bob's ``his``, or a player); with ``counter``, Bob answers with Counterspell on the Bolt,
    which resolves before the watcher's trigger below it."""
    script = [{"action": "cast", "player": "alice", "card": "bolt", "targets": [target]}]
    bob: dict = {"battlefield": ["his=Grizzly Bears"]}
    if counter:
        bob.update(hand=["cs=Counterspell"], mana_pool={"U": 2})
        script += [{"action": "pass", "player": "alice"},
                   {"action": "cast", "player": "bob", "card": "cs", "targets": ["bolt"]}, {"action": "resolve"}]
    script += [{"action": "resolve"}, {"action": "resolve"}]
    return _run(_game({"hand": ["bolt=Lightning Bolt"], "battlefield": ["w=Test Target Watcher", "mine=Grizzly Bears"],
                       "mana_pool": {"R": 1}}, bob, script, [_watcher(spec)]))


def test_triggering_spell_targets_reads_the_permanents_filter_and_the_players_kind() -> None:
    """CR 115.1, 603.4: "if that spell targets a creature you control" holds for Alice's
    Bears, not Bob's; "if it targets an opponent" holds for Bob, not for Alice herself. The
    intervening "if" is read as the ability triggers (no trigger at all when false)."""
    mine = {"permanent": {"types": ["Creature"], "controller": "you"}}
    assert _bolt("mine", mine)["state"]["players"]["alice"]["life"] == 21
    assert _bolt("his", mine)["state"]["players"]["alice"]["life"] == 20
    assert "ability_triggered" not in _types(_bolt("his", mine))
    assert _bolt("bob", {"player": "opponent"})["state"]["players"]["alice"]["life"] == 21
    assert _bolt("alice", {"player": "opponent"})["state"]["players"]["alice"]["life"] == 17  # 20 - 3, no gain
    assert _bolt("mine", {"player": "any"})["state"]["players"]["alice"]["life"] == 20


def test_triggering_spell_targets_is_read_from_the_cast_targets_once_the_spell_is_gone() -> None:
    """CR 603.4: the intervening "if" is checked again as the ability resolves; the spell has
    been countered by then, so its targets are read as it was cast (remembered by the trigger,
    engine/event_conditions.py): the ability still resolves and Alice gains 1 life."""
    result = _bolt("mine", {"permanent": {"types": ["Creature"]}}, counter=True)
    assert "spell_countered" in _types(result)
    assert "ability_removed" not in _types(result)
    assert result["state"]["players"]["alice"]["life"] == 21


def test_trigger_event_conditions_are_refused_outside_a_triggered_ability() -> None:
    """validate (conformance/card_semantics.py check 6): there is no trigger event for a
    static ability or a spell's own effects, so the condition could never hold."""
    for name, value in (("triggering_spell_targets", {"player": "any"}),
                        ("triggering_object_matches", {"keywords": ["madness"]})):
        static = _test_card("Test Static Bear", ["Creature"], "…", abilities=[
            {"kind": "static", "condition": {name: value},
             "effect": {"type": "modify_pt", "affected": "self", "power": 1, "toughness": 1}}])
        problems = card_semantics.card_problems(static, "fixtures/cards/x.json")
        assert [p.path for p in problems] == [f"$.abilities[0].condition.{name}"], problems
        assert "could never hold here" in problems[0].message
    for name in ("your_turn", "step"):  # the turn conditions are read everywhere but on a target
        value = True if name == "your_turn" else "end"
        static = _test_card("Test Static Bear", ["Creature"], "…", abilities=[
            {"kind": "static", "condition": {name: value},
             "effect": {"type": "modify_pt", "affected": "self", "power": 1, "toughness": 1}}])
        assert card_semantics.card_problems(static, "fixtures/cards/x.json") == []


# ------------------------------------------------------------------ Phage the Untouchable (issue 23 item 5)
def _phage(how: str) -> dict:
    """Alice's Phage the Untouchable: cast from her hand, or put onto the battlefield from her
    graveyard by a reanimation sorcery (not cast), or cast from the hand then attacking Bob
    (combat damage to a player) or blocked by his 0/7 wall (combat damage to a creature)."""
    reanimate = _test_card("Test Reanimation", ["Sorcery"], "…", spell={
        "targets": [{"kind": "card", "zone": "graveyard", "filter": {"types": ["Creature"]}}],
        "effects": [{"type": "return_to_battlefield", "what": {"target": 0}, "under": "controller"}]})
    if how == "cast":
        return _run(_game({"hand": ["phage=Phage the Untouchable"], "mana_pool": {"B": 4, "C": 3}}, {},
                          [{"action": "cast", "player": "alice", "card": "phage"}, {"action": "resolve"},
                           {"action": "pass", "player": "alice"}], [reanimate]))
    if how == "reanimated":
        return _run(_game({"hand": ["r=Test Reanimation"], "graveyard": ["phage=Phage the Untouchable"],
                           "mana_pool": {"C": 1}}, {},
                          [{"action": "cast", "player": "alice", "card": "r", "targets": ["phage"]}, {"action": "resolve"},
                           {"action": "resolve"}], [reanimate]))
    blocks = [{"blocker": "wall", "attacker": "phage"}] if how == "blocked" else []
    wall = _test_card("Test Thick Wall", ["Creature"], "…", power=0, toughness=7)
    scenario, ruleset = _game({"battlefield": ["phage=Phage the Untouchable"]}, {"battlefield": ["wall=Test Thick Wall"]},
                              [{"action": "declare_attackers", "player": "alice", "attackers": ["phage"]},
                               {"action": "advance", "to": "declare_blockers"},
                               {"action": "declare_blockers", "player": "bob", "blocks": blocks},
                               {"action": "advance", "to": "combat_damage"}, {"action": "resolve"}],
                              [wall], step="declare_attackers")
    return _run((scenario, ruleset))


def test_phage_cast_from_the_hand_doesnt_lose_the_game() -> None:
    """CR 603.4: the intervening "if" (not cast from the hand) is false: no trigger at all."""
    result = _phage("cast")
    assert "ability_triggered" not in _types(result) and "player_lost" not in _types(result)


def test_phage_put_onto_the_battlefield_without_being_cast_loses_the_game() -> None:
    """CR 104.3e: put onto the battlefield from the graveyard (never cast): its controller
    loses the game as the ability resolves."""
    result = _phage("reanimated")
    lost = [e for e in result["events"] if e["type"] == "player_lost"]
    assert [(e["player"], e["reason"]) for e in lost] == [("alice", "effect")]


def test_phages_combat_damage_makes_that_player_lose_and_destroys_that_creature() -> None:
    """Combat damage to Bob: "that player" (the player dealt the damage) loses; to his
    blocking 0/7 creature (4 damage doesn't kill it): "that creature" is destroyed, and Bob
    stays in the game."""
    unblocked = _phage("unblocked")
    assert [e["player"] for e in unblocked["events"] if e["type"] == "player_lost"] == ["bob"]
    blocked = _phage("blocked")
    assert "player_lost" not in _types(blocked)
    assert [e["card"] for e in blocked["events"] if e["type"] == "destroyed"] == ["wall"]


def test_a_saga_that_cant_be_sacrificed_stays_after_its_last_chapter() -> None:
    """CR 714.4 is a sacrifice (CR 701.17): a Saga that can't be sacrificed ("This
    enchantment can't be sacrificed", a test card) stays on the battlefield after its final
    chapter has resolved, and the state-based action doesn't loop."""
    saga = _test_card("Test Stubborn Saga", ["Enchantment"], "…", subtypes=["Saga"], abilities=[
        {"kind": "chapter", "chapters": [1], "effects": shapes._gain()},
        {"kind": "static", "effect": {"type": "cant_be_sacrificed", "affected": "self"}}])
    result = _run(_game({"hand": ["saga=Test Stubborn Saga"], "mana_pool": {"C": 1}}, {},
                        [{"action": "cast", "player": "alice", "card": "saga"}, {"action": "resolve"},
                         {"action": "resolve"}, {"action": "pass", "player": "alice"}], [saga]))
    assert result["state"]["players"]["alice"]["life"] == 21
    assert "saga" in result["state"]["battlefield"] and "sacrificed" not in _types(result)
