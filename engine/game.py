"""The game: zones, the turn, priority and the stack, casting, state-based actions and
triggered abilities. Combat lives in ``combat.py``, effects in ``effects.py``,
characteristics in ``characteristics.py``.

The game is driven by inputs: whenever a player must decide, the game asks its input source
(``Game.ask``), which answers from a script (``scenario.py``), a protocol client or a
self-play driver. An illegal answer is rejected with a typed code and logged; the game state
is left unchanged (CR 732-style reversal, done by a transaction).
"""

from __future__ import annotations

from contextlib import contextmanager
from typing import Any, Iterator

from . import characteristics as ch
from . import rollback
from .cards import CardDefinition
from .errors import GameOver, IllegalAction, ScriptError
from .mana import ManaCost, parse_mana_symbols
from .objects import ContinuousEffect, GameObject, Player, Shield, StackItem
from .rng import SplitMix64
from .rulesets import Ruleset


def with_x(spec: Any, x: int) -> Any:
    """A target spec with ``"X"`` in its filter replaced by the chosen X (Spell Blast)."""
    flt = spec.get("filter") if hasattr(spec, "get") else None
    if not flt or "X" not in flt.values():
        return spec
    return {**spec, "filter": {k: (x if v == "X" else v) for k, v in flt.items()}}


def target_spec_active(spec: Any, kicked: tuple) -> bool:
    """CR 601.2c / 702.33e: a target that depends on a kicker cost is chosen only if that
    kicker was declared (``"condition": {"kicked": i}`` on the target spec)."""
    cond = spec.get("condition") if hasattr(spec, "get") else None
    return not cond or cond.get("kicked") in kicked


def describe(data: Any) -> str:
    """A canonical one-line text of card data for messages (sorted keys: a message must not
    depend on the order keys came in)."""
    import json
    return json.dumps(data, sort_keys=True, default=dict)

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
PRIORITY_ACTIONS = ("pass", "cast", "activate", "play_land", "suspend", "turn_face_up")


class Game:
    """One game of Magic between two or more players.

    Build it with ``scenario.build_game`` (from a fixture's setup) and drive it with
    ``play()``. Everything observable is in ``events`` (the log, docs/FORMAT.md §6) and
    ``state()`` (docs/FORMAT.md §4).
    """

    def __init__(self, cards: dict[str, CardDefinition], ruleset: Ruleset, seed: int, inputs: Any) -> None:
        self.cards = cards
        self.rules = ruleset
        self.rng = SplitMix64(seed)
        self.seed = seed
        self.inputs = inputs
        self.players: dict[str, Player] = {}
        self.order: list[str] = []
        self.battlefield: list[GameObject] = []
        self.stack: list[StackItem] = []
        self.objects: dict[str, GameObject] = {}
        self.by_card: dict[str, GameObject] = {}
        self.incarnation: dict[str, int] = {}
        self.serial = {"token": 0, "ability": 0, "copy": 0, "combat_damage": 0}
        self.clock = 0
        self.effects: list[ContinuousEffect] = []
        self.shields: list[Shield] = []
        self.pending_triggers: list[dict] = []
        self.events: list[dict] = []
        self.turn = 1
        self.active = ""
        self.step = "precombat_main"
        self.phase = "precombat_main"
        self.plan: list[str] = []
        self.step_serial = 0
        self.priority: str | None = None
        self.combat: Any = None
        self.over = False
        self.result: dict | None = None
        self.start_of_game: dict | None = None  # {"deck_rules": ...} until CR 103 is done
        self.spells_cast_this_turn = 0  # CR 702.40a (storm counts them)
        self.pending_cast: list[dict] = []  # casts offered as a resolving ability finishes

    # ------------------------------------------------------------------ log
    def log(self, type_: str, **fields: Any) -> dict:
        """Append an event ``{"type": type_, **fields}`` to the log and return it."""
        ev = {"type": type_, **fields}
        self.events.append(ev)
        return ev

    def zone_name(self, zone: str) -> str:
        """The zone's name in the log under this ruleset (``exile`` or its old name)."""
        return self.rules.exile_zone_name if zone == "exile" else zone

    # ------------------------------------------------------------ objects
    def new_timestamp(self) -> int:
        """CR 613.7: a new, larger timestamp."""
        self.clock += 1
        return self.clock

    def next_ref(self, kind: str) -> str:
        """A reference for an object created during play: ``token#1``, ``ability#2`` …"""
        self.serial[kind] += 1
        return f"{kind}#{self.serial[kind]}"

    def create_card_object(self, alias: str, definition: CardDefinition, owner: str, zone: str) -> GameObject:
        """A card's first object (from the setup): its reference is its alias."""
        obj = GameObject(ref=alias, card=alias, definition=definition, owner=owner, zone=zone,
                         timestamp=self.new_timestamp())
        self.incarnation[alias] = 1
        self.objects[alias] = obj
        self.by_card[alias] = obj
        return obj

    def find(self, ref: str) -> GameObject | None:
        """The object a script names: a current reference (``bolt#2``) or a card alias
        (``bolt``: whatever object that card is now)."""
        if ref in self.objects:
            return self.objects[ref]
        return self.by_card.get(ref)

    def find_stack_item(self, ref: str) -> StackItem | None:
        """A spell or ability on the stack by its reference or its card alias."""
        for item in self.stack:
            if item.ref == ref or (item.obj is not None and item.obj.card == ref):
                return item
        return None

    def zone_list(self, obj: GameObject) -> list:
        if obj.zone == "battlefield":
            return self.battlefield
        if obj.zone == "stack":
            return []
        return self.players[obj.owner].zone(obj.zone)

    def opponents(self, player: str) -> list[str]:
        return [p for p in self.order if p != player and not self.players[p].lost]

    def apnap(self) -> list[str]:
        """CR 101.4: the active player, then the others in turn order."""
        i = self.order.index(self.active)
        return self.order[i:] + self.order[:i]

    def living(self) -> list[str]:
        return [p for p in self.order if not self.players[p].lost]

    # ----------------------------------------------------------- zone moves
    def move(self, obj: GameObject, to: str, *, position: str = "top", controller: str | None = None,
             cause: str | None = None, face_down: bool = False, init: dict | None = None) -> GameObject:
        """Move ``obj`` to zone ``to`` (``hand``, ``library``, ``graveyard``, ``exile``,
        ``battlefield``, ``stack``); return the new object (CR 400.7).

        Applies replacement effects on the move (CR 614: e.g. "put on top of its owner's
        library instead"), logs ``zone_changed`` (and ``permanent_entered``), and records
        leaves/enters-the-battlefield triggers with last-known information (CR 603.10).
        Tokens leaving the battlefield cease to exist at the next state-based action check
        (CR 704.5d).
        """
        frm = obj.zone
        if frm == "stack" and obj.exile_on_leaving_stack and to != "exile":
            # CR 702.34a: a flashback spell is exiled instead of going anywhere else
            self.log("replacement_applied", object=obj.ref, card=obj.card, rule="702.34a", instead="exile")
            to = "exile"
        if frm == "battlefield" and to == "graveyard":
            for ab in obj.chars.abilities:
                if (ab.get("kind") == "replacement" and ab.get("event") == "put_into_graveyard_from_battlefield"
                        and ab.get("affected", "self") == "self"):
                    inst = ab["instead"]
                    to = {"library_top": "library", "library_bottom": "library"}.get(inst["to"], inst["to"])
                    position = "bottom" if inst["to"] == "library_bottom" else "top"
                    self.log("replacement_applied", object=obj.ref, card=obj.card, rule="614.1a",
                             instead=inst["to"])
        # leave the old zone
        if frm == "battlefield":
            self.battlefield.remove(obj)
            if self.combat is not None:
                self.combat.remove(obj.ref)
        elif frm != "stack":
            self.zone_list(obj).remove(obj)
        del self.objects[obj.ref]
        if obj.is_token:
            new_ref = obj.ref
        else:
            self.incarnation[obj.card] += 1
            new_ref = f"{obj.card}#{self.incarnation[obj.card]}"
        new = GameObject(ref=new_ref, card=obj.card, definition=obj.definition, owner=obj.owner, zone=to,
                         timestamp=self.new_timestamp(), face_down=face_down and to in ("stack", "battlefield"))
        for attr, value in (init or {}).items():  # what the new object remembers (kicked …)
            setattr(new, attr, value)
        if to == "battlefield":
            new.controller = controller or obj.controller or obj.owner
            new.summoning_sick = True
            new.upkeep_mark = self.players[new.controller].upkeeps
            self.battlefield.append(new)
        elif to == "library" and position == "bottom":
            self.players[obj.owner].library.append(new)
        elif to == "library":
            self.players[obj.owner].library.insert(0, new)
        elif to == "stack":
            new.controller = controller or obj.owner
        else:
            self.players[obj.owner].zone(to).append(new)
        self.objects[new.ref] = new
        if not obj.is_token:
            self.by_card[obj.card] = new
        self.log("zone_changed", object=obj.ref, new_object=new.ref, card=obj.card, name=new.name,
                 owner=obj.owner, **{"from": self.zone_name(frm), "to": self.zone_name(to)},
                 **({"cause": cause} if cause else {}), **({"face_down": True} if obj.face_down or new.face_down else {}))
        if obj.face_down and to not in ("battlefield", "stack"):
            # CR 708.9: a face-down permanent or spell leaving is revealed
            self.log("card_revealed", player=obj.owner, object=new.ref, card=new.card, name=new.name)
        if to == "battlefield":
            self.log("permanent_entered", object=new.ref, card=new.card, name=new.name, controller=new.controller)
            self.as_enters(new)
            self.fire_triggers({"event": "enters_battlefield", "object": new})
        if frm == "battlefield":
            event = {"event": "leaves_battlefield", "object": obj, "to": to}
            self.fire_triggers(event, lki=[obj])
        return new

    def as_enters(self, obj: GameObject) -> None:
        """CR 614.12: "As this enters, choose a card name" (Meddling Mage): the controller
        chooses a nonland card name as it enters."""
        spec = (obj.definition.raw or {}).get("as_enters") if not obj.face_down else None
        if not spec or spec.get("choose") != "card_name":
            return

        def name(inp: dict) -> str:
            choice = inp.get("choice")
            d = self.cards.get(choice) if isinstance(choice, str) else None
            if d is None or "Land" in d.types:
                raise IllegalAction("invalid_choice", "name a nonland card")
            return choice

        obj.chosen_name = self.decide("choose", obj.controller, "choose", name, reason="card_name")
        self.log("card_name_chosen", object=obj.ref, card=obj.card, name=obj.chosen_name)

    # ----------------------------------------------------------- decisions
    def ask(self, kind: str, player: str | None, **info: Any) -> dict:
        """Ask the input source for the answer to a decision; return the raw input dict
        (with its script index under ``at``). An input of the wrong shape is rejected
        with ``bad_input`` and the question is asked again."""
        from .inputs import shape_problem
        while True:
            inp = self.inputs.next(self, {"kind": kind, "player": player, **info})
            problem = shape_problem(inp)
            if problem is None:
                return inp
            self.reject(inp, IllegalAction("bad_input", problem))

    def reject(self, inp: Any, err: IllegalAction) -> None:
        """Log a typed rejection of an input (docs/FORMAT.md §8); its ``at``, ``player``
        and ``action`` are echoed only when of their documented shape (else null)."""
        from .inputs import rejection_fields
        self.log("action_rejected", **rejection_fields(inp), code=err.code, message=err.message)

    def decide(self, kind: str, player: str, action: str, handler: Any, transactional: bool = False,
               **info: Any) -> Any:
        """Ask ``player`` until an input of type ``action`` is accepted by ``handler``.

        ``handler(inp)`` applies the answer or raises IllegalAction (then the input is
        rejected and asked again). With ``transactional`` the game state is restored on a
        rejection, so a handler may fail half-way.
        """
        while True:
            inp = self.ask(kind, player, **info)
            try:
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
            except IllegalAction as err:
                self.reject(inp, err)

    @contextmanager
    def transaction(self) -> Iterator[None]:
        """Restore the whole game state if the body raises IllegalAction (CR 732-like:
        an illegal action is reversed as if it never happened); the log is truncated.
        The state is saved by ``rollback.save`` (a shallow copy of what can change) and
        put back in place, so references to the game's objects stay valid."""
        saved = rollback.save(self)
        try:
            yield
        except IllegalAction:
            saved.restore()
            raise

    # ----------------------------------------------------------- the turn
    def play(self) -> None:
        """Run the game from the beginning of the current step until the game ends or the
        input source stops it (``ScriptExhausted``, ``ScriptError``)."""
        try:
            if self.start_of_game is not None:
                from .start import start_game
                start_game(self, self.start_of_game.get("deck_rules"))
                self.start_of_game = None
                self.begin_turn(1, self.active)
            while True:
                self.run_step()
                self.next_step()
        except GameOver:
            return

    def turn_plan(self) -> list[str]:
        """CR 500.1: the steps of a turn."""
        return list(STEPS)

    def begin_turn(self, turn: int, active: str) -> None:
        """CR 500: a new turn for ``active``; permanents they control lose summoning
        sickness (CR 302.6), the land count resets (CR 305.2)."""
        self.turn = turn
        self.active = active
        self.plan = self.turn_plan()
        self.spells_cast_this_turn = 0
        for p in self.players.values():
            p.lands_played = 0
        for perm in self.battlefield:
            perm.attacked_this_turn = False
            if perm.controller == active:
                perm.summoning_sick = False
        self.log("turn_began", turn=turn, active_player=active)

    def next_step(self) -> None:
        """Move to the next step in the turn plan (skipping steps that don't happen),
        or to the next player's turn after cleanup."""
        i = self.plan.index(self.step) if self.step in self.plan else -1
        while True:
            i += 1
            if i >= len(self.plan):
                nxt = self.living()
                idx = (self.order.index(self.active) + 1) % len(self.order)
                while self.order[idx] not in nxt:
                    idx = (idx + 1) % len(self.order)
                self.begin_turn(self.turn + 1, self.order[idx])
                i = 0
            step = self.plan[i]
            if self.skip_step(step):
                continue
            # drop the steps already done so index() finds the current one
            self.plan = self.plan[i:]
            self.step = step
            return

    def skip_step(self, step: str) -> bool:
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

    def run_step(self) -> None:
        """One step: begin it (turn-based actions, "at the beginning of" triggers), give
        priority where players get it, then end it (mana empties, CR 500.4)."""
        from . import combat

        self.phase = PHASE_OF[self.step]
        self.step_serial += 1
        self.log("step_began", turn=self.turn, phase=self.phase, step=self.step)
        step = self.step
        if step == "untap":
            self.untap_step()
        elif step == "draw":
            self.draw(self.active)  # CR 504.1
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

    def end_step(self) -> None:
        """CR 500.4: mana empties from pools at the end of each step and phase; CR 511.3:
        creatures leave combat at the end of combat."""
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
        self.log("step_ended", turn=self.turn, step=self.step)

    def untap_step(self) -> None:
        """CR 502.3: the active player untaps their permanents. No one gets priority."""
        for perm in list(self.battlefield):
            if perm.controller == self.active and perm.tapped:
                perm.tapped = False
                self.log("untapped", object=perm.ref, card=perm.card)

    def cleanup_step(self) -> None:
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
            self.effects = [e for e in self.effects if e.until != "end_of_turn"]
            self.shields = []
            if self.check_state() or self.pending_triggers:
                self.priority_round()
                self.log("step_ended", turn=self.turn, step="cleanup")
                self.step_serial += 1
                self.log("step_began", turn=self.turn, phase="ending", step="cleanup")
                continue
            return

    def _cleanup_discard(self, inp: dict, count: int) -> None:
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

    # ------------------------------------------------------------ priority
    def priority_round(self) -> None:
        """CR 117: the active player receives priority; a player with priority acts or
        passes; when all pass in succession the top of the stack resolves (and the active
        player receives priority again, CR 117.3b) or, with an empty stack, the step
        ends (CR 500.2)."""
        self.priority = self.active
        passes = 0
        announced = None
        while True:
            if self.check_state_and_triggers():
                passes = 0
                announced = None
            player = self.priority
            if announced != player:
                self.log("priority_received", player=player)
                announced = player
            inp = self.ask("priority", player)
            action = inp.get("action")
            try:
                if self.over:
                    raise IllegalAction("game_over", "the game is over")
                if action not in PRIORITY_ACTIONS:
                    raise IllegalAction("wrong_decision", f"{player} has priority; {action!r} is not a priority action")
                if inp.get("player", player) != player:
                    raise IllegalAction("not_your_priority", f"{player} has priority, not {inp.get('player')}")
                if action == "pass":
                    self.log("priority_passed", player=player)
                    passes += 1
                    if passes >= len(self.living()):
                        if not self.stack:
                            self.priority = None
                            return
                        self.resolve_top()
                        passes = 0
                        self.priority = self.active
                        announced = None
                    else:
                        self.priority = self.next_player(player)
                    continue
                handler = {"cast": self.cast, "activate": self.activate, "play_land": self.play_land,
                           "suspend": self.special_action, "turn_face_up": self.special_action}.get(action)
                if handler is None:
                    raise IllegalAction("wrong_decision", f"{player} has priority; {action!r} is not a priority action")
                with self.transaction():
                    handler(player, inp)
                passes = 0  # CR 117.3c: after acting, the same player receives priority
                announced = None
            except IllegalAction as err:
                self.reject(inp, err)

    def next_player(self, player: str) -> str:
        living = self.living()
        i = self.order.index(player)
        while True:
            i = (i + 1) % len(self.order)
            if self.order[i] in living:
                return self.order[i]

    def check_state_and_triggers(self) -> bool:
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

    # ---------------------------------------------------------- sorcery timing
    def sorcery_timing_ok(self, player: str) -> bool:
        """CR 307.1: the player's own main phase with an empty stack."""
        return player == self.active and self.step in MAIN_PHASES and not self.stack

    # ------------------------------------------------------------- lands
    def play_land(self, player: str, inp: dict) -> None:
        """CR 305.1–305.2: a special action; main phase, empty stack, own turn, one per turn.
        Raises IllegalAction (``not_in_hand``, ``not_a_land``, ``sorcery_timing``,
        ``land_already_played``)."""
        obj = self._in_hand(player, inp.get("card"))
        if not ch.is_type(obj, "Land"):
            raise IllegalAction("not_a_land", f"{obj.name} is not a land")
        if not self.sorcery_timing_ok(player):
            raise IllegalAction("sorcery_timing", "a land is played only in your main phase with an empty stack")
        if self.players[player].lands_played >= 1:
            raise IllegalAction("land_already_played", f"{player} has already played a land this turn")
        self.players[player].lands_played += 1
        new = self.move(obj, "battlefield", controller=player)
        self.log("land_played", player=player, object=new.ref, card=new.card)

    def _in_hand(self, player: str, ref: Any) -> GameObject:
        if not isinstance(ref, str):
            raise IllegalAction("unknown_object", "name the card by its alias")
        obj = self.find(ref)
        if obj is None:
            raise IllegalAction("unknown_object", f"no object {ref!r}")
        if obj.zone != "hand" or obj.owner != player:
            raise IllegalAction("not_in_hand", f"{ref} is not in {player}'s hand")
        return obj

    # ------------------------------------------------------------- casting
    def cast(self, player: str, inp: dict, *, forced: str | None = None) -> StackItem:
        """CR 601.2: cast a spell: announce it (move it to the stack), choose modes, kicker
        and buyback (additional costs), an alternative cost, X and targets; determine the
        total cost (CR 601.2f: the mana cost or an alternative cost, plus additional
        costs); activate mana abilities and pay. Then the spell is cast (``spell_cast``)
        and "whenever you cast" abilities (and storm) trigger.

        From the hand; from the graveyard with flashback (CR 702.34); from exile when an
        effect allows it (Spelljack) or ``forced`` by a resolving suspend or madness trigger
        (``forced`` = ``"suspend"`` or ``"madness"``: timing is ignored, CR 702.62a,
        702.35a). Everything is checked before anything changes.
        Raises IllegalAction (``not_in_hand``, ``sorcery_timing``, ``split_second``,
        ``cant_cast``, ``invalid_alternative``, ``cannot_pay``, ``invalid_target`` …)."""
        ref = inp.get("card")
        obj = self.find(ref) if isinstance(ref, str) else None
        if obj is None:
            raise IllegalAction("unknown_object", f"no object {ref!r}")
        alternative = forced if forced in ("madness",) else inp.get("alternative")
        if forced == "suspend":
            alternative = "without_paying"
        d = obj.definition
        card_kws = {k["keyword"]: dict(k) for k in d.keywords}
        # where may it be cast from?
        if forced is not None:
            if obj.zone != "exile" or obj.owner != player:
                raise IllegalAction("not_in_hand", f"{ref} is not the exiled card to cast")
        elif obj.zone == "hand" and obj.owner == player:
            if alternative in ("flashback", "madness", "without_paying"):
                # CR 702.34a: flashback works from a graveyard; CR 702.35a: madness only as
                # its trigger resolves; nothing lets a card in hand be cast without paying
                raise IllegalAction("invalid_alternative", f"{d.name} can't be cast from a hand with "
                                    f"alternative {alternative!r}")
        elif obj.zone == "graveyard" and obj.owner == player and alternative == "flashback":
            if "flashback" not in card_kws:
                raise IllegalAction("invalid_alternative", f"{d.name} has no flashback")
        elif obj.zone == "exile" and obj.may_cast_free_by == player:
            if alternative != "without_paying":
                raise IllegalAction("invalid_alternative", "cast it with alternative 'without_paying'")
        else:
            raise IllegalAction("not_in_hand", f"{ref} is not in {player}'s hand (or castable from its zone)")
        if ch.is_type(obj, "Land"):
            raise IllegalAction("is_a_land", f"{d.name} is a land: lands are played, not cast (CR 305.9)")
        self.check_can_cast(player, obj, ignore_timing=forced is not None,
                            face_down=alternative == "morph")
        # CR 601.2b: modes, kicker, buyback, alternative cost
        if alternative == "morph":
            if "morph" not in card_kws:
                raise IllegalAction("invalid_alternative", f"{d.name} has no morph: it can't be cast face down (CR 702.37c)")
            spell_ability, modes = {"targets": [], "effects": []}, []
        else:
            spell_ability, modes = self._spell_ability(d, inp.get("modes"))
        kicked = self._kicker_choice(card_kws.get("kicker"), inp.get("kicker"))
        for k in kicked:
            extra = [e for e in (d.spell or {}).get("kicker_effects", ()) if e.get("kicker", 0) == k]
            for e in extra:
                spell_ability = {"targets": list(spell_ability.get("targets", ())) + list(e.get("targets", ())),
                                 "effects": list(spell_ability.get("effects", ())) + list(e.get("effects", ()))}
        buyback = bool(inp.get("buyback"))
        if buyback and "buyback" not in card_kws:
            raise IllegalAction("invalid_alternative", f"{d.name} has no buyback")
        cost = self._total_cost(player, obj, alternative, card_kws, kicked, buyback)
        x = self._x_value(d.mana_cost, inp)
        # CR 601.2c: targets, checked against the card as it will be on the stack
        probe = StackItem(ref=obj.ref, kind="spell", controller=player, ability=spell_ability, obj=obj, x=x, modes=modes,
                          kicked=tuple(kicked))
        if alternative == "morph":
            probe.obj = obj.copy()
            probe.obj.face_down = True
        targets = self.choose_targets(probe, spell_ability.get("targets", ()), inp.get("targets"))
        self.dry_run(lambda g: g.pay_costs(player, {"mana": cost}, inp, x=x, source=None))
        # now the spell is cast
        stack_obj = self.move(obj, "stack", controller=player, face_down=alternative == "morph")
        stack_obj.exile_on_leaving_stack = alternative == "flashback"
        stack_obj.kicked = tuple(kicked)
        if forced == "suspend" and "Creature" in d.types:
            stack_obj.haste_from_suspend = player
        item = StackItem(ref=stack_obj.ref, kind="spell", controller=player, ability=spell_ability, obj=stack_obj,
                         x=x, modes=modes, targets=targets, kicked=tuple(kicked), buyback=buyback,
                         alternative=alternative or forced,
                         cast_in_main_phase=(player == self.active and self.step in MAIN_PHASES))
        self.stack.append(item)
        paid = self.pay_costs(player, {"mana": cost}, inp, x=x, source=None)
        self.spells_cast_this_turn += 1
        extra = {"face_down": True} if stack_obj.face_down else {}
        self.log("spell_cast", player=player, object=item.ref, card=item.card, name=stack_obj.name,
                 targets=[t for t in item.targets if t is not None], modes=modes, x=x, mana_paid=paid, **extra,
                 **({"kicked": list(kicked)} if kicked else {}), **({"buyback": True} if buyback else {}),
                 **({"alternative": item.alternative} if item.alternative else {}))
        storms = 0 if stack_obj.face_down else (
            sum(1 for k in d.keywords if k["keyword"] == "storm") + self.spell_keywords(item).count("storm"))
        for _ in range(storms):  # CR 702.40b: each instance triggers separately
            from .keywords import STORM
            self.add_trigger(stack_obj, "storm", STORM, {"event": "cast_self", "object": stack_obj,
                                                          "storm_count": self.spells_cast_this_turn - 1,
                                                          "spell_lki": item.copy()})
        self.fire_triggers({"event": "spell_cast", "spell": item, "player": player})
        return item

    def spell_keywords(self, item: StackItem) -> list[str]:
        """Keywords static abilities give to spells on the stack (``affected: {"spells":
        filter}``, e.g. "Instant and sorcery spells you cast have storm")."""
        out = []
        for src, eff in ch.static_effects(self):
            spells = eff.get("affected", {}).get("spells") if isinstance(eff.get("affected"), dict) else None
            if eff.get("type") == "grant_keywords" and spells is not None and ch.matches(self, item, spells, src.controller):
                out += [k if isinstance(k, str) else k["keyword"] for k in eff.get("keywords", ())]
        return out

    def check_can_cast(self, player: str, obj: GameObject, ignore_timing: bool = False,
                       face_down: bool = False) -> None:
        """The restrictions on casting ``obj`` now, apart from costs and targets: timing
        (CR 307.1; flash, CR 702.8), split second on the stack (CR 702.61a) and "can't be
        cast" effects (Meddling Mage). Raises IllegalAction."""
        d = obj.definition
        if any(k["keyword"] == "split_second" for it in self.stack if it.kind == "spell" and it.obj is not None
               for k in ch.keywords(self, it.obj)):
            raise IllegalAction("split_second", "a spell with split second is on the stack: no spells can be cast")
        for src, eff in ch.static_effects(self):
            if eff.get("type") == "cant_cast":
                name = src.chosen_name if eff.get("name") == "chosen" else eff.get("name")
                if name is not None and name == d.name and not face_down:
                    raise IllegalAction("cant_cast", f"spells named {name} can't be cast ({src.name})")
        if ignore_timing:
            return
        instant_speed = not face_down and ("Instant" in d.types or any(k["keyword"] == "flash" for k in d.keywords))
        if not instant_speed and not self.sorcery_timing_ok(player):
            raise IllegalAction("sorcery_timing", f"{d.name} can be cast only in your main phase with an empty stack")

    def _kicker_choice(self, kicker: dict | None, chosen: Any) -> list[int]:
        """CR 702.33: which kicker costs the player declares (each at most once)."""
        if not chosen:
            return []
        costs = list((kicker or {}).get("costs", ()))
        if (not isinstance(chosen, list) or len(set(chosen)) != len(chosen)
                or not all(isinstance(i, int) and 0 <= i < len(costs) for i in chosen)):
            raise IllegalAction("invalid_choice", f"kicker: choose among {len(costs)} kicker cost(s), each once (CR 702.33c)")
        return sorted(chosen)

    def _total_cost(self, player: str, obj: GameObject, alternative: Any, kws: dict, kicked: list[int],
                    buyback: bool) -> ManaCost:
        """CR 601.2f: the mana cost or the one alternative cost (flashback, madness, morph's
        {3}, "without paying its mana cost", or one granted by a permanent such as Fist of
        Suns), plus additional costs (kicker, buyback)."""
        d = obj.definition
        as_spell = obj.copy()  # the spell as it will be: controlled by its caster
        as_spell.controller = player
        if alternative is None:
            cost = d.mana_cost
        elif alternative == "flashback":
            cost = ManaCost.parse(kws["flashback"]["cost"])
        elif alternative == "madness":
            cost = ManaCost.parse(kws["madness"]["cost"])
        elif alternative == "morph":
            cost = ManaCost.parse("{3}")
        elif alternative == "without_paying":
            cost = ManaCost.parse("")
        else:
            src = self.find(alternative) if isinstance(alternative, str) else None
            effs = [eff for s, eff in ch.static_effects(self) if s is src and eff.get("type") == "alternative_cost"]
            if src is None or src.controller != player or not effs or not ch.matches(
                    self, as_spell, effs[0].get("filter"), player):
                raise IllegalAction("invalid_alternative", f"no alternative cost {alternative!r} for {d.name}")
            cost = ManaCost.parse(effs[0]["cost"])
        cost = ManaCost(cost.generic, cost.colored, d.mana_cost.x if alternative is None else cost.x, cost.present)
        for k in kicked:
            cost = cost.add(ManaCost.parse(kws["kicker"]["costs"][k]))
        if buyback:
            cost = cost.add(ManaCost.parse(kws["buyback"]["cost"]))
        if not cost.present:
            return cost
        # CR 601.2f: then cost increases, then reductions (generic mana only, not below 0)
        for kind in ("cost_increase", "cost_reduction"):
            for src, eff in ch.static_effects(self):
                if eff.get("type") != kind or not ch.matches(self, as_spell, eff.get("filter"), src.controller, src):
                    continue
                delta = ManaCost.parse(eff["cost"])
                if kind == "cost_increase":
                    cost = cost.add(delta)
                else:
                    cost = ManaCost(max(0, cost.generic - delta.generic), cost.colored, cost.x, cost.present)
        return cost

    def dry_run(self, fn: Any) -> None:
        """Run ``fn(game)`` to check that something would succeed without changing
        anything: the game is restored afterwards whatever happens (``rollback``), events
        logged meanwhile are dropped; there is no input source meanwhile (``fn`` may set
        one). IllegalAction (and any other exception) propagates."""
        saved = rollback.save(self)
        self.inputs = None
        try:
            fn(self)
        finally:
            saved.restore()

    def _spell_ability(self, d: CardDefinition, modes: Any) -> tuple[dict, list]:
        """The spell ability as data: ``{"targets": [...], "effects": [...]}``, with the
        chosen modes' parts concatenated (CR 700.2). Auras target what they enchant
        (CR 303.4a)."""
        if d.enchant is not None:
            return {"targets": [d.enchant], "effects": []}, []
        spell = d.spell or {"targets": [], "effects": []}
        if "modes" in spell:
            choose = spell.get("choose", 1)
            if (not isinstance(modes, list) or len(modes) != choose or len(set(modes)) != choose
                    or not all(isinstance(m, int) and 0 <= m < len(spell["modes"]) for m in modes)):
                raise IllegalAction("invalid_mode", f"choose {choose} of {len(spell['modes'])} modes (0-based)")
            targets, effects = [], []
            for m in sorted(modes):
                targets += list(spell["modes"][m].get("targets", ()))
                effects += list(spell["modes"][m].get("effects", ()))
            return {"targets": targets, "effects": effects}, sorted(modes)
        if modes:
            raise IllegalAction("invalid_mode", f"{d.name} is not modal")
        return spell, []

    def _x_value(self, cost: ManaCost, inp: dict) -> int:
        x = inp.get("x")
        if cost.x:
            if not isinstance(x, int) or isinstance(x, bool) or x < 0:
                raise IllegalAction("invalid_x", "choose X, a whole number 0 or more (CR 107.3a)")
            return x
        if x not in (None, 0):
            raise IllegalAction("invalid_x", "this cost has no X")
        return 0

    def choose_targets(self, item: StackItem, specs: Any, chosen: Any) -> list:
        """CR 601.2c / 602.2b / 603.3d: check the chosen targets against the target specs.
        Returns the list of target refs (player ids for players).
        Raises IllegalAction ``missing_targets`` or ``invalid_target``."""
        specs = [with_x(spec, item.x) for spec in (specs or ())]
        active = [i for i, spec in enumerate(specs) if target_spec_active(spec, item.kicked)]
        chosen = list(chosen or [])
        if len(chosen) != len(active):
            raise IllegalAction("missing_targets", f"{len(active)} target(s) needed, {len(chosen)} given")
        out: list = [None] * len(specs)
        for i, ref in zip(active, chosen):
            spec = specs[i]
            target = self.resolve_target_ref(ref)
            if target is None:
                raise IllegalAction("invalid_target", f"no such object or player {ref!r}")
            source = item.obj if item.kind == "spell" else item.source_lki
            src_for_protection: Any = item if item.kind == "spell" else source
            if not ch.target_kinds_match(self, spec, target, item.controller, src_for_protection):
                raise IllegalAction("invalid_target", f"{ref} is not a legal target for {describe(spec)}")
            if isinstance(target, StackItem) and target is item:
                raise IllegalAction("invalid_target", "a spell can't target itself (CR 115.5)")
            out[i] = target if isinstance(target, str) else target.ref
            for j in spec.get("distinct_from", ()):
                if j < len(out) and out[j] is not None and out[j] == out[i]:
                    raise IllegalAction("invalid_target", f"target {i} must be another object than target {j}")
        return out

    def resolve_target_ref(self, ref: Any) -> Any:
        """A script's target name → a player id, a StackItem or a GameObject (or None)."""
        if not isinstance(ref, str):
            return None
        if ref in self.players:
            return ref
        item = self.find_stack_item(ref)
        if item is not None:
            return item
        return self.find(ref)

    def target_still_legal(self, item: StackItem, spec: Any, ref: str | None) -> bool:
        """CR 608.2b: is a chosen target still legal as the spell or ability resolves?
        (Gone, changed zones, or no longer matching the spec or protection.)"""
        spec = with_x(spec, item.x)
        if ref is None:
            return False
        if ref in self.players:
            return not self.players[ref].lost and ch.target_kinds_match(self, spec, ref, item.controller, item)
        stack_item = next((s for s in self.stack if s.ref == ref), None)
        if stack_item is not None:
            return ch.target_kinds_match(self, spec, stack_item, item.controller, item)
        obj = self.objects.get(ref)
        if obj is None:
            return False
        src: Any = item if item.kind == "spell" else item.source_lki
        return ch.target_kinds_match(self, spec, obj, item.controller, src)

    # ------------------------------------------------------------- costs
    def pay_costs(self, player: str, cost: dict, inp: dict, x: int, source: GameObject | None) -> dict:
        """CR 601.2g–h, 602.2: activate the mana abilities named in ``pay_with`` (an entry
        is a ref or ``{"source", "color", "extra_color"}``: the entry is the activation's
        input, so ``extra_color`` names the color a triggered mana ability adds), then pay
        the cost's parts: ``mana`` (a ManaCost or text), ``tap``, ``untap``,
        ``sacrifice_self``, ``pay_life``, ``discard``. Returns the mana spent.
        Raises IllegalAction ``cannot_pay``, ``invalid_payment``, ``already_tapped``,
        ``summoning_sick``."""
        for entry in inp.get("pay_with") or []:
            ref, color = (entry.get("source"), entry.get("color")) if isinstance(entry, dict) else (entry, None)
            src = self.find(ref) if isinstance(ref, str) else None
            if src is None or src.zone != "battlefield":
                raise IllegalAction("invalid_payment", f"{ref!r} is not a permanent on the battlefield")
            idx = next((i for i, ab in enumerate(ch.abilities(self, src)) if ab.get("kind") == "mana"), None)
            if idx is None:
                raise IllegalAction("invalid_payment", f"{src.name} has no mana ability")
            self.activate_mana_ability(player, src, idx, color, entry if isinstance(entry, dict) else None)
        if cost.get("tap") and source is not None:
            self._pay_tap(source)
        if cost.get("untap") and source is not None:
            if not source.tapped:
                raise IllegalAction("cannot_pay", f"{source.name} is untapped")
            source.tapped = False
            self.log("untapped", object=source.ref, card=source.card)
        mana = cost.get("mana")
        paid: dict = {}
        if mana is not None:
            mc = mana if isinstance(mana, ManaCost) else ManaCost.parse(mana)
            if mc.present or source is None:
                paid = self.players[player].pool.pay(mc.with_x(x), inp.get("mana"))
        if cost.get("pay_life"):
            n = cost["pay_life"]
            if self.players[player].life < n:
                raise IllegalAction("cannot_pay", f"{player} can't pay {n} life (CR 119.4)")
            self.lose_life(player, n)
        if cost.get("discard"):
            cards = inp.get("discard") or []
            if len(cards) != cost["discard"]:
                raise IllegalAction("cannot_pay", f"discard {cost['discard']} card(s): name them in 'discard'")
            for ref in cards:
                self.discard(self._in_hand(player, ref))
        if cost.get("remove_counters") and source is not None:
            rc = cost["remove_counters"]
            n = x if rc.get("count") == "X" else int(rc.get("count", 1))
            if source.counters.get(rc["counter"], 0) < n:
                raise IllegalAction("cannot_pay", f"{source.name} has fewer than {n} {rc['counter']} counters")
            self.remove_counters(source, rc["counter"], n)
        if cost.get("discard_self") and source is not None:
            if source.zone != "hand":
                raise IllegalAction("cannot_pay", f"{source.name} is not in the hand")
            self.discard(source)
        if cost.get("sacrifice_self") and source is not None:
            self.sacrifice(source)
        return paid

    def remove_counters(self, obj: GameObject, kind: str, n: int) -> None:
        """Remove ``n`` counters of ``kind``; removing the last time counter from an exiled
        card with suspend triggers its cast ability, whatever removed it (CR 702.62a)."""
        from .keywords import SUSPEND_CAST
        have = obj.counters.get(kind, 0)
        n = min(n, have)
        if not n:
            return
        obj.counters[kind] = have - n
        if not obj.counters[kind]:
            del obj.counters[kind]
        self.log("counters_removed", object=obj.ref, card=obj.card, counter=kind, count=n)
        if (kind == "time" and have - n == 0 and obj.zone == "exile"
                and any(k["keyword"] == "suspend" for k in obj.chars.keywords)):
            self.add_trigger(obj, "suspend", SUSPEND_CAST, {"event": "last_time_counter_removed", "object": obj})

    def _pay_tap(self, source: GameObject) -> None:
        """CR 302.6 / 602.5a: {T} needs an untapped permanent; a creature's {T} ability needs
        it to be under its controller's control since their most recent turn began, or
        haste."""
        if source.tapped:
            raise IllegalAction("already_tapped", f"{source.name} is already tapped")
        if ch.is_type(source, "Creature") and source.summoning_sick and not ch.has_keyword(self, source, "haste"):
            raise IllegalAction("summoning_sick", f"{source.name} hasn't been under its controller's control "
                                "since the start of their most recent turn")
        self.tap(source)

    # ------------------------------------------------------------ abilities
    def activate(self, player: str, inp: dict) -> None:
        """CR 602: activate an activated ability (it goes on the stack) or a mana ability
        (CR 605: it resolves at once). ``ability`` is the index in the card's abilities, or
        the name of a keyword ability that is activated (``landcycling``, from the hand,
        CR 702.29). Split second forbids all but mana abilities (CR 702.61a).
        Raises IllegalAction."""
        from .keywords import cycling_ability, landcycling_ability
        ref = inp.get("source")
        src = self.find(ref) if isinstance(ref, str) else None
        if src is None:
            raise IllegalAction("unknown_object", f"no object {ref!r}")
        idx = inp.get("ability", 0)
        if idx in ("landcycling", "cycling"):
            kw = next((dict(k) for k in src.chars.keywords if k["keyword"] == idx), None)
            if kw is None:
                raise IllegalAction("no_such_ability", f"{src.name} has no {idx}")
            if src.zone != "hand" or src.owner != player:
                raise IllegalAction("not_in_hand", f"{src.name} is cycled from its owner's hand")
            if any(eff.get("type") == "cant_cycle" for _, eff in ch.static_effects(self)):
                raise IllegalAction("cant_cycle", "players can't cycle cards (CR 702.29e)")
            ab = landcycling_ability(kw) if idx == "landcycling" else cycling_ability(kw)
        else:
            if src.zone != "battlefield":
                raise IllegalAction("not_on_battlefield", f"{src.name} is not on the battlefield")
            if src.controller != player:
                raise IllegalAction("not_controller", f"only {src.controller} can activate {src.name}'s abilities (CR 602.2)")
            abilities = ch.abilities(self, src)
            if (not isinstance(idx, int) or isinstance(idx, bool) or not 0 <= idx < len(abilities)
                    or abilities[idx].get("kind") not in ("activated", "mana")):
                raise IllegalAction("no_such_ability", f"{src.name} has no activated ability {idx!r}")
            ab = abilities[idx]
            if ab["kind"] == "mana":
                self.activate_mana_ability(player, src, idx, inp.get("color"), inp)
                return
        if any(k["keyword"] == "split_second" for it in self.stack if it.kind == "spell" and it.obj is not None
               for k in ch.keywords(self, it.obj)):
            raise IllegalAction("split_second", "a spell with split second is on the stack: only mana abilities "
                                "can be activated")
        if ab.get("timing") == "sorcery" and not self.sorcery_timing_ok(player):
            raise IllegalAction("sorcery_timing", "activate only as a sorcery")
        cost = dict(ab.get("cost", {}))
        x = self._x_value(ManaCost.parse(cost.get("mana", "")), inp)
        item = StackItem(ref=self.next_ref("ability"), kind="ability", controller=player, ability=ab,
                         source=src.ref, source_card=src.card, source_lki=src.copy(),
                         ability_index=idx, x=x)
        item.targets = self.choose_targets(item, ab.get("targets", ()), inp.get("targets"))
        paid = self.pay_costs(player, cost, inp, x=x, source=src)
        self.stack.append(item)
        self.log("ability_activated", player=player, object=item.ref, card=item.ref, source=src.ref,
                 source_card=src.card, ability=idx, targets=item.targets, x=x, mana_paid=paid)
        if ab.get("cycling"):
            self.log("card_cycled", player=player, object=src.ref, card=src.card)
            self.fire_triggers({"event": "cycled", "player": player, "object": src, "cycled_card": src.card})

    def activate_mana_ability(self, player: str, src: GameObject, idx: int, color: Any,
                              inp: dict | None = None) -> None:
        """CR 605.3: a mana ability doesn't use the stack: pay its cost, add the mana now.
        An ability that adds X mana in a combination of colors (storage lands) takes ``x``
        and ``produce`` (``{"W": 1, "U": 2}``) from the input."""
        ab = ch.abilities(self, src)[idx]
        inp = inp or {}
        if src.controller != player:
            raise IllegalAction("not_controller", f"{player} doesn't control {src.name}")
        cost = dict(ab.get("cost", {}))
        add = ab.get("add")
        x = 0
        if isinstance(add, dict) and "combination_of" in add or "remove_counters" in cost:
            x = inp.get("x", 0)
            if not isinstance(x, int) or isinstance(x, bool) or x < 0:
                raise IllegalAction("invalid_x", "choose X, a whole number 0 or more")
        produced = self.mana_produced(add, color, x=x, produce=inp.get("produce"))
        self.log("mana_ability_activated", player=player, source=src.ref, source_card=src.card, ability=idx)
        self.pay_costs(player, cost, inp if "mana" in cost else {}, x=x, source=src)
        self.add_mana(player, produced, src)
        if cost.get("tap"):
            self._triggered_mana_abilities(src, inp)

    def mana_triggers(self) -> list[tuple[GameObject, dict]]:
        """CR 605.1b: the triggered mana abilities on the battlefield that trigger when a
        permanent is tapped for mana, as ``(source permanent, ability)`` pairs (Fertile
        Ground's). :meth:`mana_triggered_by` says which apply to one permanent."""
        out = []
        for perm in self.battlefield:
            for ab in ch.abilities(self, perm):
                if (ab.get("kind") == "triggered" and ab.get("mana_ability")
                        and ab.get("trigger", {}).get("event") == "tapped_for_mana"):
                    out.append((perm, ab))
        return out

    @staticmethod
    def mana_triggered_by(triggers: list[tuple[GameObject, dict]], tapped: GameObject
                          ) -> list[tuple[GameObject, dict, str]]:
        """Of ``triggers`` (:meth:`mana_triggers`), the ``add_mana`` effects that tapping
        ``tapped`` for mana triggers: ``(source permanent, effect, player who adds the
        mana)``. A trigger on ``"enchanted"`` applies only to the permanent its source
        enchants."""
        out = []
        for perm, ab in triggers:
            if ab["trigger"].get("object") == "enchanted" and perm.attached_to != tapped.ref:
                continue
            for eff in ab.get("effects", ()):
                if eff.get("type") == "add_mana":
                    who = tapped.controller if eff.get("player") == "enchanted_controller" else perm.controller
                    out.append((perm, eff, who))
        return out

    def _triggered_mana_abilities(self, tapped: GameObject, inp: dict) -> None:
        """CR 605.1b / 605.4a: triggered mana abilities ("whenever enchanted land is tapped
        for mana, its controller adds …") resolve at once, without the stack. The color of an
        "any color" one is the input's ``extra_color`` (else its ``color``)."""
        for perm, eff, who in self.mana_triggered_by(self.mana_triggers(), tapped):
            mana = eff["mana"]
            try:
                produced = (parse_mana_symbols(mana) if isinstance(mana, str) else
                            self.mana_produced(mana, inp.get("extra_color", inp.get("color"))))
            except IllegalAction as err:
                raise IllegalAction(err.code, f"{perm.name} adds mana of a color of your choice when "
                                    f"{tapped.name} is tapped for mana: name it with 'extra_color' "
                                    f"(W, U, B, R or G)") from None
            self.log("ability_triggered", controller=perm.controller, object=self.next_ref("ability"),
                     source=perm.ref, source_card=perm.card, ability="mana", trigger="tapped_for_mana")
            self.add_mana(who, produced, perm)

    def special_action(self, player: str, inp: dict) -> None:
        """CR 116.2: special actions a player with priority may take: ``suspend`` (CR
        702.62a: pay the suspend cost and exile the card from hand with N time counters, if
        the card could be cast now) and ``turn_face_up`` (CR 702.37e: pay the morph cost of a
        face-down permanent you control). They don't use the stack. Raises IllegalAction."""
        action = inp["action"]
        if action == "suspend":
            obj = self._in_hand(player, inp.get("card"))
            kw = next((dict(k) for k in obj.definition.keywords if k["keyword"] == "suspend"), None)
            if kw is None:
                raise IllegalAction("no_such_ability", f"{obj.name} has no suspend")
            self.check_can_cast(player, obj)
            cost = ManaCost.parse(kw["cost"])
            self.dry_run(lambda g: g.pay_costs(player, {"mana": cost}, inp, x=0, source=None))
            self.log("special_action", player=player, action="suspend", object=obj.ref, card=obj.card)
            paid = self.pay_costs(player, {"mana": cost}, inp, x=0, source=None)
            new = self.move(obj, "exile", cause="suspend")
            new.counters["time"] = kw["time"]
            self.log("counters_added", object=new.ref, card=new.card, counter="time", count=kw["time"])
            self.log("suspended", player=player, object=new.ref, card=new.card, time=kw["time"], mana_paid=paid)
            return
        # turn_face_up
        ref = inp.get("card")
        obj = self.find(ref) if isinstance(ref, str) else None
        if obj is None:
            raise IllegalAction("unknown_object", f"no object {ref!r}")
        if obj.zone != "battlefield" or not obj.face_down:
            raise IllegalAction("not_on_battlefield", f"{ref} is not a face-down permanent (a face-down spell can't be turned up)")
        if obj.controller != player:
            raise IllegalAction("not_controller", f"{player} doesn't control {ref}")
        kw = next((dict(k) for k in obj.definition.keywords if k["keyword"] == "morph"), None)
        if kw is None:
            raise IllegalAction("no_such_ability", f"{obj.card} has no morph cost")
        cost = ManaCost.parse(kw["cost"])
        self.dry_run(lambda g: g.pay_costs(player, {"mana": cost}, inp, x=0, source=None))
        self.log("special_action", player=player, action="turn_face_up", object=obj.ref, card=obj.card)
        self.pay_costs(player, {"mana": cost}, inp, x=0, source=None)
        self.turn_face_up(obj)

    def turn_face_up(self, obj: GameObject) -> None:
        """CR 708.8: the permanent gets its normal characteristics; it is the same object
        (damage, counters, Auras, tapped status stay) and it didn't enter the battlefield,
        so no "enters" ability triggers."""
        obj.face_down = False
        self.log("turned_face_up", object=obj.ref, card=obj.card, name=obj.name)

    def mana_produced(self, add: Any, color: Any, x: int = 0, produce: Any = None) -> dict:
        """What a mana ability's ``add`` produces: ``"{G}"``, ``{"one_of": [...]}``,
        ``{"any_color": n}`` (the ``color`` chosen) or ``{"combination_of": ["W", "U"],
        "amount": "X"}`` (``produce`` says which). Raises IllegalAction ``invalid_choice``."""
        if isinstance(add, str):
            return parse_mana_symbols(add)
        if "combination_of" in add:
            amount = x if add.get("amount") == "X" else int(add.get("amount", 1))
            if (not isinstance(produce, dict) or sum(produce.values()) != amount
                    or any(k not in add["combination_of"] or not isinstance(n, int) or n < 0
                           for k, n in produce.items())):
                raise IllegalAction("invalid_choice", f"produce {amount} mana among {list(add['combination_of'])}")
            return {k: n for k, n in produce.items() if n}
        if "one_of" in add:
            options = [parse_mana_symbols(o) for o in add["one_of"]]
            choice = parse_mana_symbols(f"{{{color}}}") if isinstance(color, str) and len(color) == 1 else None
            if choice not in options:
                raise IllegalAction("invalid_choice", f"choose one of {list(add['one_of'])} with 'color'")
            return choice
        if "any_color" in add:
            if color not in ("W", "U", "B", "R", "G"):
                raise IllegalAction("invalid_choice", "choose a color W, U, B, R or G with 'color'")
            return {color: add["any_color"]}
        raise IllegalAction("invalid_choice", f"unknown mana production {add!r}")

    def add_mana(self, player: str, mana: dict, src: GameObject | None) -> None:
        """CR 106.4: mana goes into the player's mana pool."""
        self.players[player].pool.add(mana)
        self.log("mana_added", player=player, mana=mana, source=src.ref if src else None,
                 card=src.card if src else None)

    # ------------------------------------------------------------ resolving
    def resolve_top(self) -> None:
        """CR 608: resolve the top object of the stack. If it has targets and all are now
        illegal, it doesn't resolve (CR 608.2b); a triggered ability whose intervening "if"
        is now false does nothing (CR 603.4). A resolving instant or sorcery goes to its
        owner's graveyard last (CR 608.2n; buyback: to its owner's hand, CR 702.27a); a
        permanent spell enters the battlefield (CR 608.3); a copy ceases to exist (CR
        707.10a). Casts offered by the resolving ability (suspend, madness) happen as it
        finishes."""
        from . import combat, effects, triggers

        item = self.stack[-1]
        if item.kind == "combat_damage":
            self.stack.pop()
            combat.resolve_combat_damage(self, item)
            return
        specs = list(item.ability.get("targets", ()))
        legal = [self.target_still_legal(item, spec, ref) for spec, ref in zip(specs, item.targets)]
        kind = item.kind
        chosen = [ref for ref in item.targets if ref is not None]
        if chosen and not any(legal):
            self.stack.pop()
            self.log(f"{kind}_countered", object=item.ref, card=item.card, reason="illegal_targets")
            self._leave_stack(item, "graveyard", cause="countered")
            return
        if kind == "ability" and item.source_lki is not None and not triggers.condition_holds(
                self, item.source_lki, item.ability.get("condition")):
            self.stack.pop()
            self.log("ability_removed", object=item.ref, card=item.card, reason="condition_false")
            return
        self.log(f"{kind}_resolved", object=item.ref, card=item.card)
        ctx = effects.Context(self, item, legal)
        if item.ability.get("optional") and not self._yes(item.controller, "optional", item.ref):
            self.log("ability_declined", object=item.ref, card=item.card, player=item.controller)
        else:
            effects.run(ctx, item.ability.get("effects", ()))
        if item in self.stack:
            self.stack.remove(item)
        if item.kind == "spell" and item.obj is not None and item.obj.zone == "stack":
            d = item.obj.definition
            if item.obj.chars.types and any(t in item.obj.chars.types for t in ("Artifact", "Creature",
                                                                                 "Enchantment", "Land",
                                                                                 "Planeswalker", "Battle")):
                self._spell_to_battlefield(item)
            elif item.buyback and self._buyback_applies(item):
                self._leave_stack(item, "hand", cause="buyback")
            else:
                self._leave_stack(item, "graveyard")
        self._offer_pending_casts()

    def _yes(self, player: str, reason: str, about: str) -> bool:
        """A yes/no ``choose`` decision ("you may …", CR 603.5)."""
        def answer(inp: dict) -> bool:
            if inp.get("choice") not in ("yes", "no"):
                raise IllegalAction("invalid_choice", "answer yes or no")
            return inp["choice"] == "yes"
        return self.decide("choose", player, "choose", answer, reason=reason, about=about)

    def _spell_to_battlefield(self, item: StackItem) -> None:
        """CR 608.3: a permanent spell becomes a permanent under its controller's control
        (a face-down spell stays face down, CR 708.4; an Aura attaches to its target)."""
        spell = item.obj
        if spell.is_copy:
            self._leave_stack(item, "battlefield")
            return
        face_down, haste = spell.face_down, spell.haste_from_suspend
        new = self.move(spell, "battlefield", controller=item.controller, face_down=face_down,
                        init={"kicked": item.kicked, "haste_from_suspend": haste})
        if spell.definition.enchant is not None and item.targets and not face_down:
            new.attached_to = self.objects[item.targets[0]].ref if item.targets[0] in self.objects else None
            self.log("attached", object=new.ref, card=new.card, attached_to=new.attached_to)

    def _buyback_applies(self, item: StackItem) -> bool:
        """CR 702.27a: the spell goes to its owner's hand instead of the graveyard. Under
        the 2006 rules the replacement was "into your hand instead of into your graveyard",
        so it did nothing for a spell you control but don't own (``Ruleset.buyback_owner_only``)."""
        if self.rules.buyback_owner_only:
            return item.obj is not None and item.obj.owner == item.controller
        return True

    def _leave_stack(self, item: StackItem, to: str, cause: str | None = None) -> None:
        """Move a spell off the stack; a copy ceases to exist instead (CR 707.10a)."""
        if item in self.stack:
            self.stack.remove(item)
        if item.obj is None:
            return
        if item.obj.is_copy:
            self._copy_ceases_to_exist(item, after="to_hand" if to == "hand" and cause == "buyback" else None)
            return
        self.move(item.obj, to, cause=cause)

    def _copy_ceases_to_exist(self, item: StackItem, after: str | None = None) -> None:
        """CR 707.10a: a copy of a spell that leaves the stack ceases to exist: it is logged
        (``after`` says where it would have gone, e.g. ``to_hand`` for buyback) and
        unregistered, so its reference no longer names an object."""
        self.log("copy_ceased_to_exist", object=item.ref, card=item.card, **({"after": after} if after else {}))
        self.objects.pop(item.ref, None)

    def _offer_pending_casts(self) -> None:
        """Casts that a resolving ability offered (suspend: must cast if able; madness: may
        cast, else the card goes to the graveyard) — CR 702.62a, 702.35a."""
        while self.pending_cast:
            offer = self.pending_cast.pop(0)
            obj = self.find(offer["card"])
            if obj is None or obj.zone != "exile":
                continue
            self._offer_cast(offer, obj)

    def _offer_cast(self, offer: dict, obj: GameObject) -> None:
        player, kind = obj.owner, offer["kind"]
        able = self._could_cast(player, obj, kind)
        if able and kind == "suspend":
            payable = self._payable(player, obj)
            if payable == "never":
                able = False
            # 2006 notes: cast it if able; an extra cost payable from the mana pool must be
            # paid; one payable only by activating mana abilities leaves the choice
            must = self.rules.suspend_cast_mandatory and payable == "pool"
        else:
            must = False
        if not able:  # no decision to make: the card can't be cast now (split second, no targets…)
            self.log("cast_declined", player=player, card=obj.card, reason=f"{kind}_cannot_cast")
            if kind == "madness":
                self.move(obj, "graveyard", cause="madness")
            else:
                obj.counters.pop("time", None)
            return

        def answer(inp: dict) -> bool:
            if inp.get("action") == "choose":
                if inp.get("choice") != "no":
                    raise IllegalAction("invalid_choice", "cast it, or answer choose 'no'")
                if must:
                    raise IllegalAction("invalid_choice", "a suspended card must be cast if able (2006 rules, 502.59a)")
                return False
            if inp.get("action") != "cast":
                raise IllegalAction("wrong_decision", f"{player} may cast {obj.card} now ('cast' or 'choose no')")
            if inp.get("card") not in (obj.card, obj.ref):
                raise IllegalAction("invalid_choice", f"the card to cast is {obj.card}")
            with self.transaction():
                self.cast(player, inp, forced=kind)
            return True

        while True:
            inp = self.ask("may_cast", player, card=obj.card, reason=kind)
            try:
                if inp.get("player", player) != player:
                    raise IllegalAction("wrong_decision", f"it is {player}'s decision")
                cast = answer(inp)
                break
            except IllegalAction as err:
                self.reject(inp, err)
        if not cast:
            self.log("cast_declined", player=player, card=obj.card, reason=kind)
            if kind == "madness":
                self.move(self.find(obj.card), "graveyard", cause="madness")
            else:
                obj.counters.pop("time", None)

    def _payable(self, player: str, obj: GameObject) -> str:
        """Whether the total cost of casting ``obj`` without paying its mana cost (cost
        increases included) can be paid: ``"pool"`` (from the mana pool as it is),
        ``"abilities"`` (only by activating mana abilities of untapped permanents) or
        ``"never"``."""
        kws = {k["keyword"]: dict(k) for k in obj.definition.keywords}
        cost = self._total_cost(player, obj, "without_paying", kws, [], False)
        pool = self.players[player].pool
        try:
            pool.copy().pay(cost)
            return "pool"
        except IllegalAction:
            pass
        sources = sum(1 for p in self.battlefield if p.controller == player and not p.tapped
                      and any(ab.get("kind") == "mana" and ab.get("cost", {}).get("tap") for ab in ch.abilities(self, p)))
        return "abilities" if pool.total() + sources >= cost.mana_value() else "never"

    def _could_cast(self, player: str, obj: GameObject, kind: str) -> bool:
        """Whether casting ``obj`` is possible at all: restrictions (split second, "can't be
        cast") and the existence of legal targets for each target the spell requires."""
        try:
            self.check_can_cast(player, obj, ignore_timing=True)
        except IllegalAction:
            return False
        d = obj.definition
        specs = list(d.spell.get("targets", ())) if d.spell and "targets" in d.spell else (
            [d.enchant] if d.enchant is not None else [])
        probe = StackItem(ref=obj.ref, kind="spell", controller=player, ability={"targets": specs}, obj=obj)
        candidates: list[Any] = list(self.living()) + list(self.battlefield) + list(self.stack)
        return all(any(ch.target_kinds_match(self, spec, c, player, probe) for c in candidates) for spec in specs)

    def counter(self, item: StackItem, to: str = "graveyard", may_cast_free_by: str | None = None) -> None:
        """CR 701.6: a countered spell or ability is removed from the stack; a countered
        spell card goes to its owner's graveyard (or where the effect says, e.g. exile for
        Spelljack, whose controller may then cast it without paying its mana cost)."""
        self.stack.remove(item)
        self.log(f"{item.kind}_countered", object=item.ref, card=item.card, reason="countered")
        if item.obj is not None and not item.obj.is_copy:
            new = self.move(item.obj, to, cause="countered")
            if may_cast_free_by is not None and new.zone == "exile":
                new.may_cast_free_by = may_cast_free_by
        elif item.obj is not None:
            self._copy_ceases_to_exist(item)

    # -------------------------------------------------------- simple actions
    def tap(self, obj: GameObject) -> None:
        obj.tapped = True
        self.log("tapped", object=obj.ref, card=obj.card)

    def untap(self, obj: GameObject) -> None:
        if obj.tapped:
            obj.tapped = False
            self.log("untapped", object=obj.ref, card=obj.card)

    def draw(self, player: str, n: int = 1) -> None:
        """CR 121: draw the top card; drawing from an empty library makes the player lose
        at the next state-based action check (CR 704.5b)."""
        p = self.players[player]
        for _ in range(n):
            if not p.library:
                p.drew_from_empty = True
                self.log("draw_from_empty_library", player=player)
                continue
            top = p.library[0]
            new = self.move(top, "hand")
            self.log("card_drawn", player=player, object=new.ref, card=new.card)

    def discard(self, obj: GameObject) -> None:
        """CR 701.9: put a card from its owner's hand into their graveyard. Madness (CR
        702.35a) replaces that: its owner may exile it instead, and then its madness
        ability triggers; the card was still discarded."""
        from .keywords import MADNESS_CAST
        to = "graveyard"
        if any(k["keyword"] == "madness" for k in obj.definition.keywords):
            to = "exile"
            if self.rules.madness_exile_optional:
                def answer(inp: dict) -> bool:
                    if inp.get("choice") not in ("yes", "no"):
                        raise IllegalAction("invalid_choice", "madness: exile it instead? answer yes or no")
                    return inp["choice"] == "yes"
                if not self.decide("choose", obj.owner, "choose", answer, reason="madness", card=obj.card):
                    to = "graveyard"
        new = self.move(obj, to, cause="discard")
        self.log("card_discarded", player=obj.owner, object=new.ref, card=new.card,
                 **({"madness": True} if to == "exile" else {}))
        self.fire_triggers({"event": "discarded", "player": obj.owner, "object": new})
        if to == "exile":
            self.add_trigger(new, "madness", MADNESS_CAST, {"event": "madness_exiled", "object": new})

    def destroy(self, obj: GameObject, can_regenerate: bool = True) -> None:
        """CR 701.8: move a permanent to its owner's graveyard, unless a regeneration shield
        replaces it (CR 701.19: tap it, remove all damage, remove it from combat)."""
        if obj.zone != "battlefield":
            return
        if obj.regen_shields and can_regenerate:
            obj.regen_shields -= 1
            self.log("regenerated", object=obj.ref, card=obj.card)
            obj.damage = 0
            obj.dealt_deathtouch_damage = False
            if not obj.tapped:
                self.tap(obj)
            if self.combat is not None and self.combat.remove(obj.ref):
                self.log("removed_from_combat", object=obj.ref, card=obj.card)
            return
        self.log("destroyed", object=obj.ref, card=obj.card)
        self.move(obj, "graveyard", cause="destroy")

    def sacrifice(self, obj: GameObject) -> None:
        """CR 701.17: the controller moves it to its owner's graveyard (no regeneration)."""
        self.log("sacrificed", object=obj.ref, card=obj.card)
        self.move(obj, "graveyard", cause="sacrifice")

    def gain_life(self, player: str, n: int) -> None:
        if n <= 0:
            return
        p = self.players[player]
        p.life += n
        self.log("life_gained", player=player, amount=n, life=p.life)

    def lose_life(self, player: str, n: int) -> None:
        if n <= 0:
            return
        p = self.players[player]
        p.life -= n
        self.log("life_lost", player=player, amount=n, life=p.life)

    def deal_damage(self, source: Any, target: Any, amount: int, combat: bool = False) -> int:
        """CR 120: ``source`` (GameObject or StackItem) deals ``amount`` damage to
        ``target`` (a GameObject or a player id). Prevention (CR 615) applies first:
        protection (CR 702.16e), then shields in creation order. Damage to a player causes
        life loss; damage to a creature is marked on it. Returns the damage dealt."""
        if amount <= 0:
            return 0
        src_obj = source.obj or source.source_lki if isinstance(source, StackItem) else source
        src_ref = (source.obj.ref if source.obj else source.source) if isinstance(source, StackItem) else source.ref
        src_card = (source.obj.card if source.obj else source.source_card) if isinstance(source, StackItem) else source.card
        tgt_ref = target if isinstance(target, str) else target.ref
        prevented = 0
        if not isinstance(target, str) and ch.protected_from(self, target, source):
            prevented = amount
        for shield in list(self.shields):
            if prevented >= amount:
                break
            if shield.to != tgt_ref or (shield.source is not None and shield.source != src_ref):
                continue
            n = amount - prevented if shield.amount is None else min(shield.amount, amount - prevented)
            prevented += n
            if shield.amount is not None:
                shield.amount -= n
            if shield.amount == 0 or shield.source is not None:
                self.shields.remove(shield)
        if prevented:
            self.log("damage_prevented", source=src_ref, source_card=src_card, target=tgt_ref, amount=prevented)
        dealt = amount - prevented
        if dealt <= 0:
            return 0
        if isinstance(target, str):
            self.log("damage_dealt", source=src_ref, source_card=src_card, target=target, amount=dealt, combat=combat)
            self.lose_life(target, dealt)
        else:
            target.damage += dealt
            if src_obj is not None and any(k["keyword"] == "deathtouch" for k in ch.keywords(self, src_obj)):
                target.dealt_deathtouch_damage = True
            self.log("damage_dealt", source=src_ref, source_card=src_card, target=target.ref,
                     target_card=target.card, amount=dealt, combat=combat)
        if src_obj is not None and any(k["keyword"] == "lifelink" for k in ch.keywords(self, src_obj)):
            self.gain_life(src_obj.controller or src_obj.owner, dealt)
        self.fire_triggers({"event": "deals_damage", "source": src_ref, "target": target, "combat": combat})
        return dealt

    # ------------------------------------------------------ state-based actions
    def check_state(self) -> bool:
        """CR 704.3: perform every applicable state-based action simultaneously, repeat
        until none apply; return True if any was performed. Implemented: 704.5a (life 0
        or less), 704.5b (drew from an empty library), 704.5d (tokens off the battlefield),
        704.5f (toughness 0 or less), 704.5g (lethal damage), 704.5h (deathtouch damage),
        704.5j (legend rule), 704.5m (Aura attached illegally), 704.5q (+1/+1 and -1/-1
        counters annihilate). Raises GameOver when the game ends (CR 104.2)."""
        any_done = False
        while True:
            done = self._sba_once()
            if not done:
                return any_done
            any_done = True

    def _sba_once(self) -> bool:
        done = False
        losers = []
        for pid in self.order:
            p = self.players[pid]
            if p.lost:
                continue
            if p.life <= 0:
                losers.append((pid, "life", "704.5a"))
            elif p.drew_from_empty:
                losers.append((pid, "empty_library", "704.5b"))
        for pid, reason, rule in losers:
            self.log("state_based_action", rule=rule, player=pid)
            self.players[pid].lost = True
            self.log("player_lost", player=pid, reason=reason)
            done = True
        if losers:
            self.check_game_over()
        # tokens that left the battlefield cease to exist
        for p in self.players.values():
            for zone in ("hand", "library", "graveyard", "exile"):
                for obj in [o for o in p.zone(zone) if o.is_token]:
                    p.zone(zone).remove(obj)
                    del self.objects[obj.ref]
                    self.log("state_based_action", rule="704.5d", object=obj.ref, card=obj.card)
                    self.log("token_ceased_to_exist", object=obj.ref, card=obj.card)
                    done = True
        to_graveyard: list[tuple[GameObject, str, bool]] = []
        for perm in list(self.battlefield):
            if ch.is_type(perm, "Creature"):
                p, t = ch.power_toughness(self, perm)
                if t <= 0:
                    to_graveyard.append((perm, "704.5f", False))
                elif perm.damage >= t and perm.damage > 0:
                    to_graveyard.append((perm, "704.5g", True))
                elif perm.dealt_deathtouch_damage:
                    to_graveyard.append((perm, "704.5h", True))
            if perm.chars.enchant is not None and "Aura" in perm.chars.subtypes:
                host = self.objects.get(perm.attached_to) if perm.attached_to else None
                if not self._aura_can_stay(perm, host):
                    to_graveyard.append((perm, "704.5m", False))
            if perm.counters.get("+1/+1") and perm.counters.get("-1/-1"):
                n = min(perm.counters["+1/+1"], perm.counters["-1/-1"])
                for kind in ("+1/+1", "-1/-1"):
                    perm.counters[kind] -= n
                    if not perm.counters[kind]:
                        del perm.counters[kind]
                self.log("state_based_action", rule="704.5q", object=perm.ref, card=perm.card)
                self.log("counters_removed", object=perm.ref, card=perm.card, counter="+1/+1", count=n)
                self.log("counters_removed", object=perm.ref, card=perm.card, counter="-1/-1", count=n)
                done = True
        seen = set()
        for perm, rule, destroy in to_graveyard:
            if perm.ref in seen:
                continue
            seen.add(perm.ref)
            self.log("state_based_action", rule=rule, object=perm.ref, card=perm.card)
            if destroy or (rule == "704.5m" and self.rules.orphaned_aura_destroyed):
                self.destroy(perm)
            else:
                self.move(perm, "graveyard", cause="state_based_action")
            done = True
        done |= self._legend_rule()
        return done

    def _aura_can_stay(self, aura: GameObject, host: GameObject | None) -> bool:
        """CR 303.4d/704.5m: an Aura stays while attached to an object it could enchant;
        "enchant" is not targeting, so only the enchant restriction and protection count
        (shroud doesn't)."""
        if host is None or host.zone != "battlefield":
            return False
        spec = aura.chars.enchant
        kind = spec.get("kind", "permanent")
        type_for_kind = {"creature": "Creature", "land": "Land", "artifact": "Artifact", "enchantment": "Enchantment"}
        if kind in type_for_kind and not ch.is_type(host, type_for_kind[kind]):
            return False
        if not ch.matches(self, host, spec.get("filter"), aura.controller, aura):
            return False
        return not ch.protected_from(self, host, aura)

    def _legend_rule(self) -> bool:
        """The legend rule, by ruleset (``Ruleset.legend_rule``): ``choose`` (CR 704.5j: a
        player who controls two or more legendary permanents with the same name chooses one
        and puts the rest into their owners' graveyards), ``all_die`` (2006: all of them,
        whoever controls them) or ``newest_dies`` (1999: the one that came into play last)."""
        if self.rules.legend_rule == "choose":
            return self._legend_rule_choose()
        names: dict[str, list[GameObject]] = {}
        for perm in self.battlefield:
            legend = "Legendary" in perm.chars.supertypes
            if self.rules.legend_rule == "newest_dies":
                # 1999: "Leggenda" is a creature type (today's legendary creatures were Legends)
                legend = ch.is_type(perm, "Creature") and (legend or "Legend" in perm.chars.subtypes)
            if legend and perm.name is not None:
                names.setdefault(perm.name, []).append(perm)
        done = False
        rule = "420.5e" if self.rules.legend_rule == "all_die" else "legend-1999"
        for name, perms in sorted(names.items()):
            if len(perms) < 2:
                continue
            doomed = perms if self.rules.legend_rule == "all_die" else sorted(perms, key=lambda o: o.timestamp)[1:]
            for perm in doomed:
                self.log("state_based_action", rule=rule, object=perm.ref, card=perm.card)
                self.move(perm, "graveyard", cause="state_based_action")
            done = True
        return done

    def _legend_rule_choose(self) -> bool:
        done = False
        for pid in self.apnap():
            names: dict[str, list[GameObject]] = {}
            for perm in self.battlefield:
                if perm.controller == pid and "Legendary" in perm.chars.supertypes:
                    names.setdefault(perm.name, []).append(perm)
            for name, perms in sorted(names.items()):
                if len(perms) < 2:
                    continue
                refs = [p.ref for p in perms]

                def keep(inp: dict, refs: list = refs) -> GameObject:
                    obj = self.find(inp.get("choice")) if isinstance(inp.get("choice"), str) else None
                    if obj is None or obj.ref not in refs:
                        raise IllegalAction("invalid_choice", f"choose one of {refs} to keep (CR 704.5j)")
                    return obj

                kept = self.decide("choose", pid, "choose", keep, reason="legend_rule", options=refs)
                for perm in perms:
                    if perm is not kept:
                        self.log("state_based_action", rule="704.5j", object=perm.ref, card=perm.card)
                        self.move(perm, "graveyard", cause="state_based_action")
                done = True
        return done

    def check_game_over(self) -> None:
        """CR 104.2a/104.4a: the last player standing wins; if all remaining players lose
        simultaneously, the game is a draw. Raises GameOver when the game has ended."""
        living = self.living()
        if len(living) > 1:
            return
        losers = [p for p in self.order if self.players[p].lost]
        self.over = True
        self.result = {"winners": living, "losers": losers, "draw": not living}
        self.log("game_ended", winners=living, losers=losers, draw=not living)
        # CR 708.9: face-down spells and permanents are revealed when the game ends
        for obj in [it.obj for it in self.stack if it.obj is not None] + list(self.battlefield):
            if obj.face_down:
                self.log("card_revealed", player=obj.owner, object=obj.ref, card=obj.card, name=obj.definition.name)
        raise GameOver()

    # ----------------------------------------------------------- triggers
    def fire_triggers(self, event: dict, lki: list[GameObject] | None = None) -> None:
        """CR 603.2: check every triggered ability of permanents on the battlefield (and,
        for leaves-the-battlefield events, of the objects that left, CR 603.10a; for the
        beginning of a step, of suspended cards in exile, CR 702.62a) against the event.
        Each one that triggers, and whose intervening "if" holds (CR 603.4), waits in
        ``pending_triggers`` until a player would receive priority."""
        from . import keywords as kw
        from . import triggers

        sources = list(self.battlefield) + [o for o in (lki or []) if o not in self.battlefield]
        candidates = [(src, key, ab) for src in sources for key, ab in ch.triggered_abilities(self, src)
                      if ab.get("zone", "battlefield") == "battlefield" and not ab.get("mana_ability")]
        for pid in self.order:
            for obj in self.players[pid].exile:
                # abilities that work in exile (CR 113.6b): suspend's upkeep trigger, and
                # printed ones marked "zone": "exile"
                candidates += [(obj, i, ab) for i, ab in enumerate(obj.chars.abilities)
                               if ab.get("kind") == "triggered" and ab.get("zone") == "exile"]
                if event["event"] == "beginning_of_step":
                    candidates += [(obj, key, ab) for key, ab in kw.exile_triggered_from_keywords(
                        [dict(k) for k in obj.chars.keywords])]
        for src, key, ab in candidates:
            if triggers.matches(self, src, ab["trigger"], event) and triggers.condition_holds(
                    self, src, ab.get("condition")):
                self.add_trigger(src, key, ab, event)

    def add_trigger(self, src: GameObject, key: Any, ab: Any, event: dict) -> None:
        """Record that ability ``ab`` (printed index or keyword name ``key``) of ``src``
        triggered on ``event``; logged as ``ability_triggered``."""
        from . import triggers
        ref = self.next_ref("ability")
        controller = src.controller or src.owner
        info = triggers.event_info(event)
        self.pending_triggers.append({"ref": ref, "source": src.copy(), "ability": ab,
                                      "index": key, "controller": controller, "event": info})
        self.log("ability_triggered", controller=controller, object=ref, source=src.ref,
                 source_card=src.card, ability=key, trigger=ab["trigger"]["event"])

    def put_triggers_on_stack(self) -> None:
        """CR 603.3b: the active player puts their triggered abilities on the stack in the
        order they choose, then each other player in turn order; targets are chosen as each
        is put on the stack (CR 603.3d), and one with no legal target is removed."""
        pending, self.pending_triggers = self.pending_triggers, []
        for pid in self.apnap():
            mine = [t for t in pending if t["controller"] == pid]
            if len(mine) > 1:
                mine = self.decide("order_triggers", pid, "order_triggers",
                                   lambda inp, mine=mine: self._trigger_order(inp, mine),
                                   options=[t["ref"] for t in mine])
            for t in mine:
                item = StackItem(ref=t["ref"], kind="ability", controller=pid, ability=t["ability"],
                                 source=t["source"].ref, source_card=t["source"].card, source_lki=t["source"],
                                 ability_index=t["index"], trigger_event=t["event"])
                specs = list(t["ability"].get("targets", ()))
                if specs:
                    if not self._any_legal_targets(item, specs):
                        self.log("ability_removed", object=item.ref, card=item.ref, reason="no_legal_targets")
                        continue
                    item.targets = self.decide("choose_targets", pid, "choose_targets",
                                               lambda inp, item=item, specs=specs:
                                               self.choose_targets(item, specs, inp.get("targets")),
                                               ability=item.ref)
                self.stack.append(item)
                self.log("ability_put_on_stack", controller=pid, object=item.ref, card=item.ref,
                         source=item.source, targets=item.targets)

    def _trigger_order(self, inp: dict, mine: list[dict]) -> list[dict]:
        order = inp.get("order")
        if not isinstance(order, list) or len(order) != len(mine):
            raise IllegalAction("invalid_order", f"order all {len(mine)} triggers")
        left = list(mine)
        out = []
        for ref in order:
            t = next((t for t in left if t["ref"] == ref), None) or next(
                (t for t in left if t["source"].card == ref or t["source"].ref == ref), None)
            if t is None:
                raise IllegalAction("invalid_order", f"{ref!r} is not one of the pending triggers")
            left.remove(t)
            out.append(t)
        return out

    def _any_legal_targets(self, item: StackItem, specs: list) -> bool:
        candidates: list[Any] = list(self.living()) + list(self.battlefield) + list(self.stack)
        return all(any(ch.target_kinds_match(self, spec, c, item.controller, item.source_lki) for c in candidates)
                   for spec in specs)

    # ------------------------------------------------------------- combat
    def combat_attackers(self) -> set:
        return set(self.combat.attackers) if self.combat is not None else set()

    def combat_blockers(self) -> set:
        return set(self.combat.blockers) if self.combat is not None else set()

    # -------------------------------------------------------------- state
    def state(self) -> dict:
        """The observable state (docs/FORMAT.md §4)."""
        from .state import snapshot
        return snapshot(self)
