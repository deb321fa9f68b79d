"""One pytest test per fixture case, id ``<fixture id>[<ruleset>]`` (DESIGN §4, §8).

Each test runs the case on the reference engine in-process, fails with the readable list of
mismatches if the ``expect`` block is not met, and compares the canonical normalized result
(events one per line, final state, checkpoints) with its stored syrupy snapshot.
"""

import json

import pytest

from mtg_judge.conformance.canonical import normalize, snapshot_text
from mtg_judge.conformance.resources import SNAPSHOT_DIR
from mtg_judge.conformance.runner import collect, run_case
from mtg_judge.conformance.snapshots import snapshot_name

CASES = collect()


@pytest.mark.parametrize("case", [pytest.param(case, id=case.name) for case in CASES])
def test_fixture(case, log_snapshot):
    outcome = run_case(case)
    if outcome.status == "skipped":
        pytest.skip(outcome.message)
    if outcome.status == "errored":
        pytest.fail(outcome.describe(), pytrace=False)
    snapshot_error = None
    result = outcome.result
    assert result is not None  # a case that ran (skipped and errored ones stopped above)
    if outcome.mismatches:
        # A failing case keeps the snapshot it has, also under --snapshot-update (issue 25:
        # an update must never bless a failure): the stored value is asserted against
        # itself, so syrupy counts the snapshot as used and rewrites it unchanged.
        stored = SNAPSHOT_DIR / snapshot_name(case.name)
        note = ""
        if stored.is_file():
            text = stored.read_text(encoding="utf-8")
            assert json.loads(text) == log_snapshot
            if snapshot_text(normalize(result)) != text:
                note = "\n(the snapshot differs too)"
        pytest.fail(outcome.describe() + note, pytrace=False)
    try:
        assert normalize(result) == log_snapshot
    except AssertionError as exc:
        snapshot_error = exc
    if snapshot_error is not None:
        if "does not exist" in str(snapshot_error):
            pytest.fail("no snapshot for this case yet: run `mtg-judge snapshots update` and "
                        "review the new file", pytrace=False)
        pytest.fail(f"the log differs from the snapshot (-vv shows it all; after a reviewed "
                    f"rules change: mtg-judge snapshots update)\n{snapshot_error}", pytrace=False)
