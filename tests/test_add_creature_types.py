"""The static ``add_creature_types`` (issue #15, class (a)): "equipped creature … is a Monk in
addition to its other types" (Monk's Fist, Warrior's Sword). Layer 4 (CR 613.1d, 205.1b): the
equipped creature has the creature type after its printed subtypes while the Equipment is
attached to it (CR 301.5c), so a lord that counts that creature type counts it (layer 4 is
applied before layer 7c, CR 613.1); it is applied in timestamp order with the other creature
type effects (CR 613.7; an Equipment's timestamp is the time it became attached, 613.7e);
a face-down creature has it too (CR 708.2: no subtypes unless an effect gives it one).
Expectations are written from those rules, not from the engine's output.
"""

from __future__ import annotations

import pytest

from mtg_judge.engine import characteristics as ch
from mtg_judge.engine import state as state_mod
from mtg_judge.engine.cards import CardDefinition
from mtg_judge.engine.objects import ContinuousEffect
from mtg_judge.engine.scenario import _card_db, build_game

_CARDS: dict | None = None


def _cards() -> dict:
    global _CARDS
    if _CARDS is None:
        cards = dict(_card_db(None))
        for d in (
            {"name": "Test Goblin", "mana_cost": "{1}{R}", "type_line": "Creature — Goblin", "supertypes": [],
             "types": ["Creature"], "subtypes": ["Goblin"], "oracle_text": "", "power": 2, "toughness": 2,
             "layout": "normal", "keywords": [], "abilities": []},
            {"name": "Test Monk Lord", "mana_cost": "{2}{W}", "type_line": "Creature — Human", "supertypes": [],
             "types": ["Creature"], "subtypes": ["Human"], "oracle_text": "Other Monks you control get +1/+1.",
             "power": 1, "toughness": 1, "layout": "normal", "keywords": [], "abilities": [
                 {"kind": "static", "effect": {"type": "modify_pt", "power": 1, "toughness": 1, "affected": {
                     "all": {"types": ["Creature"], "subtypes": ["Monk"], "controller": "you", "other": True}}}}]},
        ):
            card = CardDefinition.from_dict(d)
            cards[card.name] = card
        _CARDS = cards
    return _CARDS


def _game(equipment: str = "Monk's Fist", face_down: bool = False):
    subject = {"alias": "S", "card": "Test Goblin"}
    if face_down:
        subject["face_down"] = True
    bf = [subject, {"alias": "L", "card": "Test Monk Lord"},
          {"alias": "E", "card": equipment, "attached_to": "S"}]
    scenario = {"setup": {"turn": 3, "active_player": "alice", "step": "precombat_main", "players": [
        {"id": "alice", "battlefield": bf}, {"id": "bob"}]}}
    return build_game(scenario, "modern", _cards(), None)


def _view(game, alias: str) -> dict:
    obj = game.find(alias)
    return {"subtypes": ch.subtypes(game, obj), "monk": ch.has_subtype(game, obj, "Monk"),
            "goblin": ch.has_subtype(game, obj, "Goblin"), "pt": ch.power_toughness(game, obj)}


def test_equipped_creature_is_a_monk_and_the_lord_counts_it():
    game = _game()
    # 2/2, +1/+0 from the Fist, +1/+1 from the lord (it is a Monk: layer 4 before 7c)
    assert _view(game, "S") == {"subtypes": ["Goblin", "Monk"], "monk": True, "goblin": True, "pt": (4, 3)}
    assert state_mod.snapshot(game)["battlefield"]["S"]["subtypes"] == ["Goblin", "Monk"]
    # the lord itself isn't equipped: a Human, not a Monk
    assert _view(game, "L")["subtypes"] == ["Human"]


def test_unattached_it_stops_being_a_monk():
    game = _game()
    game.find("E").attached_to = None  # CR 301.5c: the Equipment no longer equips it
    assert _view(game, "S") == {"subtypes": ["Goblin"], "monk": False, "goblin": True, "pt": (2, 2)}


def test_warriors_sword_makes_it_a_warrior_not_a_monk():
    game = _game("Warrior's Sword")
    obj = game.find("S")
    assert ch.subtypes(game, obj) == ["Goblin", "Warrior"]
    assert ch.power_toughness(game, obj) == (5, 4)  # +3/+2; not a Monk, so no +1/+1
    assert ch.matches(game, obj, {"subtypes": ["Warrior"]}, "alice")


@pytest.mark.parametrize("attached_later", [False, True])
def test_timestamp_order_with_losing_all_creature_types(attached_later: bool):
    """CR 613.7: "loses all creature types" with a later timestamp removes the Monk the Fist
    gave; a Fist attached after it (a new timestamp, CR 613.7e) makes it a Monk again."""
    game = _game()
    s = game.find("S")
    game.effects.append(ContinuousEffect("no_creature_types", [s.ref], game.new_timestamp()))
    if attached_later:
        game.find("E").timestamp = game.new_timestamp()
        assert _view(game, "S") == {"subtypes": ["Monk"], "monk": True, "goblin": False, "pt": (4, 3)}
    else:
        assert _view(game, "S") == {"subtypes": [], "monk": False, "goblin": False, "pt": (3, 2)}


def test_face_down_creature_gets_only_the_added_type():
    game = _game(face_down=True)
    assert _view(game, "S") == {"subtypes": ["Monk"], "monk": True, "goblin": False, "pt": (4, 3)}
