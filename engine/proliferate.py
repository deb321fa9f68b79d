"""Proliferate (CR 701.34; docs/FORMAT.md §12.3).

CR 701.34a: "To proliferate means to choose any number of permanents and/or players, then
give each another counter of each kind already there." Since early 2023 (Phyrexia: All
Will Be One) it is *each* kind; before, one kind of the player's choice per permanent or
player. The reference engine implements today's rule in every ruleset (proliferate was
printed first in 2010, after both older rulesets).

- Effect ``{"type": "proliferate"}``. As it resolves its controller is asked a ``choose``
  with ``reason`` ``proliferate`` and ``options`` the references of the permanents that
  have counters, in battlefield order (players have no counters in the reference engine:
  it models no poison, experience or energy counters). The ``choice`` is a list of those
  references or card aliases (any number, ``[]`` for none, each once; a single reference
  string stands for a one-element list). Not asked when nothing has counters.
- Each chosen permanent, in battlefield order, gets one counter of each kind it has, kinds
  in name order (``counters_added``, one event per kind). It is an effect putting counters:
  counter doublers apply (CR 614.1a; Doubling Season) and lore counters trigger a Saga's
  chapter abilities (CR 714.2b).

Nothing here knows a particular card.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from . import sagas
from .errors import IllegalAction

if TYPE_CHECKING:
    from .game import Game
    from .objects import GameObject

REASON = "proliferate"


def options(game: "Game") -> list[str]:
    """The references of the permanents with at least one counter, in battlefield order
    (CR 701.34a: what can be chosen)."""
    return [p.ref for p in game.battlefield if any(n > 0 for n in p.counters.values())]


def chosen(game: "Game", offered: list[str], choice: Any) -> list[str]:
    """The references a ``proliferate`` answer chooses, in battlefield order. Raises
    IllegalAction ``invalid_choice`` unless ``choice`` is a list of distinct references
    (or aliases) among ``offered``, or one such string."""
    if isinstance(choice, str):
        choice = [choice]
    if not isinstance(choice, list):
        raise IllegalAction("invalid_choice", f"proliferate: choose a list of permanents with counters among {offered}")
    refs = []
    for c in choice:
        obj = game.find(c) if isinstance(c, str) else None
        if obj is None or obj.ref not in offered:
            raise IllegalAction("invalid_choice", f"proliferate: {c!r} is not a permanent with counters "
                                f"(choose among {offered}, CR 701.34a)")
        if obj.ref in refs:
            raise IllegalAction("invalid_choice", f"proliferate: {c!r} is chosen twice")
        refs.append(obj.ref)
    return [r for r in offered if r in refs]


def proliferate(game: "Game", player: str) -> list["GameObject"]:
    """CR 701.34a: ``player`` proliferates: choose (a ``choose`` decision, reason
    ``proliferate``), then one more counter of each kind on each chosen permanent. Returns
    the permanents given counters."""
    offered = options(game)
    if not offered:
        return []
    refs = game.decide("choose", player, "choose", lambda inp: chosen(game, offered, inp.get("choice")),
                       reason=REASON, options=offered)
    out = []
    for ref in refs:
        obj = game.objects[ref]
        for kind in sorted(k for k, n in obj.counters.items() if n > 0):
            sagas.put_counters(game, obj, kind, 1)
        out.append(obj)
    return out


def _proliferate(ctx: Any, eff: dict[str, Any]) -> None:
    proliferate(ctx.game, ctx.controller)


#: the effect types of this module, for engine/effects.py's HANDLERS
EFFECTS = {"proliferate": _proliferate}
