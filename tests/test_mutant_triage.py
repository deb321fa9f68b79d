"""Tests that kill random mutants (``mtg-judge mutants --random``, docs/MUTANTS.md) in engine
code that no ruling reaches, so no fixture can: each names the mutant it was written for."""

from __future__ import annotations

import copy
import json
from pathlib import Path

import pytest

from mtg_judge.engine import adventure
from mtg_judge.engine import characteristics as ch
from mtg_judge.engine.cards import CardDefinition, FrozenDict, load_card_db
from mtg_judge.engine.conditions import _card_has
from mtg_judge.engine.creature_types import card_has_subtype
from mtg_judge.engine.effects import Context, run
from mtg_judge.engine.errors import IllegalAction
from mtg_judge.engine.objects import StackItem
from mtg_judge.engine.scenario import ScriptInputs, _card_db, build_game


def test_frozen_card_data_is_shared_by_copy_and_deepcopy():
    # engine/cards.py FrozenDict.__copy__ `return self` -> `return None` (seed 1 sample):
    # card data is read-only and shared by every game, never copied.
    data = FrozenDict({"name": "Grizzly Bears", "power": 2})
    assert copy.copy(data) is data
    assert copy.deepcopy(data) is data
    assert copy.deepcopy({"card": data})["card"] is data
    with pytest.raises(TypeError, match="read-only"):
        data["power"] = 3


# ------------------------------------------------------------------ seed 2 (tree of e69dfdf)
CARDS = Path(__file__).resolve().parents[1] / "fixtures" / "cards"


def _card(slug: str) -> dict:
    return json.loads((CARDS / f"{slug}.json").read_text(encoding="utf-8"))


def _game(alice: dict, bob: dict | None = None, extra: dict[str, dict] | None = None):
    db = dict(_card_db(None))
    for name, data in (extra or {}).items():
        db[name] = CardDefinition.from_dict(data, source=f"test card {name!r}")
    scenario = {"setup": {"turn": 3, "players": [{"id": "alice", **alice}, {"id": "bob", **(bob or {})}]}}
    return build_game(scenario, "modern", db, ScriptInputs([]))


def _cards(*pairs):
    return [{"alias": a, "card": c} for a, c in pairs]


def test_only_an_adventurer_card_with_its_adventure_face_has_an_adventure():
    # engine/adventure.py has_adventure `layout == "adventure" and get_face(FACE) is not None`,
    # `and` -> `or` (seed 2): CR 715.2a, FORMAT §5.1: "has an Adventure" means an adventurer
    # card (layout "adventure") with its Adventure face; neither half alone makes one.
    giant = _card("bonecrusher-giant")
    faceless = {**giant, "name": "Test Faceless Adventurer"}
    faceless.pop("faces")
    not_adventurer = {**giant, "name": "Test Normal Card With A Spell Face", "layout": "normal"}
    game = _game({"hand": _cards(("giant", "Bonecrusher Giant"), ("faceless", "Test Faceless Adventurer"),
                                 ("normal", "Test Normal Card With A Spell Face"))},
                 extra={faceless["name"]: faceless, not_adventurer["name"]: not_adventurer})
    assert adventure.has_adventure(game.find("giant"))
    assert not adventure.has_adventure(game.find("faceless"))
    assert not adventure.has_adventure(game.find("normal"))


def test_load_card_db_reads_every_card_file_of_a_folder(tmp_path):
    # engine/cards.py load_card_db `return db` -> `return None` (seed 2): no fixture loads
    # cards from a folder (the harness sends card dicts; the default database is cached
    # before any case runs). Contract: {name: CardDefinition} for every *.json file.
    db = load_card_db()
    assert isinstance(db, dict) and len(db) == len(list(CARDS.glob("*.json")))
    assert isinstance(db["Lightning Bolt"], CardDefinition) and db["Lightning Bolt"].name == "Lightning Bolt"
    (tmp_path / "bolt.json").write_text(json.dumps(_card("lightning-bolt")), encoding="utf-8")
    one = load_card_db(tmp_path)
    assert list(one) == ["Lightning Bolt"] and one["Lightning Bolt"].types == db["Lightning Bolt"].types


def test_protection_from_a_card_type_applies_to_a_spell_of_that_type():
    # engine/characteristics.py protected_from `isinstance(source, StackItem) and src_obj is
    # None` -> `or` (seed 2): the quality of a spell is read from the spell's own object, not
    # from a source's last known information (a spell has none). CR 702.16a: protection from
    # a card type ("protection from instants"); 702.16b: it can't be the target of such spells.
    knight = {**_card("grizzly-bears"), "name": "Test Instant-Proof Bear",
              "keywords": [{"keyword": "protection", "from": {"types": ["Instant"]}}]}
    game = _game({"hand": _cards(("bolt", "Lightning Bolt"), ("bolt2", "Lightning Bolt")), "mana_pool": {"R": 2}},
                 {"battlefield": _cards(("knight", "Test Instant-Proof Bear"), ("bears", "Grizzly Bears"))},
                 extra={knight["name"]: knight})
    with pytest.raises(IllegalAction) as err:
        game.cast("alice", {"card": "bolt", "targets": ["knight"], "mana": {"R": 1}})
    assert err.value.code == "invalid_target"
    item = game.cast("alice", {"card": "bolt", "targets": ["bears"], "mana": {"R": 1}})
    assert ch.protected_from(game, game.find("knight"), item)
    assert not ch.protected_from(game, game.find("bears"), item)


def test_a_changeling_creature_card_has_every_creature_type_in_any_zone():
    # engine/creature_types.py card_has_subtype `"Creature" in card.chars.types` -> `not in`
    # (seed 2): CR 702.73a, changeling: the card is every creature type, in every zone; the
    # pool's only card_in_graveyard condition asks for Lesson, not a creature type.
    game = _game({"graveyard": _cards(("amoeboid", "Amoeboid Changeling"), ("bears", "Grizzly Bears"))})
    amoeboid, bears = game.find("amoeboid"), game.find("bears")
    assert card_has_subtype(amoeboid, "Sliver") and card_has_subtype(amoeboid, "Elf")
    assert card_has_subtype(amoeboid, "Shapeshifter")  # printed
    assert not card_has_subtype(amoeboid, "Lesson")  # not a creature type
    assert card_has_subtype(bears, "Bear") and not card_has_subtype(bears, "Elf")
    assert _card_has(amoeboid, {"types": ["Creature"], "subtypes": ["Sliver"]})


def test_turning_face_up_an_effect_skips_a_face_up_permanent():
    # engine/effects.py _turn_face_up `obj.zone == "battlefield" and obj.face_down` -> `or`
    # (seed 2): Break Open, the pool's one turn_face_up card, targets only face-down
    # creatures; an effect whose reference reaches a face-up permanent leaves it as it is
    # (CR 708.8: turning face up is for a face-down permanent): no turned_face_up event.
    game = _game({"battlefield": _cards(("bears", "Grizzly Bears"))})
    bears = game.find("bears")
    item = StackItem(ref="ability#1", kind="ability", controller="alice", ability={"effects": []},
                     source=bears.ref, source_card=bears.card, source_lki=bears.copy())
    before = len(game.events)
    run(Context(game, item, []), [{"type": "turn_face_up", "what": "self"}])
    assert not bears.face_down
    assert not [e for e in game.events[before:] if e["type"] == "turned_face_up"]
