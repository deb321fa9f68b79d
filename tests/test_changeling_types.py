"""Changeling is every *creature* type, and only that (CR 702.73a, 205.3m): the engine's list
of creature types (engine/data/creature_types.json, gathered from creature and kindred
cards) carried subtypes CR 205.3g-i give to artifacts, enchantments and lands (an artifact
creature's Equipment or Vehicle, an enchantment creature's Aura or Saga, a land creature's
Forest) and words of joke type lines, so a changeling reported and matched them: found by the
phase.rs differential fuzzing campaign (docs/COMPLIANCE.md, Amoeboid Changeling's subtypes).
No ruling of the seed documents is about changeling: an engine test. Expectations are
written from the rules, not from the engine's output.
"""

from __future__ import annotations

import pytest

from mtg_judge.engine import characteristics as ch
from mtg_judge.engine.creature_types import creature_types
from mtg_judge.engine.scenario import _card_db, build_game

#: subtypes of other card types (CR 205.3g artifact, 205.3h enchantment, 205.3i land types)
NOT_CREATURE_TYPES = ("Aura", "Background", "Clue", "Equipment", "Food", "Forest", "Island", "Locus",
                      "Mountain", "Saga", "Shrine", "Treasure", "Vehicle", "Plains", "Swamp")


def _game():
    scenario = {"setup": {"turn": 3, "active_player": "alice", "step": "precombat_main", "players": [
        {"id": "alice", "battlefield": [{"alias": "C", "card": "Amoeboid Changeling"}]}, {"id": "bob"}]}}
    return build_game(scenario, "modern", _card_db(None), None)


@pytest.mark.parametrize("subtype", NOT_CREATURE_TYPES)
def test_a_changeling_has_no_subtype_of_another_card_type(subtype):
    game = _game()
    obj = game.find("C")
    assert subtype not in ch.subtypes(game, obj)
    assert not ch.has_subtype(game, obj, subtype)
    assert subtype not in ch.all_creature_types()
    assert subtype not in creature_types()


def test_a_changeling_is_every_creature_type():
    game = _game()
    obj = game.find("C")
    for t in ("Shapeshifter", "Elf", "Sliver", "Dragon", "Human", "Moogle", "Assembly-Worker"):
        assert ch.has_subtype(game, obj, t), t
    assert all(t[0].isupper() and not any(c in t for c in ",?") for t in ch.subtypes(game, obj))
