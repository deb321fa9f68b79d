"""conformance/rulediff.py (event diffs, ruleset reports, snapshot review lists) and the
commands that print them: ``mtg-judge diff-rulesets`` and ``mtg-judge snapshots update``."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from mtg_judge.conformance import rulediff
from mtg_judge.conformance.canonical import snapshot_text
from mtg_judge.conformance.runner import Case, CaseResult
from mtg_judge.tools.cli import main

CARDS_DIR = Path(__file__).resolve().parent.parent / "fixtures" / "cards"


def ev(type_: str, **fields) -> dict:
    return {"type": type_, **fields}


def log(n: int) -> list[dict]:
    return [ev("priority_received", player="alice", n=i) for i in range(n)]


# --------------------------------------------------------------------------------------------
# event_diff


def test_equal_logs_have_no_diff():
    assert rulediff.event_diff(log(5), log(5)) == []
    assert rulediff.event_diff([], []) == []


def test_changed_event_with_context_and_collapsed_runs():
    old = log(20)
    new = log(20)
    new[10] = ev("mana_burn", player="alice", amount=1)
    assert rulediff.event_diff(old, new) == [
        "  … 8 identical events",
        "  #8 priority_received n=8 player=alice",
        "  #9 priority_received n=9 player=alice",
        "- #10 priority_received n=10 player=alice",
        "+ #10 mana_burn amount=1 player=alice",
        "  #11 priority_received n=11 player=alice",
        "  #12 priority_received n=12 player=alice",
        "  … 7 identical events",
    ]


def test_a_single_identical_event_is_shown_not_collapsed():
    old, new = log(4), log(4)
    new[0] = ev("x")
    assert rulediff.event_diff(old, new) == [
        "- #0 priority_received n=0 player=alice", "+ #0 x",
        "  #1 priority_received n=1 player=alice", "  #2 priority_received n=2 player=alice",
        "  #3 priority_received n=3 player=alice"]


def test_insertions_and_deletions_number_each_side_in_its_own_log():
    old = [ev("a"), ev("b"), ev("c")]
    new = [ev("a"), ev("x"), ev("y"), ev("b")]
    assert rulediff.event_diff(old, new, context=1) == [
        "  #0 a",
        "+ #1 x",
        "+ #2 y",
        "  #1 b",
        "- #2 c",
    ]


def test_two_changes_far_apart_make_two_hunks():
    old, new = log(30), log(30)
    new[3] = ev("x")
    new[25] = ev("y")
    lines = rulediff.event_diff(old, new, context=1)
    assert [line for line in lines if line.startswith(("-", "+"))] == [
        "- #3 priority_received n=3 player=alice", "+ #3 x",
        "- #25 priority_received n=25 player=alice", "+ #25 y"]
    assert "  … 2 identical events" in lines       # #0–#1 before the first hunk
    assert "  … 19 identical events" in lines      # #5–#23 between the hunks
    assert "  … 3 identical events" in lines       # #27–#29 after the second


def test_frequent_events_are_still_matched():
    """difflib's autojunk would treat a frequent event as junk in logs over 200 events."""
    old = [ev("priority_received", player="alice")] * 300
    new = old[:150] + [ev("mana_burn", amount=1)] + old[150:]
    assert rulediff.event_diff(old, new) == [
        "  … 148 identical events",
        "  #148 priority_received player=alice",
        "  #149 priority_received player=alice",
        "+ #150 mana_burn amount=1",
        "  #150 priority_received player=alice",
        "  #151 priority_received player=alice",
        "  … 148 identical events",
    ]


def test_every_field_counts_and_booleans_are_not_integers():
    assert rulediff.event_diff([ev("x", v=True)], [ev("x", v=1)]) == [
        "- #0 x v=true", "+ #0 x v=1"]


# --------------------------------------------------------------------------------------------
# state_diff, comparable


def test_state_diff_lists_changed_leaves():
    old = {"players": {"alice": {"life": 20, "graveyard": []}, "bob": {"life": 20}},
           "battlefield": {"bear": {"damage": 0}}, "stack": []}
    new = {"players": {"alice": {"life": 18, "graveyard": ["bear"]}, "bob": {"life": 20}},
           "battlefield": {}, "stack": []}
    assert rulediff.state_diff(old, new) == [
        'state.battlefield.bear: {"damage":0} → (absent)',
        'state.players.alice.graveyard: [] → ["bear"]',
        "state.players.alice.life: 20 → 18",
    ]
    assert rulediff.state_diff(old, old) == []


def test_state_diff_shortens_long_values_and_walks_lists_of_objects():
    big = {"text": "x" * 300}
    lines = rulediff.state_diff({"a": big}, {})
    assert lines[0].startswith('state.a: {"text":"xxx') and lines[0].endswith("… → (absent)")
    assert len(lines[0]) < 140
    assert rulediff.state_diff([{"after": 1, "state": {"life": 3}}],
                               [{"after": 1, "state": {"life": 4}}], "checkpoints") == [
        "checkpoints[0].state.life: 3 → 4"]


def test_comparable_drops_the_ruleset_name_and_names_exile_by_its_role():
    result = {"events": [ev("game_started", ruleset="classic-1999", turn=3),
                         ev("zone_changed", card="bear", to="removed_from_game")],
              "state": {"players": {"bob": {"removed_from_game": ["bear"]}}},
              "checkpoints": [{"after": 0}]}
    assert rulediff.comparable(result, "removed_from_game") == {
        "events": [ev("game_started", turn=3), ev("zone_changed", card="bear", to="exile")],
        "state": {"players": {"bob": {"exile": ["bear"]}}}}
    assert result["events"][0]["ruleset"] == "classic-1999"  # the input is left alone


# --------------------------------------------------------------------------------------------
# snapshots


def snap(events, life=20) -> str:
    return snapshot_text({"events": events, "state": {"players": {"bob": {"life": life}}},
                          "checkpoints": []})


def test_snapshot_names_give_the_fixture_and_ruleset():
    name = "test_fixtures/test_fixture[classic.combat.x-y[classic-1999]].json"
    assert rulediff.snapshot_case(name) == ("classic.combat.x-y", "classic-1999")
    assert rulediff.snapshot_label(name) == "classic.combat.x-y [classic-1999]"
    assert rulediff.snapshot_case("test_fixtures/notes.txt") is None
    assert rulediff.snapshot_label("test_fixtures/notes.txt") == "test_fixtures/notes.txt"


def test_snapshot_diff_reads_the_snapshot_json():
    old = snap([ev("step_began", step="combat_damage"), ev("damage_dealt", amount=3)], 17)
    new = snap([ev("step_began", step="combat_damage"),
                ev("combat_damage_put_on_stack", object="combat_damage#1")], 20)
    assert rulediff.snapshot_diff(old, new) == [
        "  #0 step_began step=combat_damage",
        "- #1 damage_dealt amount=3",
        "+ #1 combat_damage_put_on_stack object=combat_damage#1",
        "state.players.bob.life: 17 → 20",
    ]


def test_snapshot_diff_of_text_that_is_not_a_result_is_a_line_diff():
    assert rulediff.snapshot_diff("a\nb\n", "a\nc\n") == ["@@ -1,2 +1,2 @@", " a", "-b", "+c"]


def test_format_snapshot_changes_lists_each_changed_scenario_with_its_diff():
    name = "test_fixtures/test_fixture[classic.mana.burn[classic-1999]].json"
    before = {name: snap([ev("mana_emptied", player="alice")]),
              "test_fixtures/test_fixture[classic.old[modern]].json": snap([])}
    after = {name: snap([ev("mana_emptied", player="alice"),
                         ev("mana_burn", player="alice", amount=1)]),
             "test_fixtures/test_fixture[classic.new[modern]].json": snap([])}
    assert rulediff.format_snapshot_changes(before, after).splitlines() == [
        "added: classic.new [modern]",
        "modified: classic.mana.burn [classic-1999]",
        "      #0 mana_emptied player=alice",
        "    + #1 mana_burn amount=1 player=alice",
        "deleted: classic.old [modern]",
        "snapshots: 1 added, 1 modified, 1 deleted, 2 in total",
    ]


# (`mtg-judge snapshots update` itself: tests/test_snapshots_update.py)


# --------------------------------------------------------------------------------------------
# ruleset reports from results


def case(fid: str, ruleset: str, title: str = "") -> Case:
    return Case(fid, ruleset, Path(f"{fid}.json"), "classic", "x",
                {"id": fid, "title": title or f"{fid} title"})


def outcome(c: Case, events: list[dict] | None, state: dict | None = None) -> CaseResult:
    if events is None:
        return CaseResult(c, "errored", message="Traceback …\nValueError: boom")
    return CaseResult(c, "passed", result={"events": events, "state": state or {},
                                           "checkpoints": []})


def test_pair_cases_keeps_fixtures_under_both_rulesets():
    cases = [case("f1", "modern"), case("f1", "classic-1999"), case("f2", "modern"),
             case("f3", "classic-1999"), case("f3", "timespiral-2006"), case("f3", "modern")]
    pairs = rulediff.pair_cases(cases, "classic-1999", "modern")
    assert [(a.fixture_id, a.ruleset, b.ruleset) for a, b in pairs] == [
        ("f1", "classic-1999", "modern"), ("f3", "classic-1999", "modern")]
    only_f3 = rulediff.pair_cases(cases, "classic-1999", "modern", lambda fid: fid == "f3")
    assert [a.fixture_id for a, _ in only_f3] == ["f3"]


def test_report_of_differing_identical_and_errored_fixtures():
    a1, b1 = case("burn", "classic-1999", "Mana burns"), case("burn", "modern", "Mana burns")
    a2, b2 = case("same", "classic-1999"), case("same", "modern")
    a3, b3 = case("crash", "classic-1999"), case("crash", "modern")
    start = lambda r: ev("game_started", ruleset=r)  # noqa: E731
    results = {
        a1: outcome(a1, [start("classic-1999"), ev("mana_burn", amount=1)],
                    {"players": {"alice": {"life": 19}}}),
        b1: outcome(b1, [start("modern")], {"players": {"alice": {"life": 20}}}),
        a2: outcome(a2, [start("classic-1999")]), b2: outcome(b2, [start("modern")]),
        a3: outcome(a3, None), b3: outcome(b3, None),
    }
    report = rulediff.compare_rulesets(list(results), "classic-1999", "modern", None,
                                       lambda todo: [results[c] for c in todo])
    assert report.compared == 2
    assert [d.id for d in report.differ] == ["burn"]
    assert report.differ[0].events == ["  #0 game_started", "- #1 mana_burn amount=1"]
    assert report.differ[0].state == ["state.players.alice.life: 19 → 20"]
    assert report.identical == ["same"]
    assert report.errored == {"crash": "under both: errored: ValueError: boom"}
    assert rulediff.report_json(report) == {
        "a": "classic-1999", "b": "modern", "compared": 2,
        "differ": [{"id": "burn", "title": "Mana burns",
                    "diff": ["  #0 game_started", "- #1 mana_burn amount=1"],
                    "state": ["state.players.alice.life: 19 → 20"]}],
        "identical": ["same"],
        "errored": [{"id": "crash", "message": "under both: errored: ValueError: boom"}]}
    text = rulediff.format_report(report).splitlines()
    assert text[:7] == ["--- classic-1999", "+++ modern", "", "burn: Mana burns",
                        "      #0 game_started", "    - #1 mana_burn amount=1",
                        "    final state:"]
    assert "  crash: under both: errored: ValueError: boom" in text
    assert ("2 fixtures compared (classic-1999 vs modern), 1 differ, 1 identical, "
            "1 not compared") in text


# --------------------------------------------------------------------------------------------
# mtg-judge diff-rulesets, on a small tree with the reference engine


def fixture(fid: str, rulesets: list[str], alice: dict, script: list[dict]) -> dict:
    lib = lambda p: [{"alias": f"{p}_lib{i}", "card": "Island"} for i in range(4)]  # noqa: E731
    return {"id": fid, "title": f"{fid.rsplit('.', 1)[-1]} title", "rulings": ["classic.mana.01"],
            "rulesets": rulesets,
            "setup": {"turn": 3, "active_player": "alice", "step": "precombat_main",
                      "players": [{"id": "alice", "library": lib("a"), **alice},
                                  {"id": "bob", "library": lib("b")}]},
            "script": script, "expect": {"events": [{"type": "game_started"}]}}


FOREST = {"battlefield": [{"alias": "forest", "card": "Forest"}]}
TAP_AND_GO = [{"action": "activate", "player": "alice", "source": "forest", "ability": 0},
              {"action": "advance", "to": "beginning_of_combat"}]
ALL = ["modern", "timespiral-2006", "classic-1999"]


@pytest.fixture(scope="module")
def tree(tmp_path_factory) -> Path:
    """burn (differs: mana burn), land (identical) under every ruleset, modern-only."""
    root = tmp_path_factory.mktemp("rulediff") / "fixtures"
    (root / "cards").mkdir(parents=True)
    for card in ("forest.json", "island.json"):  # only what these fixtures use
        shutil.copy(CARDS_DIR / card, root / "cards" / card)
    docs = {
        "classic/mana/burn.json": fixture("classic.mana.burn", ALL, FOREST, TAP_AND_GO),
        "classic/mana/land.json": fixture(
            "classic.mana.land", ALL, {"hand": [{"alias": "forest", "card": "Forest"}]},
            [{"action": "play_land", "player": "alice", "card": "forest"}]),
        "classic/mana/modern-only.json": fixture("classic.mana.modern-only", ["modern"],
                                                 FOREST, TAP_AND_GO),
    }
    for rel, doc in docs.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(json.dumps(doc))
    return root


def test_diff_rulesets_lists_the_fixtures_that_differ(tree):
    out = CliRunner().invoke(main, ["diff-rulesets", "classic-1999", "modern",
                                    "--fixtures", str(tree)])
    assert out.exit_code == 0, out.output
    lines = out.stdout.splitlines()
    assert lines[:4] == ["--- classic-1999", "+++ modern", "", "classic.mana.burn: burn title"]
    changed = [line.strip() for line in lines if line.startswith(("    -", "    +"))]
    assert changed == ["- #11 mana_burn amount=1 player=alice",
                       "- #12 life_lost amount=1 life=19 player=alice"]
    assert "      state.players.alice.life: 19 → 20" in lines
    assert "classic.mana.land" not in out.stdout
    assert "modern-only" not in out.stdout
    assert ("2 fixtures compared (classic-1999 vs modern), 1 differ, 1 identical"
            in lines)


def test_diff_rulesets_json(tree):
    out = CliRunner().invoke(main, ["diff-rulesets", "modern", "timespiral-2006", "--json",
                                    "--fixtures", str(tree)])
    assert out.exit_code == 0, out.output
    report = json.loads(out.stdout)
    assert report["a"] == "modern" and report["b"] == "timespiral-2006"
    assert report["compared"] == 2
    assert report["identical"] == ["classic.mana.land"]
    assert report["errored"] == []
    [burn] = report["differ"]
    assert burn["id"] == "classic.mana.burn"
    assert [d for d in burn["diff"] if d[0] in "+-"] == [
        "+ #11 mana_burn amount=1 player=alice",
        "+ #12 life_lost amount=1 life=19 player=alice"]
    assert burn["state"] == ["state.players.alice.life: 20 → 19"]


def test_diff_rulesets_k_selects_fixture_ids(tree):
    out = CliRunner().invoke(main, ["diff-rulesets", "classic-1999", "modern", "--json",
                                    "-k", "land and not burn", "--fixtures", str(tree)])
    assert out.exit_code == 0, out.output
    report = json.loads(out.stdout)
    assert (report["compared"], report["differ"], report["identical"]) == (
        1, [], ["classic.mana.land"])


def test_diff_rulesets_with_nothing_in_common_says_so(tree):
    out = CliRunner().invoke(main, ["diff-rulesets", "classic-1999", "modern",
                                    "-k", "modern-only", "--fixtures", str(tree)])
    assert out.exit_code == 0
    assert "0 fixtures compared (classic-1999 vs modern), 0 differ, 0 identical" in out.stdout
    assert "no fixture lists both classic-1999 and modern" in out.stderr


def test_diff_rulesets_help():
    out = CliRunner().invoke(main, ["diff-rulesets", "--help"])
    assert out.exit_code == 0
    assert "Usage: main diff-rulesets [OPTIONS] A B" in out.output
    for words in ("--json", "-k EXPR", "--fixtures", "Exit 0"):
        assert words in out.output


@pytest.mark.parametrize("args", [["classic-1999", "bogus"], ["bogus", "modern"],
                                  ["classic-1999"], ["modern", "classic-1999", "-k", "a and"]])
def test_diff_rulesets_bad_usage_exits_2(args, tree):
    out = CliRunner().invoke(main, ["diff-rulesets", *args, "--fixtures", str(tree)])
    assert out.exit_code == 2
