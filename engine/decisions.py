"""Players' decisions: asking the input source, rejecting an illegal answer with a typed
code and reversing whatever it did (CR 732-like handling of illegal actions; transactions and
dry runs through ``rollback``)."""

from __future__ import annotations

from contextlib import contextmanager
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Callable, Iterator, TypeVar

from . import rollback
from .errors import IllegalAction
from .inputs import rejection_fields, shape_problem

if TYPE_CHECKING:
    from .game import Game

T = TypeVar("T")  # what a decision's handler returns


@dataclass(frozen=True)
class Question:
    """A decision the game is waiting on (``Game.asking``): ``decision`` is what the input
    source is passed (``{"kind", "player", **info}``) and ``answer(inp)`` is the engine's own
    function that applies an answer to it, or raises IllegalAction with the rejection code
    (docs/FORMAT.md §8) before the game asks again. The legal-action generator checks an
    answer by calling ``answer`` on a dry run (python-chess's one ``is_legal``)."""

    decision: dict[str, Any]
    answer: Callable[[dict[str, Any]], Any]


class Decisions:
    """Asking players to decide and undoing illegal answers (a mixin of :class:`~.game.Game`)."""

    asking: Question | None  # the decision waiting for an answer (set by Game.__init__)

    def ask(self: Game, kind: str, player: str | None, **info: Any) -> dict[str, Any]:
        """Ask the input source for the answer to a decision; return the raw input dict
        (with its script index under ``at``). An input of the wrong shape is rejected
        with ``bad_input`` and the question is asked again."""
        while True:
            inp: dict[str, Any] = self.inputs.next(self, {"kind": kind, "player": player, **info})
            problem = shape_problem(inp)
            if problem is None:
                return inp
            self.reject(inp, IllegalAction("bad_input", problem))

    def reject(self: Game, inp: Any, err: IllegalAction) -> None:
        """Log a typed rejection of an input (docs/FORMAT.md §8); its ``at``, ``player``
        and ``action`` are echoed only when of their documented shape (else null)."""
        self.log("action_rejected", **rejection_fields(inp), code=err.code, message=err.message)

    def decide(self: Game, kind: str, player: str, action: str, handler: Callable[[dict[str, Any]], T],
               transactional: bool = False, **info: Any) -> T:
        """Ask ``player`` until an input of type ``action`` is accepted by ``handler``.

        ``handler(inp)`` applies the answer (returned) or raises IllegalAction (then the input is
        rejected and asked again). With ``transactional`` the game state is restored on a
        rejection, so a handler may fail half-way. While it waits, the question is
        ``Game.asking`` (:meth:`until_answered`).
        """
        def answer(inp: dict[str, Any]) -> T:
            if self.over:
                raise IllegalAction("game_over", "the game is over")
            if inp.get("action") != action:
                raise IllegalAction("wrong_decision", f"{player} must answer {kind!r} with {action!r}, "
                                    f"not {inp.get('action')!r}")
            if inp.get("player", player) != player:
                raise IllegalAction("wrong_decision", f"{kind!r} is {player}'s decision")
            if transactional:
                with self.transaction():
                    return handler(inp)
            return handler(inp)
        return self.until_answered(kind, player, answer, **info)

    def until_answered(self: Game, kind: str, player: str, answer: Callable[[dict[str, Any]], T], **info: Any) -> T:
        """Ask decision ``kind`` of ``player`` until ``answer(inp)`` accepts an input (returns
        what it returns) instead of raising IllegalAction (the input is then rejected, logged,
        and the question asked again). Meanwhile ``Game.asking`` is the
        :class:`Question`, so that :meth:`answer_pending` (the legal-action generator) checks an
        answer with this very ``answer``; it is put back as it was once an answer is accepted
        (a question asked while an answer is applied nests)."""
        outer = self.asking
        self.asking = Question({"kind": kind, "player": player, **info}, answer)
        while True:
            inp = self.ask(kind, player, **info)
            try:
                result = answer(inp)
            except IllegalAction as err:
                self.reject(inp, err)
                continue
            self.asking = outer
            return result

    def answer_pending(self: Game, inp: dict[str, Any]) -> Any:
        """Apply ``inp`` as the answer to the question the game is waiting on
        (``Game.asking``), with the engine's own function for it; meant for a dry run
        (``Game.dry_run``), which puts everything back. Raises IllegalAction (the code the
        engine would log, docs/FORMAT.md §8; ``bad_input`` for an input of the wrong shape,
        which ``ask`` refuses first) or ValueError if no question is pending."""
        question = self.asking
        if question is None:
            raise ValueError("no decision is pending")
        problem = shape_problem(inp)
        if problem is not None:
            raise IllegalAction("bad_input", problem)
        return question.answer(inp)

    def _yes(self: Game, player: str, reason: str, about: str) -> bool:
        """A yes/no ``choose`` decision ("you may …", CR 603.5)."""
        def answer(inp: dict[str, Any]) -> bool:
            if inp.get("choice") not in ("yes", "no"):
                raise IllegalAction("invalid_choice", "answer yes or no")
            return bool(inp["choice"] == "yes")
        return self.decide("choose", player, "choose", answer, reason=reason, about=about)

    @contextmanager
    def transaction(self: Game) -> Iterator[None]:
        """Restore the whole game state if the body raises IllegalAction (CR 732-like:
        an illegal action is reversed as if it never happened); the log is truncated.
        The state is saved by ``rollback.save`` (a shallow copy of what can change) and
        put back in place, so references to the game's objects stay valid."""
        kept = self.layers.checkpoint()
        saved = rollback.save(self)
        try:
            yield
        except IllegalAction:
            saved.restore()
            self.layers.resume(kept)  # the state went back: so does the layer system's result
            raise

    def dry_run(self: Game, fn: Callable[[Game], object]) -> None:
        """Run ``fn(game)`` to check that something would succeed without changing
        anything: the game is restored afterwards whatever happens (``rollback``), events
        logged meanwhile are dropped; there is no input source meanwhile (``fn`` may set
        one). IllegalAction (and any other exception) propagates."""
        kept = self.layers.checkpoint()
        saved = rollback.save(self)
        self.inputs: Any  # the input source, declared for the type checker (Game.__init__)
        self.inputs = None
        try:
            fn(self)
        finally:
            saved.restore()
            self.layers.resume(kept)
