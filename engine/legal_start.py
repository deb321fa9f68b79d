"""The start of the game for the legal-action generator (:mod:`.legal`): the ``mulligan``
decision, keep (London mulligan: a card on the bottom per mulligan taken) or take a
mulligan (CR 103.5), and the check of an answer.
"""

from __future__ import annotations

import itertools
from typing import Any

from .legal_common import Candidate, spread


def mulligan_candidates(game: Any, decision: dict[str, Any]) -> list[Candidate]:
    """CR 103.5: keep (London mulligan: with one card on the bottom per mulligan taken) or
    take a mulligan (not with an empty hand under the draw-one-fewer rule)."""
    player, taken = decision["player"], decision.get("mulligans", 0)
    hand = [o.ref for o in game.players[player].hand]
    need = game.rules.mulligan.bottom_count(taken)
    out = []
    if len(hand) >= need:
        for bottom in spread([list(c) for c in itertools.combinations(hand, need)], 2):
            inp: dict[str, Any] = {"action": "keep", "player": player}
            if bottom:
                inp["bottom"] = bottom
            out.append(Candidate(inp, "keep", "keep"))
    if game.rules.mulligan.may_take(len(hand)):
        out.append(Candidate({"action": "mulligan", "player": player}, "mulligan", "mulligan"))
    return out
