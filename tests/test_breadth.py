"""The breadth figure (conformance/breadth.py, ``mtg-judge coverage --cards``; issue 23 item 4):
which named cards are fully expressible, judged by the card files' ``unexpressed`` lists."""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner

from mtg_judge.conformance import breadth
from mtg_judge.tools import named_cards
from mtg_judge.tools.cli import main

#: The specification folder: ``shared/`` beside the checkout (CI's layout), or beside a
#: folder above it (a git worktree under ``/work/wt/NAME``).
SHARED = next((p / "shared" for p in Path(__file__).resolve().parents[1].parents
               if (p / "shared" / "GLOSSARY.md").is_file()),
              Path(__file__).resolve().parents[1].parent / "shared")


def _card(folder: Path, name: str, **extra) -> None:
    data = {"name": name, "mana_cost": "{G}", "type_line": "Creature — Bear", "types": ["Creature"],
            "oracle_text": "", "power": 2, "toughness": 2, **extra}
    (folder / (name.lower().replace(" ", "-").replace(",", "") + ".json")).write_text(json.dumps(data))


def test_each_named_card_is_expressed_unexpressed_or_absent(tmp_path):
    cards, decks = tmp_path / "cards", tmp_path / "decks"
    cards.mkdir()
    decks.mkdir()
    _card(cards, "Grizzly Bears")
    _card(cards, "Menace Bear", unexpressed=["Menace: no keyword"])
    _card(cards, "Half Pair", meld={"pair": "Other Half", "result": "Melded"})
    _card(cards, "Melded", unexpressed=["Trample: approximated"])
    _card(cards, "Test Bear")
    (decks / "one.txt").write_text("# a deck\n10 Grizzly Bears\n2 Menace Bear\n1 Test Bear\n")
    (decks / "two.txt").write_text("3 Half Pair\n4 Grizzly Bears\n")
    named = tmp_path / "named.json"
    named.write_text(json.dumps({"cards": [{"name": "Grizzly Bears", "documents": ["classic"]},
                                           {"name": "Missing Card", "documents": ["timespiral"]}]}))
    measured = breadth.measure(cards, decks, named)
    by_name = {c.name: c for c in measured.cards}
    assert by_name["Grizzly Bears"].status == "expressed"
    assert by_name["Grizzly Bears"].sources == ("classic", "deck:one", "deck:two")
    assert by_name["Menace Bear"].status == "unexpressed"
    assert by_name["Menace Bear"].missing == ("Menace: no keyword",)
    assert by_name["Half Pair"].missing == ("Melded: Trample: approximated",)  # its meld result counts
    assert by_name["Missing Card"].status == "absent"
    assert by_name["Test Bear"].test_card and by_name["Test Bear"].status == "expressed"
    assert "Melded" not in by_name  # named by nothing: not counted
    assert (measured.expressed, len(measured.real)) == (1, 4) and measured.rate == 0.25
    text = breadth.format_breadth(measured)
    assert "breadth: 1/4 named real cards fully expressible (25.0%; the bar is 95%); 1 test cards" in text
    assert "absent       Missing Card (timespiral): no card file" in text
    assert "      - Menace: no keyword" in text
    decks_row = next(line for line in text.splitlines() if line.startswith("decks"))
    assert decks_row.split()[1:] == ["3", "1", "2", "0"]  # each card once, whatever its decks


def test_a_malformed_named_cards_file_is_named(tmp_path):
    bad = tmp_path / "named.json"
    bad.write_text('{"cards": [{"documents": []}]}')
    try:
        breadth.load_named(bad)
    except ValueError as exc:
        assert str(bad) in str(exc) and "KeyError" in str(exc)
    else:
        raise AssertionError("no error")


def test_glossary_cells_give_the_english_oracle_name():
    assert named_cards.english_name("Enfeeblement (−2/−2 aura)") == "Enfeeblement"
    assert named_cards.english_name("Emeritus of Ideation // Ancestral Recall") == "Emeritus of Ideation"
    assert named_cards.english_name('a 1999 "{T}: prevent the next 1 damage" healer, e.g. Samite Healer') == "Samite Healer"
    rows = named_cards.glossary_rows("x\n## Card names in the seeds (it)\n| Italian | English |\n|---|---|\n"
                                     "| Terrore | Terror |\n\n## Next\n| a | b |\n")
    assert rows == [("Terrore", "Terror")]


def test_named_cards_json_is_the_glossarys_table():
    """conformance/named_cards.json is what python -m mtg_judge.tools.named_cards writes from
    ../shared (the checkout's specification folder, there in CI) and names every card the
    glossary's table does."""
    assert (SHARED / "GLOSSARY.md").is_file(), f"the specification folder {SHARED} is missing"
    built = named_cards.build(SHARED)
    committed = json.loads(breadth.NAMED_CARDS_PATH.read_text(encoding="utf-8"))
    assert committed == built, "run python -m mtg_judge.tools.named_cards"
    assert all(c["documents"] for c in committed["cards"])  # each Italian name is in a seed


def test_coverage_cards_prints_the_figure_of_the_pool():
    result = CliRunner().invoke(main, ["coverage", "--cards"])
    assert result.exit_code == 0, result.output
    assert "breadth: " in result.output and "named real cards fully expressible" in result.output
    as_json = json.loads(CliRunner().invoke(main, ["coverage", "--cards", "--json"]).output)
    assert as_json["real"] == len([c for c in as_json["cards"] if not c["test_card"]]) > 150
    assert {c["name"] for c in as_json["cards"]} >= {"Llanowar Elves", "Terror"}


def test_a_keyword_choice_offering_a_keyword_without_rules_is_refused(tmp_path):
    """Issue 23 (#14's leftover): banding, bushido and provoke have no rules in the engine, so
    ``validate`` refuses them among a ``grant_keyword_choice``'s options (they used to be
    granted as silent no-ops); the keywords the engine knows, a chosen landwalk and a chosen
    protection are accepted."""
    import jsonschema

    from mtg_judge.conformance.resources import SCHEMA_DIR

    schema = json.loads((SCHEMA_DIR / "card.schema.json").read_text(encoding="utf-8"))
    options = schema["$defs"]["effect_grant_keyword_choice"]["properties"]["options"]
    resolver = {"$defs": schema["$defs"], **options}
    ok = ["flying", {"keyword": "rampage", "n": 1}, {"keyword": "landwalk", "land_type": "chosen"},
          {"keyword": "protection", "from": {"colors": "chosen"}}]
    jsonschema.validate(ok, resolver)
    for bad in ("banding", "provoke", {"keyword": "bushido", "n": 1}):
        try:
            jsonschema.validate(["flying", bad], resolver)
        except jsonschema.ValidationError:
            continue
        raise AssertionError(f"{bad!r} accepted")
