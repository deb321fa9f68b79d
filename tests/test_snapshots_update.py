"""`mtg-judge snapshots update [--check]` (issue 25, item 3): a rules change cannot hide a
failure. Tested as the issue did: a temporary copy of the card data where Shock deals 3
instead of 2 (tmp_path; the repository's fixtures and snapshots are never touched).

Shock's printed text is "Shock deals 2 damage to any target"; with 3, a fixture whose
expectation names the damage or the life total fails (its snapshot must stay as it was),
a fixture that only logs the damage passes with a changed log (its snapshot is rewritten,
the diff shown once for all the rulesets that share it).
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from mtg_judge.conformance.conftest import LogSnapshotExtension
from mtg_judge.conformance.resources import FIXTURES_DIR, SNAPSHOT_DIR
from mtg_judge.conformance.runner import collect
from mtg_judge.conformance.snapshots import read_snapshots, snapshot_name
from mtg_judge.tools.cli import main

#: Passes with Shock dealing 3 (the damage is logged, not expected): modern and
#: timespiral-2006 share one diff.
CHANGED = "timespiral.storm.copies-are-not-cast-and-are-not-counted"
#: Expects Shock's 2 damage to be prevented: fails under all three rulesets with 3 damage.
FAILING = "classic.effects.samite-healer-prevents-next-damage"
ORPHAN = "test_fixtures/test_fixture[classic.gone.away[modern]].json"


def invoke(*args):
    return CliRunner().invoke(main, ["snapshots", "update", *map(str, args)])


@pytest.fixture
def shock_deals_3(tmp_path) -> tuple[Path, Path]:
    """(fixtures, snapshots): the cards, the two fixtures above and their snapshots (plus
    the snapshot of no case), Shock's damage changed from 2 to 3."""
    fixtures, snaps = tmp_path / "fixtures", tmp_path / "snapshots"
    shutil.copytree(FIXTURES_DIR / "cards", fixtures / "cards")
    for case in collect():
        if case.fixture_id in (CHANGED, FAILING):
            target = fixtures / case.path.relative_to(FIXTURES_DIR)
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy(case.path, target)
            name = snapshot_name(case.name)
            (snaps / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy(SNAPSHOT_DIR / name, snaps / name)
    (snaps / ORPHAN).write_text("{}\n", encoding="utf-8")
    shock = fixtures / "cards" / "shock.json"
    card = json.loads(shock.read_text(encoding="utf-8"))
    assert card["spell"]["effects"][0]["amount"] == 2
    card["spell"]["effects"][0]["amount"] = 3
    shock.write_text(json.dumps(card), encoding="utf-8")
    return fixtures, snaps


def test_check_writes_nothing_and_fails_with_the_diff(shock_deals_3):
    fixtures, snaps = shock_deals_3
    before = read_snapshots(snaps)
    result = invoke("--check", "--fixtures", fixtures, "--snapshot-dir", snaps, "-n", "1")
    assert result.exit_code == 1, result.output
    assert read_snapshots(snaps) == before  # nothing written, nothing deleted
    out = result.stdout.splitlines()
    # one entry for the two rulesets whose diff is the same
    assert out.count(f"modified (not written): {CHANGED} [modern, timespiral-2006]") == 1
    assert "    - #13 damage_dealt amount=2 combat=false source=shock#2 source_card=shock " \
           "target=bob" in out
    assert "    + #13 damage_dealt amount=3 combat=false source=shock#2 source_card=shock " \
           "target=bob" in out
    assert "deleted (not written): classic.gone.away [modern]" in out
    failed = f"failed: {FAILING} [modern, timespiral-2006, classic-1999] (snapshot kept)"
    assert failed in out
    assert out[out.index(failed) + 1].startswith("    expect.")  # the mismatch, its reason
    # counts are snapshot files: 2 modified (one entry), the orphan deleted, 3 failing kept
    assert out[-1] == ("snapshots would change: 0 added, 2 modified, 1 deleted, 5 in total; "
                       "3 failing cases not updated")


def test_update_never_rewrites_a_failing_fixtures_snapshot(shock_deals_3):
    fixtures, snaps = shock_deals_3
    before = read_snapshots(snaps)
    result = invoke("--fixtures", fixtures, "--snapshot-dir", snaps, "-n", "2")
    assert result.exit_code == 1, result.output  # failures: the update is not a success
    after = read_snapshots(snaps)
    for ruleset in ("modern", "timespiral-2006", "classic-1999"):
        name = snapshot_name(f"{FAILING}[{ruleset}]")
        assert after[name] == before[name]  # the failure is not blessed
    for ruleset in ("modern", "timespiral-2006"):
        name = snapshot_name(f"{CHANGED}[{ruleset}]")
        assert '"amount":2,"combat":false,"source":"shock#2"' in before[name]
        assert '"amount":3,"combat":false,"source":"shock#2"' in after[name]
    assert ORPHAN not in after
    out = result.stdout.splitlines()
    assert f"modified: {CHANGED} [modern, timespiral-2006]" in out
    assert out[-1] == ("snapshots changed: 0 added, 2 modified, 1 deleted, 5 in total; "
                       "3 failing cases not updated")
    # then only the failures are left: --check says so, and changes nothing
    again = invoke("--check", "--fixtures", fixtures, "--snapshot-dir", snaps, "-n", "1")
    assert again.exit_code == 1
    assert again.stdout.splitlines()[-1] == ("snapshots would change: 0 added, 0 modified, "
                                             "0 deleted, 5 in total; 3 failing cases not updated")
    assert read_snapshots(snaps) == after


def test_every_failure_is_listed_with_its_reason(shock_deals_3):
    """No truncation: each failing fixture is named once with every mismatch, one line each
    (issue 25: 39 of 62 names were printed, without reasons)."""
    fixtures, snaps = shock_deals_3
    result = invoke("--check", "--fixtures", fixtures, "--snapshot-dir", snaps, "-n", "1")
    entries = [line for line in result.stdout.splitlines() if line.startswith("failed: ")]
    assert entries == [f"failed: {FAILING} [modern, timespiral-2006, classic-1999] "
                       "(snapshot kept)"]
    lines = result.stdout.splitlines()
    reasons = lines[lines.index(entries[0]) + 1:-1]
    assert reasons and all(line.startswith("    expect.") for line in reasons)
    assert "more" not in result.stdout.split("failed: ")[1]


def test_the_suites_snapshots_are_what_an_update_would_write():
    """--check on the repository's fixtures and snapshots: nothing would change (the text
    and file names written here are syrupy's: conformance/test_fixtures.py agrees)."""
    result = invoke("--check")
    assert result.exit_code == 0, result.output[-3000:]
    assert result.stdout.splitlines()[-1].startswith(
        "snapshots would change: 0 added, 0 modified, 0 deleted, ")


@pytest.mark.parametrize("name", ["classic.x.y[modern]", "a:b|c?d[modern]",
                                  "classic." + "long-" * 60 + "name[modern]"])
def test_snapshot_names_are_syrupys(name):
    stem = LogSnapshotExtension._sanitize_filename(f"test_fixture[{name}]")
    assert snapshot_name(name) == \
        f"test_fixtures/{stem[:LogSnapshotExtension._max_stem_length()]}.json"
