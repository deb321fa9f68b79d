"""Typed errors of the reference engine."""

from __future__ import annotations


class IllegalAction(Exception):
    """An input the rules do not allow now. The game state is left unchanged.

    ``code`` is one of the rejection codes of docs/FORMAT.md §8 (``sorcery_timing``,
    ``cannot_pay``, ``invalid_target`` …); ``message`` explains it in English.
    """

    def __init__(self, code: str, message: str) -> None:
        super().__init__(f"{code}: {message}")
        self.code = code
        self.message = message


class ScenarioError(Exception):
    """A scenario (setup or card data) the engine cannot build a game from.

    ``path`` is a JSON path into the scenario (``$.setup.players[0].hand[1].card``).
    """

    def __init__(self, path: str, message: str) -> None:
        super().__init__(f"{path}: {message}")
        self.path = path
        self.message = message


class ScriptError(Exception):
    """The script cannot go on: a decision it does not answer (strict mode), or a macro
    that cannot reach its goal. ``code`` is ``unanswered_decision``,
    ``advance_not_reached`` or ``bad_input``; ``at`` is the script index."""

    def __init__(self, code: str, message: str, at: int | None) -> None:
        super().__init__(f"{code}: {message}")
        self.code = code
        self.message = message
        self.at = at


class ScriptExhausted(Exception):
    """Raised by the input source when the script has no more inputs: the run ends."""


class GameOver(Exception):
    """Raised inside the engine when the game has ended (CR 104)."""
