"""run_suite's process pool (conformance/runner.py): the same results as a serial run, in
case order, whether the workers are forked (Linux) or spawned (macOS, Windows), and
max_fail stops it as it stops a serial run."""

from __future__ import annotations

import multiprocessing

import pytest

from mtg_judge.conformance import runner
from mtg_judge.conformance.canonical import dumps, normalize

CASES = runner.collect(keyword="classic.stack")


def _outcome(results):
    return [(r.case.name, r.status, dumps(normalize(r.result)) if r.result else r.message) for r in results]


@pytest.mark.parametrize("method", ["fork", "spawn"])
def test_parallel_results_equal_serial_results_in_case_order(monkeypatch, method):
    if method not in multiprocessing.get_all_start_methods():
        pytest.skip(f"no {method} start method here")
    assert len(CASES) >= 4
    serial = runner.run_suite(CASES, workers=1)
    monkeypatch.setattr(runner, "_pool_context", lambda: multiprocessing.get_context(method))
    seen = []
    parallel = runner.run_suite(CASES, workers=2, progress=seen.append)
    assert _outcome(parallel) == _outcome(serial)
    assert sorted(r.case.name for r in seen) == sorted(c.name for c in CASES)


def test_max_fail_stops_a_parallel_run():
    failing = [runner.Case(f"{c.fixture_id}.{i}", c.ruleset, c.path, c.document, c.mechanic,
                           {**c.scenario, "expect": {"events": [{"type": "no_such_event"}]}})
               for i, c in enumerate(CASES * 40)]
    results = runner.run_suite(failing, workers=2, max_fail=3)
    assert 3 <= len(results) < len(failing) // 2
    assert all(r.status == "failed" for r in results)
