"""One pytest test per fixture case, id ``<fixture id>[<ruleset>]`` (DESIGN §4, §8).

Each test runs the case on the reference engine in-process, fails with the readable list of
mismatches if the ``expect`` block is not met, and compares the canonical normalized result
(events one per line, final state, checkpoints) with its stored syrupy snapshot.
"""

import pytest

from mtg_judge.conformance.canonical import normalize
from mtg_judge.conformance.runner import collect, run_case

CASES = collect()


@pytest.mark.parametrize("case", [pytest.param(case, id=case.name) for case in CASES])
def test_fixture(case, log_snapshot):
    outcome = run_case(case)
    if outcome.status == "skipped":
        pytest.skip(outcome.message)
    if outcome.status == "errored":
        pytest.fail(outcome.describe(), pytrace=False)
    # The snapshot is compared even when expectations fail, so that --snapshot-update keeps
    # (and refreshes) the snapshot of a failing case instead of deleting it as unused.
    snapshot_error = None
    result = outcome.result
    assert result is not None  # a case that ran (skipped and errored ones stopped above)
    try:
        assert normalize(result) == log_snapshot
    except AssertionError as exc:
        snapshot_error = exc
    if outcome.mismatches:
        note = "\n(the snapshot differs too)" if snapshot_error else ""
        pytest.fail(outcome.describe() + note, pytrace=False)
    if snapshot_error is not None:
        if "does not exist" in str(snapshot_error):
            pytest.fail("no snapshot for this case yet: run `mtg-judge snapshots update` and "
                        "review the new file", pytrace=False)
        pytest.fail(f"the log differs from the snapshot (-vv shows it all; after a reviewed "
                    f"rules change: mtg-judge snapshots update)\n{snapshot_error}", pytrace=False)
