"""The game's only source of randomness: SplitMix64 (Steele, Lea & Flood, 2014).

Documented so that any engine, in any language, can reproduce a game's random outcomes
from its seed (docs/FORMAT.md §7). No global ``random`` is used anywhere in the engine.
"""

from __future__ import annotations

_MASK = (1 << 64) - 1


class SplitMix64:
    """A 64-bit SplitMix generator.

    >>> r = SplitMix64(0)
    >>> r.next()
    16294208416658607535
    """

    def __init__(self, seed: int) -> None:
        self.state = seed & _MASK

    def next(self) -> int:
        """Return the next 64-bit output (an int in [0, 2**64))."""
        self.state = (self.state + 0x9E3779B97F4A7C15) & _MASK
        z = self.state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
        return z ^ (z >> 31)

    def below(self, n: int) -> int:
        """Draw uniformly from ``[0, n)`` by rejection sampling on 63-bit values.

        Raises ValueError if ``n < 1``.
        """
        if n < 1:
            raise ValueError("below(n) needs n >= 1")
        limit = ((1 << 63) // n) * n
        while True:
            x = self.next() >> 1
            if x < limit:
                return x % n

    def shuffle(self, items: list) -> None:
        """Shuffle ``items`` in place: Fisher–Yates from the end (docs/FORMAT.md §7)."""
        for i in range(len(items) - 1, 0, -1):
            j = self.below(i + 1)
            items[i], items[j] = items[j], items[i]
