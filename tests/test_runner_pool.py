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


@pytest.mark.parametrize("workers", [1, 2])
def test_passed_results_can_be_left_out(workers):
    """keep_passed_results=False ('mtg-judge run'): a passed case comes back without the
    engine's result, in the parent and from the workers; every other case keeps it, and
    statuses, checks and mismatches are those of a full run."""
    failing = [runner.Case(f"{c.fixture_id}.bad", c.ruleset, c.path, c.document, c.mechanic,
                           {**c.scenario, "expect": {"events": [{"type": "no_such_event"}]}})
               for c in CASES[:3]]
    cases = CASES + failing
    full = runner.run_suite(cases, workers=workers)
    seen = []
    light = runner.run_suite(cases, workers=workers, keep_passed_results=False, progress=seen.append)
    assert [(r.case.name, r.status, r.checks, r.mismatches, r.message) for r in light] == [
        (r.case.name, r.status, r.checks, r.mismatches, r.message) for r in full]
    assert {r.status for r in light} == {"passed", "failed"}
    for kept, r in zip(full, light):
        assert r.result is None if r.status == "passed" else r.result == kept.result
    assert all(r.result is None for r in seen if r.status == "passed")
