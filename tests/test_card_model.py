"""The 2025–26 card model (FORMAT §5.1): the example card of each layout validates and loads;
face colors and mana values; hybrid mana symbols (CR 107.4e, 202.2d, 202.3f)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from mtg_judge.conformance import lint
from mtg_judge.engine import load_card_db
from mtg_judge.engine.errors import IllegalAction
from mtg_judge.engine.layers.copiable import face_mana_value, meld_pair, melded_mana_value
from mtg_judge.engine.mana import ManaCost, ManaPool

ROOT = Path(__file__).resolve().parents[1]
CARDS = ROOT / "fixtures" / "cards"
EXAMPLES = {
    "adventure": "bonecrusher-giant.json",
    "transform": "cecil-dark-knight.json",
    "meld": "fang-fearless-l-cie.json",
    "meld_result": "ragnarok-divine-deliverance.json",
    "prepare": "emeritus-of-ideation.json",
    "saga": "summon-choco-mog.json",
}


@pytest.fixture(scope="module")
def db():
    return load_card_db(CARDS)


@pytest.mark.parametrize("layout", sorted(EXAMPLES))
def test_example_card_validates_and_loads(layout, db):
    path = CARDS / EXAMPLES[layout]
    problems: list = []
    assert lint._load(path, "card", path.name, problems) is not None and problems == [], problems
    data = json.loads(path.read_text(encoding="utf-8"))
    assert lint.card_slug(data["name"]) + ".json" == path.name
    assert data.get("layout", "normal") == ("normal" if layout == "saga" else layout)
    card = db[data["name"]]
    assert card.layout == data.get("layout", "normal")
    for i, face in enumerate(data.get("faces", ())):
        assert card.faces[i].name == face["name"] and card.faces[i].face == face["face"]


def test_faces_have_their_own_characteristics(db):
    giant = db["Bonecrusher Giant"]
    stomp = giant.get_face("adventure")
    assert giant.types == ("Creature",) and stomp.types == ("Instant",) and stomp.subtypes == ("Adventure",)
    assert giant.spell is None and stomp.spell is not None
    emeritus = db["Emeritus of Ideation"]
    assert emeritus.get_face("prepare").name == "Ancestral Recall"
    assert emeritus.colors == ("blue",) and face_mana_value(emeritus) == 5  # strixhaven.prepare.08


def test_back_face_colors_come_from_its_color_indicator(db):
    """finalfantasy.transform.05, .09: a back face has no mana cost; its color indicator gives
    its colors (Cecil's front is black, its back white)."""
    cecil = db["Cecil, Dark Knight"]
    back = cecil.get_face("back")
    assert cecil.colors == ("black",)
    assert back.colors == ("white",)
    assert not back.mana_cost.present and back.mana_cost.mana_value() == 0


def test_mana_values_across_faces(db):
    """CR 202.3b/712.8e: a back face up has the front face's mana value (finalfantasy.transform.08);
    CR 202.3c: a melded permanent has the sum of its fronts' (finalfantasy.meld.10); CR 715.3: a
    spell face cast has its own."""
    cecil = db["Cecil, Dark Knight"]
    assert face_mana_value(cecil) == face_mana_value(cecil, "back") == 1
    assert face_mana_value(db["Bonecrusher Giant"]) == 3
    assert face_mana_value(db["Bonecrusher Giant"], "adventure") == 2
    ragnarok = db["Ragnarok, Divine Deliverance"]
    assert [d.name for d in meld_pair(ragnarok, db)] == ["Fang, Fearless l'Cie", "Vanille, Cheerful l'Cie"]
    assert melded_mana_value(ragnarok, db) == 3 + 4
    assert ragnarok.mana_cost.mana_value() == 0 and ragnarok.colors == ("black", "green")  # finalfantasy.meld.09
    with pytest.raises(KeyError):
        face_mana_value(cecil, "adventure")


def test_meld_pair_names_each_other(db):
    fang, vanille = db["Fang, Fearless l'Cie"], db["Vanille, Cheerful l'Cie"]
    assert fang.meld["pair"] == vanille.name and vanille.meld["pair"] == fang.name
    assert fang.meld["result"] == vanille.meld["result"] == "Ragnarok, Divine Deliverance"


# ---- hybrid mana (CR 107.4e) ----

def test_hybrid_parse_text_colors_and_mana_value():
    cost = ManaCost.parse("{3}{U/R}{U/R}")
    assert cost.hybrid == ("U/R", "U/R") and cost.generic == 3 and cost.colored == ()
    assert cost.text() == "{3}{U/R}{U/R}"
    assert cost.colors() == ["blue", "red"]  # CR 202.2d
    assert cost.mana_value() == 5  # CR 202.3f
    mono = ManaCost.parse("{2/W}{2/W}{2/W}")
    assert mono.mana_value() == 6 and mono.colors() == ["white"]  # the largest component counts
    assert ManaCost.parse("{X}{G/U}{G/U}").mana_value() == 2
    assert ManaCost.parse("{1}{W}").add(ManaCost.parse("{B/G}")).hybrid == ("B/G",)
    assert ManaCost.parse("{X}{R/W}").with_x(3).generic == 3


@pytest.mark.parametrize("text", ["{W/P}", "{S}", "{W/W}", "{2/C}", "{H}"])
def test_unsupported_symbols_are_refused(text):
    with pytest.raises(ValueError):
        ManaCost.parse(text)


@pytest.mark.parametrize("pool, spent", [
    ({"U": 2, "G": 3}, {"U": 2, "G": 3}),
    ({"R": 2, "G": 3}, {"R": 2, "G": 3}),
    ({"U": 1, "R": 1, "G": 3}, {"U": 1, "R": 1, "G": 3}),
])
def test_hybrid_symbol_paid_by_either_color(pool, spent):
    p = ManaPool(dict(pool))
    assert p.pay(ManaCost.parse("{3}{U/R}{U/R}")) == spent
    assert p.mana == {}


def test_hybrid_symbol_needs_one_of_its_colors():
    p = ManaPool({"G": 5, "C": 2})
    with pytest.raises(IllegalAction) as exc:
        p.pay(ManaCost.parse("{3}{U/R}{U/R}"))
    assert exc.value.code == "cannot_pay"
    assert p.mana == {"G": 5, "C": 2}  # nothing spent


def test_monocolored_hybrid_paid_by_its_color_or_two_generic():
    p = ManaPool({"W": 1})
    assert p.pay(ManaCost.parse("{2/W}")) == {"W": 1}
    p = ManaPool({"G": 2})
    assert p.pay(ManaCost.parse("{2/W}")) == {"G": 2}
    p = ManaPool({"G": 1})
    with pytest.raises(IllegalAction):
        p.pay(ManaCost.parse("{2/W}"))


def test_named_mana_pays_hybrid_exactly():
    cost = ManaCost.parse("{1}{U/R}{2/W}")
    assert ManaPool({"R": 1, "G": 3}).pay(cost, {"R": 1, "G": 3}) == {"R": 1, "G": 3}
    assert ManaPool({"U": 1, "W": 1, "G": 1}).pay(cost, {"U": 1, "W": 1, "G": 1}) == {"W": 1, "U": 1, "G": 1}
    with pytest.raises(IllegalAction) as exc:
        ManaPool({"G": 4}).pay(cost, {"G": 4})  # no blue or red for {U/R}
    assert exc.value.code == "invalid_payment"
    with pytest.raises(IllegalAction) as exc:
        ManaPool({"R": 1, "G": 1}).pay(cost, {"R": 1, "G": 2})  # more than the pool holds
    assert exc.value.code == "cannot_pay"
