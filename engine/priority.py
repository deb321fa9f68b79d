"""Priority: who may act, passing in succession, resolving the top of the stack or ending the
step, and state-based actions and triggers before a player receives priority (CR 117, 405,
307.1 sorcery timing)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable

from .decisions import Question
from .errors import IllegalAction
from .turn import MAIN_PHASES

if TYPE_CHECKING:
    from .game import Game


#: The inputs a player with priority may give (CR 117.1).
PRIORITY_ACTIONS = ("pass", "cast", "activate", "play_land", "suspend", "turn_face_up")


class Priority:
    """Priority rounds (a mixin of :class:`~.game.Game`)."""

    asking: Question | None  # the decision waiting for an answer (set by Game.__init__)

    def priority_round(self: Game) -> None:
        """CR 117: the active player receives priority; a player with priority acts or
        passes; when all pass in succession the top of the stack resolves (and the active
        player receives priority again, CR 117.3b) or, with an empty stack, the step
        ends (CR 500.2).

        State-based actions and triggers are checked each time a player would receive
        priority (CR 117.5), except when nothing but a pass or a rejected input happened
        since the last check: that check left no state-based action to perform and no
        trigger waiting, a pass changes only who has priority, an input rejected before
        any handler ran changes nothing, so the check would again find nothing (issue 21:
        these checks were a fifth of the engine's time). After an action (even one rolled
        back) or a resolution the check is made."""
        self.priority: str | None  # declared for the type checker (set by Game.__init__)
        self.priority = self.active
        passes = 0
        announced = None
        settled = False  # True while the game is as the last check left it
        while True:
            if not settled and self.check_state_and_triggers():
                passes = 0
                announced = None
            settled = True
            player = self.priority
            assert player is not None  # None only once the round has ended
            if announced != player:
                self.log("priority_received", player=player)
                announced = player
            outer = self.asking  # the question asked while it waits (Decisions.until_answered)
            self.asking = Question({"kind": "priority", "player": player},
                                   lambda inp, p=player: self.answer_priority(p, inp))
            inp = self.ask("priority", player)
            self.asking = outer
            try:
                handler = self.priority_handler(player, inp)
                if handler is None:  # a pass
                    self.log("priority_passed", player=player)
                    passes += 1
                    if passes >= len(self.living()):
                        if not self.stack:
                            self.priority = None
                            return
                        settled = False
                        self.resolve_top()
                        passes = 0
                        self.priority = self.active
                        announced = None
                    else:
                        self.priority = self.next_player(player)
                    continue
                settled = False  # also if the action is rejected half-way (rolled back)
                with self.transaction():
                    handler(player, inp)
                passes = 0  # CR 117.3c: after acting, the same player receives priority
                announced = None
            except IllegalAction as err:
                self.reject(inp, err)

    def priority_handler(self: Game, player: str, inp: dict[str, Any]) -> Callable[[str, dict[str, Any]], object] | None:
        """CR 117.1: check ``inp`` as the answer of ``player``, who has priority: None for a
        pass, else the method that takes the action (``cast``, ``activate``, ``play_land``,
        ``special_action``, called as ``method(player, inp)``). Raises IllegalAction
        ``game_over``, ``wrong_decision`` or ``not_your_priority``."""
        action = inp.get("action")
        if self.over:
            raise IllegalAction("game_over", "the game is over")
        if action not in PRIORITY_ACTIONS:
            raise IllegalAction("wrong_decision", f"{player} has priority; {action!r} is not a priority action")
        if inp.get("player", player) != player:
            raise IllegalAction("not_your_priority", f"{player} has priority, not {inp.get('player')}")
        if action == "pass":
            return None
        handlers: dict[str, Callable[[str, dict[str, Any]], object]] = {
            "cast": self.cast, "activate": self.activate, "play_land": self.play_land,
            "suspend": self.special_action, "turn_face_up": self.special_action}
        return handlers[action]

    def answer_priority(self: Game, player: str, inp: dict[str, Any]) -> None:
        """Take ``inp`` as ``player``'s action with priority (:meth:`priority_handler`; a pass
        does nothing here), inside a transaction as :meth:`priority_round` does. The
        ``Question`` of a priority decision (``Game.asking``). Raises IllegalAction."""
        handler = self.priority_handler(player, inp)
        if handler is not None:
            with self.transaction():
                handler(player, inp)

    def next_player(self: Game, player: str) -> str:
        """The next living player after ``player`` in turn order (CR 117.3d: who receives
        priority after a pass)."""
        living = self.living()
        i = self.order.index(player)
        while True:
            i = (i + 1) % len(self.order)
            if self.order[i] in living:
                return self.order[i]

    def check_state_and_triggers(self: Game) -> bool:
        """CR 117.5: before a player receives priority, check state-based actions until
        none happen, then put triggered abilities on the stack; repeat until neither
        happens. Returns True if anything happened."""
        anything = False
        while True:
            did = self.check_state()
            if self.pending_triggers:
                self.put_triggers_on_stack()
                did = True
            if not did:
                return anything
            anything = True

    def sorcery_timing_ok(self: Game, player: str) -> bool:
        """CR 307.1: the player's own main phase with an empty stack."""
        return player == self.active and self.step in MAIN_PHASES and not self.stack
