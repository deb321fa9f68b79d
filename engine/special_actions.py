"""Special actions a player with priority takes without the stack: playing a land,
suspending a card, turning a face-down permanent face up (CR 116, 305, 702.62a, 702.37e,
708.8)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from . import adventure, library_top
from . import characteristics as ch
from .errors import IllegalAction
from .mana import ManaCost
from .objects import GameObject

if TYPE_CHECKING:
    from .game import Game


class SpecialActions:
    """Special actions (a mixin of :class:`~.game.Game`)."""

    def play_land(self: Game, player: str, inp: dict[str, Any]) -> None:
        """CR 305.1–305.2: a special action; main phase, empty stack, own turn, one per turn.
        Raises IllegalAction (``not_in_hand``, ``not_a_land``, ``sorcery_timing``,
        ``land_already_played``)."""
        # a land card on an adventure may be played from exile (CR 715.3d; engine/adventure.py)
        # and the top card of the library with a static play_from_library_top (engine/library_top.py)
        obj = (adventure.land_in_exile(self, player, inp.get("card")) or library_top.land(self, player, inp.get("card"))
               or self._in_hand(player, inp.get("card")))
        if not ch.is_type(obj, "Land"):
            raise IllegalAction("not_a_land", f"{obj.name} is not a land")
        if not self.sorcery_timing_ok(player):
            raise IllegalAction("sorcery_timing", "a land is played only in your main phase with an empty stack")
        if self.players[player].lands_played >= 1:
            raise IllegalAction("land_already_played", f"{player} has already played a land this turn")
        self.players[player].lands_played += 1
        new = self.move(obj, "battlefield", controller=player)
        self.log("land_played", player=player, object=new.ref, card=new.card)

    def special_action(self: Game, player: str, inp: dict[str, Any]) -> None:
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
        perm = self.find(ref) if isinstance(ref, str) else None
        if perm is None:
            raise IllegalAction("unknown_object", f"no object {ref!r}")
        if perm.zone != "battlefield" or not perm.face_down:
            raise IllegalAction("not_on_battlefield", f"{ref} is not a face-down permanent (a face-down spell can't be turned up)")
        if perm.controller != player:
            raise IllegalAction("not_controller", f"{player} doesn't control {ref}")
        kw = next((dict(k) for k in perm.definition.keywords if k["keyword"] == "morph"), None)
        if kw is None:
            raise IllegalAction("no_such_ability", f"{perm.card} has no morph cost")
        cost = ManaCost.parse(kw["cost"])
        self.dry_run(lambda g: g.pay_costs(player, {"mana": cost}, inp, x=0, source=None))
        self.log("special_action", player=player, action="turn_face_up", object=perm.ref, card=perm.card)
        self.pay_costs(player, {"mana": cost}, inp, x=0, source=None)
        self.turn_face_up(perm)

    def turn_face_up(self: Game, obj: GameObject) -> None:
        """CR 708.8: the permanent gets its normal characteristics; it is the same object
        (damage, counters, Auras, tapped status stay) and it didn't enter the battlefield,
        so no "enters" ability triggers."""
        obj.face_down = False
        self.log("turned_face_up", object=obj.ref, card=obj.card, name=obj.name)
