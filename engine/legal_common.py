"""What every part of the legal-action generator (:mod:`.legal`) shares: the
:class:`Candidate` record, the limits on how many variants are offered, the dry run that
tells whether the engine accepts an input (``Game.dry_run`` with an input source that stops
at the next question), and small helpers (one object per card name, an even sample of a
list, a card's keywords by name, the spell or ability resolving now, CR 608.2).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Iterable

from .errors import IllegalAction
from .objects import GameObject, StackItem

#: Target combinations offered per spell or ability variant when it has two or more
#: targets (a single target offers every legal candidate).
TARGET_LIMIT = 12


#: Subsets offered for a discard, orders for a trigger ordering, random block declarations.
CHOICE_LIMIT = 8


BLOCK_SAMPLES = 4


@dataclass
class Candidate:
    """One candidate input. ``group`` gathers the variants of one choice (one card cast
    with different targets or payments, one creature's ability …) so that a driver can
    pick a group first; ``kind`` is a coarse category (``pass``, ``land``, ``cast``,
    ``activate``, ``mana``, ``special``, ``attack``, ``block``, ``choice``, ``keep``,
    ``mulligan``, ``decline``)."""

    input: dict[str, Any]
    group: str
    kind: str


class NeedsInput(Exception):
    """Raised by the probe input source of a dry run: the probed action got past every
    check and now asks a further question (a madness choice while a cost is paid …), so
    the engine accepted it."""


class ProbeInputs:
    """The input source of a dry run: any further question ends the probe (:class:`NeedsInput`)."""

    def next(self, game: Any, decision: dict[str, Any]) -> dict[str, Any]:
        """Raise :class:`NeedsInput`: the probed input got this far, so it was accepted."""
        raise NeedsInput(decision.get("kind"))


def accepted_on_dry_run(game: Any, fn: Callable[[Any], Any]) -> tuple[bool, str | None]:
    """Run ``fn(clone)`` on a dry run of ``game`` (restored afterwards) with
    :class:`ProbeInputs`: ``(True, None)`` if the engine accepts it (or asks a further
    question), ``(False, code)`` for an IllegalAction. Other exceptions propagate."""
    def run(clone: Any) -> None:
        clone.inputs = ProbeInputs()
        fn(clone)
    try:
        game.dry_run(run)
    except IllegalAction as err:
        return False, err.code
    except NeedsInput:
        return True, None
    return True, None


def distinct(objs: Iterable[GameObject]) -> list[GameObject]:
    """One object per card name and face (cards of a zone with the same name are
    interchangeable for legality)."""
    seen: set[Any] = set()
    out = []
    for o in objs:
        key = (o.definition.name, o.face_down)
        if key not in seen:
            seen.add(key)
            out.append(o)
    return out


def spread(seq: list[Any], k: int | None) -> list[Any]:
    """At most ``k`` elements of ``seq``, evenly spaced, first and last included."""
    if k is None or len(seq) <= k:
        return list(seq)
    if k == 1:
        return [seq[0]]
    n = len(seq)
    return [seq[round(i * (n - 1) / (k - 1))] for i in range(k)]


def keywords_by_name(obj: GameObject) -> dict[str, Any]:
    """The keyword abilities of ``obj``'s definition by keyword name (a copy of each)."""
    return {k["keyword"]: dict(k) for k in obj.definition.keywords}


def resolving_item(game: Any) -> StackItem | None:
    """The spell or ability resolving now (its ``*_resolved`` event is the last one and it
    is still on the stack while its effects run, CR 608.2)."""
    for ev in reversed(game.events):
        if ev["type"] in ("spell_resolved", "ability_resolved"):
            return next((it for it in game.stack if it.ref == ev["object"]), None)
    return None


def graveyard_exile_choices(game: Any, player: str, n: int, exclude: str | None = None) -> list[list[str]]:
    """Sets of ``n`` cards of ``player``'s graveyard to exile for a cost ("exile N cards from
    your graveyard", CR 118.3): the oldest ``n`` and the newest ``n`` (one set if they are the
    same), never ``exclude`` (the source itself); ``[]`` if there are fewer than ``n``."""
    cards = [o.ref for o in game.players[player].graveyard if o.ref != exclude]
    if len(cards) < n:
        return []
    first, last = cards[:n], cards[len(cards) - n:]
    return [first] if first == last else [first, last]
