"""Shards for CI matrices: ``mtg-judge run --shard K/N`` runs slice K of N (docs/PROTOCOL.md §8).

Every selected case goes to exactly one of the N shards. The split is balanced by an
estimated cost, :func:`case_cost` (a fixed cost per case plus one per script input: a linear
fit of the reference engine's time per case), with the longest-processing-time-first rule:
cases by decreasing cost (ties by name) each go to the shard with the least cost so far
(ties to the lowest shard). It depends only on the selected cases (their names and
scripts), never on worker counts, ``PYTHONHASHSEED`` or the machine, so every job of a
matrix computes the same split; every job must select the same cases (the same
``--ruleset``, ``-k``, fixtures or bundle). A shard runs its cases in run order.

The ``report.jsonl`` of a sharded run says so in its header (``selection.shard`` =
``"K/N"``) and gives each case record its ``position`` in the unsharded run order, so that
``mtg-judge report --merge`` (:func:`mtg_judge.conformance.reports.merge_reports`) can rebuild
the unsharded report.
"""

from __future__ import annotations

import heapq
import re
from typing import TypeVar

_SHARD = re.compile(r"\s*(\d+)\s*/\s*(\d+)\s*")

#: The largest N of ``--shard K/N`` (a matrix wider than the suite has cases makes no sense).
MAX_SHARDS = 1000

#: The fixed cost of one case, in script inputs (engine start-up, setup, checks).
CASE_OVERHEAD = 4


def parse_shard(text: str) -> tuple[int, int]:
    """``"K/N"`` → ``(K, N)`` with ``1 <= K <= N``.

    >>> parse_shard("2/3")
    (2, 3)

    Raises ``ValueError`` with a message saying what was expected for anything else
    (``"x"``, ``"0/3"``, ``"4/3"``, ``"1/0"``, an N above :data:`MAX_SHARDS`).
    """
    found = _SHARD.fullmatch(text or "")
    if not found:
        raise ValueError(f"{text!r} is not K/N: expected two whole numbers such as 2/5 "
                         "(slice K of N, 1 <= K <= N)")
    k, n = int(found.group(1)), int(found.group(2))
    if n < 1:
        raise ValueError(f"{text!r}: the number of shards N must be at least 1")
    if n > MAX_SHARDS:
        raise ValueError(f"{text!r}: the number of shards N must be at most {MAX_SHARDS}")
    if not 1 <= k <= n:
        raise ValueError(f"{text!r}: the shard K must be between 1 and N={n}")
    return k, n


def case_cost(case) -> int:
    """The estimated cost of a case: :data:`CASE_OVERHEAD` plus the length of its script
    (a :class:`mtg_judge.conformance.runner.Case`; a case without a scenario costs the
    overhead)."""
    script = (case.scenario or {}).get("script")
    return CASE_OVERHEAD + (len(script) if isinstance(script, list) else 0)


def assign(cases: list, n: int) -> list[int]:
    """The shard (1..n) of each case of ``cases``, in the same order (see the module
    docstring for the rule). Raises ``ValueError`` if ``n < 1``."""
    if n < 1:
        raise ValueError(f"the number of shards must be at least 1, not {n}")
    costs = [case_cost(c) for c in cases]
    order = sorted(range(len(cases)), key=lambda i: (-costs[i], cases[i].name, i))
    loads = [(0, j) for j in range(min(n, len(cases)))]  # a heap of (load, shard index)
    out = [0] * len(cases)
    for i in order:
        load, shard = heapq.heappop(loads)  # the least load so far, ties to the lowest shard
        out[i] = shard + 1
        heapq.heappush(loads, (load + costs[i], shard))
    return out


C = TypeVar("C")  # a case (runner.Case, or anything with a name and a scenario)


def select(cases: list[C], k: int, n: int) -> list[tuple[int, C]]:
    """The cases of shard ``k`` of ``n`` as ``(position, case)`` pairs in run order,
    ``position`` being the case's index in ``cases``. Raises ``ValueError`` for a bad
    ``k``/``n`` (as :func:`parse_shard`)."""
    if not 1 <= k <= n:
        raise ValueError(f"shard {k}/{n}: K must be between 1 and N")
    shards = assign(cases, n)
    return [(i, case) for i, case in enumerate(cases) if shards[i] == k]
