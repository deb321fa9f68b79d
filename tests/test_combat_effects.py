"""Issue 23 item 2: combat-long effects (engine/combat_effects.py; docs/FORMAT.md §13.6).

- "until end of combat" (CR 611.2b) ends as the end of combat step ends (CR 511.3): fixture
  classic.combat.until-end-of-combat-lasts-through-the-end-of-combat-step (Murk Dwellers);
  here a second combat phase in the same turn.
- "attacks this combat / this turn if able" (CR 508.1d): a requirement on the declaration of
  attackers, obeyed as far as the restrictions allow (Boiling Blood, Legion Warboss).
"""

from __future__ import annotations

import test_vocabulary_effects as shapes  # tests/ is on sys.path
from test_legal_choices import agree

_game = shapes._game
_test_card = shapes._test_card


_run = shapes.run_built


def _rejections(result: dict) -> list[str]:
    return [e["code"] for e in result["events"] if e["type"] == "action_rejected"]


def _attacks(result: dict) -> list[list[str]]:
    return [[a["card"] for a in e["attackers"]] for e in result["events"] if e["type"] == "attackers_declared"]


def test_a_creature_that_must_attack_and_can_must_be_declared() -> None:
    """CR 508.1d: Boiling Blood's Bears: the empty declaration is refused (attack_requirement),
    the one with the Bears accepted; Alice drew a card."""
    result = _run(shapes._boiling_blood_on_the_bears())
    assert _rejections(result) == ["attack_requirement"]
    assert _attacks(result) == [["bears"]]
    assert result["state"]["players"]["bob"]["life"] == 18


def test_a_creature_that_must_attack_but_cant_is_not_required() -> None:
    """CR 508.1d: a requirement never overrides a restriction: Boiling Blood on Bears that are
    tapped (CR 508.1a) leaves the empty declaration legal."""
    scenario, ruleset = shapes._boiling_blood_on_the_bears()
    scenario["setup"]["players"][0]["battlefield"][0]["tapped"] = True
    scenario["script"] = scenario["script"][:4] + [{"action": "advance", "to": "postcombat_main"}]
    result = _run((scenario, ruleset))
    assert _rejections(result) == [] and _attacks(result) == [[]]


def _battle_cry_then_extra_combat() -> tuple[dict, str]:
    """Alice's Serra Angel (vigilance: it stays untapped) is told "attacks this combat if
    able" in the first combat's beginning step; a second combat phase follows in the turn
    (Test Extra Battle, cast before combat). In each combat she first declares no attackers."""
    cry = _test_card("Test Battle Cry", ["Instant"], "Target creature attacks this combat if able.", spell={
        "targets": [{"kind": "creature"}],
        "effects": [{"type": "attacks_if_able", "what": {"target": 0}, "duration": "end_of_combat"}]})
    extra = _test_card("Test Extra Battle", ["Sorcery"], "…", spell={"targets": [], "effects": [
        {"type": "additional_phase", "phase": "combat", "then_main": False}]})
    return _game({"hand": ["cry=Test Battle Cry", "xb=Test Extra Battle"],
                  "battlefield": ["angel=Serra Angel", "p1=Plains", "p2=Plains"]}, {},
                 [{"action": "cast", "player": "alice", "card": "xb", "pay_with": ["p1"]}, {"action": "resolve"},
                  {"action": "advance", "to": "beginning_of_combat"},
                  {"action": "cast", "player": "alice", "card": "cry", "targets": ["angel"], "pay_with": ["p2"]},
                  {"action": "resolve"},
                  {"action": "advance", "to": "declare_attackers"},
                  {"action": "declare_attackers", "player": "alice", "attackers": []},
                  {"action": "declare_attackers", "player": "alice", "attackers": ["angel"]},
                  {"action": "advance", "to": "declare_attackers"},
                  {"action": "declare_attackers", "player": "alice", "attackers": []},
                  {"action": "advance", "to": "end"}], [cry, extra])


def test_attacks_this_combat_if_able_ends_with_that_combat() -> None:
    """CR 611.2b, 511.3: the requirement holds in the first combat (the empty declaration is
    refused there) and is gone in the second combat phase of the turn (accepted)."""
    result = _run(_battle_cry_then_extra_combat())
    assert _rejections(result) == ["attack_requirement"]
    assert _attacks(result) == [["angel"], []]
    assert result["state"]["players"]["bob"]["life"] == 16


def test_legion_warboss_token_must_attack_and_the_legal_moves_say_so() -> None:
    """Legion Warboss: the Goblin token it creates at the beginning of combat has haste and
    attacks this combat if able; the legal-action generator offers only declarations that
    include it (CR 508.1d), and the engine accepts each of them (test_legal_choices.agree)."""
    scenario, ruleset = _game({"battlefield": ["wb=Legion Warboss"]}, {},
                              [{"action": "advance", "to": "beginning_of_combat"}, {"action": "resolve"},
                               {"action": "advance", "to": "declare_attackers"}])
    moves = agree(scenario["setup"], scenario["script"], [])
    attacks = [m for m in moves if m["action"] == "declare_attackers"]
    assert attacks and all("token#1" in m["attackers"] for m in attacks)
    assert [] not in [m["attackers"] for m in attacks]


def test_advance_does_not_declare_no_attackers_for_a_creature_that_must_attack() -> None:
    """FORMAT §3.2: ``advance`` declares no attackers; with a creature that must attack (CR
    508.1d) that is no answer, so the run stops with script_error unanswered_decision instead
    of asking again forever."""
    scenario, ruleset = shapes._boiling_blood_on_the_bears()
    scenario["script"] = scenario["script"][:2] + [{"action": "advance", "to": "end"}]
    result = _run((scenario, ruleset))
    errors = [e for e in result["events"] if e["type"] == "script_error"]
    assert [e["code"] for e in errors] == ["unanswered_decision"]
