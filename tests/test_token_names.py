"""Token names per rules era (CR 111.4; engine/rulesets.py ``token_name_adds_token``).

Current CR 111.4: "A spell or ability that creates a token sets both its name and its
subtype(s). If the spell or ability doesn't specify the name of the token, its name is the
same as its subtype(s) plus the word 'Token.'" The older rules (CR 110.5c of the 2010s; the
seeds say nothing either way) named it after its creature type(s) alone: "A 'Goblin Scout
creature token,' for example, is named 'Goblin Scout'". A name the effect gives is the name in
every era.
"""

from __future__ import annotations

import pytest
from test_field_walk import game  # the engine-only scenario builder (tests/ is on sys.path)

from mtg_judge.engine import run_scenario
from mtg_judge.engine.cards import CardDefinition, token_name
from mtg_judge.engine.rulesets import RULESETS

#: the name of Raise the Alarm's "1/1 white Soldier creature token" in each era
EXPECTED = {"modern": "Soldier Token", "timespiral-2006": "Soldier", "classic-1999": "Soldier"}


def test_every_ruleset_has_an_expected_name() -> None:
    assert set(EXPECTED) == set(RULESETS)


@pytest.mark.parametrize("ruleset", sorted(EXPECTED))
def test_an_unnamed_token_is_named_after_its_subtypes_in_each_era(ruleset: str) -> None:
    """Alice casts Raise the Alarm ("create two 1/1 white Soldier creature tokens")."""
    scenario, _ = game({"hand": ["alarm=Raise the Alarm"], "mana_pool": {"W": 1, "C": 1}}, {},
                       [{"action": "cast", "player": "alice", "card": "alarm"}, {"action": "resolve"}], [],
                       ruleset=ruleset)
    result = run_scenario(scenario, ruleset, cards=scenario["cards"])
    created = [e for e in result["events"] if e["type"] == "token_created"]
    assert [e["name"] for e in created] == [EXPECTED[ruleset]] * 2
    assert {result["state"]["battlefield"][e["object"]]["name"] for e in created} == {EXPECTED[ruleset]}


@pytest.mark.parametrize("adds_token", [True, False])
def test_a_name_the_effect_gives_is_kept_and_subtypes_keep_their_order(adds_token: bool) -> None:
    """CR 111.4's examples: "Dwarf Berserker Token" (two subtypes, in order); Minsc's "Boo"
    (named by the effect: neither the subtype nor "Token" is part of it)."""
    suffix = " Token" if adds_token else ""
    berserker = {"types": ["Creature"], "subtypes": ["Dwarf", "Berserker"], "power": 2, "toughness": 1}
    assert token_name(berserker, adds_token) == "Dwarf Berserker" + suffix
    boo = {"name": "Boo", "types": ["Creature"], "subtypes": ["Hamster"], "power": 1, "toughness": 1}
    assert token_name(boo, adds_token) == "Boo"
    assert CardDefinition.token(boo, adds_token).name == "Boo"
    assert CardDefinition.token(berserker, adds_token).name == "Dwarf Berserker" + suffix
