"""Turn structure: phases and steps in order, turn-based actions, the untap and cleanup
steps, mana emptying at the end of steps and phases (CR 500–514)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from . import bookkeeping, combat, combat_effects, copy_effects, end_turn, extra_turns, phasing, sagas, turn_records
from .control import restore_control
from .errors import GameOver, IllegalAction
from .start import start_game

if TYPE_CHECKING:
    from .game import Game
    from .objects import ContinuousEffect, Shield


# CR 500.1: phases and steps, in order; main phases have no steps.
PHASE_OF = {
    "untap": "beginning", "upkeep": "beginning", "draw": "beginning",
    "precombat_main": "precombat_main",
    "beginning_of_combat": "combat", "declare_attackers": "combat", "declare_blockers": "combat",
    "first_strike_damage": "combat", "combat_damage": "combat", "end_of_combat": "combat",
    "postcombat_main": "postcombat_main",
    "end": "ending", "cleanup": "ending",
}
STEPS = list(PHASE_OF)
COMBAT_STEPS = ["beginning_of_combat", "declare_attackers", "declare_blockers",
                "first_strike_damage", "combat_damage", "end_of_combat"]
MAIN_PHASES = ("precombat_main", "postcombat_main")
NO_PRIORITY_STEPS = ("untap", "cleanup")  # CR 502.4, 514.3


class TurnStructure:
    """The turn and its steps (a mixin of :class:`~.game.Game`)."""

    def play(self: Game) -> None:
        """Run the game from the beginning of the current step until the game ends or the
        input source stops it (``ScriptExhausted``, ``ScriptError``)."""
        try:
            if self.start_of_game is not None:
                start_game(self, self.start_of_game.get("deck_rules"))
                self.start_of_game: dict[str, Any] | None  # declared for the type checker (Game.__init__)
                self.start_of_game = None
                self.begin_turn(1, self.active)
            while True:
                try:
                    self.run_step()
                except end_turn.TurnEnded:  # CR 723.1d (engine/end_turn.py)
                    end_turn.skip_to_cleanup(self)
                    continue
                self.next_step()
        except GameOver:
            return

    def turn_plan(self: Game) -> list[str]:
        """CR 500.1: the steps of a turn."""
        return list(STEPS)

    def begin_turn(self: Game, turn: int, active: str, extra: bool = False) -> None:
        """CR 500: a new turn for ``active`` (an extra turn, CR 500.7, with ``extra``);
        permanents they control lose summoning sickness (CR 302.6), the land count resets
        (CR 305.2)."""
        self.turn = turn
        self.active = active
        self.plan = self.turn_plan()
        self.spells_cast_this_turn = 0
        turn_records.reset(self)
        for p in self.players.values():
            p.lands_played = 0
        bookkeeping.begin_turn(self)  # no life gained this turn yet
        for perm in self.battlefield:
            perm.attacked_this_turn = False
            if perm.controller == active:
                perm.summoning_sick = False
        extra_turns.record_turn(self, active, extra)
        self.log("turn_began", turn=turn, active_player=active, **({"extra": True} if extra else {}))

    def next_step(self: Game) -> None:
        """Move to the next step in the turn plan (skipping steps that don't happen),
        or to the next player's turn after cleanup."""
        i = self.plan.index(self.step) if self.step in self.plan else -1
        while True:
            i += 1
            if i >= len(self.plan):
                extra = extra_turns.next_turn(self)  # CR 500.7 (engine/extra_turns.py)
                nxt = self.living()
                idx = (self.order.index(extra_turns.last_normal_turn(self)) + 1) % len(self.order)
                while self.order[idx] not in nxt:
                    idx = (idx + 1) % len(self.order)
                self.begin_turn(self.turn + 1, extra or self.order[idx], extra=extra is not None)
                i = 0
            step = self.plan[i]
            if self.skip_step(step):
                continue
            # drop the steps already done so index() finds the current one
            self.plan = self.plan[i:]
            self.step: str  # declared for the type checker (Game.__init__)
            self.step = step
            return

    def skip_step(self: Game, step: str) -> bool:
        """CR 508.8: with no attackers, skip declare blockers and combat damage; CR 510.4:
        the first-strike damage step happens only if a combatant has first or double
        strike."""
        if step == "draw" and self.turn == 1 and self.rules.first_player_skips_draw:
            return True  # CR 103.8a: the player who plays first skips their first draw step
        if step in ("declare_blockers", "first_strike_damage", "combat_damage"):
            if self.combat is None or not self.combat.declared:
                return True
        if step == "first_strike_damage":
            return not self.combat.any_first_strike(self)
        return False

    def run_step(self: Game) -> None:
        """One step: begin it (turn-based actions, "at the beginning of" triggers), give
        priority where players get it, then end it (mana empties, CR 500.4)."""
        self.phase = PHASE_OF[self.step]
        self.step_serial += 1
        self.log("step_began", turn=self.turn, phase=self.phase, step=self.step)
        step = self.step
        if step == "untap":
            self.untap_step()
        elif step == "draw":
            self.draw(self.active)  # CR 504.1
        elif step == "precombat_main":
            sagas.precombat_main_begins(self)  # CR 505.4, 714.3c: lore counters
        elif step == "beginning_of_combat":
            self.combat = combat.Combat()
        elif step == "declare_attackers":
            if self.combat is None:
                self.combat = combat.Combat()
            combat.declare_attackers_step(self)
        elif step == "declare_blockers":
            combat.declare_blockers_step(self)
        elif step in ("first_strike_damage", "combat_damage"):
            combat.combat_damage_step(self, first_strike=(step == "first_strike_damage"))
        if step == "upkeep":
            self.players[self.active].upkeeps += 1
        if step != "untap":
            self.fire_triggers({"event": "beginning_of_step", "step": step})
        if step == "cleanup":
            self.cleanup_step()
        elif step != "untap":
            self.priority_round()
        self.end_step()

    def end_step(self: Game) -> None:
        """CR 500.4: mana empties from pools at the end of each step and phase; CR 511.3:
        creatures leave combat at the end of combat, and "until end of combat" effects end."""
        nxt_phase_changes = True
        if not self.rules.pool_empties_each_step:
            i = self.plan.index(self.step)
            following = [st for st in self.plan[i + 1:] if not self.skip_step(st)]
            nxt_phase_changes = not following or PHASE_OF[following[0]] != self.phase
        if nxt_phase_changes:
            for pid in self.order:
                pool = self.players[pid].pool
                if pool.total():
                    was = pool.empty()
                    self.log("mana_emptied", player=pid, mana=was)
                    if self.rules.mana_burn:
                        amount = sum(was.values())
                        self.log("mana_burn", player=pid, amount=amount)
                        self.lose_life(pid, amount)
        if self.step == "end_of_combat":
            self.combat = None
            combat_effects.end_of_combat(self)  # "until end of combat" effects end (CR 511.3)
        self.log("step_ended", turn=self.turn, step=self.step)

    def untap_step(self: Game) -> None:
        """CR 502.3: the active player untaps their permanents, all at once. No one gets
        priority (CR 502.4): "whenever … becomes untapped" abilities trigger now and wait,
        like any trigger, until a player would receive priority, in the upkeep. First, CR
        502.1: phasing (engine/phasing.py)."""
        phasing.untap_step_phasing(self)
        untapped = []
        for perm in list(self.battlefield):
            if perm.controller == self.active and perm.tapped:
                perm.tapped = False
                self.log("untapped", object=perm.ref, card=perm.card)
                untapped.append(perm)
        for perm in untapped:
            self.fire_triggers({"event": "becomes_untapped", "object": perm})

    def cleanup_step(self: Game) -> None:
        """CR 514: discard to maximum hand size, then damage wears off and "until end of
        turn" effects end; if state-based actions or triggers happen, players get priority
        and another cleanup step follows (CR 514.3a)."""
        while True:
            player = self.players[self.active]
            excess = len(player.hand) - self.rules.max_hand_size
            if excess > 0:
                self.decide("discard", self.active, "discard",
                            lambda inp: self._cleanup_discard(inp, excess), count=excess)
            for perm in self.battlefield:
                perm.damage = 0
                perm.regen_shields = 0
                perm.dealt_deathtouch_damage = False
            self.effects: list[ContinuousEffect]  # declared for the type checker (Game.__init__)
            ended_control = [e for e in self.effects if e.until == "end_of_turn" and e.kind == "control"]
            self.effects = [e for e in self.effects if e.until != "end_of_turn"]
            restore_control(self, ended_control)  # "gain control … until end of turn" (CR 611.2a)
            self.shields: list[Shield]  # declared for the type checker (Game.__init__)
            copy_effects.end_of_turn(self)  # "becomes a copy … until end of turn" (engine/copy_effects.py)
            self.shields = []
            if self.check_state() or self.pending_triggers:
                self.priority_round()
                self.log("step_ended", turn=self.turn, step="cleanup")
                self.step_serial += 1
                self.log("step_began", turn=self.turn, phase="ending", step="cleanup")
                continue
            return

    def _cleanup_discard(self: Game, inp: dict[str, Any], count: int) -> None:
        cards = inp.get("cards") or []
        if len(cards) != count or len(set(cards)) != count:
            raise IllegalAction("invalid_choice", f"discard exactly {count} different card(s)")
        objs = []
        for ref in cards:
            obj = self.find(ref)
            if obj is None or obj.zone != "hand" or obj.owner != self.active:
                raise IllegalAction("not_in_hand", f"{ref} is not in {self.active}'s hand")
            objs.append(obj)
        if len({id(o) for o in objs}) != count:  # one card named twice (its alias and its reference)
            raise IllegalAction("invalid_choice", f"discard exactly {count} different card(s)")
        for obj in objs:
            self.discard(obj)
