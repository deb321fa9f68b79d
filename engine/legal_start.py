"""The start of the game for the legal-action generator (:mod:`.legal`): the ``mulligan``
decision, keep (London mulligan: a card on the bottom per mulligan taken) or take a
mulligan (CR 103.5), and the check of an answer.
"""

from __future__ import annotations

import itertools
from typing import Any

from .errors import IllegalAction
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


def validate_mulligan(game: Any, decision: dict[str, Any], inp: dict[str, Any]) -> None:
    """Check a ``mulligan`` answer: ``keep`` with exactly as many cards of the hand on the
    bottom as mulligans taken (London), or ``mulligan`` while the rules allow one (CR 103.5).
    Raises IllegalAction ``wrong_decision``, ``invalid_choice`` or ``not_in_hand``."""
    player, taken = decision["player"], decision.get("mulligans", 0)
    if inp.get("player", player) != player or inp.get("action") not in ("keep", "mulligan"):
        raise IllegalAction("wrong_decision", f"{player} must answer 'keep' or 'mulligan'")
    if inp["action"] == "keep":
        bottom = inp.get("bottom") or []
        need = game.rules.mulligan.bottom_count(taken)
        if not isinstance(bottom, list) or len(bottom) != need or len(set(map(repr, bottom))) != need:
            raise IllegalAction("invalid_choice", f"put exactly {need} card(s) on the bottom (CR 103.5)")
        objs = [game.find(c) if isinstance(c, str) else None for c in bottom]
        if any(o is None or o.zone != "hand" or o.owner != player for o in objs):
            raise IllegalAction("not_in_hand", "the cards put on the bottom must be in the hand")
        if len({id(o) for o in objs}) != need:  # one card named twice (alias and reference), as the engine checks
            raise IllegalAction("invalid_choice", f"put exactly {need} different card(s) on the bottom")
        return
    if not game.rules.mulligan.may_take(len(game.players[player].hand)):
        raise IllegalAction("invalid_choice", "no cards left to mulligan to")
