"""Starting the game (CR 103): deck legality, shuffling, opening hands and mulligans.

Used when a fixture's setup says ``"start_of_game": true``: the players' libraries are
their decks, the hands are empty, and the game begins with this procedure, then turn 1.
"""

from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING, Any, TypedDict

from .errors import GameOver, IllegalAction
from .rng import shuffle_library

if TYPE_CHECKING:
    from .cards import CardDefinition
    from .game import Game

OPENING_HAND = 7  # CR 103.5 (the 1999 rulebook: "pesca le prime sette carte")
class DeckRules(TypedDict):
    """One format's deck-construction rules (CR 100.2): the fewest cards a deck has, and
    how many copies of a card other than basic lands it may hold (None: any number)."""

    min_cards: int
    max_copies: int | None


DECK_RULES: dict[str, DeckRules] = {
    # CR 100.2a: constructed decks have at least 60 cards and at most four of any card
    # other than basic lands (1999 rulebook, "Equipaggiamento" and "Mazzo").
    "constructed": {"min_cards": 60, "max_copies": 4},
    # CR 100.2b: limited (sealed deck) decks have at least 40 cards (1999: "Sealed deck").
    "limited": {"min_cards": 40, "max_copies": None},
}


def deck_problems(deck: list["CardDefinition"], rules: str) -> list[str]:
    """Why ``deck`` (card definitions) breaks the deck rules ``rules`` (``constructed`` or
    ``limited``); an empty list for a legal deck. Raises KeyError for unknown rules."""
    r = DECK_RULES[rules]
    problems = []
    if len(deck) < r["min_cards"]:
        problems.append(f"{len(deck)} cards; a {rules} deck has at least {r['min_cards']}")
    if r["max_copies"] is not None:
        counts = Counter(d.name for d in deck if not ("Basic" in d.supertypes and "Land" in d.types))
        for name, n in sorted(counts.items()):
            if n > r["max_copies"]:
                problems.append(f"{n} copies of {name}; at most {r['max_copies']} of a card other than basic lands")
    return problems


def start_game(game: "Game", deck_rules: str | None) -> None:
    """CR 103: check decks (if ``deck_rules``), shuffle every library, draw opening hands,
    then each player in turn order keeps or takes mulligans (``Ruleset.mulligan``, a
    :class:`~.rulesets.MulliganRule`).
    Raises GameOver if a deck is illegal (the game does not start)."""
    if deck_rules:
        illegal = []
        for pid in game.order:
            problems = deck_problems([o.definition for o in game.players[pid].library], deck_rules)
            game.log("deck_checked", player=pid, rules=deck_rules, legal=not problems, problems=problems)
            if problems:
                illegal.append(pid)
        if illegal:
            game.over = True
            game.result = {"winners": [], "losers": [], "draw": False, "not_started": True}
            game.log("game_not_started", reason="illegal_deck", players=illegal)
            raise GameOver()
    for pid in game.apnap():
        shuffle_library(game, pid)
    for pid in game.apnap():
        game.draw(pid, OPENING_HAND)
    for pid in game.apnap():
        _mulligans(game, pid)


def _mulligans(game: "Game", pid: str) -> None:
    """CR 103.5: ``pid`` takes mulligans until they keep (each answer applied by
    :func:`mulligan_answer`)."""
    taken = 0
    while True:
        def answer(inp: dict[str, Any], t: int = taken) -> bool:
            return mulligan_answer(game, pid, t, inp)
        if game.until_answered("mulligan", pid, answer, mulligans=taken):
            return
        taken += 1


def mulligan_answer(game: "Game", pid: str, taken: int, inp: dict[str, Any]) -> bool:
    """Apply ``inp`` as ``pid``'s answer to the ``mulligan`` decision after ``taken``
    mulligans (CR 103.5): ``keep`` puts exactly as many different cards of the hand on the
    bottom as mulligans taken (London mulligan; none under the draw-one-fewer rule) and
    returns True; ``mulligan`` shuffles the hand into the library, draws a new hand (seven,
    or one card fewer) and returns False. Raises IllegalAction (``wrong_decision``,
    ``invalid_choice``, ``not_in_hand``) before changing anything. The engine's one check of
    a mulligan answer: the legal-action generator calls it on a dry run."""
    if inp.get("player", pid) != pid or inp.get("action") not in ("keep", "mulligan"):
        raise IllegalAction("wrong_decision", f"{pid} must answer 'keep' or 'mulligan'")
    if inp["action"] == "keep":
        bottom = inp.get("bottom") or []
        need = game.rules.mulligan.bottom_count(taken)
        if not isinstance(bottom, list) or len(bottom) != need or len(set(map(repr, bottom))) != need:
            raise IllegalAction("invalid_choice", f"put exactly {need} card(s) on the bottom (CR 103.5)")
        objs = [game.find(c) if isinstance(c, str) else None for c in bottom]
        if any(o is None or o.zone != "hand" or o.owner != pid for o in objs):
            raise IllegalAction("not_in_hand", "the cards put on the bottom must be in the hand")
        if len({id(o) for o in objs}) != need:  # one card named twice (alias and reference)
            raise IllegalAction("invalid_choice", f"put exactly {need} different card(s) on the bottom")
        for o in objs:
            assert o is not None  # each is in the hand (checked above)
            game.move(o, "library", position="bottom", cause="mulligan")
        game.log("hand_kept", player=pid, mulligans=taken, hand_size=len(game.players[pid].hand))
        return True
    size = len(game.players[pid].hand)
    if not game.rules.mulligan.may_take(size):
        raise IllegalAction("invalid_choice", "no cards left to mulligan to")
    game.log("mulligan_taken", player=pid, mulligans=taken + 1)
    for o in list(game.players[pid].hand):
        game.move(o, "library", cause="mulligan")
    shuffle_library(game, pid)
    game.draw(pid, game.rules.mulligan.new_hand_size(OPENING_HAND, size))
    return False
