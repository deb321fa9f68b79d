"""DESIGN §7: same fixture + ruleset => byte-identical log in any process, worker, order or
PYTHONHASHSEED. The whole suite runs in fresh interpreters (``python -m mtg_judge.conformance.runner
--dump``, one canonical line per case) under different hash seeds and worker counts."""

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def dump(hashseed: int, workers: int) -> list[str]:
    # MTG_JUDGE_CACHE_DIR="": each interpreter collects the cases itself (no collection
    # cache), so that the collection too is checked under every PYTHONHASHSEED
    env = {**os.environ, "PYTHONHASHSEED": str(hashseed), "MTG_JUDGE_CACHE_DIR": ""}
    proc = subprocess.run(
        [sys.executable, "-m", "mtg_judge.conformance.runner", "--dump", "-n", str(workers)],
        cwd=ROOT, env=env, capture_output=True, text=True, encoding="utf-8", timeout=1800)
    assert proc.stdout, f"no output (exit {proc.returncode}):\n{proc.stderr[-3000:]}"
    return proc.stdout.splitlines()


def first_difference(a: list[str], b: list[str]) -> str:
    for x, y in zip(a, b):
        if x != y:
            return f"\n- {x[:2000]}\n+ {y[:2000]}"
    return f"\n{len(a)} lines vs {len(b)} lines"


def test_suite_logs_are_byte_identical_across_hash_seeds_and_workers():
    base = dump(hashseed=0, workers=1)
    ran = [line for line in base if line.split(" ", 2)[1] in ("passed", "failed")]
    assert ran, "no case produced a log:\n" + "\n".join(base[:5])
    # one run differing in both (a log that depends on either differs from the base): two
    # runs of the suite instead of three, one per difference
    other = dump(hashseed=1, workers=2)
    assert other == base, ("PYTHONHASHSEED=1 with 2 workers differs from PYTHONHASHSEED=0, serial:"
                           + first_difference(base, other))
