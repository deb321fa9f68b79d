"""engine/faces.py: casting an Omen card as its Omen (rulings tarkir.omen.01–14) — the parts
the fixtures of fixtures/tarkir/omen don't reach (a face a card doesn't have, the objects'
definitions on and off the stack, a storm-style copy of the spell as it last existed, naming
a face, the legal-action candidates)."""

import pytest

from mtg_judge.engine import faces, legal
from mtg_judge.engine.errors import IllegalAction
from mtg_judge.engine.scenario import ScriptInputs, _card_db, build_game


def _game(alice: dict, bob: dict | None = None, **setup):
    scenario = {"setup": {**setup, "players": [{"id": "alice", **alice}, {"id": "bob", **(bob or {})}]}}
    return build_game(scenario, "modern", dict(_card_db(None)), ScriptInputs([]))


def _cards(*pairs):
    return [{"alias": a, "card": c} for a, c in pairs]


def test_a_face_the_card_does_not_have_is_an_invalid_choice():
    game = _game({"hand": _cards(("bears", "Grizzly Bears"), ("twin", "Twinmaw Stormbrood")),
                  "mana_pool": {"G": 2, "R": 2}})
    for card, face in (("bears", "omen"), ("twin", "adventure"), ("twin", "back")):
        with pytest.raises(IllegalAction) as err:
            game.cast("alice", {"card": card, "face": face, "mana": {"G": 2}})
        assert err.value.code == "invalid_choice"
    assert [o.card for o in game.players["alice"].hand] == ["bears", "twin"]


def test_on_the_stack_the_object_is_the_face_and_off_it_the_card_again():
    game = _game({"hand": _cards(("twin", "Twinmaw Stormbrood")), "mana_pool": {"R": 2}},
                 {"battlefield": _cards(("bears", "Grizzly Bears"))})
    item = game.cast("alice", {"card": "twin", "face": "omen", "targets": ["bears"]})
    spell = item.obj
    assert spell.cast_face == "omen" and spell.name == "Charring Bite"
    assert spell.definition.types == ("Sorcery",) and spell.definition.subtypes == ("Omen",)
    assert spell.definition.mana_cost.mana_value() == 2 and spell.chars.colors == ("red",)
    assert faces.card_of(spell).name == "Twinmaw Stormbrood"
    game.counter(item)  # CR 701.6: countered, it goes to the graveyard (ruling tarkir.omen.11)
    card = game.find("twin")
    assert card.zone == "graveyard" and card.cast_face is None and card.card_definition is None
    assert card.name == "Twinmaw Stormbrood" and card.definition.types == ("Creature",)


def test_a_copy_of_the_spell_as_it_last_existed_is_an_omen():
    game = _game({"hand": _cards(("twin", "Twinmaw Stormbrood")), "mana_pool": {"R": 2}},
                 {"battlefield": _cards(("bears", "Grizzly Bears"))})
    item = game.cast("alice", {"card": "twin", "face": "omen", "targets": ["bears"]})
    lki = item.copy()  # what storm copies (CR 702.40a)
    assert lki.obj.cast_face == "omen" and faces.shuffles_on_resolution(lki)


def test_the_faces_a_card_may_be_cast_as():
    game = _game({"hand": _cards(("twin", "Twinmaw Stormbrood"), ("bears", "Grizzly Bears"))})
    assert faces.castable_faces(game.find("twin")) == ["omen"]
    assert faces.castable_faces(game.find("bears")) == []


def test_a_card_name_may_be_an_omen_face_name():
    cards = _card_db(None)
    face = faces.card_with_face_named(cards, "Charring Bite")
    assert face is not None and face.face == "omen" and face.name == "Charring Bite"
    assert faces.card_with_face_named(cards, "Twinmaw Stormbrood") is None  # a card, not a face
    assert faces.card_with_face_named(cards, "No Such Name") is None


def test_legal_actions_offer_both_faces():
    game = _game({"hand": _cards(("twin", "Twinmaw Stormbrood")),
                  "battlefield": _cards(("p1", "Plains"), *((f"m{i}", "Mountain") for i in range(1, 6)))},
                 {"battlefield": _cards(("bears", "Grizzly Bears"), ("drake", "Wind Drake"))})
    casts = [i for i in legal.legal_actions(game, {"kind": "priority", "player": "alice"}) if i["action"] == "cast"]
    omen = [i for i in casts if i.get("face") == "omen"]
    creature = [i for i in casts if "face" not in i]
    assert omen and creature
    assert all(i["targets"] == ["bears"] for i in omen)  # not the Drake: it has flying


def test_legal_actions_target_graveyard_cards_but_not_an_omen_card():
    game = _game({"hand": _cards(("ctm", "Call to Mind")),
                  "graveyard": _cards(("twin", "Twinmaw Stormbrood"), ("shock", "Shock")),
                  "battlefield": _cards(("i1", "Island"), ("i2", "Island"), ("i3", "Island"))},
                 {"graveyard": _cards(("b_bolt", "Lightning Bolt"))})
    casts = [i for i in legal.legal_actions(game, {"kind": "priority", "player": "alice"})
             if i["action"] == "cast" and i["card"] == "ctm"]
    assert casts and all(i["targets"] == ["shock"] for i in casts)  # not bob's Bolt: "your graveyard"
