"""mtg_judge.conformance.loader and mtg_judge.conformance.lint on the planted problems of tests/bad_input/."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from mtg_judge.conformance import loader
from mtg_judge.conformance.lint import card_slug, lint

BAD = Path(__file__).parent / "bad_input"
STACK = "bad_input/classic/stack"


@pytest.fixture(scope="module")
def problems():
    return lint(BAD)


def _at(problems, file):
    return [(p.path, p.message) for p in problems if p.file == file]


def test_every_planted_problem_is_found_once_and_nothing_else(problems):
    assert [(p.file, p.path) for p in problems] == [
        ("bad_input/cards/test-bear2.json", "$.name"),
        ("bad_input/cards/test-zap.json", "$.spell.effects[0].type"),
        ("bad_input/cards/test_spark.json", "$.name"),
        ("bad_input/untestable.json", "$[1].id"),
        (f"{STACK}/invalid-json.json", "$"),
        (f"{STACK}/schema-error.json", "$.setup.players[0].battlefield[0].alias"),
        (f"{STACK}/unknown-alias.json", "$.script[1].attackers[0]"),
        (f"{STACK}/unknown-card.json", "$.setup.players[0].battlefield[0].card"),
        (f"{STACK}/unknown-ruling.json", "$.rulings[1]"),
        (f"{STACK}/with-the-same-id.json", "$.id"),
        ("bad_input/timespiral/suspend/wrong-document.json", "$.id"),
    ]


def test_schema_error_names_file_path_and_expectation(problems):
    [(path, message)] = _at(problems, f"{STACK}/schema-error.json")
    assert path == "$.setup.players[0].battlefield[0].alias"
    assert message.startswith("'Bear' does not match '^[a-z][a-z0-9_]*$': expected an alias")
    with pytest.raises(loader.FixtureError) as caught:
        loader.load_fixture(BAD / "classic/stack/schema-error.json")
    assert caught.value.path == path
    assert str(caught.value) == f"{BAD / 'classic/stack/schema-error.json'}: {path}: {message}"


def test_unknown_card(problems):
    [(path, message)] = _at(problems, f"{STACK}/unknown-card.json")
    assert path == "$.setup.players[0].battlefield[0].card"
    assert message.startswith("unknown card 'Test Baer': expected a card name defined in "
                              "bad_input/cards/ (did you mean 'Test Bear'")


def test_unknown_ruling_id(problems):
    [(path, message)] = _at(problems, f"{STACK}/unknown-ruling.json")
    assert path == "$.rulings[1]"
    assert message.startswith("unknown ruling id 'classic.stack.99': expected a ruling id of "
                              "conformance/rulings.json (did you mean 'classic.stack.")


def test_duplicate_fixture_id(problems):
    assert _at(problems, f"{STACK}/with-the-same-id.json") == [(
        "$.id", f"duplicate fixture id 'classic.stack.good': {STACK}/good.json uses it too")]


def test_unknown_alias(problems):
    assert _at(problems, f"{STACK}/unknown-alias.json") == [(
        "$.script[1].attackers[0]",
        "unknown alias 'baer': expected an alias of the setup, alias#n, token#n, ability#n or "
        "copy#n (did you mean 'bear'?)")]


def test_id_must_start_with_document_folder(problems):
    assert _at(problems, "bad_input/timespiral/suspend/wrong-document.json") == [(
        "$.id", "fixture id 'classic.suspend.wrong-document' does not start with its document "
        "folder: expected 'timespiral.…'")]


def test_invalid_json_gives_line_and_column(problems):
    assert _at(problems, f"{STACK}/invalid-json.json") == [
        ("$", "invalid JSON: Expecting ',' delimiter at line 4 column 3")]


def test_card_problems(problems):
    assert _at(problems, "bad_input/cards/test-bear2.json") == [(
        "$.name", "duplicate card name 'Test Bear': bad_input/cards/test-bear.json defines it too")]
    [(path, message)] = _at(problems, "bad_input/cards/test-zap.json")
    assert path == "$.spell.effects[0].type"
    assert message.startswith("'deal_dmg' is not one of ['deal_damage', ")
    assert _at(problems, "bad_input/cards/test_spark.json") == [(
        "$.name", "card 'Test Spark' belongs in test-spark.json (fixtures/cards/README.md)")]


def test_card_slug():
    assert card_slug("Circle of Protection: Red") == "circle-of-protection-red"
    assert card_slug("Emeritus of Ideation // Ancestral Recall") == "emeritus-of-ideation-ancestral-recall"


def test_untestable_unknown_ruling(problems):
    [(path, message)] = _at(problems, "bad_input/untestable.json")
    assert path == "$[1].id"
    assert message.startswith("unknown ruling id 'classic.equipment-decks.99'")


def test_load_cards_raises_the_first_problem():
    with pytest.raises(loader.FixtureError) as caught:
        loader.load_cards(BAD / "cards")
    assert caught.value.path == "$.name"
    assert "duplicate card name 'Test Bear'" in caught.value.message


def test_load_fixture_returns_a_valid_fixture():
    fixture = loader.load_fixture(BAD / "classic/stack/good.json")
    assert fixture["id"] == "classic.stack.good"


def test_iter_fixture_paths_skips_cards_and_untestable_list():
    names = [p.relative_to(BAD).as_posix() for p in loader.iter_fixture_paths(BAD)]
    assert names == sorted(names)
    assert "classic/stack/good.json" in names
    assert not [n for n in names if n.startswith("cards/") or n == "untestable.json"]


def test_load_untestable(tmp_path):
    assert loader.load_untestable(tmp_path / "untestable.json") == []
    assert loader.load_untestable(BAD / "untestable.json")[0]["id"] == "classic.equipment-decks.01"


def test_duplicate_json_key_is_an_error(tmp_path):
    path = tmp_path / "dup.json"
    path.write_text('{"id": "a", "id": "b"}', encoding="utf-8")
    with pytest.raises(loader.FixtureError, match=r"dup\.json: \$: duplicate key 'id' in one object"):
        loader.load_json(path)


def _fixture_problems(tmp_path, fixture):
    """Lint a one-fixture folder that uses the bad_input cards (Test Bear)."""
    folder = tmp_path / "fixtures"
    (folder / "classic" / "stack").mkdir(parents=True)
    (folder / "cards").mkdir()
    (folder / "cards" / "test-bear.json").write_text((BAD / "cards/test-bear.json").read_text())
    (folder / "classic" / "stack" / "f.json").write_text(json.dumps(fixture))
    return [(p.path, p.message) for p in lint(folder)]


def _good():
    return json.loads((BAD / "classic/stack/good.json").read_text(encoding="utf-8"))


def test_references_in_patterns_and_derived_refs(tmp_path):
    fixture = _good()
    fixture["script"][1]["attackers"] = ["bear#1"]
    fixture["expect"]["events"] += [{"type": "zone_changed", "object": "bear#2", "card": "bear"},
                                    {"type": "token_created", "object": "token#1", "card": "token#1"},
                                    {"type": "ability_triggered", "trigger": {"object": "self"}}]
    fixture["expect"]["state"]["players"]["carol"] = {"life": 20}
    fixture["expect"]["state"]["battlefield"]["beer"] = {"$absent": True}
    fixture["expect"]["state"]["players"]["bob"]["hand"] = {"$contains": ["bob"]}
    assert _fixture_problems(tmp_path, fixture) == [
        ("$.script[1].attackers[0]", "'bear#1': the setup object of 'bear' is written 'bear' (FORMAT §1)"),
        ("$.expect.state.players.bob.hand[\"$contains\"][0]", "'bob' is a player: expected an object reference"),
        ("$.expect.state.players.carol", "unknown player 'carol': expected a player id of setup.players"),
        ("$.expect.state.battlefield.beer", "unknown alias 'beer': expected an alias of the setup, alias#n, "
                                            "token#n, ability#n or copy#n (did you mean 'bear'?)"),
    ]


def test_setup_aliases(tmp_path):
    fixture = _good()
    alice, bob = fixture["setup"]["players"]
    bob["battlefield"] = [{"alias": "bear", "card": "Test Bear"}, {"alias": "alice", "card": "Test Bear"},
                          {"alias": "token", "card": "Test Bear", "attached_to": "cub"}]
    assert _fixture_problems(tmp_path, fixture) == [
        ("$.setup.players[1].battlefield[0].alias",
         "duplicate alias 'bear': $.setup.players[0].battlefield[0].alias already names a player or card"),
        ("$.setup.players[1].battlefield[1].alias",
         "duplicate alias 'alice': $.setup.players[0].id already names a player or card"),
        ("$.setup.players[1].battlefield[2].alias", "alias 'token' is reserved for token#n references (FORMAT §1)"),
        ("$.setup.players[1].battlefield[2].attached_to",
         "unknown alias 'cub': expected an alias of the setup, alias#n, token#n, ability#n or copy#n"),
    ]


def test_expected_unknown_object_rejection_is_not_flagged(tmp_path):
    fixture = _good()
    fixture["script"][1]["attackers"] = ["ghost"]
    fixture["expect"]["rejections"] = [{"at": 1, "code": "unknown_object"}, {"at": 5, "code": "no_priority"}]
    assert _fixture_problems(tmp_path, fixture) == [
        ("$.expect.rejections[1].at", "script index 5 is past the end of the script (3 input(s))")]


def test_json_path_quotes_keys_that_are_not_identifiers():
    assert loader.json_path(["battlefield", "token#1", "counters", "+1/+1", 0]) == \
        '$.battlefield["token#1"].counters["+1/+1"][0]'


def test_a_rejection_or_illegal_probe_must_name_its_code(tmp_path):
    fixture = _good()
    fixture["expect"]["rejections"] = [{"at": 1}, {"at": 2, "code": "no_priority"}]
    probe = {"player": "alice", "action": "declare_attackers", "attackers": ["bear"]}
    fixture["expect"]["checkpoints"] = [{"after": 0, "illegal": [{"action": probe},
                                                                  {"action": probe, "code": "wrong_decision"}]}]
    fixture["expect_by_ruleset"] = {"classic-1999": {"rejections": [{"at": 0}]}}
    problems = _fixture_problems(tmp_path, fixture)
    assert [path for path, _ in problems] == [
        "$.expect.rejections[0]", "$.expect.checkpoints[0].illegal[0]",
        '$.expect_by_ruleset["classic-1999"].rejections[0]']
    assert "without a code" in problems[1][1] and "refused for another reason" in problems[1][1]


def test_an_absent_pattern_needs_a_source_in_the_setup(tmp_path):
    fixture = _good()
    fixture["expect"]["absent"] = [{"type": "ability_triggered"}, {"type": "life_gained"},
                                   {"type": "ability_triggered", "source_card": "bear"},
                                   {"type": "zone_changed", "card": "bear"}, {"type": "damage_dealt"}]
    problems = _fixture_problems(tmp_path, fixture)
    assert [path for path, _ in problems] == ["$.expect.absent[0]", "$.expect.absent[1]", "$.expect.absent[2]"]
    assert "no card in the setup can make a 'ability_triggered' event" in problems[0][1]
    assert "'bear' (Test Bear) can't make a 'ability_triggered' event" in problems[2][1]
    # events the rules make (zone changes, damage) need no card; a note silences the check
    fixture["expect"]["absent_note"] = "the event would come from an engine getting the rule wrong"
    assert _fixture_problems(tmp_path / "noted", fixture) == []


def test_a_card_that_can_make_the_event_is_a_source(tmp_path):
    from mtg_judge.conformance.lint import lint_absent_sources
    fixture = _good()
    fixture["setup"]["players"][1]["hand"] = [{"alias": "warden", "card": "Soul Warden"}]
    fixture["expect"]["absent"] = [{"type": "ability_triggered"}, {"type": "life_gained"},
                                   {"type": "ability_triggered", "source_card": "bear"}]
    warden = {"name": "Soul Warden", "types": ["Creature"], "abilities": [
        {"kind": "triggered", "trigger": {"event": "enters_battlefield", "object": {"types": ["Creature"]}},
         "effects": [{"type": "gain_life", "player": "controller", "amount": 1}]}]}
    bear = json.loads((BAD / "cards/test-bear.json").read_text())
    problems = lint_absent_sources("f.json", fixture, {"Soul Warden": warden, "Test Bear": bear})
    assert [p.path for p in problems] == ["$.expect.absent[2]"]  # the bear itself can't trigger
    static = {"name": "Test Anthem", "types": ["Enchantment"], "abilities": [{"kind": "static", "effect": {}}]}
    fixture["setup"]["players"][0]["battlefield"].append({"alias": "anthem", "card": "Test Anthem"})
    fixture["expect"]["absent"] = [{"type": "ability_put_on_stack", "source_card": "anthem"}]
    assert lint_absent_sources("f.json", fixture, {"Test Anthem": static, "Test Bear": bear}) == []
