"""Tests that kill random mutants of the seed-7 sample (docs/MUTANTS.md, the rows of subset a)
in engine code no ruling reaches, so no fixture can: the seeded generator's contract
(docs/FORMAT.md §7, a contract of the suite, not a rule of the game) and the other rows
judged by a test there. Each test names the mutant it was written for."""

from __future__ import annotations

import pytest

from mtg_judge.engine.rng import SplitMix64


class _Bounded(SplitMix64):
    """A SplitMix64 that refuses to draw more than ``budget`` times: a rejection loop that
    would never end fails the test instead of hanging it."""

    def __init__(self, seed: int, budget: int) -> None:
        super().__init__(seed)
        self.budget = budget

    def next(self) -> int:
        if self.budget <= 0:
            raise RuntimeError("drew too many times: the rejection sampling never ends")
        self.budget -= 1
        return super().next()


@pytest.mark.parametrize("n", [(1 << 63) + 1, 1 << 64])
def test_below_refuses_a_range_wider_than_its_63_bit_draws(n):
    # engine/rng.py SplitMix64.below `n > 1 << 63` -> `1 << 64` (the equivalence list called it
    # equivalent: "every caller passes the length of a list"; below is the public API FORMAT §7
    # documents, and its docstring promises a ValueError for n > 2**63). With the mutant the
    # guard lets n through, the limit (2**63 // n) * n is 0, no draw is below it and the
    # rejection loop never ends: the bounded generator turns that into a failure.
    with pytest.raises(ValueError, match="2\\*\\*63"):
        _Bounded(7, 64).below(n)
    assert _Bounded(7, 64).below(1 << 63) == SplitMix64(7).next() >> 1  # the widest range it accepts
