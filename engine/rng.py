"""The game's only source of randomness, SplitMix64 (Steele, Lea & Flood, 2014), and the
random outcomes drawn from it: shuffles (CR 701.20) and random picks (CR 701.9c), each logged
and each fixable by a script.

Documented so that any engine, in any language, can reproduce a game's random outcomes
from its seed (docs/FORMAT.md §7). No global ``random`` is used anywhere in the engine.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, TypeVar

from .errors import ScriptError

if TYPE_CHECKING:
    from .game import Game
    from .objects import GameObject

_MASK = (1 << 64) - 1


T = TypeVar("T")  # what a shuffled list holds


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

        Raises ValueError if ``n < 1`` or ``n > 2**63`` (63-bit values can't cover a larger
        range: the rejection would never end).
        """
        if n < 1:
            raise ValueError("below(n) needs n >= 1")
        if n > 1 << 63:
            raise ValueError("below(n) needs n <= 2**63 (it draws 63-bit values)")
        limit = ((1 << 63) // n) * n
        while True:
            x = self.next() >> 1
            if x < limit:
                return x % n

    def shuffle(self, items: list[T]) -> None:
        """Shuffle ``items`` in place: Fisher–Yates from the end (docs/FORMAT.md §7)."""
        for i in range(len(items) - 1, 0, -1):
            j = self.below(i + 1)
            items[i], items[j] = items[j], items[i]


def random_choice(game: Game, kind: str, player: str, options: list[GameObject]) -> GameObject:
    """A random pick among ``options`` (CR 701.9c random discard): from a ``random`` script
    input if the next input is one, else from the game's PRNG. Logged as ``random_outcome``."""
    scripted = game.inputs.take_random() if hasattr(game.inputs, "take_random") else None
    if scripted is not None:
        pick = next((o for o in options if o.card == scripted or o.ref == scripted), None)
        if pick is None:
            raise ScriptError("bad_input", f"random outcome {scripted!r} is not one of the options", None)
    else:
        pick = options[game.rng.below(len(options))]
    game.log("random_outcome", kind=kind, player=player, result=pick.card, scripted=scripted is not None)
    return pick


def shuffle_library(game: Game, player: str) -> None:
    """CR 701.20: randomize a library (the PRNG's Fisher–Yates, or a scripted order)."""
    lib = game.players[player].library
    scripted = game.inputs.take_random() if hasattr(game.inputs, "take_random") else None
    if scripted is not None:
        by_card = {o.card: o for o in lib}
        if sorted(scripted) != sorted(by_card):
            raise ScriptError("bad_input", "a scripted shuffle must list every card of the library", None)
        lib[:] = [by_card[c] for c in scripted]
    else:
        game.rng.shuffle(lib)
    game.log("random_outcome", kind="shuffle", player=player, result=[o.card for o in lib],
             scripted=scripted is not None)
    game.log("library_shuffled", player=player)
