"""The bad-input corpus (tests/bad_input/corpus/): what a user sees for each malformed
fixture or card file (the file, the JSON path, the message, the exit code), and the exit
codes of CLI misuse. A table test: each row is one case.

The corpus files end in ``.json.in`` so that nothing collects them as fixtures or cards
(tests/test_lint.py lints tests/bad_input/ and expects its own planted problems only); each
case copies its file into a fresh ``fixtures/`` folder (with the project's cards) and runs
the command line on it: in-process through click's CliRunner (the same ``main``, its exit
code and its stdout and stderr apart), from the case's folder. The misuse table runs the
real process (``python -m mtg_judge.tools.cli``), which is also what the user types.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest
from click.testing import CliRunner

from mtg_judge.tools.cli import main

ROOT = Path(__file__).resolve().parent.parent
CORPUS = ROOT / "tests" / "bad_input" / "corpus"
FILE = "fixtures/classic/stack/{}.json"
CARD = "fixtures/cards/test-ogre.json"

# (corpus file, the problem lines `mtg-judge validate` prints: (file, JSON path, message);
# a message ending in "…" is a prefix (the rest lists what the schema allows, which grows)
FIXTURES = [
    ("missing-expect", [("$", "'expect' is a required property")]),
    ("turn-is-a-string", [("$.setup.turn", "'2' is not of type 'integer'")]),
    ("unknown-step", [("$.setup.step", "'main' is not one of ['untap', 'upkeep', …")]),
    ("unknown-action", [("$.script[1].action", "'attack' is not one of ['pass', 'resolve', …")]),
    ("negative-x", [("$.script[0].x", "-1 is less than the minimum of 0")]),
    ("unknown-top-level-key", [("$", "Unevaluated properties are not allowed ('expectations' was unexpected)")]),
    ("unknown-ruleset", [("$.rulesets[0]", "'modern-2030' is not one of ['modern', 'timespiral-2006', "
                                            "'classic-1999']")]),
    ("no-rulings", [("$.rulings", "[] should be non-empty")]),
    ("duplicate-alias", [("$.setup.players[1].battlefield[0].alias",
                          "duplicate alias 'bear': $.setup.players[0].battlefield[0].alias already names a player "
                          "or card")]),
    ("attached-to-nothing", [("$.setup.players[0].battlefield[2].attached_to",
                              "unknown alias 'wolf': expected an alias of the setup, alias#n, token#n, ability#n or "
                              "copy#n")]),
    ("rejection-past-the-script", [("$.expect.rejections[0].at",
                                    "script index 7 is past the end of the script (3 input(s))")]),
    ("unknown-rejection-code", [("$.expect.rejections[0].code", "'too_slow' is not one of ['not_your_priority', …")]),
    ("controller-unknown", [("$.setup.players[0].battlefield[0].controller",
                             "unknown player 'carol': expected a player id of setup.players")]),
    ("unknown-card", [("$.setup.players[0].hand[0].card",
                       "unknown card 'Lightning Blot': expected a card name defined in fixtures/cards/ (did you mean "
                       "'Lightning Bolt', 'Lightning Blast'?)")]),
    ("state-operator-typo", [("$.expect.state.players.bob.hand", "{'$lenn': 0} is not of type 'array'")]),
    ("trailing-comma", [("$", "invalid JSON: Expecting property name enclosed in double quotes at line 5 column 1")]),
    ("duplicate-key", [("$", "duplicate key 'title' in one object")]),
]
CARDS = [
    ("unknown-mana-symbol", [("$.mana_cost", "'{2}{Q}' does not match …")]),
    # Phyrexian and snow symbols: the engine doesn't parse them, so the schema refuses them
    # (it used to accept them and `run` errored the case); hybrid symbols are supported (FORMAT §5.1)
    ("phyrexian-mana-symbol", [("$.mana_cost", "'{1}{W/P}' does not match …")]),
    # without types, or with a string, the schema's conditions on the types mean nothing:
    # no word about power, toughness or loyalty, only the cause (issue 25)
    ("missing-types", [("$", "'types' is a required property")]),
    ("types-is-a-string", [("$.types", "'Creature' is not of type 'array'")]),
    ("power-is-a-string", [("$.power", "'3' is not of type 'integer'")]),
    ("unknown-keyword", [("$.keywords[0]", "'flyng' is not one of ['flying', 'reach', …")]),
    ("unknown-ability-kind", [("$.abilities[0].kind", "'activatd' is not one of ['mana', 'activated', 'triggered', "
                                                      "'static', 'replacement', 'chapter']")]),
    ("unknown-effect", [("$.abilities[0].effects[0].type", "'explode' is not one of ['deal_damage', …")]),
    ("not-json", [("$", "invalid JSON: Expecting ',' delimiter at line 2 column 1")]),
]
# Files `validate` accepts but the engine can't build: `run` errors the case with this line.
BUILD = [
    ("fixture", "attached-to-a-card-in-hand", "classic.stack.attached-to-a-card-in-hand",
     "cannot build the scenario: $.setup.players[0].battlefield[2].attached_to: 'bolt' is not a permanent on "
     "the battlefield"),
]


@dataclass(frozen=True)
class Ran:
    """What a command printed and its exit code (as subprocess.CompletedProcess names them)."""
    returncode: int
    stdout: str
    stderr: str


def cli(*args: str, cwd: Path | None = None) -> Ran:
    """``mtg-judge ARGS`` run in-process from ``cwd`` (the checkout by default)."""
    with contextlib.chdir(cwd or ROOT):
        result = CliRunner().invoke(main, list(args), catch_exceptions=False)
    return Ran(result.exit_code, result.stdout, result.stderr)


def real_cli(*args: str) -> subprocess.CompletedProcess:
    """``python -m mtg_judge.tools.cli ARGS``, the real process, from the checkout."""
    return subprocess.run([sys.executable, "-m", "mtg_judge.tools.cli", *args], cwd=ROOT, capture_output=True,
                          text=True, timeout=300)


def fixtures_folder(tmp_path: Path, fixture: str | None = None, card: str | None = None) -> Path:
    """A ``fixtures/`` folder: the project's cards, plus one corpus fixture and/or one
    corpus card (as fixtures/cards/test-ogre.json)."""
    root = tmp_path / "fixtures"
    shutil.copytree(ROOT / "fixtures" / "cards", root / "cards")
    (root / "classic" / "stack").mkdir(parents=True)
    if fixture is not None:
        (root / "classic" / "stack" / f"{fixture}.json").write_text(
            (CORPUS / "fixtures" / f"{fixture}.json.in").read_text(encoding="utf-8"), encoding="utf-8")
    if card is not None:
        (root / "cards" / "test-ogre.json").write_text(
            (CORPUS / "cards" / f"{card}.json.in").read_text(encoding="utf-8"), encoding="utf-8")
    return root


def check_problems(stdout: str, expected: list[tuple[str, str, str]]) -> None:
    lines = stdout.strip().splitlines()
    assert len(lines) == len(expected), stdout
    for line, (file, path, message) in zip(lines, expected):
        head = f"{file}: {path}: "
        assert line.startswith(head), (line, head)
        text = line[len(head):]
        if message.endswith("…"):
            assert text.startswith(message[:-1]), (text, message)
        else:
            assert text == message


def test_the_corpus_is_the_table():
    names = {p.name.removesuffix(".json.in") for p in (CORPUS / "fixtures").glob("*.json.in")}
    assert names == {n for n, _ in FIXTURES} | {"good", "uses-test-ogre", "attached-to-a-card-in-hand"}
    cards = {p.name.removesuffix(".json.in") for p in (CORPUS / "cards").glob("*.json.in")}
    assert cards == {n for n, _ in CARDS} | {"good"}


@pytest.mark.parametrize("name, problems", FIXTURES, ids=[n for n, _ in FIXTURES])
def test_malformed_fixture(tmp_path, name, problems):
    proc = cli("validate", "--fixtures", str(fixtures_folder(tmp_path, fixture=name)), cwd=tmp_path)
    assert proc.returncode == 1
    check_problems(proc.stdout, [(FILE.format(name), path, message) for path, message in problems])
    assert proc.stderr.strip() == f"{len(problems)} problem(s)"


@pytest.mark.parametrize("name, problems", CARDS, ids=[n for n, _ in CARDS])
def test_malformed_card_file(tmp_path, name, problems):
    proc = cli("validate", "--fixtures", str(fixtures_folder(tmp_path, card=name)), cwd=tmp_path)
    assert proc.returncode == 1
    check_problems(proc.stdout, [(CARD, path, message) for path, message in problems])


def test_the_good_files_pass(tmp_path):
    root = fixtures_folder(tmp_path, fixture="good", card="good")
    proc = cli("validate", "--fixtures", str(root), cwd=tmp_path)
    assert (proc.returncode, proc.stdout.strip(), proc.stderr) == (0, "ok", "")  # the result on stdout
    proc = cli("run", "--fixtures", str(root), "-n", "1", cwd=tmp_path)
    assert proc.returncode == 0, proc.stdout


@pytest.mark.parametrize("what, name, fixture_id, message", BUILD, ids=[b[1] for b in BUILD])
def test_valid_files_the_engine_cannot_build(tmp_path, what, name, fixture_id, message):
    root = fixtures_folder(tmp_path, fixture=name if what == "fixture" else "uses-test-ogre",
                           card=name if what == "card" else "good")
    assert cli("validate", "--fixtures", str(root), cwd=tmp_path).returncode == 0
    proc = cli("run", "--fixtures", str(root), "-n", "1", cwd=tmp_path)
    assert proc.returncode == 1
    assert f"{fixture_id}[modern] ERRORED" in proc.stdout and message in proc.stdout.splitlines()
    proc = cli("show", fixture_id, "--fixtures", str(root), cwd=tmp_path)
    assert proc.returncode == 1 and message in proc.stderr


# -------------------------------------------------------------------------- CLI misuse
MISUSE = [
    # (arguments, exit code, a fragment of what is printed on stderr)
    (["frobnicate"], 2, "No such command 'frobnicate'"),
    (["run", "--ruleset", "vintage"], 2, "Invalid value for '--ruleset'"),
    (["run", "-k", "bolt and"], 2, "Invalid value for '-k'"),
    (["run", "-n", "0"], 2, "Invalid value for '-n'"),
    (["run", "--timeout", "0"], 2, "Invalid value for '--timeout'"),
    (["run", "--fixtures", "no/such/folder"], 2, "Invalid value for '--fixtures'"),
    (["run", "--validate-protocol"], 2, "--validate-protocol checks protocol messages: it needs --engine"),
    (["run", "--engine", ""], 2, "Invalid value for --engine"),
    (["run", "--engine", "no-such-engine-command-xyz", "-k", "last-in-first-out"], 2, "cannot run the engine"),  # issue 25: exit 2 as fuzz, show
    (["run", "-k", "no-fixture-has-this-name"], 2, "no cases selected"),  # bad input: exit 2 (conformance/cli_errors.py)
    (["show", "no.such.fixture"], 2, "no fixture with id or path 'no.such.fixture'"),
    (["show", "classic.stack.last-in-first-out", "--ruleset", "vintage"], 2, "Invalid value for '--ruleset'"),
    (["diff-rulesets", "modern", "vintage"], 2, "Invalid value for 'B'"),
    (["report", "no/such/report.jsonl"], 2, "Invalid value for 'REPORT.jsonl'"),
    (["snapshots", "frobnicate"], 2, "No such command 'frobnicate'"),
    (["selfplay", "--games", "0"], 2, "Invalid value for '--games'"),
    (["selfplay", "--turn-cap", "-1"], 2, "Invalid value for '--turn-cap'"),
    (["selfplay", "--decks", "no/such/deck.txt"], 2, "Invalid value for '--decks'"),
    (["serve", "--port", "9"], 2, "No such option '--port'"),
]


@pytest.mark.parametrize("args, code, fragment", MISUSE, ids=[" ".join(a) for a, _, _ in MISUSE])
def test_cli_misuse_exit_codes(args, code, fragment):
    proc = real_cli(*args)
    assert proc.returncode == code, proc.stdout + proc.stderr
    assert fragment in proc.stderr


def test_a_malformed_report_exits_2_naming_the_file_and_line(tmp_path):
    report = tmp_path / "report.jsonl"
    report.write_text('{"kind": "header", "report_version": 1}\nnot json\n', encoding="utf-8")
    proc = cli("report", str(report))
    assert proc.returncode == 2
    assert str(report) in proc.stderr and ":2" in proc.stderr


def test_a_deck_with_an_unknown_card_exits_2(tmp_path):
    deck = tmp_path / "deck.txt"
    deck.write_text("# a deck\n17 Forest\n23 Grizzly Baers\n", encoding="utf-8")
    proc = cli("selfplay", "--games", "1", "--decks", str(deck))
    assert proc.returncode == 2
    assert proc.stderr.strip() == f"Error: {deck}:3: unknown card 'Grizzly Baers' (did you mean 'Grizzly Bears'?)"


def test_show_a_fixture_file_outside_the_fixtures_tree(tmp_path):
    """`show FILE` for a copy anywhere on disk (found by a new user: a file one folder
    below / raised IndexError, and a deeper one scanned its grandparent folder): it takes
    the project's cards (the default --fixtures) and plays the file."""
    import tempfile
    source = ROOT / "fixtures" / "classic" / "abilities" / "enchanted-land-pays-with-its-triggered-mana.json"
    deep = tmp_path / "a" / "b" / "copy.json"
    deep.parent.mkdir(parents=True)
    deep.write_text(source.read_text(encoding="utf-8"), encoding="utf-8")
    with tempfile.NamedTemporaryFile("w", suffix=".json", dir="/tmp", delete=False) as shallow:
        shallow.write(source.read_text(encoding="utf-8"))
    try:
        for path in (deep, Path(shallow.name)):
            proc = cli("show", str(path), cwd=tmp_path)
            assert proc.returncode == 0, proc.stderr
            assert proc.stdout.rstrip().endswith("Expectations: met")
    finally:
        os.unlink(shallow.name)
    (tmp_path / "bad.json").write_text('{"id": 3}', encoding="utf-8")
    proc = cli("show", str(tmp_path / "bad.json"), cwd=tmp_path)
    assert proc.returncode == 1
    assert "$: 'title' is a required property" in proc.stderr and "Traceback" not in proc.stderr


# ------------------------------------------------------- messages that point at the cause
# (issue 25, item 5)

BLAZE = "classic.casting.x-cost-blaze"  # cited by fixtures/audit/classic-a.json


@pytest.fixture
def suite_copy(tmp_path):
    """A copy of the project's fixtures folder in which the file of BLAZE is not JSON."""
    root = tmp_path / "fixtures"
    shutil.copytree(ROOT / "fixtures", root)
    path = root / "classic" / "casting" / "x-cost-blaze.json"
    path.write_text(path.read_text(encoding="utf-8").replace('"title"', '"title" x', 1),
                    encoding="utf-8")
    return root


def test_one_broken_fixture_file_gives_one_error_and_paths_are_relative_to_the_current_folder(
        suite_copy):
    proc = cli("validate", "--fixtures", ".", cwd=suite_copy)
    # not also "unknown fixture ... (did you mean ...)" from the audit that names it
    assert proc.returncode == 1 and proc.stderr.strip() == "1 problem(s)", proc.stdout
    assert proc.stdout.splitlines() == [
        "classic/casting/x-cost-blaze.json: $: invalid JSON: Expecting ':' delimiter at line 3 "
        "column 11"]
    above = cli("validate", "--fixtures", "fixtures", cwd=suite_copy.parent)
    assert above.stdout.startswith("fixtures/classic/casting/x-cost-blaze.json: $: ")


def test_show_of_a_broken_file_gives_its_error_and_a_typo_gets_did_you_mean(suite_copy):
    proc = cli("show", BLAZE, "--fixtures", ".", cwd=suite_copy)
    assert proc.returncode == 1
    assert proc.stderr.strip() == (
        f"Error: fixture '{BLAZE}' is invalid: invalid fixture: classic/casting/x-cost-blaze.json: $: "
        "invalid JSON: Expecting ':' delimiter at line 3 column 11")
    typo = cli("show", "classic.stack.last-in-frist-out")
    assert typo.returncode == 2
    assert ("no fixture with id or path 'classic.stack.last-in-frist-out' (did you mean "
            "'classic.stack.last-in-first-out'") in typo.stderr


def test_run_names_no_exception_and_warns_about_the_card_files_it_skipped(tmp_path):
    root = fixtures_folder(tmp_path, fixture="good", card="types-is-a-string")
    proc = cli("run", "--fixtures", "fixtures", "-n", "1", cwd=tmp_path)
    assert proc.returncode == 0, proc.stdout + proc.stderr  # the good fixture needs no ogre
    assert ("warning: skipped the card file fixtures/cards/test-ogre.json: $.types: 'Creature' "
            "is not of type 'array'") in proc.stderr
    twin = root / "classic" / "stack" / "twin.json"
    twin.write_text((root / "classic" / "stack" / "good.json").read_text(encoding="utf-8"),
                    encoding="utf-8")
    proc = cli("run", "--fixtures", "fixtures", "-n", "1", cwd=tmp_path)
    assert proc.returncode == 1 and "Error" in proc.stderr
    assert "FixtureError" not in proc.stderr and "duplicate fixture id" in proc.stderr
    assert proc.stderr.strip().endswith("Error: fixtures/classic/stack/twin.json: $.id: duplicate fixture id "
                                        "'classic.stack.good': fixtures/classic/stack/good.json uses it too")


def test_ctrl_c_in_any_command_exits_130_like_run(monkeypatch):
    """A KeyboardInterrupt that reaches the group (a command without its own handling:
    self-play, fuzz, mutants, snapshots update) exits 130 with "interrupted", not click's
    "Aborted!" and 1 (README, "Exit codes")."""
    from click.testing import CliRunner

    from mtg_judge.conformance import selfplay as sp
    from mtg_judge.tools.cli import main

    def interrupted(*_args, **_kwargs):
        raise KeyboardInterrupt

    monkeypatch.setattr(sp, "load_decks", interrupted)
    result = CliRunner().invoke(main, ["selfplay", "--games", "1"])
    assert result.exit_code == 130, result.output
    assert "interrupted" in result.output and "Aborted" not in result.output
